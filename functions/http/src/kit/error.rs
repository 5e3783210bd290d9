//! The one mapping from failures to HTTP answers: `{"message", "errors"}` with a proper status.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use vendfleet_app::AppError;
use vendfleet_domain::FieldErrors;

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for people.
    pub message: String,
    /// Messages per field of the request when the input was at fault; empty otherwise.
    pub errors: BTreeMap<String, Vec<String>>,
}

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: ErrorBody,
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An answer with a status and a message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: ErrorBody {
                message: message.into(),
                errors: BTreeMap::new(),
            },
            retry_after: None,
        }
    }

    /// A 400 with field messages.
    pub fn fields(message: impl Into<String>, errors: FieldErrors) -> Self {
        let mut e = ApiError::new(StatusCode::BAD_REQUEST, message);
        e.body.errors = errors.0;
        e
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::Validation { message, errors } => ApiError::fields(message, errors),
            AppError::Unauthorized(m) => ApiError::new(StatusCode::UNAUTHORIZED, m),
            AppError::Forbidden(m) => ApiError::new(StatusCode::FORBIDDEN, m),
            AppError::OutOfReach { message, errors } => {
                let mut e = ApiError::new(StatusCode::FORBIDDEN, message);
                e.body.errors = errors.0;
                e
            }
            AppError::NotFound(m) => ApiError::new(StatusCode::NOT_FOUND, m),
            AppError::TooLarge(m) => ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, m),
            AppError::Conflict { message, errors } => {
                let mut e = ApiError::new(StatusCode::CONFLICT, message);
                e.body.errors = errors.0;
                e
            }
            AppError::RateLimited {
                message,
                retry_after_secs,
            } => {
                let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, message);
                e.retry_after = Some(retry_after_secs);
                e
            }
            AppError::Unavailable {
                message,
                retry_after_secs,
            } => {
                let mut e = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message);
                e.retry_after = Some(retry_after_secs);
                e
            }
            AppError::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong")
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (self.status, axum::Json(self.body)).into_response();
        if let Some(secs) = self.retry_after {
            if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                res.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        res
    }
}

/// Result of a handler.
pub type ApiResult<T> = Result<T, ApiError>;
