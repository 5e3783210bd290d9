//! The jobs area's shapes.

use crate::error::AppResult;
use crate::ports::{Item, Job as QueueJob, Key};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How long a finished job and its file are kept.
pub const KEEP_DAYS: i64 = 7;
/// How long a download link stays valid.
pub const LINK_TTL: Duration = Duration::from_secs(15 * 60);
/// How long a claimed job is hidden from other workers.
pub const VISIBILITY: Duration = Duration::from_secs(300);

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Done,
    Failed,
}

/// A background job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    pub id: String,
    /// `export`.
    pub kind: String,
    pub owner_id: String,
    pub status: JobStatus,
    /// 0 to 100.
    pub progress: u8,
    /// The file's name when it is ready (`machines.xlsx`).
    pub file_name: String,
    pub content_type: String,
    /// Rows (or items) the job handles, for the progress text.
    pub total: u64,
    /// Blob key of the job's input.
    pub input_key: String,
    /// Blob key of the result, once done.
    pub result_key: Option<String>,
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(skip)]
    pub version: u64,
}

impl JobRecord {
    pub(super) fn key(id: &str) -> Key {
        Key::new(format!("JOB#{id}"), "JOB")
    }

    pub(super) fn to_item(&self) -> AppResult<Item> {
        let ttl = (self.created_at + chrono::Duration::days(KEEP_DAYS)).timestamp();
        Ok(Item::from_value(Self::key(&self.id), self)?
            .with_version(self.version)
            .with_ttl(ttl))
    }

    pub(super) fn from_item(item: &Item) -> AppResult<JobRecord> {
        let mut j: JobRecord = item.to_value()?;
        j.version = item.version;
        Ok(j)
    }
}

/// The queue message of a job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct JobMessage {
    pub job_id: String,
}

/// A new job's description.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: String,
    pub file_name: String,
    pub content_type: String,
    pub total: u64,
    /// The job's input, stored as a blob for the worker.
    pub input: Vec<u8>,
}

/// A claimed job: its record, its input and the queue delivery.
pub struct Claimed {
    pub record: JobRecord,
    pub input: Vec<u8>,
    pub(super) delivery: QueueJob,
}
