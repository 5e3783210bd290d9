//! The application error: what went wrong, in terms the HTTP edge maps to statuses.

use crate::ports::{BlobError, MailError, QueueError, ScheduleError, StoreError};
use vendfleet_domain::FieldErrors;

/// An application service failure.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Input failed validation (400 with per-field messages).
    #[error("{message}")]
    Validation {
        message: String,
        errors: FieldErrors,
    },
    /// No or bad credentials (401).
    #[error("{0}")]
    Unauthorized(String),
    /// Signed in but not allowed (403).
    #[error("{0}")]
    Forbidden(String),
    /// Beyond the caller's reach (403), with the fields that reach too far.
    #[error("{message}")]
    OutOfReach {
        message: String,
        errors: FieldErrors,
    },
    /// Missing or outside the caller's scope (404).
    #[error("{0}")]
    NotFound(String),
    /// Conflicts with the current state (409), optionally with field messages.
    #[error("{message}")]
    Conflict {
        message: String,
        errors: FieldErrors,
    },
    /// The request body is too large (413).
    #[error("{0}")]
    TooLarge(String),
    /// Too many attempts (429).
    #[error("{message}")]
    RateLimited {
        message: String,
        retry_after_secs: u64,
    },
    /// Cannot be done now; the same request later can (503 with `Retry-After`).
    #[error("{message}")]
    Unavailable {
        message: String,
        retry_after_secs: u64,
    },
    /// An internal failure: logged with its cause, answered with a generic message.
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// A 400 with field errors and the standard message.
    pub fn invalid(errors: FieldErrors) -> Self {
        AppError::Validation {
            message: "Invalid input".into(),
            errors,
        }
    }

    /// A 400 on one field.
    pub fn invalid_field(field: &str, message: &str) -> Self {
        AppError::invalid(FieldErrors::single(field, message))
    }

    /// A 409 with a message only.
    pub fn conflict(message: impl Into<String>) -> Self {
        AppError::Conflict {
            message: message.into(),
            errors: FieldErrors::new(),
        }
    }

    /// The 409 naming what still uses a record: `users` yields each user's name, or `None` for
    /// one outside the caller's machine access, which is neither named nor counted.
    pub fn in_use(
        label: &str,
        name: &str,
        what: &str,
        users: impl Iterator<Item = Option<String>>,
    ) -> Self {
        let mut hidden = false;
        let mut names = std::collections::BTreeSet::new();
        for u in users {
            match u {
                Some(n) => {
                    names.insert(n);
                }
                None => hidden = true,
            }
        }
        let head = format!("{label} \"{name}\" is used by {what}");
        if names.is_empty() {
            return AppError::conflict(format!("{head} outside your access"));
        }
        // "A, B", then "N more" and "others outside your access", the last joined by "and".
        let mut list = names
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = names.len().saturating_sub(10);
        let mut extras: Vec<String> = Vec::new();
        if more > 0 {
            extras.push(format!("{more} more"));
        }
        if hidden {
            extras.push("others outside your access".into());
        }
        if let Some(last) = extras.pop() {
            for e in extras {
                list.push_str(&format!(", {e}"));
            }
            list.push_str(&format!(" and {last}"));
        }
        AppError::conflict(format!("{head}: {list}"))
    }

    /// The 409 for a stale `version`.
    pub fn stale() -> Self {
        AppError::conflict("This record was changed by someone else. Reload it and try again.")
    }
}

impl From<FieldErrors> for AppError {
    fn from(errors: FieldErrors) -> Self {
        AppError::invalid(errors)
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        AppError::Internal(e.to_string())
    }
}

impl From<BlobError> for AppError {
    fn from(e: BlobError) -> Self {
        AppError::Internal(e.to_string())
    }
}

impl From<QueueError> for AppError {
    fn from(e: QueueError) -> Self {
        AppError::Internal(e.to_string())
    }
}

impl From<MailError> for AppError {
    fn from(e: MailError) -> Self {
        AppError::Internal(e.to_string())
    }
}

impl From<ScheduleError> for AppError {
    fn from(e: ScheduleError) -> Self {
        AppError::Internal(e.to_string())
    }
}

/// Result of an application service.
pub type AppResult<T> = Result<T, AppError>;

#[cfg(test)]
mod tests {
    use super::AppError;

    fn text(users: Vec<Option<&str>>) -> String {
        AppError::in_use(
            "Model",
            "Kikko",
            "machines",
            users.into_iter().map(|u| u.map(String::from)),
        )
        .to_string()
    }

    #[test]
    fn in_use_names_only_what_the_caller_sees() {
        assert_eq!(
            text(vec![Some("B"), Some("A"), Some("A")]),
            "Model \"Kikko\" is used by machines: A, B"
        );
        assert_eq!(
            text(vec![Some("A"), None]),
            "Model \"Kikko\" is used by machines: A and others outside your access"
        );
        assert_eq!(
            text(vec![None, None]),
            "Model \"Kikko\" is used by machines outside your access"
        );
        let twelve: Vec<String> = (10..22).map(|i| format!("M{i}")).collect();
        let many = |hidden: bool| {
            let mut v: Vec<Option<&str>> = twelve.iter().map(|s| Some(s.as_str())).collect();
            if hidden {
                v.push(None);
            }
            text(v)
        };
        assert!(
            many(false).ends_with("M18, M19 and 2 more"),
            "{}",
            many(false)
        );
        assert!(
            many(true).ends_with("M19, 2 more and others outside your access"),
            "{}",
            many(true)
        );
    }
}
