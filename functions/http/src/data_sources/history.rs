//! History imports (`/api/settings/data-sources/mappings/…` and `…/imports/…`,
//! docs/history-import.md): the saved column mappings, a file uploaded in parts, its preview
//! and its booking, each a background job.

use crate::kit::crud;
use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{settings_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::data_sources::history::{
    HistoryColumns, HistoryImport, HistoryMapping, Preview, MAX_PART_BYTES,
};
use vendfleet_app::data_sources::HistoryMappingInput;

/// The history import's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_history_mappings, create_history_mapping))
        .routes(routes!(update_history_mapping, delete_history_mapping))
        .routes(routes!(list_history_imports, create_history_import))
        .routes(routes!(get_history_import, delete_history_import))
        .routes(routes!(preview_history_import))
        .routes(routes!(book_history_import))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(put_history_part))
                .layer(DefaultBodyLimit::max(MAX_PART_BYTES)),
        )
}

/// A mapping to save (a change names the `version` it was loaded at).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryMappingBody {
    #[schema(max_length = 80)]
    pub name: String,
    pub columns: HistoryColumns,
    /// chrono format of the date (and time) texts; `A|B`: either. Default `%Y-%m-%d %H:%M:%S`.
    #[serde(default)]
    pub date_format: Option<String>,
    /// Default `%H:%M:%S`.
    #[serde(default)]
    pub time_format: Option<String>,
    /// `machine` (default: each machine's zone) or an IANA zone.
    #[serde(default)]
    pub zone: Option<String>,
    /// `.` (default) or `,`.
    #[serde(default)]
    pub decimal_separator: Option<String>,
    #[serde(default)]
    pub cash_values: Option<Vec<String>>,
    #[serde(default)]
    pub skip_values: Option<Vec<String>>,
    #[serde(default)]
    pub version: Option<u64>,
}

crate::kit::fields::from_fields! {
    HistoryMappingBody => HistoryMappingInput {
        name, columns, date_format, time_format, zone, decimal_separator, cash_values,
        skip_values, version
    }
}

/// An import as shown: its record and, once previewed, what it would book.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryImportDto {
    #[serde(flatten)]
    pub import: HistoryImport,
    pub version: u64,
    /// Once previewed (only in one import's answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<Preview>,
}

impl HistoryImportDto {
    fn of(import: HistoryImport, preview: Option<Preview>) -> HistoryImportDto {
        HistoryImportDto {
            version: import.version,
            import,
            preview,
        }
    }
}

/// A mapping as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryMappingDto {
    #[serde(flatten)]
    pub mapping: HistoryMapping,
    pub version: u64,
}

impl From<HistoryMapping> for HistoryMappingDto {
    fn from(mapping: HistoryMapping) -> Self {
        HistoryMappingDto {
            version: mapping.version,
            mapping,
        }
    }
}

/// The saved mappings, by name.
#[utoipa::path(get, path = "/api/settings/data-sources/mappings/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<HistoryMappingDto>>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_history_mappings(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesImport>,
) -> ApiResult<axum::Json<Data<Vec<HistoryMappingDto>>>> {
    let all = s.app.data_sources.history_mappings(a.principal()).await?;
    Ok(axum::Json(Data {
        data: all.into_iter().map(Into::into).collect(),
    }))
}

crud::create! {
    /// Saves a new mapping of a vendor's transaction exports.
    create_history_mapping("/api/settings/data-sources/mappings/", "settings") -> HistoryMappingDto,
    "Mapping created successfully",
    |s, a: perm::DataSourcesImport, f: HistoryMappingBody| {
        s.app.data_sources.save_history_mapping(a.principal(), None, f.into()).await?.into()
    }
}

crud::update! {
    /// Changes a mapping.
    update_history_mapping("/api/settings/data-sources/mappings/{id}/", "settings") -> HistoryMappingDto,
    "Mapping updated successfully",
    |s, a: perm::DataSourcesImport, id, f: HistoryMappingBody| {
        s.app.data_sources.save_history_mapping(a.principal(), Some(&id), f.into()).await?.into()
    }
}

