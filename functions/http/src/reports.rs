//! Reports area: the encashment report (collections beside the cash expected from the vends
//! since the machine's previous collection, the over/short, and summaries by employee and
//! machine), and the inventory report (products and components tabs, a machine's detail, export),
//! and the transaction log (`crate::transaction_log`), within the user's scope.

use crate::kit::dto::{Data, ListReply};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{reports_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::listing::{page_of, paging, ListPage, ListParams};
use vendfleet_app::reports::{
    CollectionRow, ComponentStock, EncashmentParams, OverShort, ProductStock,
};
use vendfleet_app::sales::SalesParams;
use vendfleet_render::ReportParams;

/// The reports area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(encashments))
        .routes(routes!(encashment_totals))
        .routes(routes!(export_encashments))
        .routes(routes!(product_inventory))
        .routes(routes!(component_inventory))
        .routes(routes!(machine_inventory))
        .routes(routes!(export_inventory))
}

/// The encashment report's own parameters, beside the sales query's period and machine
/// filters (`value`, `group_by`, `grouping_period`, `products` and `product_tags` are ignored).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EncashmentQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    /// Employee ids, comma-separated.
    pub employees: Option<String>,
}

fn params(q: SalesParams, e: EncashmentQuery) -> EncashmentParams {
    EncashmentParams {
        sales: q,
        employees: e.employees,
        list: ListParams {
            page: e.page,
            page_size: e.page_size,
            ..ListParams::default()
        },
    }
}

/// One collection (spec section 3) with what it should have held.
#[derive(Debug, Serialize, ToSchema)]
pub struct EncashmentDto {
    pub id: String,
    pub date: DateTime<Utc>,
    pub local_date: NaiveDate,
    #[serde(flatten)]
    pub stamp: crate::kit::dto::MachineStampDto,
    pub bag_no: String,
    pub employee_id: Option<String>,
    pub employee: Option<String>,
    pub cash_box_minor: i64,
    pub bill_stacker_minor: i64,
    pub collected_minor: i64,
    /// The value in the coin tubes at the collection.
    pub tubes_minor: i64,
    pub ejected_minor: i64,
    pub refilled_coins_minor: i64,
    pub currency: String,
    /// The machine's previous collection (null for its first: nothing to compare with).
    pub previous_date: Option<DateTime<Utc>>,
    /// Cash customers paid since the previous collection, by this collection's figures: cash
    /// box + bill stacker + what the tubes gained since the collector last left them.
    pub taken_minor: Option<i64>,
    /// Cash sales recorded (vends, or audits for audit machines) since the previous collection.
    pub expected_minor: Option<i64>,
    /// `taken − expected`: over when positive, short when negative.
    pub over_short_minor: Option<i64>,
    /// Cash the machine's own counters took in net of change (DEX `CA3` less `CA4` change)
    /// between the audit reads taken at the previous collection and this one (within two hours
    /// of each); null without such reads.
    pub counted_minor: Option<i64>,
    /// `taken − counted`.
    pub counted_over_short_minor: Option<i64>,
}

impl From<CollectionRow> for EncashmentDto {
    fn from(c: CollectionRow) -> Self {
        let r = c.row;
        EncashmentDto {
            id: r.id,
            date: r.at,
            local_date: r.local_date,
            stamp: r.stamp.into(),
            bag_no: r.bag_no,
            employee_id: r.employee_id,
            employee: r.employee_name,
            cash_box_minor: r.cash_box_minor,
            bill_stacker_minor: r.bill_stacker_minor,
            collected_minor: r.collected_minor,
            tubes_minor: r.tubes_minor,
            ejected_minor: r.ejected_minor,
            refilled_coins_minor: r.refilled_coins_minor,
            currency: r.currency,
            previous_date: c.previous_at,
            taken_minor: c.taken_minor,
            expected_minor: c.expected_minor,
            over_short_minor: c.over_short_minor,
            counted_minor: c.counted_minor,
            counted_over_short_minor: c.counted_over_short_minor,
        }
    }
}

