//! A task's run: its recipients split by what each may see, one report queued per distinct
//! reach and language, and what became of the run recorded on the task.

use super::*;
use crate::auth::Principal as Owner;
use crate::generator::{Origin, ReportAudience, ReportSpec};
use crate::operator_settings::OperatorPolicy;
use vendfleet_domain::reach::{split_audiences, Reach, Recipient, Split};

impl SchedulerService {
    /// The owner of a task as they are now.
    pub async fn owner(&self, t: &ScheduledTask) -> AppResult<Principal> {
        let user = self
            .directory
            .user(&t.owner_id)
            .await?
            .filter(|u| u.active)
            .ok_or_else(|| AppError::conflict("The task's owner is gone or inactive"))?;
        self.directory.principal(user).await
    }

    /// Who may receive the task's report as they stand now, split by what each may see.
    async fn split(&self, t: &ScheduledTask, owner: &Owner, spec: &ReportSpec) -> AppResult<Split> {
        let policy: OperatorPolicy = self.operator_settings.get().await?;
        let owner_reach = self.generator.reach_of(owner).await?;
        let mut recipients = Vec::new();
        for id in &t.recipients.user_ids {
            let Some(user) = self.directory.user(id).await? else {
                recipients.push(Recipient {
                    address: id.clone(),
                    user_id: Some(id.clone()),
                    language: owner.user.language,
                    access: Err("The user no longer exists.".into()),
                });
                continue;
            };
            let (address, language, active) = (user.email.clone(), user.language, user.active);
            let access = if !active {
                Err("The user is inactive.".to_string())
            } else {
                let reader = self.directory.principal(user).await?;
                match crate::generator::require_module(&reader, spec.module) {
                    Ok(()) => Ok(self.generator.reach_of(&reader).await?),
                    Err(_) => Err(format!(
                        "The user may not export the {} report.",
                        spec.module.key().replace('_', " ")
                    )),
                }
            };
            recipients.push(Recipient {
                address,
                user_id: Some(id.clone()),
                language,
                access,
            });
        }
        for e in &t.recipients.emails {
            recipients.push(Recipient {
                address: e.clone(),
                user_id: None,
                language: owner.user.language,
                access: match policy.mail_refusal(e) {
                    Some(why) => Err(why),
                    None => Ok(owner_reach.clone()),
                },
            });
        }
        let mut split = split_audiences(&owner_reach, recipients);
        // A file of the owner's whole reach follows the owner's reach when it runs.
        for a in &mut split.audiences {
            if a.reach == owner_reach {
                a.reach = Reach::All;
            }
        }
        Ok(split)
    }

    /// Queues the task's reports as its owner, one per distinct reach and language of its
    /// recipients; records the run and the recipients withheld. A task whose template went is
    /// paused with the reason.
    pub(super) async fn run(&self, t: ScheduledTask) -> AppResult<Vec<GeneratedReport>> {
        let now = self.clock.now();
        let mut withheld = Vec::new();
        let mut paused = false;
        let outcome: AppResult<Vec<GeneratedReport>> = async {
            let owner = self.owner(&t).await?;
            let spec = match &t.template_id {
                Some(id) => match self.generator.template_seen_by(&owner, id).await? {
                    Some(template) => template.spec,
                    None => {
                        paused = true;
                        return Err(AppError::conflict(TEMPLATE_GONE));
                    }
                },
                None => t.spec.clone(),
            };
            let split = self.split(&t, &owner, &spec).await?;
            withheld = split
                .withheld
                .into_iter()
                .map(|(a, why)| MailDelivery::new(now, a, DeliveryStatus::Withheld, Some(why)))
                .collect();
            if split.audiences.is_empty() {
                return Err(AppError::conflict(
                    "No recipient may receive this report: see the task's deliveries",
                ));
            }
            let mut reports = Vec::new();
            for a in split.audiences {
                let audience = ReportAudience {
                    machine_ids: a.reach.machines().map(|m| m.iter().cloned().collect()),
                    language: a.language,
                    addresses: a.addresses,
                    user_ids: a.user_ids,
                };
                let origin = Origin {
                    template_id: t.template_id.clone(),
                    task_id: Some(t.id.clone()),
                    audience: Some(audience),
                };
                reports.push(
                    self.generator
                        .submit(
                            &owner,
                            t.name.clone(),
                            Visibility::Private,
                            spec.clone(),
                            origin,
                        )
                        .await?,
                );
            }
            Ok(reports)
        }
        .await;
        let ids: Vec<String> = outcome
            .as_ref()
            .map(|rs| rs.iter().map(|r| r.id.clone()).collect())
            .unwrap_or_default();
        let last_run = match &outcome {
            Ok(_) => LastRun {
                at: now,
                report_id: ids.first().cloned(),
                report_ids: ids.clone(),
                pending: ids,
                status: "queued".into(),
                error: None,
            },
            Err(e) => LastRun {
                at: now,
                report_id: None,
                report_ids: Vec::new(),
                pending: Vec::new(),
                status: "failed".into(),
                error: Some(e.to_string()),
            },
        };
        let changed = self
            .note(&t.id, |task| {
                task.last_run = Some(last_run.clone());
                if paused {
                    task.status = TaskStatus::Paused;
                    task.paused_reason = Some(TEMPLATE_GONE.into());
                    task.next_run = None;
                }
                withheld.clone()
            })
            .await?;
        if paused {
            if let Some(task) = changed {
                self.publish(&task).await?;
            }
        }
        outcome
    }

