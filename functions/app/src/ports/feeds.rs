//! The port of a data source's queues (Amazon SQS on both deployments: the embedded server
//! reads the operator's queues itself; on AWS the queues trigger a function instead).

use async_trait::async_trait;
use chrono::{DateTime, Utc};

/// How to reach a source's queues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueAccess {
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
}

/// One message received from a queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueMessage {
    pub message_id: String,
    /// What deletes it (valid for this receipt only).
    pub receipt_handle: String,
    pub body: String,
    /// SQS `SentTimestamp`.
    pub sent_at: Option<DateTime<Utc>>,
}

/// A queue call that failed (the network, the credentials, the queue).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct FeedError(pub String);

/// A data source's queues.
#[async_trait]
pub trait FeedQueues: Send + Sync {
    /// Up to 10 messages of the queue at `url`, waiting up to `wait_secs` (0–20) for the first
    /// (long polling). A received message is hidden from other readers for the queue's
    /// visibility timeout; not deleted, it comes again.
    async fn receive(
        &self,
        access: &QueueAccess,
        url: &str,
        wait_secs: u32,
    ) -> Result<Vec<QueueMessage>, FeedError>;

    /// Deletes received messages (by their receipt handles), up to 10.
    async fn delete(
        &self,
        access: &QueueAccess,
        url: &str,
        receipt_handles: &[String],
    ) -> Result<(), FeedError>;
}
