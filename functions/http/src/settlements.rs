//! Card settlements (`/api/settlements/…`, served by the reports function): the processors'
//! column mappings, importing a settlement file (all or nothing, idempotent), the imports'
//! history and the reconciliation of each machine-day's card sales with what was settled; and
//! the VAT report (`/api/vat/`).

use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{settlements_perm as perm, Authorized, Json, Query};
use crate::kit::reply::{created, updated};
use crate::kit::state::AppState;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use base64::Engine;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::reports::VatReport;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::settlements::{
    Columns, ImportInput, MappingInput, Reconciliation, SettlementImport, SettlementMapping,
};

pub use crate::kit::extract::MAX_IMPORT_BODY_BYTES;

/// The settlements routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_mappings, create_mapping))
        .routes(routes!(update_mapping, delete_mapping))
        .routes(routes!(list_imports))
        .routes(routes!(reconciliation))
        .routes(routes!(export_reconciliation))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(import_file))
                .layer(DefaultBodyLimit::max(MAX_IMPORT_BODY_BYTES)),
        )
}

/// A processor's mapping: which column of its files holds each field.
#[derive(Debug, Serialize, ToSchema)]
pub struct MappingDto {
    pub id: String,
    pub name: String,
    pub columns: Columns,
    pub date_format: String,
    pub decimal_separator: String,
    pub amounts_in_minor: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

impl From<SettlementMapping> for MappingDto {
    fn from(m: SettlementMapping) -> Self {
        MappingDto {
            id: m.id,
            name: m.name,
            columns: m.columns,
            date_format: m.date_format,
            decimal_separator: m.decimal_separator.to_string(),
            amounts_in_minor: m.amounts_in_minor,
            created_at: m.created_at,
            updated_at: m.updated_at,
            version: m.version,
        }
    }
}

/// A mapping to save.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MappingBody {
    /// The processor's name (unique).
    pub name: String,
    pub columns: Columns,
    /// chrono format of a CSV file's dates (default `%Y-%m-%d`).
    pub date_format: Option<String>,
    /// `.` (default) or `,`.
    pub decimal_separator: Option<String>,
    /// Amounts in minor units (cents) rather than major units.
    #[serde(default)]
    pub amounts_in_minor: bool,
    pub version: Option<u64>,
}

impl From<MappingBody> for MappingInput {
    fn from(b: MappingBody) -> Self {
        MappingInput {
            name: b.name,
            columns: b.columns,
            date_format: b.date_format,
            decimal_separator: b.decimal_separator,
            amounts_in_minor: b.amounts_in_minor,
            version: b.version,
        }
    }
}

#[utoipa::path(get, path = "/api/settlements/mappings/", tag = "reports", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<MappingDto>>), (status = 403, body = ErrorBody)))]
async fn list_mappings(
    State(s): State<AppState>,
    a: Authorized<perm::Import>,
) -> ApiResult<axum::Json<Data<Vec<MappingDto>>>> {
    let all = s.app.settlements.mappings(a.principal()).await?;
    Ok(axum::Json(Data {
        data: all.into_iter().map(Into::into).collect(),
    }))
}

