//! The transaction log (reports area): every sale of the machines the user may see, newest
//! first, paged without slowing down however deep the page (the service seeks through the
//! rollups' counts), its totals beside the span before, and its export.

use crate::kit::dto::{Data, ListReply};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{reports_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use crate::sales::SalesFiguresDto;
use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::listing::ListParams;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::sales::Transaction;
use vendfleet_domain::events::Payment;
use vendfleet_render::ReportParams;

/// The most rows one export file holds.
pub use vendfleet_render::tables::transactions::MAX_EXPORT_ROWS;

/// The transaction log's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(transactions))
        .routes(routes!(transaction_totals))
        .routes(routes!(export_transactions))
}

/// How a sale was paid.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    Cash,
    Cashless,
}

impl From<Payment> for PaymentMethod {
    fn from(p: Payment) -> Self {
        match p {
            Payment::Cash => PaymentMethod::Cash,
            Payment::Cashless => PaymentMethod::Cashless,
        }
    }
}

/// One sale.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransactionDto {
    /// `{machine id}/{event id}`: unique and stable.
    pub id: String,
    pub at: DateTime<Utc>,
    /// The day of `at` where the machine stands.
    pub local_date: NaiveDate,
    #[serde(flatten)]
    pub stamp: crate::kit::dto::MachineStampDto,
    pub selection: String,
    pub product_id: String,
    pub product: String,
    pub quantity: u32,
    /// Price × quantity, minor units of `currency`.
    pub revenue_minor: i64,
    pub revenue_excl_tax_minor: i64,
    pub currency: String,
    pub payment: PaymentMethod,
}

impl From<Transaction> for TransactionDto {
    fn from(t: Transaction) -> Self {
        TransactionDto {
            id: format!("{}/{}", t.stamp.machine_id, t.event_id),
            at: t.at,
            local_date: t.local_date,
            stamp: t.stamp.into(),
            selection: t.selection,
            product_id: t.product_id,
            product: t.product_name,
            quantity: t.quantity,
            revenue_minor: t.revenue_minor,
            revenue_excl_tax_minor: t.net_minor,
            currency: t.currency,
            payment: t.payment.into(),
        }
    }
}

/// The log's paging (its order is fixed: newest local day first, newest first within it).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogPaging {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    /// Rows a page, 1 to 200 (default 25).
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
}

/// A page of the transaction log: the sales of the query's period, machines and products
/// (`value`, `group_by` and `grouping_period` are ignored); `pagination.count` is exact.
#[utoipa::path(get, path = "/api/transaction-logs/", tag = "reports", security(("bearer" = [])), params(SalesParams, LogPaging),
    responses((status = 200, body = ListReply<TransactionDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn transactions(
    State(s): State<AppState>,
    a: Authorized<perm::TransactionList>,
    Query(q): Query<SalesParams>,
    Query(pg): Query<LogPaging>,
) -> ApiResult<axum::Json<ListReply<TransactionDto>>> {
    let list = ListParams {
        page: pg.page,
        page_size: pg.page_size,
        ..ListParams::default()
    };
    let page = s.app.sales.transactions(a.principal(), &q, &list).await?;
    Ok(axum::Json(ListReply::from_page(page, TransactionDto::from)))
}

/// Sales figures with the number of sales.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransactionFiguresDto {
    #[serde(flatten)]
    pub figures: SalesFiguresDto,
    /// Sales (a vend of several units counts once): the log's row count.
    pub transactions: i64,
}

/// The log's totals and the same span just before.
#[derive(Debug, Serialize, ToSchema)]
pub struct TransactionTotalsDto {
    pub total: TransactionFiguresDto,
    pub previous: TransactionFiguresDto,
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
}

/// The log's totals over the query, and over as many days just before.
#[utoipa::path(get, path = "/api/transaction-logs/total-table/", tag = "reports", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<TransactionTotalsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn transaction_totals(
    State(s): State<AppState>,
    a: Authorized<perm::TransactionList>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<TransactionTotalsDto>>> {
    let r = s.app.sales.totals(a.principal(), &q).await?;
    let figures = |f: &vendfleet_domain::sales::Figures| TransactionFiguresDto {
        figures: f.into(),
        transactions: f.transactions,
    };
    Ok(axum::Json(Data {
        data: TransactionTotalsDto {
            total: figures(&r.current.total),
            previous: figures(&r.previous.total),
            date_from: r.query.from,
            date_to: r.query.to,
            previous_from: r.previous_from,
            previous_to: r.previous_to,
        },
    }))
}

crate::kit::crud::export! {
    /// The log as a file (every sale of the query, at most 200,000: a larger one is a 400 that says
    /// how many there are).
    export_transactions("/api/transaction-logs/export/", "reports") -> TransactionLog as "transaction-log",
    |s, a: perm::TransactionExport, q: SalesParams| ReportParams {
        sales: q,
        ..ReportParams::default()
    }
}
