//! The query scheduler's API (`/api/query-schedulers/`) and the mailing of a scheduled report
//! once the worker has written it.

use crate::generator::{report_dto, ReportDto, UserRefDto};
use crate::kit::dto::{Data, ListReply, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{scheduler_perm as perm, Authorized, Json, Query, SignedIn};
use crate::kit::reply::{created, tr, updated};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::generator::{FileFormat, Graph, Module};
use vendfleet_app::scheduler::{Recipients, ScheduledTask, TaskInput, TaskStatus};
use vendfleet_domain::reach::Reach;
use vendfleet_domain::schedule::CronFields;
use vendfleet_domain::{Language, Period};

/// The scheduler's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tasks, create_task))
        .routes(routes!(get_task, update_task, delete_task))
        .routes(routes!(change_task_status))
        .routes(routes!(send_now))
        .routes(routes!(next_runs))
}

/// The scheduler's option lists.
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(scheduler_modules))
        .routes(routes!(scheduler_periods))
}

fn period_label(lang: Language, p: Period) -> String {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    match p {
        Period::Yesterday => t("Yesterday", "Hier", "Ieri"),
        Period::CurrentWeek => t("Current week", "Semaine en cours", "Settimana corrente"),
        Period::PreviousWeek => t(
            "Previous week",
            "Semaine précédente",
            "Settimana precedente",
        ),
        Period::CurrentMonth => t("Current month", "Mois en cours", "Mese corrente"),
        Period::PreviousMonth => t("Previous month", "Mois précédent", "Mese precedente"),
        Period::CurrentAndPreviousMonth => t(
            "Current and previous month",
            "Mois en cours et précédent",
            "Mese corrente e precedente",
        ),
        Period::CurrentYear => t("Current year", "Année en cours", "Anno corrente"),
        Period::PreviousYear => t("Previous year", "Année précédente", "Anno precedente"),
        Period::Custom => t("Custom", "Personnalisée", "Personalizzato"),
    }
}

crate::kit::crud::options! {
    /// The modules a scheduled task can send (`id` is the module key).
    scheduler_modules("/api/filters/query-schedulers/modules/"),
    |_s, a: SignedIn| crate::generator::module_options(a.principal().user.language)
}

crate::kit::crud::options! {
    /// The periods a scheduled report can cover: spans that mean something on every run
    /// (`id` is the `period` key).
    scheduler_periods("/api/filters/query-schedulers/periods/"),
    |_s, a: SignedIn| Period::SCHEDULED
        .iter()
        .map(|p| (p.key().to_string(), period_label(a.principal().user.language, *p)))
        .collect::<Vec<_>>()
}

/// The five cron fields.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CronDto {
    /// 0–59, `*`, ranges `a-b`, steps `*/s`, lists.
    pub minute: String,
    /// 0–23.
    pub hour: String,
    /// 1–31 (with a day of week restricted, `*`).
    pub day_of_month: String,
    /// 1–12 or JAN–DEC (the spec's "day of year" field).
    pub month: String,
    /// 0–7 or SUN–SAT (0 and 7 are Sunday).
    pub day_of_week: String,
}

impl From<CronDto> for CronFields {
    fn from(c: CronDto) -> Self {
        CronFields {
            minute: c.minute,
            hour: c.hour,
            day_of_month: c.day_of_month,
            month: c.month,
            day_of_week: c.day_of_week,
        }
    }
}

impl From<CronFields> for CronDto {
    fn from(c: CronFields) -> Self {
        CronDto {
            minute: c.minute,
            hour: c.hour,
            day_of_month: c.day_of_month,
            month: c.month,
            day_of_week: c.day_of_week,
        }
    }
}

/// Who gets the report: 1 to 50 recipients in all. Each user gets a file cut to what they may
/// see; plain addresses get the owner's, and only in the domains the operator allows
/// (`/api/settings/operator/`).
#[derive(Debug, Clone, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecipientsDto {
    /// Vendfleet users (mailed in their language).
    #[serde(default)]
    #[schema(max_items = 50)]
    pub user_ids: Vec<String>,
    /// Other addresses (mailed in the owner's language).
    #[serde(default)]
    #[schema(max_items = 50)]
    pub emails: Vec<String>,
}