#[utoipa::path(post, path = "/api/settlements/mappings/", tag = "reports", security(("bearer" = [])), request_body = MappingBody,
    responses((status = 201, body = MessageData<MappingDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_mapping(
    State(s): State<AppState>,
    a: Authorized<perm::Import>,
    Json(b): Json<MappingBody>,
) -> ApiResult<impl IntoResponse> {
    let m = s
        .app
        .settlements
        .save_mapping(a.principal(), None, &b.into())
        .await?;
    Ok(created("Mapping created successfully", MappingDto::from(m)))
}

#[utoipa::path(put, path = "/api/settlements/mappings/{id}/", tag = "reports", security(("bearer" = [])), params(("id" = String, Path)), request_body = MappingBody,
    responses((status = 200, body = MessageData<MappingDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_mapping(
    State(s): State<AppState>,
    a: Authorized<perm::Import>,
    Path(id): Path<String>,
    Json(b): Json<MappingBody>,
) -> ApiResult<impl IntoResponse> {
    let m = s
        .app
        .settlements
        .save_mapping(a.principal(), Some(&id), &b.into())
        .await?;
    Ok(updated("Mapping updated successfully", MappingDto::from(m)))
}

#[utoipa::path(delete, path = "/api/settlements/mappings/{id}/", tag = "reports", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_mapping(
    State(s): State<AppState>,
    a: Authorized<perm::Import>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    s.app.settlements.delete_mapping(a.principal(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A file to import.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportBody {
    pub mapping_id: String,
    /// The file's name (`.xlsx`: a workbook, else CSV).
    pub file_name: String,
    /// The file, base64-encoded.
    pub content_base64: String,
}

/// An import's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportedDto {
    pub import: SettlementImport,
    /// True when this file had been imported before: nothing changed.
    pub replayed: bool,
}

#[utoipa::path(post, path = "/api/settlements/imports/", tag = "reports", security(("bearer" = [])), request_body = ImportBody,
    responses((status = 201, body = MessageData<ImportedDto>), (status = 200, description = "The same file again: nothing changed", body = MessageData<ImportedDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody)))]
async fn import_file(
    State(s): State<AppState>,
    a: Authorized<perm::Import>,
    Json(b): Json<ImportBody>,
) -> ApiResult<axum::response::Response> {
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b.content_base64.trim())
        .map_err(|_| {
            vendfleet_app::AppError::invalid_field("content_base64", "The file is not base64.")
        })?;
    let done = s
        .app
        .settlements
        .import(
            a.principal(),
            &ImportInput {
                mapping_id: b.mapping_id,
                file_name: b.file_name,
                bytes,
            },
        )
        .await?;
    let dto = ImportedDto {
        replayed: done.replayed,
        import: done.import,
    };
    Ok(if dto.replayed {
        updated("This file was imported already: nothing changed", dto).into_response()
    } else {
        created("Settlement file imported", dto).into_response()
    })
}

#[utoipa::path(get, path = "/api/settlements/imports/", tag = "reports", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<SettlementImport>>), (status = 403, body = ErrorBody)))]
async fn list_imports(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
) -> ApiResult<axum::Json<Data<Vec<SettlementImport>>>> {
    let data = s.app.settlements.imports(a.principal()).await?;
    Ok(axum::Json(Data { data }))
}

#[utoipa::path(get, path = "/api/settlements/reconciliation/", tag = "reports", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<Reconciliation>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn reconciliation(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<Reconciliation>>> {
    let data = s.app.settlements.reconcile(a.principal(), &q).await?;
    Ok(axum::Json(Data { data }))
}

/// The reconciliation as a file: each machine-day of the query.
#[utoipa::path(get, path = "/api/settlements/reconciliation/export/", tag = "reports", security(("bearer" = [])),
    params(SalesParams, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn export_reconciliation(
    State(s): State<AppState>,
    a: Authorized<perm::Export>,
    Query(q): Query<SalesParams>,
    Query(x): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<axum::response::Response> {
    let format = crate::kit::export::Format::parse(x.format.as_deref())?;
    let table =
        vendfleet_render::tables::money::reconciliation_table(&s.app, a.principal(), &q).await?;
    crate::kit::export::answer(table, &s, a.requester(), format, "card-settlements").await
}

// ----- the VAT report ---------------------------------------------------------------------

/// The VAT report's route.
pub fn vat_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(vat_report))
        .routes(routes!(export_vat))
}

/// The VAT report's own parameter, beside the sales query's period and filters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VatQuery {
    /// `rate` (default), `client`, `location` or `month`.
    pub group: Option<String>,
}

#[utoipa::path(get, path = "/api/vat/", tag = "reports", security(("bearer" = [])), params(SalesParams, VatQuery),
    responses((status = 200, body = Data<VatReport>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn vat_report(
    State(s): State<AppState>,
    a: Authorized<perm::Vat>,
    Query(q): Query<SalesParams>,
    Query(v): Query<VatQuery>,
) -> ApiResult<axum::Json<Data<VatReport>>> {
    let data = s
        .app
        .reports
        .vat(a.principal(), &q, v.group.as_deref())
        .await?;
    Ok(axum::Json(Data { data }))
}

/// The VAT report as a file: the groups at each rate, each rate, taxable, exempt and the total.
#[utoipa::path(get, path = "/api/vat/export/", tag = "reports", security(("bearer" = [])),
    params(SalesParams, VatQuery, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn export_vat(
    State(s): State<AppState>,
    a: Authorized<perm::VatExport>,
    Query(q): Query<SalesParams>,
    Query(v): Query<VatQuery>,
    Query(x): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<axum::response::Response> {
    let format = crate::kit::export::Format::parse(x.format.as_deref())?;
    let table =
        vendfleet_render::tables::money::vat_table(&s.app, a.principal(), &q, v.group.as_deref())
            .await?;
    crate::kit::export::answer(table, &s, a.requester(), format, "vat").await
}
