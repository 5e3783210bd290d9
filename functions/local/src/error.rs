//! The CLI's error: any error, sent across threads.

/// Any error of a command.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;
