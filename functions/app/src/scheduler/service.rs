//! The scheduler's service: tasks kept, timed and fired (`service/run.rs`).

mod run;

use super::model::*;

use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::generator::{check_spec, GeneratedReport, GeneratorService, Visibility};
use crate::listing::{page_of, paging, sort_by, sortable_instant, ListPage, ListParams};
use crate::operator_settings::OperatorSettingsService;
use crate::ports::{Clock, ScheduleSpec, Schedules};
use crate::records::{check_version, Records};
use crate::users::Directory;
use chrono::{DateTime, Utc};
use std::sync::Arc;
use vendfleet_domain::report::Choice;
use vendfleet_domain::schedule::{CronFields, Schedule};
use vendfleet_domain::{validation, FieldErrors, MachineScope, Permission};

/// The service.
#[derive(Clone)]
pub struct SchedulerService {
    tasks: Records<ScheduledTask>,
    generator: GeneratorService,
    schedules: Arc<dyn Schedules>,
    directory: Directory,
    operator_settings: OperatorSettingsService,
    clock: Arc<dyn Clock>,
}

/// The task's schedule, read from its stored fields.
pub fn schedule_of(t: &ScheduledTask) -> Option<(Schedule, chrono_tz::Tz)> {
    let s = Schedule::parse(&t.cron).ok()?;
    let tz = vendfleet_domain::calendar::parse_zone(&t.time_zone)?;
    Some((s, tz))
}

impl SchedulerService {
    /// A service on the adapters.
    pub fn new(
        store: Arc<dyn crate::ports::ItemStore>,
        generator: GeneratorService,
        schedules: Arc<dyn Schedules>,
        directory: Directory,
        operator_settings: OperatorSettingsService,
        clock: Arc<dyn Clock>,
    ) -> Self {
        SchedulerService {
            tasks: Records::new(store),
            generator,
            schedules,
            directory,
            operator_settings,
            clock,
        }
    }

    /// Whether an outside service (EventBridge Scheduler) times the tasks.
    pub fn timed_outside(&self) -> bool {
        self.schedules.external()
    }

    fn sees_all(p: &Principal) -> bool {
        matches!(p.machine_scope(), MachineScope::All)
    }

    /// A task is its owner's; a user who sees the whole fleet sees (and may pause or delete)
    /// everybody's. Only the owner changes what a task sends and to whom.
    fn visible(p: &Principal, t: &ScheduledTask) -> bool {
        t.owner_id == p.user.id || Self::sees_all(p)
    }

