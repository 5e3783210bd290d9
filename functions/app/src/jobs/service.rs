//! The jobs' service.

use super::model::*;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::ports::{BlobStore, Clock, Condition, ItemStore, Job as QueueJob, JobQueue};
use std::sync::Arc;
use std::time::Duration;

/// The service.
#[derive(Clone)]
pub struct JobsService {
    store: Arc<dyn ItemStore>,
    blobs: Arc<dyn BlobStore>,
    queue: Arc<dyn JobQueue>,
    clock: Arc<dyn Clock>,
}

impl JobsService {
    /// A service on the adapters.
    pub fn new(
        store: Arc<dyn ItemStore>,
        blobs: Arc<dyn BlobStore>,
        queue: Arc<dyn JobQueue>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        JobsService {
            store,
            blobs,
            queue,
            clock,
        }
    }

    /// Queues a job for `p`: its input as a blob, its record, then its message.
    pub async fn submit(&self, p: &Principal, job: NewJob) -> AppResult<JobRecord> {
        let now = self.clock.now();
        let id = ulid::Ulid::new().to_string();
        let input_key = format!("jobs/{id}/input");
        self.blobs
            .put(&input_key, job.input, "application/json")
            .await?;
        let record = JobRecord {
            id: id.clone(),
            kind: job.kind,
            owner_id: p.user.id.clone(),
            status: JobStatus::Queued,
            progress: 0,
            file_name: job.file_name,
            content_type: job.content_type,
            total: job.total,
            input_key,
            result_key: None,
            error: None,
            created_at: now,
            updated_at: now,
            version: 1,
        };
        self.store
            .put(record.to_item()?, Some(Condition::NotExists))
            .await?;
        let message = serde_json::to_string(&JobMessage { job_id: id })
            .map_err(|e| AppError::Internal(format!("job message: {e}")))?;
        self.queue.enqueue(&message).await?;
        Ok(record)
    }

    /// A job of `p`'s (404 for anyone else's), with a download link when it is done.
    pub async fn get(&self, p: &Principal, id: &str) -> AppResult<(JobRecord, Option<String>)> {
        let record = self
            .load(id)
            .await?
            .filter(|j| j.owner_id == p.user.id)
            .ok_or_else(|| AppError::NotFound("Job not found".into()))?;
        let link = match (&record.status, &record.result_key) {
            (JobStatus::Done, Some(key)) => Some(
                self.blobs
                    .download_url(key, &record.file_name, LINK_TTL)
                    .await?,
            ),
            _ => None,
        };
        Ok((record, link))
    }

    /// The file of a finished job of `p`'s.
    pub async fn file(&self, p: &Principal, id: &str) -> AppResult<Option<crate::ports::Blob>> {
        let (record, _) = self.get(p, id).await?;
        match record.result_key {
            Some(key) => Ok(self.blobs.get(&key).await?),
            None => Ok(None),
        }
    }

    async fn load(&self, id: &str) -> AppResult<Option<JobRecord>> {
        match self.store.get(&JobRecord::key(id)).await? {
            Some(item) => Ok(Some(JobRecord::from_item(&item)?)),
            None => Ok(None),
        }
    }

    /// Writes a change of a job's record (last writer wins: one worker owns a running job).
    async fn save(&self, mut record: JobRecord) -> AppResult<JobRecord> {
        record.updated_at = self.clock.now();
        record.version += 1;
        self.store.put(record.to_item()?, None).await?;
        Ok(record)
    }

    /// Reads a delivered message: the job, marked running, and its input. `None` when the job
    /// is gone or finished already (a late duplicate delivery): acknowledge and move on.
    pub async fn start(&self, delivery: QueueJob) -> AppResult<Option<Claimed>> {
        let message: JobMessage = serde_json::from_str(&delivery.payload)
            .map_err(|e| AppError::Internal(format!("job message: {e}")))?;
        let Some(record) = self.load(&message.job_id).await? else {
            self.queue.ack(&delivery.receipt).await?;
            return Ok(None);
        };
        if matches!(record.status, JobStatus::Done | JobStatus::Failed) {
            self.queue.ack(&delivery.receipt).await?;
            return Ok(None);
        }
        let input = self
            .blobs
            .get(&record.input_key)
            .await?
            .ok_or_else(|| AppError::Internal(format!("job {} has no input", record.id)))?
            .bytes;
        let mut running = record;
        running.status = JobStatus::Running;
        running.progress = running.progress.max(5);
        let record = self.save(running).await?;
        Ok(Some(Claimed {
            record,
            input,
            delivery,
        }))
    }

    /// Claims the next job from the queue, if any (the embedded worker's loop).
    pub async fn claim(&self) -> AppResult<Option<Claimed>> {
        loop {
            let Some(delivery) = self.queue.claim(VISIBILITY).await? else {
                return Ok(None);
            };
            if let Some(c) = self.start(delivery).await? {
                return Ok(Some(c));
            }
        }
    }

    /// Records progress of a running job.
    pub async fn progress(&self, c: &mut Claimed, percent: u8) -> AppResult<()> {
        let mut r = c.record.clone();
        r.progress = percent.min(99);
        c.record = self.save(r).await?;
        Ok(())
    }

    /// Stores the result, marks the job done and acknowledges its message.
    pub async fn finish(&self, c: Claimed, bytes: Vec<u8>) -> AppResult<JobRecord> {
        let key = format!("jobs/{}/{}", c.record.id, c.record.file_name);
        self.blobs.put(&key, bytes, &c.record.content_type).await?;
        let mut r = c.record;
        r.status = JobStatus::Done;
        r.progress = 100;
        r.result_key = Some(key);
        let r = self.save(r).await?;
        self.blobs.delete(&r.input_key).await?;
        self.queue.ack(&c.delivery.receipt).await?;
        Ok(r)
    }

    /// A failed attempt: the message comes back after `delay`, unless the queue has delivered
    /// it `give_up_after` times, when the job is marked failed for good.
    pub async fn fail(&self, c: Claimed, error: &str, give_up_after: u32) -> AppResult<()> {
        let mut r = c.record;
        if c.delivery.attempts >= give_up_after {
            r.status = JobStatus::Failed;
            r.error = Some(error.to_string());
            self.save(r).await?;
            self.queue.bury(&c.delivery).await?;
        } else {
            r.status = JobStatus::Queued;
            self.save(r).await?;
            self.queue
                .retry(&c.delivery.receipt, Duration::from_secs(5))
                .await?;
        }
        Ok(())
    }
}