    /// Pauses, with the reason, every active task that follows a deleted template.
    pub async fn template_deleted(&self, template_id: &str) -> AppResult<()> {
        for t in self.tasks.all().await? {
            if t.template_id.as_deref() != Some(template_id) || t.status != TaskStatus::Active {
                continue;
            }
            if let Some(task) = self
                .note(&t.id, |task| {
                    task.status = TaskStatus::Paused;
                    task.paused_reason = Some(TEMPLATE_GONE.into());
                    task.next_run = None;
                    Vec::new()
                })
                .await?
            {
                self.publish(&task).await?;
            }
        }
        Ok(())
    }

    /// Fires a task when its schedule says so (`{"task_id"}` from EventBridge): a paused or
    /// deleted task does nothing.
    pub async fn fire(&self, task_id: &str) -> AppResult<Vec<GeneratedReport>> {
        let Some(t) = self.tasks.get(task_id).await? else {
            return Ok(Vec::new());
        };
        if t.status != TaskStatus::Active {
            return Ok(Vec::new());
        }
        let mut current = t.clone();
        current.next_run = self.next_run(&t);
        let current = self.replace(&t, current).await?;
        self.run(current).await
    }

    /// The in-process scheduler's step: fires, once, every active task whose next run has come
    /// (however many runs were missed), and moves its next run past now. Answers the reports
    /// queued.
    pub async fn tick(&self) -> AppResult<Vec<GeneratedReport>> {
        let now = self.clock.now();
        let mut queued = Vec::new();
        for t in self.tasks.all().await? {
            if t.status != TaskStatus::Active || t.next_run.is_none_or(|at| at > now) {
                continue;
            }
            let mut next = t.clone();
            next.next_run = self.next_run(&t);
            // Another process may have fired it: the version check lets one through.
            let Ok(current) = self.replace(&t, next).await else {
                continue;
            };
            match self.run(current).await {
                Ok(r) => queued.extend(r),
                Err(e) => tracing::warn!(task = %t.id, error = %e, "a scheduled task did not run"),
            }
        }
        Ok(queued)
    }

    /// A task by id, whoever owns it (the worker mailing its report).
    pub async fn task(&self, id: &str) -> AppResult<Option<ScheduledTask>> {
        self.tasks.get(id).await
    }

    /// Records what became of one of a run's reports (mailed: `done`, or `failed`) and its
    /// deliveries on the task: the run is done once each of its reports is, failed if one failed.
    pub async fn record(
        &self,
        task_id: &str,
        report_id: &str,
        status: &str,
        error: Option<String>,
        deliveries: Vec<MailDelivery>,
    ) -> AppResult<()> {
        let at = self.clock.now();
        self.note(task_id, |task| {
            let run = match task.last_run.take() {
                Some(run) if run.report_ids.iter().any(|r| r == report_id) => run,
                // A report of an earlier run (or of a task saved before runs had several).
                _ => LastRun {
                    at,
                    report_id: Some(report_id.to_string()),
                    report_ids: vec![report_id.to_string()],
                    pending: vec![report_id.to_string()],
                    status: "queued".into(),
                    error: None,
                },
            };
            let mut run = run;
            run.pending.retain(|r| r != report_id);
            if status != "done" {
                run.status = status.to_string();
                run.error = error.clone();
            } else if run.pending.is_empty() && run.status != "failed" {
                run.status = "done".into();
            }
            task.last_run = Some(run);
            deliveries.clone()
        })
        .await
        .map(|_| ())
    }

    /// Records what the mail service reported later of the messages a task sent (bounces,
    /// complaints): `deliveries` first on the task, its last run untouched. An unknown task is
    /// ignored (it was deleted since).
    pub async fn feedback(&self, task_id: &str, deliveries: Vec<MailDelivery>) -> AppResult<()> {
        self.note(task_id, |_| deliveries.clone()).await.map(|_| ())
    }

    /// Changes a task with `change` (which answers the deliveries to put first, keeping the
    /// newest [`KEPT_DELIVERIES`]), retrying when another write came first. Answers the task as
    /// written (`None`: it is gone).
    async fn note(
        &self,
        task_id: &str,
        change: impl Fn(&mut ScheduledTask) -> Vec<MailDelivery>,
    ) -> AppResult<Option<ScheduledTask>> {
        for _ in 0..5 {
            let Some(t) = self.tasks.get(task_id).await? else {
                return Ok(None);
            };
            let mut next = t.clone();
            let mut all = change(&mut next);
            all.extend(t.deliveries.iter().cloned());
            all.truncate(KEPT_DELIVERIES);
            next.deliveries = all;
            match self.replace(&t, next).await {
                Err(AppError::Conflict { .. }) => continue,
                other => return other.map(Some),
            }
        }
        Ok(None)
    }
}
