//! The generator area's own resource (the handlers the other files of the area build on).

use crate::kit::dto::{Data, ListReply, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{generator_perm as perm, Authorized, Json, Query, SignedIn};
use crate::kit::reply::{tr, updated};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::generator::{
    FileFormat, GeneratedReport, GeneratorService, Graph, Module, Origin, ReportStatus,
    TemplateInput, Visibility,
};
use vendfleet_app::listing::ListParams;
use vendfleet_domain::reach::Reach;
use vendfleet_domain::report::Choice;
use vendfleet_domain::Language;
use vendfleet_render::generator as render;

/// The generator's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(generate))
        .routes(routes!(preview))
        .routes(routes!(columns))
        .routes(routes!(list_reports))
        .routes(routes!(get_report, delete_report))
        .routes(routes!(progress))
        .routes(routes!(export))
        .routes(routes!(change_status))
}

/// The generator's option lists.
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(modules))
}

pub(super) fn module_label(lang: Language, m: vendfleet_app::generator::Module) -> String {
    use vendfleet_app::generator::Module;
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    match m {
        Module::SalesOverview => t("Sales overview", "Aperçu des ventes", "Panoramica vendite"),
        Module::Encashment => t("Encashment", "Encaissement", "Incasso"),
        Module::RefillLog => t(
            "Refill log",
            "Journal des réassorts",
            "Registro rifornimenti",
        ),
        Module::Inventory => t("Inventory", "Inventaire", "Inventario"),
        Module::TransactionLog => t(
            "Transaction log",
            "Journal des transactions",
            "Registro transazioni",
        ),
    }
}

/// The report modules, for the generator and the scheduler (`id` is the module key).
pub fn module_options(lang: Language) -> Vec<(String, String)> {
    vendfleet_app::generator::Module::ALL
        .iter()
        .map(|m| (m.key().to_string(), module_label(lang, *m)))
        .collect()
}

crate::kit::crud::options! {
    /// The modules a report can be made of.
    modules("/api/filters/reports/generator/modules/"),
    |_s, a: SignedIn| module_options(a.principal().user.language)
}

/// A user as a list shows them.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserRefDto {
    pub id: String,
    pub name: String,
}

pub(super) async fn user_ref(s: &AppState, id: &str) -> UserRefDto {
    let name = match s.app.users.directory().user(id).await {
        Ok(Some(u)) => u.name,
        _ => String::new(),
    };
    UserRefDto {
        id: id.to_string(),
        name,
    }
}

super::definition::definition_form! {
    /// A report definition as a form sends it.
    #[derive(Debug, Clone, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    pub struct TemplateBody {
        #[schema(value_type = Module)]
        module;
        /// `public` or `private` (default).
        #[serde(default)]
        #[schema(value_type = Option<Visibility>)]
        pub visibility: String,
        /// The version loaded (updates only).
        #[schema(minimum = 1)]
        pub version: Option<u64>,
    }
}

impl TemplateBody {
    pub(super) fn input(mut self) -> TemplateInput {
        TemplateInput {
            spec: self.definition(),
            name: self.name,
            visibility: self.visibility,
            version: self.version,
        }
    }
}

/// One generated report.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportDto {
    pub id: String,
    pub name: String,
    pub module: Module,
    pub template_id: Option<String>,
    /// The scheduled task that asked for it.
    pub task_id: Option<String>,
    /// A scheduled report's recipients (the file is cut to what they may see).
    pub recipients: Vec<String>,
    pub format: FileFormat,
    pub graph: Graph,
    pub visibility: Visibility,
    pub status: ReportStatus,
    /// Whether the caller may download its file now: `false` when it covers machines beyond
    /// their current access (`unavailable_reason` says so).
    pub available: bool,
    pub unavailable_reason: Option<String>,
    pub archived: bool,
    /// 0 to 100.
    pub progress: u8,
    pub error: Option<String>,
    /// Data rows written (when done).
    pub rows: u64,
    pub file_name: String,
    pub requested_by: UserRefDto,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// The DTO of a report, for a reader who sees `seen` of the fleet.
pub async fn report_dto(
    s: &AppState,
    r: GeneratedReport,
    seen: &vendfleet_domain::reach::Reach,
) -> ReportDto {
    let unavailable_reason = GeneratorService::file_refusal(&r, seen);
    ReportDto {
        requested_by: user_ref(s, &r.owner_id).await,
        available: unavailable_reason.is_none(),
        unavailable_reason,
        recipients: r
            .audience
            .as_ref()
            .map(|a| a.addresses.clone())
            .unwrap_or_default(),
        id: r.id,
        name: r.name,
        module: r.spec.module,
        template_id: r.template_id,
        task_id: r.task_id,
        format: r.spec.format,
        graph: r.spec.graph,
        visibility: r.visibility,
        status: r.status,
        archived: r.archived,
        progress: r.progress,
        error: r.error,
        rows: r.rows,
        file_name: r.file_name,
        created_at: r.created_at,
        updated_at: r.updated_at,
        finished_at: r.finished_at,
    }
}

