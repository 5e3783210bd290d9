//! Reports area: the encashment report (collections beside the cash expected from the vends
//! since the machine's previous collection, the over/short, and summaries by employee and
//! machine), within the user's scope.

use crate::dto::{Data, ListReply};
use crate::error::{ApiResult, ErrorBody};
use crate::export::{Cell, Format, Table};
use crate::extract::{reports_perm as perm, Authorized, Query};
use crate::reply::tr;
use crate::sales::SalesQuery;
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::listing::ListParams;
use vendfleet_app::reports::{CollectionRow, EncashmentParams, OverShort};

/// The reports area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(encashments))
        .routes(routes!(encashment_totals))
        .routes(routes!(export_encashments))
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

fn params(q: SalesQuery, e: EncashmentQuery) -> EncashmentParams {
    EncashmentParams {
        sales: q.into(),
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
    pub machine_id: String,
    pub machine: String,
    pub location_id: Option<String>,
    pub location: Option<String>,
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
}

impl From<CollectionRow> for EncashmentDto {
    fn from(c: CollectionRow) -> Self {
        let r = c.row;
        EncashmentDto {
            id: r.id,
            date: r.at,
            local_date: r.local_date,
            machine_id: r.machine_id,
            machine: r.machine_name,
            location_id: r.location_id,
            location: r.location_name,
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
        }
    }
}

/// The period's collections of the machines the user may see, newest first.
#[utoipa::path(get, path = "/api/encashments/", tag = "reports", security(("bearer" = [])), params(SalesQuery, EncashmentQuery),
    responses((status = 200, body = ListReply<EncashmentDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn encashments(
    State(s): State<AppState>,
    a: Authorized<perm::EncashmentList>,
    Query(q): Query<SalesQuery>,
    Query(e): Query<EncashmentQuery>,
) -> ApiResult<axum::Json<ListReply<EncashmentDto>>> {
    let page = s
        .app
        .reports
        .encashments(a.principal(), &params(q, e))
        .await?;
    Ok(axum::Json(ListReply::from_page(page, EncashmentDto::from)))
}

/// Overs and shorts of an employee or a machine (or of all) over the period.
#[derive(Debug, Serialize, ToSchema)]
pub struct OverShortDto {
    /// The employee or machine (empty for collections of no known employee, and for the total).
    pub id: String,
    pub name: String,
    pub collections: usize,
    /// Collections compared with an expectation (a machine's first is not).
    pub compared: usize,
    pub collected_minor: i64,
    pub expected_minor: i64,
    pub over_short_minor: i64,
    /// Compared collections that came up short.
    pub shorts: usize,
}

impl From<OverShort> for OverShortDto {
    fn from(o: OverShort) -> Self {
        OverShortDto {
            id: o.id,
            name: o.name,
            collections: o.collections,
            compared: o.compared,
            collected_minor: o.collected_minor,
            expected_minor: o.expected_minor,
            over_short_minor: o.over_short_minor,
            shorts: o.shorts,
        }
    }
}

/// The encashment report's totals, with overs and shorts by employee and by machine (most
/// short first): patterns matter, one short proves nothing.
#[derive(Debug, Serialize, ToSchema)]
pub struct EncashmentTotalsDto {
    pub total: OverShortDto,
    pub by_employee: Vec<OverShortDto>,
    pub by_machine: Vec<OverShortDto>,
}

/// The encashment report's totals and summaries.
#[utoipa::path(get, path = "/api/encashments/total/", tag = "reports", security(("bearer" = [])), params(SalesQuery, EncashmentQuery),
    responses((status = 200, body = Data<EncashmentTotalsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn encashment_totals(
    State(s): State<AppState>,
    a: Authorized<perm::EncashmentTotal>,
    Query(q): Query<SalesQuery>,
    Query(e): Query<EncashmentQuery>,
) -> ApiResult<axum::Json<Data<EncashmentTotalsDto>>> {
    let t = s
        .app
        .reports
        .encashment_totals(a.principal(), &params(q, e))
        .await?;
    let list = |v: Vec<OverShort>| v.into_iter().map(Into::into).collect();
    Ok(axum::Json(Data {
        data: EncashmentTotalsDto {
            total: t.all.into(),
            by_employee: list(t.by_employee),
            by_machine: list(t.by_machine),
        },
    }))
}

/// The encashment report as a file (every collection of the query; paging ignored).
#[utoipa::path(get, path = "/api/encashments/export/", tag = "reports", security(("bearer" = [])),
    params(SalesQuery, EncashmentQuery, crate::export::ExportQuery),
    responses((status = 200, response = inline(crate::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::dto::MessageData<crate::jobs::JobDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn export_encashments(
    State(s): State<AppState>,
    a: Authorized<perm::EncashmentExport>,
    Query(q): Query<SalesQuery>,
    Query(e): Query<EncashmentQuery>,
    Query(x): Query<crate::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(x.format.as_deref())?;
    let lang = a.principal().user.language;
    let rows = s
        .app
        .reports
        .all_encashments(a.principal(), &params(q, e))
        .await?;
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let header = vec![
        t("Date", "Date", "Data"),
        t("Machine", "Machine", "Macchina"),
        t("Location", "Emplacement", "Ubicazione"),
        t("Bag no", "N° de sac", "N. sacchetto"),
        t("Employee", "Employé", "Dipendente"),
        t("Cash box", "Caisse", "Cassa"),
        t("Bill stacker", "Billets", "Banconote"),
        t("Cash collected", "Espèces collectées", "Contanti raccolti"),
        t("Value of tubes", "Valeur des tubes", "Valore dei tubi"),
        t("Ejected coins", "Pièces éjectées", "Monete espulse"),
        t("Refilled coins", "Pièces rechargées", "Monete ricaricate"),
        t("Taken", "Encaissé", "Incassato"),
        t("Expected", "Attendu", "Previsto"),
        t("Over/short", "Écart", "Differenza"),
    ];
    let table_rows = rows
        .into_iter()
        .map(|c| {
            let money = |minor: i64| Cell::Money {
                minor,
                exponent: 2,
                currency: c.row.currency.clone(),
            };
            let maybe = |v: Option<i64>| v.map_or(Cell::Empty, money);
            vec![
                c.row.at.into(),
                c.row.machine_name.clone().into(),
                c.row.location_name.clone().unwrap_or_default().into(),
                c.row.bag_no.clone().into(),
                c.row.employee_name.clone().unwrap_or_default().into(),
                money(c.row.cash_box_minor),
                money(c.row.bill_stacker_minor),
                money(c.row.collected_minor),
                money(c.row.tubes_minor),
                money(c.row.ejected_minor),
                money(c.row.refilled_coins_minor),
                maybe(c.taken_minor),
                maybe(c.expected_minor),
                maybe(c.over_short_minor),
            ]
        })
        .collect();
    Table {
        sheet: t("Encashment", "Encaissement", "Incasso"),
        header,
        rows: table_rows,
    }
    .answer(&s, a.principal(), format, "encashment", lang)
    .await
}