crud::delete! {
    /// Deletes a mapping (what its imports booked stays booked).
    delete_history_mapping("/api/settings/data-sources/mappings/{id}/", "settings"), "Mapping deleted successfully",
    |s, a: perm::DataSourcesImport, id| s.app.data_sources.delete_history_mapping(a.principal(), &id).await?
}

/// The imports, newest first (without their previews).
#[utoipa::path(get, path = "/api/settings/data-sources/imports/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<HistoryImportDto>>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_history_imports(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesImport>,
) -> ApiResult<axum::Json<Data<Vec<HistoryImportDto>>>> {
    let all = s.app.data_sources.history_imports(a.principal()).await?;
    Ok(axum::Json(Data {
        data: all
            .into_iter()
            .map(|i| HistoryImportDto::of(i, None))
            .collect(),
    }))
}

/// A new import: the file's name and how it reads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewHistoryImportBody {
    #[schema(max_length = 200)]
    pub file_name: String,
    /// A saved mapping's id, or `nayax` for Nayax Core's export.
    pub mapping_id: String,
}

crud::create! {
    /// Starts an import (its file is uploaded next, in parts).
    create_history_import("/api/settings/data-sources/imports/", "settings") -> HistoryImportDto,
    "Import created successfully",
    |s, a: perm::DataSourcesImport, f: NewHistoryImportBody| {
        let import = s.app.data_sources
            .create_history_import(a.principal(), &f.file_name, &f.mapping_id)
            .await?;
        HistoryImportDto::of(import, None)
    }
}

crud::get! {
    /// One import, with its preview once previewed.
    get_history_import("/api/settings/data-sources/imports/{id}/", "settings") -> HistoryImportDto,
    |s, a: perm::DataSourcesImport, id| {
        let (import, preview) = s.app.data_sources.history_import(a.principal(), &id).await?;
        HistoryImportDto::of(import, preview)
    }
}

crud::delete! {
    /// Deletes an import and its file (what it booked stays booked).
    delete_history_import("/api/settings/data-sources/imports/{id}/", "settings"), "Import deleted successfully",
    |s, a: perm::DataSourcesImport, id| s.app.data_sources.delete_history_import(a.principal(), &id).await?
}

/// Stores part `n` (from 0, in order) of the import's file: its raw bytes, at most 5 MiB.
#[utoipa::path(put, path = "/api/settings/data-sources/imports/{id}/parts/{n}/", tag = "settings", security(("bearer" = [])),
    params(("id" = String, Path), ("n" = u32, Path)),
    request_body(content = Vec<u8>, content_type = "application/octet-stream"),
    responses((status = 200, body = Data<HistoryImportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody)))]
async fn put_history_part(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesImport>,
    Path((id, n)): Path<(String, u32)>,
    body: axum::body::Bytes,
) -> ApiResult<axum::Json<Data<HistoryImportDto>>> {
    let import = s
        .app
        .data_sources
        .put_history_part(a.principal(), &id, n, body.to_vec())
        .await?;
    Ok(axum::Json(Data {
        data: HistoryImportDto::of(import, None),
    }))
}

/// Queues the reading of the whole file into a preview (nothing booked).
#[utoipa::path(post, path = "/api/settings/data-sources/imports/{id}/preview/", tag = "settings", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 202, body = MessageData<HistoryImportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn preview_history_import(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesImport>,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, axum::Json<MessageData<HistoryImportDto>>)> {
    let import = s
        .app
        .data_sources
        .preview_history(a.principal(), &id)
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        updated("Preview queued", HistoryImportDto::of(import, None)),
    ))
}

/// How to book.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryBookBody {
    /// Book the good rows of a file with rows in error.
    #[serde(default)]
    pub skip_bad_rows: bool,
}

/// Queues the booking of a previewed file, exactly once.
#[utoipa::path(post, path = "/api/settings/data-sources/imports/{id}/book/", tag = "settings", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = HistoryBookBody,
    responses((status = 202, body = MessageData<HistoryImportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn book_history_import(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesImport>,
    Path(id): Path<String>,
    Json(b): Json<HistoryBookBody>,
) -> ApiResult<(StatusCode, axum::Json<MessageData<HistoryImportDto>>)> {
    let import = s
        .app
        .data_sources
        .book_history(a.principal(), &id, b.skip_bad_rows)
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        updated("Booking queued", HistoryImportDto::of(import, None)),
    ))
}