crate::generator::definition_form! {
    /// The task form.
    #[derive(Debug, Clone, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct TaskBody {
        /// A module key (ignored when a template is named: the template's module is used).
        #[serde(default)]
        #[schema(value_type = Option<Module>)]
        module;
        /// A template to follow (its definition when the task runs).
        pub template_id: Option<String>,
        /// Runs at most as often as the operator allows (`min_task_interval_minutes`).
        pub cron: CronDto,
        /// IANA zone the cron fields are read in.
        pub time_zone: String,
        /// `active` (default) or `paused`.
        #[serde(default)]
        #[schema(value_type = Option<TaskStatus>)]
        pub status: String,
        pub recipients: RecipientsDto,
        #[schema(minimum = 1)]
        pub version: Option<u64>,
    }
}

impl TaskBody {
    fn input(mut self) -> TaskInput {
        TaskInput {
            spec: self.definition(),
            name: self.name,
            template_id: self.template_id,
            cron: self.cron.into(),
            time_zone: self.time_zone,
            status: self.status,
            recipients: Recipients {
                user_ids: self.recipients.user_ids,
                emails: self.recipients.emails,
            },
            version: self.version,
        }
    }
}

/// How a run stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Queued,
    Done,
    Failed,
}

/// A task's last run.
#[derive(Debug, Serialize, ToSchema)]
pub struct LastRunDto {
    pub at: DateTime<Utc>,
    /// The first of the run's reports.
    pub report_id: Option<String>,
    /// Every report of the run: one per distinct reach and language of its recipients.
    pub report_ids: Vec<String>,
    pub status: RunStatus,
    pub error: Option<String>,
}

/// What the mail service did with a message.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatusDto {
    Sent,
    Refused,
    Bounced,
    Complained,
    Withheld,
}

/// What became of a recipient.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryDto {
    pub at: DateTime<Utc>,
    pub recipient: String,
    /// `sent` or `refused` when sent; later, from SES, `bounced`, `complained` or `refused`;
    /// `withheld` when the recipient may not receive the report (`error` says why).
    #[schema(value_type = DeliveryStatusDto)]
    pub status: String,
    pub error: Option<String>,
    /// The report whose file was sent.
    pub report_id: Option<String>,
    pub file_name: Option<String>,
}

/// A scheduled task.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaskDto {
    pub id: String,
    pub name: String,
    pub module: Module,
    pub template_id: Option<String>,
    pub params: BTreeMap<String, String>,
    pub format: FileFormat,
    pub graph: Graph,
    pub columns: Vec<String>,
    pub cron: CronDto,
    pub time_zone: String,
    pub status: TaskStatus,
    /// Why the system paused the task (its template was deleted), when it did.
    pub paused_reason: Option<String>,
    pub recipients: RecipientsDto,
    pub created_by: UserRefDto,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
    /// None while paused.
    pub next_run: Option<DateTime<Utc>>,
    pub last_run: Option<LastRunDto>,
    /// Newest first, at most 20.
    pub deliveries: Vec<DeliveryDto>,
}

async fn task_dto(s: &AppState, t: ScheduledTask) -> TaskDto {
    let name = match s.app.users.directory().user(&t.owner_id).await {
        Ok(Some(u)) => u.name,
        _ => String::new(),
    };
    TaskDto {
        created_by: UserRefDto {
            id: t.owner_id.clone(),
            name,
        },
        id: t.id,
        name: t.name,
        module: t.spec.module,
        template_id: t.template_id,
        params: t.spec.params,
        format: t.spec.format,
        graph: t.spec.graph,
        columns: t.spec.columns,
        cron: t.cron.into(),
        time_zone: t.time_zone,
        status: t.status,
        paused_reason: t.paused_reason,
        recipients: RecipientsDto {
            user_ids: t.recipients.user_ids,
            emails: t.recipients.emails,
        },
        created_at: t.created_at,
        updated_at: t.updated_at,
        version: t.version,
        next_run: t.next_run,
        last_run: t.last_run.map(|r| LastRunDto {
            at: r.at,
            report_id: r.report_id,
            report_ids: r.report_ids,
            status: match r.status.as_str() {
                "done" => RunStatus::Done,
                "failed" => RunStatus::Failed,
                _ => RunStatus::Queued,
            },
            error: r.error,
        }),
        deliveries: t
            .deliveries
            .into_iter()
            .map(|d| DeliveryDto {
                at: d.at,
                recipient: d.recipient,
                status: d.status,
                error: d.error,
                report_id: d.report_id,
                file_name: d.file_name,
            })
            .collect(),
    }
}

