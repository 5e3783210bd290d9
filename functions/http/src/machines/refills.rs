//! The refill log (every stock change, by users and by machines).

use crate::kit::dto::{Data, ListReply};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{machines_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::machines::{RefillEntry, RefillListParams};
use vendfleet_app::sales::SalesFilters;
use vendfleet_render::ReportParams;

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(refills))
        .routes(routes!(refill_totals))
        .routes(routes!(refill_visit))
        .routes(routes!(export_refills))
}

/// A line of the refill log.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefillDto {
    pub id: String,
    pub date: DateTime<Utc>,
    pub local_date: NaiveDate,
    #[serde(flatten)]
    pub stamp: crate::kit::dto::MachineStampDto,
    pub employee_id: String,
    pub employee: String,
    /// manual, fill-stock, empty-stock, copy-products, or machine (a refill the machine reported).
    pub source: String,
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub amount_added: i64,
    pub amount_removed: i64,
}

impl From<RefillEntry> for RefillDto {
    fn from(e: RefillEntry) -> Self {
        RefillDto {
            id: e.id,
            date: e.at,
            local_date: e.local_date,
            stamp: e.stamp.into(),
            employee_id: e.employee_id,
            employee: e.employee_name,
            source: e.source,
            selection: e.selection,
            product_id: e.product_id,
            product_name: e.product_name,
            amount_added: e.added,
            amount_removed: e.removed,
        }
    }
}

/// The refill log's page.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RefillPage {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
}

/// The refill log's own (older) filters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RefillsQuery {
    pub machine: Option<String>,
    pub location: Option<String>,
    /// First local day, YYYY-MM-DD (default: 30 days before `to`).
    #[param(value_type = Option<NaiveDate>)]
    pub from: Option<String>,
    /// Last local day, YYYY-MM-DD (default: today).
    #[param(value_type = Option<NaiveDate>)]
    pub to: Option<String>,
}

/// The refill log of the machines the user may see, newest first.
/// The reports' shared period and filters narrow it further; `from`/`to` apply when no period is
/// given.
#[utoipa::path(get, path = "/api/refills/", tag = "machines", security(("bearer" = [])), params(RefillPage, RefillsQuery, SalesFilters),
    responses((status = 200, body = ListReply<RefillDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn refills(
    State(s): State<AppState>,
    a: Authorized<perm::RefillLog>,
    Query(page): Query<RefillPage>,
    Query(q): Query<RefillsQuery>,
    Query(shared): Query<SalesFilters>,
) -> ApiResult<axum::Json<ListReply<RefillDto>>> {
    let mut params = refill_params(&s.app, a.principal(), q, shared).await?;
    params.page = page.page;
    params.page_size = page.page_size;
    let page = s.app.machines.refills(a.principal(), &params).await?;
    Ok(axum::Json(ListReply::from_page(page, RefillDto::from)))
}

/// The refill log's own parameters with the reports' shared ones resolved.
async fn refill_params(
    app: &vendfleet_app::App,
    p: &vendfleet_app::auth::Principal,
    q: RefillsQuery,
    shared: SalesFilters,
) -> ApiResult<RefillListParams> {
    let own = RefillListParams {
        machine: q.machine,
        location: q.location,
        from: q.from,
        to: q.to,
        ..RefillListParams::default()
    };
    Ok(app.reports.refill_params(p, &shared.into(), own).await?)
}

/// What a period's refills added and removed of one product.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductRefillsDto {
    pub product_id: String,
    pub product_name: String,
    pub amount_added: i64,
    pub amount_removed: i64,
    /// Added less removed.
    pub net: i64,
    /// Refill-log lines.
    pub lines: usize,
}

/// The refill log's totals by product over the same query (largest net first; paging ignored).
#[utoipa::path(get, path = "/api/refills/products/total/", tag = "machines", security(("bearer" = [])), params(RefillsQuery, SalesFilters),
    responses((status = 200, body = Data<Vec<ProductRefillsDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn refill_totals(
    State(s): State<AppState>,
    a: Authorized<perm::RefillTotals>,
    Query(q): Query<RefillsQuery>,
    Query(shared): Query<SalesFilters>,
) -> ApiResult<axum::Json<Data<Vec<ProductRefillsDto>>>> {
    let params = refill_params(&s.app, a.principal(), q, shared).await?;
    let totals = s.app.machines.refill_totals(a.principal(), &params).await?;
    Ok(axum::Json(Data {
        data: totals
            .into_iter()
            .map(|t| ProductRefillsDto {
                net: t.added - t.removed,
                product_id: t.product_id,
                product_name: t.product_name,
                amount_added: t.added,
                amount_removed: t.removed,
                lines: t.lines,
            })
            .collect(),
    }))
}

/// The products of the refill a log line belongs to: the lines of the same machine, employee
/// and source within 15 minutes of it, by selection. 404 for a line the user may not see.
#[utoipa::path(get, path = "/api/refills/{id}/products", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path, description = "A refill-log line's id")),
    responses((status = 200, body = Data<Vec<RefillDto>>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn refill_visit(
    State(s): State<AppState>,
    a: Authorized<perm::RefillLog>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<RefillDto>>>> {
    let lines = s.app.machines.refill_visit(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: lines.into_iter().map(RefillDto::from).collect(),
    }))
}

crate::kit::crud::export! {
    /// The refill log of the query as a file (every line; paging ignored).
    export_refills("/api/refills/export/", "machines") -> RefillLog as "refill-log",
    |s, a: perm::RefillExport, q: RefillsQuery, shared: SalesFilters| ReportParams {
        sales: shared.into(),
        refills: RefillListParams {
            machine: q.machine,
            location: q.location,
            from: q.from,
            to: q.to,
            ..RefillListParams::default()
        },
        ..ReportParams::default()
    },
    errors ((status = 400, body = ErrorBody), (status = 404, body = ErrorBody))
}
