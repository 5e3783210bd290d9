//! The worker's side of a report: claimed from the queue, run as its requester (cut to its
//! audience), finished with its file, or failed and retried with back-off.

use super::*;

impl GeneratorService {
    /// The principal a report runs as: its requester as they are now (their role and scope
    /// today, not when they asked), cut to its audience's machines and written in its language
    /// when it is a scheduled report's file for some of the task's recipients.
    pub async fn requester(&self, r: &GeneratedReport) -> AppResult<Principal> {
        let user = self
            .directory
            .user(&r.owner_id)
            .await?
            .filter(|u| u.active)
            .ok_or_else(|| {
                AppError::conflict("The user who asked for the report is gone or inactive")
            })?;
        let owner = self.directory.principal(user).await?;
        match &r.audience {
            Some(a) => self.cut(owner, a).await,
            None => Ok(owner),
        }
    }

    /// `owner` cut to an audience: the machines both the owner (now) and the audience see, in the
    /// audience's language. Permissions stay the owner's.
    pub async fn cut(&self, mut owner: Principal, a: &ReportAudience) -> AppResult<Principal> {
        owner.user.language = a.language;
        if let Some(ids) = &a.machine_ids {
            let now = self.reach_of(&owner).await?;
            let cut = now.intersect(&Reach::Machines(ids.iter().cloned().collect()));
            let user = &mut owner.user;
            user.access_all_machines = false;
            user.client_ids.clear();
            user.location_ids.clear();
            user.machine_tag_ids.clear();
            user.machine_ids = cut
                .machines()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .collect();
        }
        Ok(owner)
    }

    async fn save(
        &self,
        current: &GeneratedReport,
        mut next: GeneratedReport,
    ) -> AppResult<GeneratedReport> {
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.reports.replace(current, &next).await?;
        Ok(next)
    }

    /// Reads a delivered report message: the report, marked running. `None` when there is
    /// nothing to do (the report is gone or finished: a late duplicate), or when the report was
    /// failed for good here (the worker stopped mid-report too often).
    pub async fn start(&self, delivery: Delivery) -> AppResult<Option<ClaimedReport>> {
        let message: ReportMessage = serde_json::from_str(&delivery.payload)
            .map_err(|e| AppError::Internal(format!("report message: {e}")))?;
        let Some(current) = self.reports.get(&message.report_id).await? else {
            self.queue.ack(&delivery.receipt).await?;
            return Ok(None);
        };
        if current.status.finished() {
            self.queue.ack(&delivery.receipt).await?;
            return Ok(None);
        }
        let mut next = current.clone();
        if delivery.attempts > MAX_ATTEMPTS || current.attempts >= MAX_ATTEMPTS {
            next.status = ReportStatus::Failed;
            next.error = Some(format!(
                "The worker stopped {} times before the report was written",
                current.attempts.max(delivery.attempts - 1)
            ));
            next.finished_at = Some(self.clock.now());
            self.save(&current, next).await?;
            self.queue.bury(&delivery).await?;
            return Ok(None);
        }
        next.status = ReportStatus::Running;
        next.attempts += 1;
        next.progress = 5;
        let report = self.save(&current, next).await?;
        Ok(Some(ClaimedReport { report, delivery }))
    }

    /// Records progress (at most 99 until done).
    pub async fn progress(&self, c: &mut ClaimedReport, percent: u8) -> AppResult<()> {
        let mut next = c.report.clone();
        next.progress = percent.min(99);
        c.report = self.save(&c.report, next).await?;
        Ok(())
    }

    /// Stores the file, marks the report done and acknowledges its message.
    pub async fn finish(
        &self,
        c: &ClaimedReport,
        file: &std::path::Path,
        rows: u64,
        scope: ReportScope,
    ) -> AppResult<GeneratedReport> {
        let key = format!("reports/{}/{}", c.report.id, c.report.file_name);
        self.blobs
            .put_file(&key, file, &c.report.content_type)
            .await?;
        let mut next = c.report.clone();
        next.status = ReportStatus::Done;
        next.progress = 100;
        next.rows = rows;
        next.error = None;
        next.result_key = Some(key);
        next.scope = Some(scope);
        next.finished_at = Some(self.clock.now());
        let r = self.save(&c.report, next).await?;
        self.queue.ack(&c.delivery.receipt).await?;
        Ok(r)
    }

    /// A failed attempt: retried after a back-off (5 s, 10 s, 20 s …), or failed for good
    /// with `error` after [`MAX_ATTEMPTS`] or when `permanent` (a retry would fail the same way),
    /// its message then moved to the dead-letter queue.
    pub async fn fail(
        &self,
        c: ClaimedReport,
        error: &str,
        permanent: bool,
    ) -> AppResult<GeneratedReport> {
        let mut next = c.report.clone();
        next.error = Some(error.to_string());
        if permanent || c.report.attempts >= MAX_ATTEMPTS {
            next.status = ReportStatus::Failed;
            next.finished_at = Some(self.clock.now());
            let r = self.save(&c.report, next).await?;
            self.queue.bury(&c.delivery).await?;
            Ok(r)
        } else {
            next.status = ReportStatus::Queued;
            let r = self.save(&c.report, next).await?;
            let delay = self.backoff * (1u32 << c.report.attempts.saturating_sub(1).min(6));
            self.queue.retry(&c.delivery.receipt, delay).await?;
            Ok(r)
        }
    }

    /// The queue, for the worker that reads it.
    pub fn queue(&self) -> &Arc<dyn JobQueue> {
        &self.queue
    }
}
