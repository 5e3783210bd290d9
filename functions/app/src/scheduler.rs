//! The query scheduler: tasks that generate a report on a cron schedule in a time zone and
//! e-mail it to users and addresses.
//!
//! A task is a record (`QTASK#<id>`) holding its definition (a template's, followed at run time,
//! or its own), its five cron fields and zone, its recipients, its next run and what became of
//! its last runs. When a task is due it is *fired*: its recipients are split by what each may see
//! as they stand now (`domain::reach::split_audiences`) and one report is queued per distinct
//! reach and language — the owner's definition with the owner's permissions, cut to the machines
//! both the owner and those recipients see. Once the worker has written a file it is mailed to
//! its recipients only (see `vendfleet_http::scheduler`). A user recipient who lost access to the
//! module gets nothing, and the delivery says why; plain addresses carry the owner's reach and
//! only to domains the operator allows (`settings::OperatorPolicy`).
//!
//! A task runs at most as often as the operator allows (`min_task_interval_minutes`, 15 by
//! default); a task whose template is deleted, or no longer shared with its owner, is paused and
//! says why.
//!
//! Timing: on AWS each active task is an EventBridge Scheduler schedule that sends
//! `{"task_id"}` to the jobs queue (the [`Schedules`] port); embedded, the in-process loop calls
//! [`SchedulerService::tick`], which fires every active task whose `next_run` has come, once,
//! and moves `next_run` to the first run after now — so a run missed while the process was down
//! runs once at the next start, not once per missed time.

use crate::auth::Principal;
use crate::auth::Principal as Owner;
use crate::error::{AppError, AppResult};
use crate::generator::{
    check_spec, GeneratedReport, GeneratorService, Origin, ReportAudience, ReportSpec, SpecInput,
    Visibility,
};
use crate::listing::{page_of, paging, sort_by, sortable_instant, ListPage, ListParams};
use crate::ports::{Clock, ScheduleSpec, Schedules};
use crate::records::{check_version, Record, Records};
use crate::settings::{OperatorPolicy, SettingsService};
use crate::users::Directory;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use vendfleet_domain::reach::{split_audiences, Reach, Recipient, Split};
use vendfleet_domain::report::Choice;
use vendfleet_domain::schedule::{CronFields, Schedule};
use vendfleet_domain::{validation, FieldErrors, MachineScope, Permission};

/// Version of the stored shape of a task.
pub const SCHEMA: u32 = 1;
/// Deliveries kept on a task (newest first).
pub const KEPT_DELIVERIES: usize = 20;
/// Recipients of one task at most.
pub const MAX_RECIPIENTS: usize = 50;
/// Runs a schedule preview shows at most.
pub const MAX_PREVIEW_RUNS: i64 = 20;

/// Whether a task runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Active,
    Paused,
}

impl Choice for TaskStatus {
    const ALL: &'static [TaskStatus] = &[TaskStatus::Active, TaskStatus::Paused];
    fn key(self) -> &'static str {
        match self {
            TaskStatus::Active => "active",
            TaskStatus::Paused => "paused",
        }
    }
}

/// Who gets a task's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipients {
    /// Vendfleet users (mailed in their language).
    #[serde(default)]
    pub user_ids: Vec<String>,
    /// Other addresses (mailed in the owner's language).
    #[serde(default)]
    pub emails: Vec<String>,
}

/// One run of a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastRun {
    pub at: DateTime<Utc>,
    /// The first of the run's reports.
    pub report_id: Option<String>,
    /// Every report of the run: one per distinct reach and language of its recipients.
    #[serde(default)]
    pub report_ids: Vec<String>,
    /// The run's reports not yet mailed.
    #[serde(default)]
    pub pending: Vec<String>,
    /// `queued`, `done`, `failed`.
    pub status: String,
    pub error: Option<String>,
}