/// Generates an ad-hoc report on the worker (answers at once; follow its progress).
#[utoipa::path(post, path = "/api/reports/generator/generate/", tag = "report-generator", security(("bearer" = [])), request_body = TemplateBody,
    responses((status = 202, body = MessageData<ReportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(super) async fn generate(
    State(s): State<AppState>,
    a: Authorized<perm::Run>,
    Json(body): Json<TemplateBody>,
) -> ApiResult<impl IntoResponse> {
    let p = a.principal();
    checked(&s, &body).await?;
    let input = body.input();
    let mut errors = vendfleet_domain::FieldErrors::new();
    let name = vendfleet_domain::validation::required_text(&mut errors, "name", &input.name, 120);
    let visibility = match input.visibility.trim() {
        "public" => vendfleet_app::generator::Visibility::Public,
        "private" | "" => vendfleet_app::generator::Visibility::Private,
        _ => {
            errors.add("visibility", "Choose one of: public, private.");
            vendfleet_app::generator::Visibility::Private
        }
    };
    let spec = vendfleet_app::generator::check_spec(&input.spec, &mut errors);
    errors
        .into_result()
        .map_err(vendfleet_app::AppError::from)?;
    let r = s
        .app
        .generator
        .submit(
            p,
            name,
            visibility,
            spec.expect("checked"),
            Origin::default(),
        )
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        updated("Report queued", report_dto(&s, r, &Reach::All).await),
    ))
}

/// The first rows of a definition's report, as text.
#[derive(Debug, Serialize, ToSchema)]
pub struct PreviewDto {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Rows the whole report would have.
    pub total_rows: u64,
}

/// A live preview of a definition: its first 20 rows.
#[utoipa::path(post, path = "/api/reports/generator/preview/", tag = "report-generator", security(("bearer" = [])), request_body = TemplateBody,
    responses((status = 200, body = Data<PreviewDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(super) async fn preview(
    State(s): State<AppState>,
    a: Authorized<perm::Define>,
    Json(body): Json<TemplateBody>,
) -> ApiResult<axum::Json<Data<PreviewDto>>> {
    let p = a.principal();
    let mut errors = vendfleet_domain::FieldErrors::new();
    let spec = vendfleet_app::generator::check_spec(&body.clone().input().spec, &mut errors);
    errors
        .into_result()
        .map_err(vendfleet_app::AppError::from)?;
    let spec = spec.expect("checked");
    vendfleet_app::generator::require_module(p, spec.module)?;
    render::check_params(&s.app, &spec)?;
    let (header, rows, total_rows) = render::preview(&s.app, p, &spec).await?;
    Ok(axum::Json(Data {
        data: PreviewDto {
            header,
            rows,
            total_rows,
        },
    }))
}

/// A module's selectable columns.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ColumnsQuery {
    /// A module key.
    #[param(value_type = Module, inline)]
    pub module: String,
    /// The inventory's tab (`products`, `components`).
    #[param(value_type = Option<crate::kit::contract::InventoryTabKey>, inline)]
    pub tab: Option<String>,
}

/// A selectable column (`id` is its key).
#[utoipa::path(get, path = "/api/reports/generator/columns/", tag = "report-generator", security(("bearer" = [])), params(ColumnsQuery),
    responses((status = 200, body = Data<Vec<crate::kit::dto::OptionDto>>), (status = 400, body = ErrorBody)))]
pub(super) async fn columns(
    a: Authorized<perm::Define>,
    Query(q): Query<ColumnsQuery>,
) -> ApiResult<axum::Json<Data<Vec<crate::kit::dto::OptionDto>>>> {
    let module = vendfleet_app::generator::Module::from_key(&q.module)
        .ok_or_else(|| vendfleet_app::AppError::invalid_field("module", "Not a report module."))?;
    let lang = a.principal().user.language;
    let columns = render::module_columns(module, q.tab.as_deref())?;
    Ok(axum::Json(Data {
        data: columns
            .iter()
            .map(|c| crate::kit::dto::OptionDto {
                id: c.key.into(),
                name: tr(lang, c.en, c.fr, c.it),
            })
            .collect(),
    }))
}

crate::kit::fields::list_query! {
    /// The reports list's query.
    pub struct ReportsQuery {
        page,
        page_size,
        /// Text in the name.
        search,
        /// `created_at` (default, newest first), `name`, `status`, `module`; `-` for descending.
        #[param(pattern = r"^(-?(name|created_at|status|module))?$")]
        ordering,
        /// `true` for the archived reports (default `false`).
        #[param(value_type = Option<crate::kit::contract::Flag>, inline)]
        pub archived: Option<String>,
    }
}

