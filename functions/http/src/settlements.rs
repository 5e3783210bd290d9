//! Card settlements (`/api/settlements/…`, served by the reports function): the processors'
//! column mappings, importing a settlement file (all or nothing, idempotent), the imports'
//! history and the reconciliation of each machine-day's card sales with what was settled; and
//! the VAT report (`/api/vat/`).

use crate::dto::{Data, MessageData};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{settlements_perm as perm, Authorized, Json, Query};
use crate::reply::{created, updated};
use crate::state::AppState;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use base64::Engine;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::sales::SalesParams;
use vendfleet_app::settlements::{
    Columns, ImportInput, MappingInput, Payout, ReconRow, SettlementImport, SettlementMapping,
};
use vendfleet_domain::report::Choice;

/// The largest import body: a settlement file of about 7 MB, base64-encoded.
pub const MAX_IMPORT_BODY_BYTES: usize = 10 * 1024 * 1024;

/// The settlements routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_mappings, create_mapping))
        .routes(routes!(update_mapping, delete_mapping))
        .routes(routes!(list_imports))
        .routes(routes!(reconciliation))
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

/// An imported settlement file.
#[derive(Debug, Serialize, ToSchema)]
pub struct ImportDto {
    /// The file's digest: the same file again is the same import.
    pub id: String,
    pub mapping_id: String,
    pub processor: String,
    pub file_name: String,
    pub imported_at: DateTime<Utc>,
    pub imported_by: String,
    pub imported_by_name: String,
    pub rows: usize,
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    pub payouts: Vec<String>,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    /// The earlier imports whose payouts this file corrected.
    pub supersedes: Vec<String>,
    /// Payout reference → the later import that corrected it (those lines no longer count).
    pub superseded: BTreeMap<String, String>,
}

impl From<SettlementImport> for ImportDto {
    fn from(i: SettlementImport) -> Self {
        ImportDto {
            id: i.id,
            mapping_id: i.mapping_id,
            processor: i.processor,
            file_name: i.file_name,
            imported_at: i.imported_at,
            imported_by: i.imported_by,
            imported_by_name: i.imported_by_name,
            rows: i.rows,
            date_from: i.date_from,
            date_to: i.date_to,
            payouts: i.payouts,
            gross_minor: i.gross_minor,
            fees_minor: i.fees_minor,
            net_minor: i.net_minor,
            supersedes: i.supersedes,
            superseded: i.superseded,
        }
    }
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
    pub import: ImportDto,
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
        import: done.import.into(),
    };
    Ok(if dto.replayed {
        updated("This file was imported already: nothing changed", dto).into_response()
    } else {
        created("Settlement file imported", dto).into_response()
    })
}

#[utoipa::path(get, path = "/api/settlements/imports/", tag = "reports", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<ImportDto>>), (status = 403, body = ErrorBody)))]
async fn list_imports(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
) -> ApiResult<axum::Json<Data<Vec<ImportDto>>>> {
    let all = s.app.settlements.imports(a.principal()).await?;
    Ok(axum::Json(Data {
        data: all.into_iter().map(Into::into).collect(),
    }))
}

/// One machine-day: its card sales against what was settled.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReconRowDto {
    pub machine_id: String,
    pub machine_name: String,
    pub terminal_id: String,
    pub date: NaiveDate,
    pub currency: String,
    /// Cashless sales (the sales overview's figure).
    pub sales_minor: i64,
    pub transactions: i64,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    pub settled_count: i64,
    /// Settled gross − sales.
    pub difference_minor: i64,
    /// `matched`, `short`, `over`, `not_settled` or `settled_no_sales`.
    pub status: String,
    pub payouts: Vec<String>,
}

impl From<ReconRow> for ReconRowDto {
    fn from(r: ReconRow) -> Self {
        ReconRowDto {
            machine_id: r.machine_id,
            machine_name: r.machine_name,
            terminal_id: r.terminal_id,
            date: r.date,
            currency: r.currency,
            sales_minor: r.sales_minor,
            transactions: r.transactions,
            gross_minor: r.gross_minor,
            fees_minor: r.fees_minor,
            net_minor: r.net_minor,
            settled_count: r.settled_count,
            difference_minor: r.difference_minor,
            status: r.status.key().into(),
            payouts: r.payouts,
        }
    }
}

/// A payout of the period.
#[derive(Debug, Serialize, ToSchema)]
pub struct PayoutDto {
    pub reference: String,
    pub import_id: String,
    pub processor: String,
    pub file_name: String,
    pub lines: usize,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
}

