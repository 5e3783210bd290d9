//! Templates: saved definitions (only their author changes one; others copy it), and running one.

use super::report::*;
use crate::kit::dto::{Data, ListReply, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{generator_perm as perm, Authorized, Json, Query};
use crate::kit::reply::{created, updated};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::auth::Principal;
use vendfleet_app::generator::{
    FileFormat, GeneratorService, Graph, Module, ReportTemplate, Visibility,
};
use vendfleet_domain::reach::Reach;

/// A saved report definition.
#[derive(Debug, Serialize, ToSchema)]
pub struct TemplateDto {
    pub id: String,
    pub name: String,
    pub module: Module,
    pub params: BTreeMap<String, String>,
    pub format: FileFormat,
    pub graph: Graph,
    pub columns: Vec<String>,
    pub visibility: Visibility,
    pub created_by: UserRefDto,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
    /// Whether the caller may change or delete it (its author only).
    pub editable: bool,
    /// Whether the caller may copy it into a template of their own.
    pub copyable: bool,
}

async fn template_dto(s: &AppState, p: &Principal, t: ReportTemplate) -> TemplateDto {
    TemplateDto {
        editable: GeneratorService::template_editable(p, &t),
        copyable: GeneratorService::template_copyable(p, &t),
        created_by: user_ref(s, &t.owner_id).await,
        id: t.id,
        name: t.name,
        module: t.spec.module,
        params: t.spec.params,
        format: t.spec.format,
        graph: t.spec.graph,
        columns: t.spec.columns,
        visibility: t.visibility,
        created_at: t.created_at,
        updated_at: t.updated_at,
        version: t.version,
    }
}

crate::kit::fields::list_query! {
    /// The templates list's query.
    pub struct TemplatesQuery {
        page,
        page_size,
        /// Text in the name.
        search,
        /// `name` (default), `module`, `created_at`, `updated_at`; `-` for descending.
        #[param(pattern = r"^(-?(name|module|created_at|updated_at))?$")]
        ordering,
        /// Only this module's templates.
        #[param(value_type = Option<Module>, inline)]
        pub module: Option<String>,
    }
}

/// The templates the caller sees: public ones and their own.
#[utoipa::path(get, path = "/api/reports/generator/templates/", tag = "report-generator", security(("bearer" = [])), params(TemplatesQuery),
    responses((status = 200, body = ListReply<TemplateDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(super) async fn list_templates(
    State(s): State<AppState>,
    a: Authorized<perm::TemplatesList>,
    Query(q): Query<TemplatesQuery>,
) -> ApiResult<axum::Json<ListReply<TemplateDto>>> {
    let p = a.principal();
    let page = s
        .app
        .generator
        .list_templates(p, &q.list(), q.module.as_deref())
        .await?;
    let mut data = Vec::with_capacity(page.items.len());
    for t in page.items.clone() {
        data.push(template_dto(&s, p, t).await);
    }
    Ok(axum::Json(ListReply::of(&page, data)))
}

/// Saves a template.
#[utoipa::path(post, path = "/api/reports/generator/templates/", tag = "report-generator", security(("bearer" = [])), request_body = TemplateBody,
    responses((status = 201, body = MessageData<TemplateDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub(super) async fn create_template(
    State(s): State<AppState>,
    a: Authorized<perm::New>,
    Json(body): Json<TemplateBody>,
) -> ApiResult<impl IntoResponse> {
    let p = a.principal();
    checked(&s, &body).await?;
    let t = s.app.generator.create_template(p, &body.input()).await?;
    Ok(created(
        "Template created successfully",
        template_dto(&s, p, t).await,
    ))
}

/// One template.
#[utoipa::path(get, path = "/api/reports/generator/templates/{id}/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<TemplateDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn get_template(
    State(s): State<AppState>,
    a: Authorized<perm::TemplatesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<TemplateDto>>> {
    let p = a.principal();
    let t = s.app.generator.get_template(p, &id).await?;
    Ok(axum::Json(Data {
        data: template_dto(&s, p, t).await,
    }))
}

/// Changes a template (409 when `version` is not the stored one).
#[utoipa::path(put, path = "/api/reports/generator/templates/{id}/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)), request_body = TemplateBody,
    responses((status = 200, body = MessageData<TemplateDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn update_template(
    State(s): State<AppState>,
    a: Authorized<perm::EditTemplate>,
    Path(id): Path<String>,
    Json(body): Json<TemplateBody>,
) -> ApiResult<axum::Json<MessageData<TemplateDto>>> {
    let p = a.principal();
    s.app.generator.get_template(p, &id).await?;
    checked(&s, &body).await?;
    let t = s
        .app
        .generator
        .update_template(p, &id, &body.input())
        .await?;
    Ok(updated(
        "Template updated successfully",
        template_dto(&s, p, t).await,
    ))
}

/// Deletes a template (its reports stay).
#[utoipa::path(delete, path = "/api/reports/generator/templates/{id}/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn delete_template(
    State(s): State<AppState>,
    a: Authorized<perm::DeleteTemplate>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    s.app.generator.delete_template(a.principal(), &id).await?;
    s.app.scheduler.template_deleted(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A copy's name.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CopyTemplateBody {
    /// The copy's name (default: the original's). No control characters.
    #[schema(
        min_length = 1,
        max_length = 120,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
    )]
    pub name: Option<String>,
}

/// Copies a template the caller sees into a new private template of their own ("save as"):
/// the way to change another user's template.
#[utoipa::path(post, path = "/api/reports/generator/templates/{id}/copy/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)), request_body = CopyTemplateBody,
    responses((status = 201, body = MessageData<TemplateDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn copy_template(
    State(s): State<AppState>,
    a: Authorized<perm::New>,
    Path(id): Path<String>,
    Json(body): Json<CopyTemplateBody>,
) -> ApiResult<impl IntoResponse> {
    let p = a.principal();
    let t = s
        .app
        .generator
        .copy_template(p, &id, body.name.as_deref())
        .await?;
    Ok(created(
        "Template copied successfully",
        template_dto(&s, p, t).await,
    ))
}

/// Generates a template's report on the worker (answers at once; follow its progress).
#[utoipa::path(post, path = "/api/reports/generator/templates/{id}/generate/", tag = "report-generator", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 202, body = MessageData<ReportDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn generate_template(
    State(s): State<AppState>,
    a: Authorized<perm::Run>,
    Path(id): Path<String>,
) -> ApiResult<impl IntoResponse> {
    let r = s
        .app
        .generator
        .generate_template(a.principal(), &id)
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        updated("Report queued", report_dto(&s, r, &Reach::All).await),
    ))
}

/// The templates' routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_templates, create_template))
        .routes(routes!(get_template, update_template, delete_template))
        .routes(routes!(copy_template))
        .routes(routes!(generate_template))
}
