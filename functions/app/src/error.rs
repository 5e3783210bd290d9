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