crate::kit::fields::list_query! {
    /// The tasks list's query.
    pub struct TasksQuery {
        page,
        page_size,
        /// Text in the name.
        search,
        /// `name` (default), `created_at`, `next_run`, `module`, `status`; `-` for descending.
        #[param(pattern = r"^(-?(name|created_at|next_run|module|status))?$")]
        ordering,
        /// `active` or `paused`.
        #[param(value_type = Option<TaskStatus>, inline)]
        pub status: Option<String>,
        /// A module key.
        #[param(value_type = Option<Module>, inline)]
        pub module: Option<String>,
    }
}

/// The caller's tasks (everybody's for a user who sees the whole fleet).
#[utoipa::path(get, path = "/api/query-schedulers/", tag = "query-scheduler", security(("bearer" = [])), params(TasksQuery),
    responses((status = 200, body = ListReply<TaskDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_tasks(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Query(q): Query<TasksQuery>,
) -> ApiResult<axum::Json<ListReply<TaskDto>>> {
    let page = s
        .app
        .scheduler
        .list(
            a.principal(),
            &q.list(),
            q.status.as_deref(),
            q.module.as_deref(),
        )
        .await?;
    let mut data = Vec::with_capacity(page.items.len());
    for t in page.items.clone() {
        data.push(task_dto(&s, t).await);
    }
    Ok(axum::Json(ListReply::of(&page, data)))
}

/// Checks the module's own parameters (as the report generator does) when the task has its own
/// definition.
fn check_definition(s: &AppState, body: &TaskBody) -> ApiResult<()> {
    if body
        .template_id
        .as_deref()
        .is_some_and(|t| !t.trim().is_empty())
    {
        return Ok(());
    }
    let mut errors = vendfleet_domain::FieldErrors::new();
    let input = body.clone().input();
    if let Some(spec) = vendfleet_app::generator::check_spec(&input.spec, &mut errors) {
        if errors.is_empty() {
            vendfleet_render::generator::check_params(&s.app, &spec)?;
        }
    }
    Ok(())
}

/// Saves a task (and, on AWS, its EventBridge schedule).
#[utoipa::path(post, path = "/api/query-schedulers/", tag = "query-scheduler", security(("bearer" = [])), request_body = TaskBody,
    responses((status = 201, body = MessageData<TaskDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn create_task(
    State(s): State<AppState>,
    a: Authorized<perm::New>,
    Json(body): Json<TaskBody>,
) -> ApiResult<impl IntoResponse> {
    check_definition(&s, &body)?;
    let t = s.app.scheduler.create(a.principal(), &body.input()).await?;
    Ok(created("Query created successfully", task_dto(&s, t).await))
}

/// One task.
#[utoipa::path(get, path = "/api/query-schedulers/{id}/", tag = "query-scheduler", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<TaskDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_task(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<TaskDto>>> {
    let t = s.app.scheduler.get(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: task_dto(&s, t).await,
    }))
}

/// Changes a task (its owner only; 409 on a stale version).
#[utoipa::path(put, path = "/api/query-schedulers/{id}/", tag = "query-scheduler", security(("bearer" = [])), params(("id" = String, Path)), request_body = TaskBody,
    responses((status = 200, body = MessageData<TaskDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_task(
    State(s): State<AppState>,
    a: Authorized<perm::Edit>,
    Path(id): Path<String>,
    Json(body): Json<TaskBody>,
) -> ApiResult<axum::Json<MessageData<TaskDto>>> {
    s.app.scheduler.get(a.principal(), &id).await?;
    check_definition(&s, &body)?;
    let t = s
        .app
        .scheduler
        .update(a.principal(), &id, &body.input())
        .await?;
    Ok(updated("Query updated successfully", task_dto(&s, t).await))
}

/// Deletes a task and its schedule.
#[utoipa::path(delete, path = "/api/query-schedulers/{id}/", tag = "query-scheduler", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_task(
    State(s): State<AppState>,
    a: Authorized<perm::Delete>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    s.app.scheduler.delete(a.principal(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Active or paused.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskStatusBody {
    pub status: TaskStatus,
}

/// Pauses or resumes a task.
#[utoipa::path(post, path = "/api/query-schedulers/{id}/change-status/", tag = "query-scheduler", security(("bearer" = [])), params(("id" = String, Path)), request_body = TaskStatusBody,
    responses((status = 200, body = MessageData<TaskDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn change_task_status(
    State(s): State<AppState>,
    a: Authorized<perm::Edit>,
    Path(id): Path<String>,
    Json(body): Json<TaskStatusBody>,
) -> ApiResult<axum::Json<MessageData<TaskDto>>> {
    let t = s
        .app
        .scheduler
        .set_status(a.principal(), &id, body.status)
        .await?;
    Ok(updated(
        "Query status changed successfully",
        task_dto(&s, t).await,
    ))
}

/// Runs a task now: its reports are queued and mailed when written (answers the first). A
/// paused task runs this once and stays paused (the message says so); one paused because its
/// template was deleted answers 409 with the reason, as does a run no recipient may receive.
#[utoipa::path(post, path = "/api/query-schedulers/{id}/send-now/", tag = "query-scheduler", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 202, body = MessageData<ReportDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn send_now(
    State(s): State<AppState>,
    a: Authorized<perm::Edit>,
    Path(id): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let paused = s.app.scheduler.get(a.principal(), &id).await?.status == TaskStatus::Paused;
    let r = s.app.scheduler.send_now(a.principal(), &id).await?;
    let message = if paused {
        "Report queued once: the task stays paused"
    } else {
        "Report queued"
    };
    Ok((
        StatusCode::ACCEPTED,
        updated(message, report_dto(&s, r, &Reach::All).await),
    ))
}

/// The schedule of five cron fields in a zone.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NextRunsQuery {
    pub minute: Option<String>,
    pub hour: Option<String>,
    pub day_of_month: Option<String>,
    pub month: Option<String>,
    pub day_of_week: Option<String>,
    /// IANA zone.
    pub time_zone: Option<String>,
    /// How many runs (1–20, default 5).
    #[param(minimum = 1, maximum = 20)]
    pub count: Option<i64>,
}

/// A schedule's next runs.
#[derive(Debug, Serialize, ToSchema)]
pub struct NextRunsDto {
    pub runs: Vec<DateTime<Utc>>,
    /// The same schedule as EventBridge Scheduler reads it (in the zone).
    pub eventbridge: String,
}

/// The next runs of a schedule (the form's preview); 400 names the bad fields.
#[utoipa::path(get, path = "/api/query-schedulers/next-runs/", tag = "query-scheduler", security(("bearer" = [])), params(NextRunsQuery),
    responses((status = 200, body = Data<NextRunsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn next_runs(
    State(s): State<AppState>,
    _a: Authorized<perm::Define>,
    Query(q): Query<NextRunsQuery>,
) -> ApiResult<axum::Json<Data<NextRunsDto>>> {
    let cron = CronFields {
        minute: q.minute.unwrap_or_default(),
        hour: q.hour.unwrap_or_default(),
        day_of_month: q.day_of_month.unwrap_or_default(),
        month: q.month.unwrap_or_default(),
        day_of_week: q.day_of_week.unwrap_or_default(),
    };
    let (runs, eventbridge) = s.app.scheduler.preview(
        &cron,
        q.time_zone.as_deref().unwrap_or_default(),
        q.count.unwrap_or(5),
    )?;
    Ok(axum::Json(Data {
        data: NextRunsDto { runs, eventbridge },
    }))
}
