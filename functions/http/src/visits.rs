//! The visit ledger (`/api/visit-ledger/…`, served by the reports function): every cash
//! collection beside the previous one, the cash sales since, the tubes before and after, what was
//! counted, the variance and the records that explain it; totals by employee and by machine with
//! a trend; the export.

use crate::kit::dto::{Data, ListReply};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{settlements_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::listing::ListParams;
use vendfleet_app::reports::{VisitLine, VisitParams, VisitSummary};
use vendfleet_app::sales::SalesParams;

/// The visit ledger's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(visit_ledger))
        .routes(routes!(visit_summary))
        .routes(routes!(export_visit_ledger))
}

/// The visit ledger's own parameters, beside the sales query's period and machine filters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VisitQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    /// Employee ids, comma-separated.
    pub employees: Option<String>,
    /// Statuses, comma-separated: `first`, `matched`, `explained`, `unexplained`.
    pub status: Option<String>,
}

fn params(sales: SalesParams, v: VisitQuery) -> VisitParams {
    VisitParams {
        sales,
        employees: v.employees,
        status: v.status,
        list: ListParams {
            page: v.page,
            page_size: v.page_size,
            ..ListParams::default()
        },
    }
}

/// The period's collections of the machines the user may see, newest first, each with the
/// chain behind it and what explains its variance.
#[utoipa::path(get, path = "/api/visit-ledger/", tag = "reports", security(("bearer" = [])), params(SalesParams, VisitQuery),
    responses((status = 200, body = ListReply<VisitLine>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn visit_ledger(
    State(s): State<AppState>,
    a: Authorized<perm::VisitLedger>,
    Query(q): Query<SalesParams>,
    Query(v): Query<VisitQuery>,
) -> ApiResult<axum::Json<ListReply<VisitLine>>> {
    let page = s
        .app
        .reports
        .visit_ledger(a.principal(), &params(q, v))
        .await?;
    Ok(axum::Json(ListReply::from_page(page, |l| l)))
}

/// The ledger's totals, by employee and by machine (most short first), with their trends.
#[utoipa::path(get, path = "/api/visit-ledger/summary/", tag = "reports", security(("bearer" = [])), params(SalesParams, VisitQuery),
    responses((status = 200, body = Data<VisitSummary>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn visit_summary(
    State(s): State<AppState>,
    a: Authorized<perm::VisitLedger>,
    Query(q): Query<SalesParams>,
    Query(v): Query<VisitQuery>,
) -> ApiResult<axum::Json<Data<VisitSummary>>> {
    let data = s
        .app
        .reports
        .visit_summary(a.principal(), &params(q, v))
        .await?;
    Ok(axum::Json(Data { data }))
}

/// The visit ledger as a file (every line of the query; paging ignored).
#[utoipa::path(get, path = "/api/visit-ledger/export/", tag = "reports", security(("bearer" = [])),
    params(SalesParams, VisitQuery, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn export_visit_ledger(
    State(s): State<AppState>,
    a: Authorized<perm::VisitLedgerExport>,
    Query(q): Query<SalesParams>,
    Query(v): Query<VisitQuery>,
    Query(x): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<axum::response::Response> {
    let format = crate::kit::export::Format::parse(x.format.as_deref())?;
    let table =
        vendfleet_render::tables::money::visit_table(&s.app, a.principal(), &params(q, v)).await?;
    crate::kit::export::answer(table, &s, a.requester(), format, "visit-ledger").await
}