/// What became of one recipient of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailDelivery {
    pub at: DateTime<Utc>,
    pub recipient: String,
    /// A [`DeliveryStatus`] key: `sent`, `refused`, `bounced`, `complained` or `withheld`.
    pub status: String,
    pub error: Option<String>,
    /// The report whose file the recipient was sent.
    #[serde(default)]
    pub report_id: Option<String>,
    /// That file's name.
    #[serde(default)]
    pub file_name: Option<String>,
}

impl MailDelivery {
    /// What befell the message to `recipient` at `at`.
    pub fn new(
        at: DateTime<Utc>,
        recipient: impl Into<String>,
        status: DeliveryStatus,
        error: Option<String>,
    ) -> Self {
        MailDelivery {
            at,
            recipient: recipient.into(),
            status: status.key().to_string(),
            error,
            report_id: None,
            file_name: None,
        }
    }

    /// The same delivery, of report `r`'s file.
    pub fn of(mut self, r: &GeneratedReport) -> Self {
        self.report_id = Some(r.id.clone());
        self.file_name = Some(r.file_name.clone());
        self
    }
}

/// What the mail service did with a message to one recipient.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStatus {
    /// Taken for delivery.
    Sent,
    /// Refused at once (a rejected message, an address on the suppression list, an invalid
    /// address).
    Refused,
    /// Returned later by the recipient's server.
    Bounced,
    /// Marked as spam by the recipient.
    Complained,
    /// Not sent: the recipient may not receive the report (no access to its module, an inactive
    /// user, a domain the operator does not allow).
    Withheld,
}

impl DeliveryStatus {
    /// The status as stored and answered.
    pub fn key(self) -> &'static str {
        match self {
            DeliveryStatus::Sent => "sent",
            DeliveryStatus::Refused => "refused",
            DeliveryStatus::Bounced => "bounced",
            DeliveryStatus::Complained => "complained",
            DeliveryStatus::Withheld => "withheld",
        }
    }
}

/// A scheduled task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduledTask {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub spec: ReportSpec,
    /// A template to follow (its definition when the task runs), else the task's own.
    pub template_id: Option<String>,
    pub cron: CronFields,
    pub time_zone: String,
    pub status: TaskStatus,
    /// Why the task was paused by the system (its template deleted), when it was.
    #[serde(default)]
    pub paused_reason: Option<String>,
    pub recipients: Recipients,
    pub owner_id: String,
    /// The next run (none while paused).
    pub next_run: Option<DateTime<Utc>>,
    pub last_run: Option<LastRun>,
    #[serde(default)]
    pub deliveries: Vec<MailDelivery>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

impl Record for ScheduledTask {
    const KIND: &'static str = "QTASK";
    const LABEL: &'static str = "Scheduled task";
    fn id(&self) -> &str {
        &self.id
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
}
crate::stamped!(ScheduledTask);

/// The queue message a schedule delivers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskMessage {
    pub task_id: String,
}

/// The task form.
#[derive(Debug, Clone, Default)]
pub struct TaskInput {
    pub name: String,
    pub spec: SpecInput,
    pub template_id: Option<String>,
    pub cron: CronFields,
    pub time_zone: String,
    pub status: String,
    pub recipients: Recipients,
    pub version: Option<u64>,
}

/// The service.
#[derive(Clone)]
pub struct SchedulerService {
    tasks: Records<ScheduledTask>,
    generator: GeneratorService,
    schedules: Arc<dyn Schedules>,
    directory: Directory,
    settings: SettingsService,
    clock: Arc<dyn Clock>,
}

/// Why a task following a template was paused when the template went.
pub const TEMPLATE_GONE: &str = "The template this task follows was deleted or is no longer shared with its owner: choose another definition to resume it.";

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
        settings: SettingsService,
        clock: Arc<dyn Clock>,
    ) -> Self {
        SchedulerService {
            tasks: Records::new(store),
            generator,
            schedules,
            directory,
            settings,
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
        let policy = self.settings.policies().get().await?;
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
        let policy: OperatorPolicy = self.settings.policies().get().await?;
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
    async fn run(&self, t: ScheduledTask) -> AppResult<Vec<GeneratedReport>> {
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
