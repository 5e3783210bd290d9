//! The job queue port: at-least-once delivery with a visibility timeout and a dead-letter queue.

use async_trait::async_trait;
use std::time::Duration;

/// A claimed job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Stable id of the job (the same on every delivery).
    pub id: String,
    /// Handle for ack / retry of this delivery.
    pub receipt: String,
    pub payload: String,
    /// How many times the job has been delivered, this delivery included.
    pub attempts: u32,
}

/// Why a queue call failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum QueueError {
    /// The receipt is unknown or no longer valid.
    #[error("unknown or expired receipt")]
    InvalidReceipt,
    /// The backend failed.
    #[error("queue backend: {0}")]
    Backend(String),
}

/// The job queue.
#[async_trait]
pub trait JobQueue: Send + Sync {
    /// Adds a job; returns its id.
    async fn enqueue(&self, payload: &str) -> Result<String, QueueError>;
    /// Claims the next visible job, hiding it for `visibility`. A job delivered more than the
    /// queue's maximum number of times goes to the dead-letter queue instead of being returned.
    async fn claim(&self, visibility: Duration) -> Result<Option<Job>, QueueError>;
    /// Removes a job for good after it was handled.
    async fn ack(&self, receipt: &str) -> Result<(), QueueError>;
    /// Gives a job back to be delivered again after `delay`.
    async fn retry(&self, receipt: &str, delay: Duration) -> Result<(), QueueError>;
    /// Moves a delivered job to the dead-letter queue at once: it failed for good (its record
    /// says why); operators find it there with the others.
    async fn bury(&self, job: &Job) -> Result<(), QueueError>;
    /// Payloads of the jobs in the dead-letter queue (for operators and tests).
    async fn dead_letters(&self) -> Result<Vec<String>, QueueError>;
}
