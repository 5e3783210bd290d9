//! How the adapters tell an SDK error.

/// An SDK error with its whole cause chain (the service's code and message included).
pub(crate) fn cause(err: &(dyn std::error::Error + 'static)) -> String {
    format!("{}", aws_sdk_dynamodb::error::DisplayErrorContext(err))
}