/// The reports the caller sees: their own, and public ones over machines they all see.
#[utoipa::path(get, path = "/api/reports/generator/reports/", tag = "report-generator", security(("bearer" = [])), params(ReportsQuery),
    responses((status = 200, body = ListReply<ReportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(super) async fn list_reports(
    State(s): State<AppState>,
    a: Authorized<perm::ReportsList>,
    Query(q): Query<ReportsQuery>,
) -> ApiResult<axum::Json<ListReply<ReportDto>>> {
    let archived = match q.archived.as_deref().map(str::trim) {
        None | Some("") | Some("false") => false,
        Some("true") => true,
        Some(_) => {
            return Err(
                vendfleet_app::AppError::invalid_field("archived", "Use true or false.").into(),
            )
        }
    };
    let list: ListParams = q.list();
    let page = s
        .app
        .generator
        .list_reports(a.principal(), &list, archived)
        .await?;
    let seen = s.app.generator.reach_of(a.principal()).await?;
    let mut data = Vec::with_capacity(page.items.len());
    for r in page.items.clone() {
        data.push(report_dto(&s, r, &seen).await);
    }
    Ok(axum::Json(ListReply::of(&page, data)))
}

/// One report.
#[utoipa::path(get, path = "/api/reports/generator/reports/{id}/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ReportDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn get_report(
    State(s): State<AppState>,
    a: Authorized<perm::ReportsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ReportDto>>> {
    let (r, seen) = s.app.generator.report_seen(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: report_dto(&s, r, &seen).await,
    }))
}

/// Deletes a report and its file (409 while it is being written).
#[utoipa::path(delete, path = "/api/reports/generator/reports/{id}/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn delete_report(
    State(s): State<AppState>,
    a: Authorized<perm::DeleteReport>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    s.app.generator.delete_report(a.principal(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Where a report stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProgressDto {
    pub id: String,
    pub status: ReportStatus,
    /// 0 to 100.
    pub progress: u8,
    /// Why it failed (or why the last attempt failed, while it is retried).
    pub error: Option<String>,
    pub archived: bool,
}

/// A report's progress.
#[utoipa::path(get, path = "/api/reports/generator/progress/{id}/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ProgressDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn progress(
    State(s): State<AppState>,
    a: Authorized<perm::ReportsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ProgressDto>>> {
    let r = s.app.generator.get_report(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: ProgressDto {
            id: r.id,
            status: r.status,
            progress: r.progress,
            error: r.error,
            archived: r.archived,
        },
    }))
}

/// Downloads a finished report: a redirect to a short-lived link to its file (a signed path
/// of this server embedded, a presigned S3 URL on AWS). 409 while it is not done.
#[utoipa::path(get, path = "/api/reports/generator/{id}/export/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 307, description = "To the file"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn export(
    State(s): State<AppState>,
    a: Authorized<perm::ReportsList>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let p = a.principal();
    let (url, r) = s.app.generator.download_url(p, &id).await?;
    s.app
        .audit
        .record(vendfleet_app::audit::NewExit {
            kind: vendfleet_app::audit::ExitKind::ReportDownload,
            user_id: p.user.id.clone(),
            what: r.spec.definition(&r.name),
            file_name: r.file_name.clone(),
            reach: r.scope.clone().unwrap_or_else(|| Reach::All.into()),
            recipients: Vec::new(),
            rows: Some(r.rows),
            report_id: Some(r.id.clone()),
            task_id: r.task_id.clone(),
        })
        .await?;
    Ok((
        StatusCode::TEMPORARY_REDIRECT,
        [
            (header::LOCATION, url),
            (header::CACHE_CONTROL, "no-store".into()),
        ],
    )
        .into_response())
}

/// Archive or restore.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeStatusBody {
    pub status: ArchiveStatus,
}

/// Whether a report is archived.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArchiveStatus {
    Archived,
    Active,
}

/// Archives or restores a finished report (409 while it is queued or running).
#[utoipa::path(post, path = "/api/reports/generator/reports/{id}/change-status/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)), request_body = ChangeStatusBody,
    responses((status = 200, body = MessageData<ReportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn change_status(
    State(s): State<AppState>,
    a: Authorized<perm::ReportsList>,
    Path(id): Path<String>,
    Json(body): Json<ChangeStatusBody>,
) -> ApiResult<axum::Json<MessageData<ReportDto>>> {
    let archived = body.status == ArchiveStatus::Archived;
    let r = s
        .app
        .generator
        .set_archived(a.principal(), &id, archived)
        .await?;
    let message = if archived {
        "Report archived successfully"
    } else {
        "Report restored successfully"
    };
    let seen = s.app.generator.reach_of(a.principal()).await?;
    Ok(updated(message, report_dto(&s, r, &seen).await))
}

/// A definition's keys first (clear messages), then the module's own parameters.
pub(super) async fn checked(s: &AppState, body: &TemplateBody) -> ApiResult<()> {
    // The keys first (clear messages), then the module's own parameters.
    let mut errors = vendfleet_domain::FieldErrors::new();
    if let Some(spec) =
        vendfleet_app::generator::check_spec(&body.clone().input().spec, &mut errors)
    {
        errors
            .into_result()
            .map_err(vendfleet_app::AppError::from)?;
        render::check_params(&s.app, &spec)?;
    }
    Ok(())
}
