//! The embedded server's reading of the sources' queues: long polling, each message taken
//! (booked exactly once, or kept) before it is deleted; a failed read waits and tries again.

use super::DataSourcesService;
use crate::data_sources::model::{DataSource, FeedReader, Incoming};
use crate::error::AppResult;
use crate::ports::{FeedError, FeedQueues, QueueAccess};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use vendfleet_domain::nayax::Feed;

/// How often the running pollers are matched to the sources (added, changed, removed).
const REFRESH: Duration = Duration::from_secs(10);

/// The pause after the `n`-th failure in a row: 1 s doubling up to a minute.
fn backoff(n: u32) -> Duration {
    Duration::from_secs(1u64 << n.min(6)).min(Duration::from_secs(60))
}

fn access_of(source: &DataSource) -> QueueAccess {
    QueueAccess {
        region: source.region.clone(),
        access_key_id: source.access_key_id.clone(),
        secret_access_key: source.secret_access_key.clone(),
    }
}

impl DataSourcesService {
    /// One long poll (up to `wait_secs`) of a source's feed: every message received is taken,
    /// and those taken are deleted (a message whose booking failed stays on the queue and comes
    /// again after the queue's visibility timeout). Answers how many were received, or the
    /// queue's failure (noted in the source's health).
    pub async fn poll_feed(&self, r: FeedReader<'_>) -> AppResult<Result<usize, FeedError>> {
        let FeedReader {
            queues,
            source,
            feed,
            url,
            wait_secs,
        } = r;
        let access = access_of(source);
        let messages = match queues.receive(&access, url, wait_secs).await {
            Ok(messages) => messages,
            Err(e) => {
                self.failed(&source.id, &format!("{}: {e}", feed.key()))
                    .await?;
                return Ok(Err(e));
            }
        };
        let now = self.calendar.now();
        let mut taken = Vec::with_capacity(messages.len());
        for m in &messages {
            let incoming = Incoming {
                source_id: &source.id,
                feed,
                message_id: &m.message_id,
                body: &m.body,
                sent_at: m.sent_at.unwrap_or(now),
            };
            match self.take(incoming).await {
                Ok(_) => taken.push(m.receipt_handle.clone()),
                Err(e) => {
                    tracing::warn!(source = %source.id, message = %m.message_id, "not booked, left on the queue: {e}")
                }
            }
        }
        if !taken.is_empty() {
            if let Err(e) = queues.delete(&access, url, &taken).await {
                self.failed(&source.id, &format!("{}: {e}", feed.key()))
                    .await?;
                return Ok(Err(e));
            }
        }
        Ok(Ok(messages.len()))
    }

    /// Reads every active source's queues until the process ends: one task a queue, long
    /// polling `wait_secs`; the tasks follow the sources (a changed source's are restarted, a
    /// removed or inactive one's stopped) every [`REFRESH`].
    pub async fn run_pollers(self, queues: Arc<dyn FeedQueues>, wait_secs: u32) {
        type Running = HashMap<(String, u64, Feed, String), tokio::task::JoinHandle<()>>;
        let mut running: Running = HashMap::new();
        loop {
            match self.sources().await {
                Ok(sources) => {
                    let mut wanted = Vec::new();
                    for s in sources.into_iter().filter(|s| !s.inactive) {
                        for (feed, url) in s.feeds.queues() {
                            wanted.push((
                                (s.id.clone(), s.version, feed, url.to_string()),
                                s.clone(),
                            ));
                        }
                    }
                    running.retain(|key, task| {
                        let keep = wanted.iter().any(|(k, _)| k == key) && !task.is_finished();
                        if !keep {
                            task.abort();
                        }
                        keep
                    });
                    for (key, source) in wanted {
                        if running.contains_key(&key) {
                            continue;
                        }
                        let service = self.clone();
                        let queues = queues.clone();
                        let (feed, url) = (key.2, key.3.clone());
                        let task = tokio::spawn(async move {
                            let reader = FeedReader {
                                queues: queues.as_ref(),
                                source: &source,
                                feed,
                                url: &url,
                                wait_secs,
                            };
                            service.poll_forever(reader).await;
                        });
                        running.insert(key, task);
                    }
                }
                Err(e) => tracing::warn!("data sources not read: {e}"),
            }
            tokio::time::sleep(REFRESH).await;
        }
    }

    async fn poll_forever(&self, r: FeedReader<'_>) {
        let mut failures = 0;
        loop {
            match self.poll_feed(r).await {
                Ok(Ok(_)) => failures = 0,
                Ok(Err(e)) => {
                    tracing::warn!(source = %r.source.id, feed = r.feed.key(), "queue: {e}");
                    tokio::time::sleep(backoff(failures)).await;
                    failures += 1;
                }
                Err(e) => {
                    tracing::warn!(source = %r.source.id, feed = r.feed.key(), "store: {e}");
                    tokio::time::sleep(backoff(failures)).await;
                    failures += 1;
                }
            }
        }
    }
}
