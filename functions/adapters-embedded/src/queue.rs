//! The durable job queue: rows in the `jobs` table of the embedded database.
//!
//! Times are epoch milliseconds from the system clock. A delivery gets a fresh receipt; ack and
//! retry take the receipt of the current delivery only, so a worker whose visibility timeout ran
//! out cannot ack the job another worker has since claimed.

use crate::db::Database;
use async_trait::async_trait;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use vendfleet_app::ports::{Job, JobQueue, QueueError};

/// The job queue on the embedded database.
#[derive(Debug, Clone)]
pub struct SqliteJobQueue {
    db: Database,
    max_deliveries: u32,
}

impl SqliteJobQueue {
    /// A queue on `db` that dead-letters a job instead of delivering it a
    /// `max_deliveries + 1`-th time.
    pub fn new(db: Database, max_deliveries: u32) -> Self {
        SqliteJobQueue { db, max_deliveries }
    }

    async fn write<T, F>(&self, f: F) -> Result<T, QueueError>
    where
        F: FnOnce(&mut Connection) -> Result<T, QueueError> + Send + 'static,
        T: Send + 'static,
    {
        self.db
            .write(f)
            .await
            .map_err(|e| QueueError::Backend(e.to_string()))?
    }
}

fn backend(e: rusqlite::Error) -> QueueError {
    QueueError::Backend(e.to_string())
}

/// Whether a change by receipt found its job (`n` rows changed): a receipt already deleted,
/// retried or timed out finds none.
fn held(n: usize) -> Result<(), QueueError> {
    if n == 0 {
        Err(QueueError::InvalidReceipt)
    } else {
        Ok(())
    }
}

fn now_ms() -> i64 {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_millis();
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn later(now: i64, by: Duration) -> i64 {
    now.saturating_add(i64::try_from(by.as_millis()).unwrap_or(i64::MAX))
}

#[async_trait]
impl JobQueue for SqliteJobQueue {
    async fn enqueue(&self, payload: &str) -> Result<String, QueueError> {
        let id = ulid::Ulid::new().to_string();
        let payload = payload.to_string();
        let job_id = id.clone();
        self.write(move |c| {
            let now = now_ms();
            c.execute(
                "INSERT INTO jobs (id, payload, attempts, visible_at, receipt, dead, created_at)
                 VALUES (?1, ?2, 0, ?3, NULL, 0, ?3)",
                params![job_id, payload, now],
            )
            .map_err(backend)?;
            Ok(())
        })
        .await?;
        Ok(id)
    }

    async fn claim(&self, visibility: Duration) -> Result<Option<Job>, QueueError> {
        let max = i64::from(self.max_deliveries);
        self.write(move |c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            let now = now_ms();
            loop {
                let next = tx
                    .query_row(
                        "SELECT id, payload, attempts FROM jobs
                         WHERE dead = 0 AND visible_at <= ?1
                         ORDER BY created_at, rowid LIMIT 1",
                        [now],
                        |r| {
                            Ok((
                                r.get::<_, String>(0)?,
                                r.get::<_, String>(1)?,
                                r.get::<_, i64>(2)?,
                            ))
                        },
                    )
                    .optional()
                    .map_err(backend)?;
                let Some((id, payload, attempts)) = next else {
                    tx.commit().map_err(backend)?;
                    return Ok(None);
                };
                if attempts >= max {
                    tx.execute(
                        "UPDATE jobs SET dead = 1, receipt = NULL WHERE id = ?1",
                        [&id],
                    )
                    .map_err(backend)?;
                    tracing::warn!(job = %id, attempts, "job dead-lettered");
                    continue;
                }
                let receipt = ulid::Ulid::new().to_string();
                tx.execute(
                    "UPDATE jobs SET attempts = attempts + 1, receipt = ?2, visible_at = ?3
                     WHERE id = ?1",
                    params![id, receipt, later(now, visibility)],
                )
                .map_err(backend)?;
                tx.commit().map_err(backend)?;
                return Ok(Some(Job {
                    id,
                    receipt,
                    payload,
                    attempts: u32::try_from(attempts + 1).unwrap_or(u32::MAX),
                }));
            }
        })
        .await
    }

    async fn ack(&self, receipt: &str) -> Result<(), QueueError> {
        let receipt = receipt.to_string();
        self.write(move |c| {
            let n = c
                .execute(
                    "DELETE FROM jobs WHERE receipt = ?1 AND dead = 0",
                    [&receipt],
                )
                .map_err(backend)?;
            held(n)
        })
        .await
    }

    async fn retry(&self, receipt: &str, delay: Duration) -> Result<(), QueueError> {
        let receipt = receipt.to_string();
        self.write(move |c| {
            let n = c
                .execute(
                    "UPDATE jobs SET visible_at = ?2, receipt = NULL WHERE receipt = ?1 AND dead = 0",
                    params![receipt, later(now_ms(), delay)],
                )
                .map_err(backend)?;
            held(n)
        })
        .await
    }

    async fn bury(&self, job: &Job) -> Result<(), QueueError> {
        let receipt = job.receipt.clone();
        self.write(move |c| {
            let n = c
                .execute(
                    "UPDATE jobs SET dead = 1, receipt = NULL WHERE receipt = ?1 AND dead = 0",
                    [&receipt],
                )
                .map_err(backend)?;
            held(n)
        })
        .await
    }

    async fn dead_letters(&self) -> Result<Vec<String>, QueueError> {
        self.db
            .read(|c| {
                let mut stmt = c
                    .prepare_cached(
                        "SELECT payload FROM jobs WHERE dead = 1 ORDER BY created_at, rowid",
                    )
                    .map_err(backend)?;
                let rows = stmt
                    .query_map([], |r| r.get::<_, String>(0))
                    .map_err(backend)?;
                rows.collect::<Result<Vec<_>, _>>().map_err(backend)
            })
            .await
            .map_err(|e| QueueError::Backend(e.to_string()))?
    }
}
