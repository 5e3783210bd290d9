//! The application error: what went wrong, in terms the HTTP edge maps to statuses.

use crate::ports::{BlobError, QueueError, StoreError};
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
    /// Too many attempts (429).
    #[error("{message}")]
    RateLimited {
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
        let mut names: Vec<String> = names.into_iter().collect();
        let more = names.len().saturating_sub(10);
        names.truncate(10);
        let list = names.join(", ");
        let message = match (list.is_empty(), more > 0, hidden) {
            (true, _, _) => format!("{label} \"{name}\" is used by {what} outside your access"),
            (false, true, true) => format!(
                "{label} \"{name}\" is used by {what}: {list}, {more} more and others outside your access"
            ),
            (false, true, false) => {
                format!("{label} \"{name}\" is used by {what}: {list} and {more} more")
            }
            (false, false, true) => format!(
                "{label} \"{name}\" is used by {what}: {list} and others outside your access"
            ),
            (false, false, false) => format!("{label} \"{name}\" is used by {what}: {list}"),
        };
        AppError::conflict(message)
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

/// Result of an application service.
pub type AppResult<T> = Result<T, AppError>;