impl From<Payout> for PayoutDto {
    fn from(p: Payout) -> Self {
        PayoutDto {
            reference: p.reference,
            import_id: p.import_id,
            processor: p.processor,
            file_name: p.file_name,
            lines: p.lines,
            gross_minor: p.gross_minor,
            fees_minor: p.fees_minor,
            net_minor: p.net_minor,
        }
    }
}

/// The totals of the reconciliation.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReconTotalsDto {
    pub sales_minor: i64,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    pub difference_minor: i64,
    /// Machine-days by status.
    pub by_status: BTreeMap<String, usize>,
}

/// The reconciliation of a period.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReconciliationDto {
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    pub rows: Vec<ReconRowDto>,
    pub totals: ReconTotalsDto,
    pub payouts: Vec<PayoutDto>,
}

#[utoipa::path(get, path = "/api/settlements/reconciliation/", tag = "reports", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<ReconciliationDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn reconciliation(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<ReconciliationDto>>> {
    let r = s.app.settlements.reconcile(a.principal(), &q).await?;
    Ok(axum::Json(Data {
        data: ReconciliationDto {
            date_from: r.date_from,
            date_to: r.date_to,
            rows: r.rows.into_iter().map(Into::into).collect(),
            totals: ReconTotalsDto {
                sales_minor: r.totals.sales_minor,
                gross_minor: r.totals.gross_minor,
                fees_minor: r.totals.fees_minor,
                net_minor: r.totals.net_minor,
                difference_minor: r.totals.difference_minor,
                by_status: r
                    .totals
                    .by_status
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            },
            payouts: r.payouts.into_iter().map(Into::into).collect(),
        },
    }))
}

// ----- the VAT report ---------------------------------------------------------------------

/// The VAT report's route.
pub fn vat_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(vat_report))
}

/// The VAT report's own parameter, beside the sales query's period and filters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VatQuery {
    /// `rate` (default), `client`, `location` or `month`.
    pub group: Option<String>,
}

/// Gross, net and VAT.
#[derive(Debug, Serialize, ToSchema)]
pub struct VatFiguresDto {
    pub quantity: i64,
    pub gross_minor: i64,
    pub net_minor: i64,
    pub vat_minor: i64,
}

impl From<vendfleet_app::reports::VatFigures> for VatFiguresDto {
    fn from(f: vendfleet_app::reports::VatFigures) -> Self {
        VatFiguresDto {
            quantity: f.quantity,
            gross_minor: f.gross_minor,
            net_minor: f.net_minor,
            vat_minor: f.vat_minor,
        }
    }
}

/// One group at one rate.
#[derive(Debug, Serialize, ToSchema)]
pub struct VatRowDto {
    pub key: String,
    pub name: String,
    /// Basis points: 550 is 5.5 %.
    pub rate_bps: u32,
    #[serde(flatten)]
    pub figures: VatFiguresDto,
}

/// One rate's totals.
#[derive(Debug, Serialize, ToSchema)]
pub struct VatRateDto {
    pub rate_bps: u32,
    #[serde(flatten)]
    pub figures: VatFiguresDto,
}

/// The VAT report.
#[derive(Debug, Serialize, ToSchema)]
pub struct VatReportDto {
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    pub group: String,
    pub rows: Vec<VatRowDto>,
    pub by_rate: Vec<VatRateDto>,
    pub taxable: VatFiguresDto,
    pub exempt: VatFiguresDto,
    pub total: VatFiguresDto,
    /// Sales taken in before the ledger kept rates (counted at their product's current rate).
    pub legacy_sales: i64,
}

#[utoipa::path(get, path = "/api/vat/", tag = "reports", security(("bearer" = [])), params(SalesParams, VatQuery),
    responses((status = 200, body = Data<VatReportDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn vat_report(
    State(s): State<AppState>,
    a: Authorized<perm::Vat>,
    Query(q): Query<SalesParams>,
    Query(v): Query<VatQuery>,
) -> ApiResult<axum::Json<Data<VatReportDto>>> {
    let r = s
        .app
        .reports
        .vat(a.principal(), &q, v.group.as_deref())
        .await?;
    Ok(axum::Json(Data {
        data: VatReportDto {
            date_from: r.date_from,
            date_to: r.date_to,
            group: r.group.key().into(),
            rows: r
                .rows
                .into_iter()
                .map(|row| VatRowDto {
                    key: row.key,
                    name: row.name,
                    rate_bps: row.rate_bps,
                    figures: row.figures.into(),
                })
                .collect(),
            by_rate: r
                .by_rate
                .into_iter()
                .map(|(rate_bps, f)| VatRateDto {
                    rate_bps,
                    figures: f.into(),
                })
                .collect(),
            taxable: r.taxable.into(),
            exempt: r.exempt.into(),
            total: r.total.into(),
            legacy_sales: r.legacy_sales,
        },
    }))
}