/// The period's collections of the machines the user may see, newest first.
#[utoipa::path(get, path = "/api/encashments/", tag = "reports", security(("bearer" = [])), params(SalesParams, EncashmentQuery),
    responses((status = 200, body = ListReply<EncashmentDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn encashments(
    State(s): State<AppState>,
    a: Authorized<perm::EncashmentList>,
    Query(q): Query<SalesParams>,
    Query(e): Query<EncashmentQuery>,
) -> ApiResult<axum::Json<ListReply<EncashmentDto>>> {
    let page = s
        .app
        .reports
        .encashments(a.principal(), &params(q, e))
        .await?;
    Ok(axum::Json(ListReply::from_page(page, EncashmentDto::from)))
}

/// The encashment report's totals, with overs and shorts by employee and by machine (most
/// short first): patterns matter, one short proves nothing.
#[derive(Debug, Serialize, ToSchema)]
pub struct EncashmentTotalsDto {
    pub total: OverShort,
    pub by_employee: Vec<OverShort>,
    pub by_machine: Vec<OverShort>,
}

/// The encashment report's totals and summaries.
#[utoipa::path(get, path = "/api/encashments/total/", tag = "reports", security(("bearer" = [])), params(SalesParams, EncashmentQuery),
    responses((status = 200, body = Data<EncashmentTotalsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn encashment_totals(
    State(s): State<AppState>,
    a: Authorized<perm::EncashmentTotal>,
    Query(q): Query<SalesParams>,
    Query(e): Query<EncashmentQuery>,
) -> ApiResult<axum::Json<Data<EncashmentTotalsDto>>> {
    let t = s
        .app
        .reports
        .encashment_totals(a.principal(), &params(q, e))
        .await?;
    Ok(axum::Json(Data {
        data: EncashmentTotalsDto {
            total: t.all,
            by_employee: t.by_employee,
            by_machine: t.by_machine,
        },
    }))
}

crate::kit::crud::export! {
    /// The encashment report as a file (every collection of the query; paging ignored).
    export_encashments("/api/encashments/export/", "reports") -> Encashment as "encashment",
    |s, a: perm::EncashmentExport, q: SalesParams, e: EncashmentQuery| ReportParams {
        sales: q,
        list: ListParams {
            page: e.page,
            page_size: e.page_size,
            ..ListParams::default()
        },
        employees: e.employees,
        ..ReportParams::default()
    }
}

/// The inventory lists' paging and search (by name).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InventoryQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub search: Option<String>,
}

/// A page of `rows` whose name matches the search.
fn inventory_page<T>(
    rows: Vec<T>,
    q: InventoryQuery,
    name: fn(&T) -> &str,
) -> ApiResult<ListPage<T>> {
    let mut errors = vendfleet_domain::FieldErrors::new();
    let pg = paging(
        &ListParams {
            page: q.page,
            page_size: q.page_size,
            search: q.search,
            ordering: None,
        },
        &[],
        &mut errors,
    );
    errors
        .into_result()
        .map_err(vendfleet_app::AppError::from)?;
    let rows = rows
        .into_iter()
        .filter(|r| pg.search.is_empty() || name(r).to_lowercase().contains(&pg.search))
        .collect();
    Ok(page_of(rows, &pg))
}

/// The product tab: stock by product in the machines the user may see (the sales query's
/// machine filters), most units first.
#[utoipa::path(get, path = "/api/inventories/", tag = "reports", security(("bearer" = [])), params(SalesParams, InventoryQuery),
    responses((status = 200, body = ListReply<ProductStock>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn product_inventory(
    State(s): State<AppState>,
    a: Authorized<perm::InventoryProducts>,
    Query(q): Query<SalesParams>,
    Query(i): Query<InventoryQuery>,
) -> ApiResult<axum::Json<ListReply<ProductStock>>> {
    let rows = s.app.reports.product_stock(a.principal(), &q).await?;
    let page = inventory_page(rows, i, |r| &r.name)?;
    Ok(axum::Json(ListReply::from_page(
        page,
        std::convert::identity,
    )))
}

/// The component tab: stock by component, most first.
#[utoipa::path(get, path = "/api/inventories/components/", tag = "reports", security(("bearer" = [])), params(SalesParams, InventoryQuery),
    responses((status = 200, body = ListReply<ComponentStock>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn component_inventory(
    State(s): State<AppState>,
    a: Authorized<perm::InventoryComponents>,
    Query(q): Query<SalesParams>,
    Query(i): Query<InventoryQuery>,
) -> ApiResult<axum::Json<ListReply<ComponentStock>>> {
    let rows = s.app.reports.component_stock(a.principal(), &q).await?;
    let page = inventory_page(rows, i, |r| &r.name)?;
    Ok(axum::Json(ListReply::from_page(
        page,
        std::convert::identity,
    )))
}

/// One selection of a machine's stock.
#[derive(Debug, Serialize, ToSchema)]
pub struct SelectionStockDto {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub current: i64,
    pub max: i64,
    pub price_minor: i64,
    pub value_minor: i64,
    pub expiry_date: Option<NaiveDate>,
    pub sold_out: bool,
    pub low: bool,
}

/// One machine's stock, expiring soonest first (404 outside the user's scope).
#[utoipa::path(get, path = "/api/inventories/machines/{id}/", tag = "reports", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<SelectionStockDto>>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn machine_inventory(
    State(s): State<AppState>,
    a: Authorized<perm::InventoryProducts>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> ApiResult<axum::Json<Data<Vec<SelectionStockDto>>>> {
    let rows = s.app.reports.machine_stock(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: rows
            .into_iter()
            .map(|r| SelectionStockDto {
                selection: r.selection.selection,
                product_id: r.selection.product_id,
                product_name: r.product_name,
                current: r.selection.current,
                max: r.selection.max,
                price_minor: r.selection.price_minor,
                value_minor: r.value_minor,
                expiry_date: r.selection.expiry_date,
                sold_out: r.sold_out,
                low: r.low,
            })
            .collect(),
    }))
}

/// `?tab=` of the inventory export.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InventoryTab {
    /// `products` (default) or `components`.
    #[param(value_type = Option<crate::kit::contract::InventoryTabKey>, inline)]
    pub tab: Option<String>,
}

crate::kit::crud::export! {
    /// The inventory's product or component tab as a file (needs that tab's export permission).
    export_inventory("/api/inventory/export/", "reports") -> Inventory as "inventory",
    |s, a: perm::InventoryExport, q: SalesParams, tab: InventoryTab| ReportParams {
        sales: q,
        tab: tab.tab,
        ..ReportParams::default()
    }
}
