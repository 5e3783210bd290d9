//! The job queue on an SQS standard queue whose redrive policy moves a message to a
//! dead-letter queue after the maximum number of receives.

use crate::error::cause;
use async_trait::async_trait;
use aws_sdk_sqs::error::SdkError;
use aws_sdk_sqs::types::MessageSystemAttributeName;
use aws_sdk_sqs::Client;
use std::collections::HashSet;
use std::time::Duration;
use vendfleet_app::ports::{Job, JobQueue, QueueError};

/// Longest visibility timeout SQS accepts, seconds.
const MAX_VISIBILITY_SECS: u64 = 43_200;
/// Receives of a message before SQS moves it to the dead-letter queue (the redrive policy).
pub const MAX_RECEIVE_COUNT: u32 = 5;
/// Rounds of peeking at the dead-letter queue before `dead_letters` stops.
const PEEK_ROUNDS: usize = 100;

/// [`JobQueue`] on an SQS queue and its dead-letter queue.
#[derive(Debug, Clone)]
pub struct SqsJobQueue {
    client: Client,
    queue_url: String,
    dead_letter_queue_url: String,
    wait: Duration,
}

impl SqsJobQueue {
    /// A queue at `queue_url` whose redrive policy targets `dead_letter_queue_url`.
    pub fn new(
        client: Client,
        queue_url: impl Into<String>,
        dead_letter_queue_url: impl Into<String>,
    ) -> Self {
        SqsJobQueue {
            client,
            queue_url: queue_url.into(),
            dead_letter_queue_url: dead_letter_queue_url.into(),
            wait: Duration::from_secs(1),
        }
    }

    /// How long `claim` waits for a job when none is visible (long polling; default 1 s, at
    /// most 20 s). A short wait rather than none: short polling samples only some SQS servers
    /// and may answer "empty" while jobs are waiting.
    pub fn with_wait(mut self, wait: Duration) -> Self {
        self.wait = wait.min(Duration::from_secs(20));
        self
    }
}

/// Whole seconds, rounded up, within SQS's limit.
fn secs(d: Duration) -> i32 {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    // Bounded by MAX_VISIBILITY_SECS, so it fits.
    s.min(MAX_VISIBILITY_SECS) as i32
}

fn backend(err: impl std::error::Error + 'static) -> QueueError {
    QueueError::Backend(cause(&err))
}

/// Error codes SQS gives for a receipt handle it does not accept.
fn is_bad_receipt<E: aws_sdk_sqs::error::ProvideErrorMetadata>(err: &SdkError<E>) -> bool {
    err.as_service_error().is_some_and(|e| {
        matches!(
            e.code(),
            Some(
                "ReceiptHandleIsInvalid"
                    | "AWS.SimpleQueueService.ReceiptHandleIsInvalid"
                    | "InvalidIdFormat"
                    | "MessageNotInflight"
                    | "AWS.SimpleQueueService.MessageNotInflight"
            )
        )
    })
}

#[async_trait]
impl JobQueue for SqsJobQueue {
    async fn enqueue(&self, payload: &str) -> Result<String, QueueError> {
        let out = self
            .client
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(payload)
            .send()
            .await
            .map_err(backend)?;
        out.message_id
            .ok_or_else(|| QueueError::Backend("SendMessage returned no message id".into()))
    }

    async fn claim(&self, visibility: Duration) -> Result<Option<Job>, QueueError> {
        let out = self
            .client
            .receive_message()
            .queue_url(&self.queue_url)
            .max_number_of_messages(1)
            .visibility_timeout(secs(visibility))
            .wait_time_seconds(secs(self.wait))
            .message_system_attribute_names(MessageSystemAttributeName::ApproximateReceiveCount)
            .send()
            .await
            .map_err(backend)?;
        let Some(message) = out.messages.unwrap_or_default().into_iter().next() else {
            return Ok(None);
        };
        let attempts = message
            .attributes
            .as_ref()
            .and_then(|a| a.get(&MessageSystemAttributeName::ApproximateReceiveCount))
            .and_then(|c| c.parse().ok())
            .unwrap_or(1);
        match (message.message_id, message.receipt_handle) {
            (Some(id), Some(receipt)) => Ok(Some(Job {
                id,
                receipt,
                payload: message.body.unwrap_or_default(),
                attempts,
            })),
            _ => Err(QueueError::Backend(
                "ReceiveMessage returned a message without id or receipt".into(),
            )),
        }
    }

    async fn ack(&self, receipt: &str) -> Result<(), QueueError> {
        match self
            .client
            .delete_message()
            .queue_url(&self.queue_url)
            .receipt_handle(receipt)
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if is_bad_receipt(&e) => Err(QueueError::InvalidReceipt),
            Err(e) => Err(backend(e)),
        }
    }

    async fn retry(&self, receipt: &str, delay: Duration) -> Result<(), QueueError> {
        match self
            .client
            .change_message_visibility()
            .queue_url(&self.queue_url)
            .receipt_handle(receipt)
            .visibility_timeout(secs(delay))
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(e) if is_bad_receipt(&e) => Err(QueueError::InvalidReceipt),
            Err(e) => Err(backend(e)),
        }
    }

    async fn bury(&self, job: &Job) -> Result<(), QueueError> {
        // Into the dead-letter queue first: a failure between the two calls leaves the job in
        // both (found twice), never in neither.
        self.client
            .send_message()
            .queue_url(&self.dead_letter_queue_url)
            .message_body(&job.payload)
            .send()
            .await
            .map_err(backend)?;
        self.ack(&job.receipt).await
    }

    async fn dead_letters(&self) -> Result<Vec<String>, QueueError> {
        // Peek: receive with visibility 0 so the messages stay available, until a round brings
        // nothing not seen before.
        let mut seen = HashSet::new();
        let mut bodies = Vec::new();
        for _ in 0..PEEK_ROUNDS {
            let out = self
                .client
                .receive_message()
                .queue_url(&self.dead_letter_queue_url)
                .max_number_of_messages(10)
                .visibility_timeout(0)
                .wait_time_seconds(0)
                .send()
                .await
                .map_err(backend)?;
            let mut new = false;
            for message in out.messages.unwrap_or_default() {
                let id = message.message_id.unwrap_or_default();
                if seen.insert(id) {
                    new = true;
                    bodies.push(message.body.unwrap_or_default());
                }
            }
            if !new {
                break;
            }
        }
        Ok(bodies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visibility_is_whole_seconds_rounded_up_and_capped() {
        assert_eq!(secs(Duration::ZERO), 0);
        assert_eq!(secs(Duration::from_millis(1)), 1);
        assert_eq!(secs(Duration::from_secs(60)), 60);
        assert_eq!(secs(Duration::from_secs(1_000_000)), 43_200);
    }
}