    async fn check(
        &self,
        p: &Principal,
        input: &TaskInput,
    ) -> AppResult<(ScheduledTask, Schedule)> {
        let mut errors = FieldErrors::new();
        let name = validation::required_text(&mut errors, "name", &input.name, 120);
        let time_zone = validation::time_zone(&mut errors, "time_zone", &input.time_zone);
        let status = if input.status.trim().is_empty() {
            TaskStatus::Active
        } else {
            TaskStatus::from_key(&input.status).unwrap_or_else(|| {
                errors.add("status", "Choose one of: active, paused.");
                TaskStatus::Active
            })
        };
        let schedule = match Schedule::parse(&input.cron) {
            Ok(s) => Some(s),
            Err(e) => {
                for (field, messages) in &e.0 {
                    for m in messages {
                        errors.add(format!("cron.{field}"), m.clone());
                    }
                }
                None
            }
        };
        // The template, when named, gives the definition (and must be one the owner sees).
        let template_id = input
            .template_id
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from);
        let spec = match &template_id {
            Some(id) => match self.generator.get_template(p, id).await {
                Ok(t) => Some(t.spec),
                Err(AppError::NotFound(_)) | Err(AppError::Forbidden(_)) => {
                    errors.add("template_id", "No such template.");
                    None
                }
                Err(e) => return Err(e),
            },
            None => check_spec(&input.spec, &mut errors),
        };
        let mut recipients = Recipients::default();
        for id in &input.recipients.user_ids {
            match self.directory.user(id.trim()).await? {
                Some(u) if u.active => recipients.user_ids.push(u.id),
                _ => errors.add(
                    "recipients.user_ids",
                    format!("“{id}” is not an active user."),
                ),
            }
        }
        let policy = self.operator_settings.get().await?;
        if let Some(gap) = schedule.as_ref().and_then(Schedule::shortest_gap_minutes) {
            let min = policy.min_task_interval_minutes;
            if gap < i64::from(min) {
                errors.add(
                    "cron",
                    format!(
                        "Runs may be at most every {min} minutes (the operator's setting): this schedule runs {gap} minute{} apart.",
                        if gap == 1 { "" } else { "s" }
                    ),
                );
            }
        }
        for e in &input.recipients.emails {
            let mut one = FieldErrors::new();
            let address = validation::email(&mut one, "email", e);
            if !one.is_empty() {
                errors.add(
                    "recipients.emails",
                    format!("“{e}” is not an e-mail address."),
                );
            } else if let Some(why) = policy.mail_refusal(&address) {
                errors.add("recipients.emails", format!("“{address}”: {why}"));
            } else {
                recipients.emails.push(address);
            }
        }
        recipients.user_ids.sort();
        recipients.user_ids.dedup();
        recipients.emails.sort();
        recipients.emails.dedup();
        if recipients.user_ids.is_empty() && recipients.emails.is_empty() {
            errors.add("recipients", "Name at least one recipient.");
        }
        if recipients.user_ids.len() + recipients.emails.len() > MAX_RECIPIENTS {
            errors.add(
                "recipients",
                format!("At most {MAX_RECIPIENTS} recipients."),
            );
        }
        errors.into_result()?;
        let now = self.clock.now();
        let spec = spec.expect("checked");
        crate::generator::require_module(p, spec.module)?;
        Ok((
            ScheduledTask {
                id: ulid::Ulid::new().to_string(),
                name,
                spec,
                template_id,
                cron: input.cron.clone(),
                time_zone,
                status,
                paused_reason: None,
                recipients,
                owner_id: p.user.id.clone(),
                next_run: None,
                last_run: None,
                deliveries: Vec::new(),
                created_at: now,
                updated_at: now,
                version: 1,
                schema: SCHEMA,
            },
            schedule.expect("checked"),
        ))
    }

    fn next_run(&self, t: &ScheduledTask) -> Option<DateTime<Utc>> {
        if t.status != TaskStatus::Active {
            return None;
        }
        let (s, tz) = schedule_of(t)?;
        s.next_after(tz, self.clock.now())
    }

    async fn publish(&self, t: &ScheduledTask) -> AppResult<()> {
        let Some((s, _)) = schedule_of(t) else {
            return Ok(());
        };
        let payload = serde_json::to_string(&TaskMessage {
            task_id: t.id.clone(),
        })
        .map_err(|e| AppError::Internal(format!("task message: {e}")))?;
        self.schedules
            .put(&ScheduleSpec {
                name: t.id.clone(),
                expression: s.eventbridge(),
                time_zone: t.time_zone.clone(),
                enabled: t.status == TaskStatus::Active,
                payload,
            })
            .await?;
        Ok(())
    }

    /// Saves a new task (and its schedule).
    pub async fn create(&self, p: &Principal, input: &TaskInput) -> AppResult<ScheduledTask> {
        p.require(Permission::QuerySchedulerNew)?;
        let (mut t, _) = self.check(p, input).await?;
        t.next_run = self.next_run(&t);
        self.tasks.insert(&t).await?;
        self.publish(&t).await?;
        Ok(t)
    }

    /// The tasks `p` sees.
    pub async fn list(
        &self,
        p: &Principal,
        params: &ListParams,
        status: Option<&str>,
        module: Option<&str>,
    ) -> AppResult<ListPage<ScheduledTask>> {
        p.require(Permission::QuerySchedulerList)?;
        let mut errors = FieldErrors::new();
        let pg = paging(
            params,
            &["name", "created_at", "next_run", "module", "status"],
            &mut errors,
        );
        let status = status.map(str::trim).filter(|s| !s.is_empty()).map(|s| {
            TaskStatus::from_key(s).ok_or_else(|| {
                errors.add("status", "Choose one of: active, paused.");
            })
        });
        let module = module.map(str::trim).filter(|s| !s.is_empty()).map(|s| {
            crate::generator::Module::from_key(s).ok_or_else(|| {
                errors.add("module", "Not a report module.");
            })
        });
        errors.into_result()?;
        let status = status.and_then(Result::ok);
        let module = module.and_then(Result::ok);
        let mut items: Vec<ScheduledTask> = self
            .tasks
            .all()
            .await?
            .into_iter()
            .filter(|t| Self::visible(p, t))
            .filter(|t| status.is_none_or(|s| t.status == s))
            .filter(|t| module.is_none_or(|m| t.spec.module == m))
            .filter(|t| pg.search.is_empty() || t.name.to_lowercase().contains(&pg.search))
            .collect();
        sort_by(&mut items, &pg, "name", |t, f| match f {
            "created_at" => (sortable_instant(&t.created_at), t.id.clone()),
            "next_run" => (
                t.next_run
                    .as_ref()
                    .map(sortable_instant)
                    .unwrap_or_else(|| "~".into()),
                t.id.clone(),
            ),
            "module" => (t.spec.module.key().into(), t.id.clone()),
            "status" => (t.status.key().into(), t.id.clone()),
            _ => (t.name.to_lowercase(), t.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    /// One task `p` sees (404 otherwise).
    pub async fn get(&self, p: &Principal, id: &str) -> AppResult<ScheduledTask> {
        p.require(Permission::QuerySchedulerList)?;
        self.task_for(p, id).await
    }

    async fn task_for(&self, p: &Principal, id: &str) -> AppResult<ScheduledTask> {
        self.tasks
            .get(id)
            .await?
            .filter(|t| Self::visible(p, t))
            .ok_or_else(|| AppError::NotFound("Scheduled task not found".into()))
    }

    async fn replace(
        &self,
        current: &ScheduledTask,
        mut next: ScheduledTask,
    ) -> AppResult<ScheduledTask> {
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.tasks.replace(current, &next).await?;
        Ok(next)
    }

    /// Changes a task (its owner only; 409 on a stale version).
    pub async fn update(
        &self,
        p: &Principal,
        id: &str,
        input: &TaskInput,
    ) -> AppResult<ScheduledTask> {
        p.require(Permission::QuerySchedulerEdit)?;
        let current = self.task_for(p, id).await?;
        if current.owner_id != p.user.id {
            return Err(AppError::Forbidden(
                "Only the task's owner changes what it sends and to whom".into(),
            ));
        }
        check_version(input.version, &current)?;
        let (checked, _) = self.check(p, input).await?;
        let mut next = current.clone();
        next.name = checked.name;
        next.spec = checked.spec;
        next.template_id = checked.template_id;
        next.cron = checked.cron;
        next.time_zone = checked.time_zone;
        next.status = checked.status;
        next.recipients = checked.recipients;
        next.next_run = self.next_run(&next);
        let next = self.replace(&current, next).await?;
        self.publish(&next).await?;
        Ok(next)
    }

    /// Pauses or resumes a task (its schedule disabled or enabled). A task paused because its
    /// template went resumes only once it follows a template its owner sees again (409).
    pub async fn set_status(
        &self,
        p: &Principal,
        id: &str,
        status: TaskStatus,
    ) -> AppResult<ScheduledTask> {
        p.require(Permission::QuerySchedulerEdit)?;
        let current = self.task_for(p, id).await?;
        if status == TaskStatus::Active {
            if let Some(template_id) = &current.template_id {
                let owner = self.owner(&current).await?;
                if self
                    .generator
                    .template_seen_by(&owner, template_id)
                    .await?
                    .is_none()
                {
                    return Err(AppError::conflict(TEMPLATE_GONE));
                }
            }
        }
        let mut next = current.clone();
        next.status = status;
        next.paused_reason = None;
        next.next_run = self.next_run(&next);
        let next = self.replace(&current, next).await?;
        self.publish(&next).await?;
        Ok(next)
    }

    /// Deletes a task and its schedule (the reports it made stay).
    pub async fn delete(&self, p: &Principal, id: &str) -> AppResult<()> {
        p.require(Permission::QuerySchedulerDelete)?;
        let t = self.task_for(p, id).await?;
        self.schedules.delete(&t.id).await?;
        self.tasks
            .apply(Records::<ScheduledTask>::delete_writes(&t), &t)
            .await
    }

    /// Runs a task of `p`'s now ("send now"): its reports are queued and mailed when written.
    /// A paused task runs this once and stays paused; one paused because its template went
    /// cannot run (409 with the reason). Answers the first report queued.
    pub async fn send_now(&self, p: &Principal, id: &str) -> AppResult<GeneratedReport> {
        p.require(Permission::QuerySchedulerEdit)?;
        let t = self.task_for(p, id).await?;
        if t.owner_id != p.user.id {
            return Err(AppError::Forbidden("Only the task's owner sends it".into()));
        }
        if let Some(why) = &t.paused_reason {
            return Err(AppError::conflict(why.clone()));
        }
        let reports = self.run(t).await?;
        reports.into_iter().next().ok_or_else(|| {
            AppError::conflict("No recipient may receive this report: see the task's deliveries")
        })
    }

    /// The next `n` runs of fields in a zone (the form's preview), with the EventBridge
    /// expression.
    pub fn preview(
        &self,
        cron: &CronFields,
        time_zone: &str,
        n: i64,
    ) -> AppResult<(Vec<DateTime<Utc>>, String)> {
        let mut errors = FieldErrors::new();
        let zone = validation::time_zone(&mut errors, "time_zone", time_zone);
        if !(1..=MAX_PREVIEW_RUNS).contains(&n) {
            errors.add("count", format!("Give 1 to {MAX_PREVIEW_RUNS} runs."));
        }
        let schedule = match Schedule::parse(cron) {
            Ok(s) => Some(s),
            Err(e) => {
                for (field, messages) in &e.0 {
                    for m in messages {
                        errors.add(field.clone(), m.clone());
                    }
                }
                None
            }
        };
        errors.into_result()?;
        let tz = vendfleet_domain::calendar::parse_zone(&zone).expect("checked");
        let s = schedule.expect("checked");
        Ok((
            s.upcoming(tz, self.clock.now(), n as usize),
            s.eventbridge(),
        ))
    }
}
