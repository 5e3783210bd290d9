//! Sales area: the sales overview (table header, detail table with its count and export, total
//! table, line and bar charts) and its option lists. Every figure is of the machines the user
//! may see; `previous` is the same number of days just before the chosen span.

use crate::kit::crud;
use crate::kit::dto::{Data, ListReply};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{sales_perm as perm, Authorized, Query, SignedIn};
use crate::kit::reply::tr;
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::auth::Principal;
use vendfleet_app::listing::ListParams;
use vendfleet_app::sales::{SalesParams, SalesReport};
use vendfleet_domain::report::{Choice, GroupBy, Grouping, Value};
use vendfleet_domain::sales::Figures;
use vendfleet_domain::Language;
use vendfleet_render::tables::sales::{bucket_label, group_label, total_label, BAR_GROUPS};
use vendfleet_render::ReportParams;

/// The sales area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(table_header))
        .routes(routes!(detail_table))
        .routes(routes!(detail_count))
        .routes(routes!(detail_export))
        .routes(routes!(total_table))
        .routes(routes!(line_chart))
        .routes(routes!(bar_chart))
}

/// The sales area's option lists.
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(periods))
        .routes(routes!(values))
        .routes(routes!(grouping_periods))
        .routes(routes!(group_by))
        .routes(routes!(generator_group_by))
        .routes(routes!(display))
}

/// The detail table's paging, search (by group name) and ordering (`name`, `total`; `-` for
/// descending; default `-total`).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DetailPaging {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub search: Option<String>,
    pub ordering: Option<String>,
}

crate::kit::fields::from_fields!(DetailPaging => ListParams { page, page_size, search, ordering });

/// The report's totals and groups, without periods.
async fn totals(s: &AppState, p: &Principal, q: SalesParams) -> ApiResult<SalesReport> {
    Ok(s.app.sales.totals(p, &q).await?)
}

/// Sales figures, in minor units of the machines' currency (quantities in units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct SalesFiguresDto {
    /// Units sold (free and test vends are never sales).
    pub quantity: i64,
    pub sales_minor: i64,
    pub sales_excl_tax_minor: i64,
    pub cash_minor: i64,
    pub cashless_minor: i64,
}

impl From<&Figures> for SalesFiguresDto {
    fn from(f: &Figures) -> Self {
        SalesFiguresDto {
            quantity: f.quantity,
            sales_minor: f.sales_minor,
            sales_excl_tax_minor: f.sales_excl_tax_minor,
            cash_minor: f.cash_minor,
            cashless_minor: f.cashless_minor,
        }
    }
}

/// One group of the total table: its figures over the span and over the span before.
#[derive(Debug, Serialize, ToSchema)]
pub struct SalesRowDto {
    /// The group's id (machine, location, client, product or tag); empty for sales of none.
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub figures: SalesFiguresDto,
    pub previous: SalesFiguresDto,
}

/// The total table: the span's totals, the previous span's, and one row a group (largest first
/// by the chosen value).
#[derive(Debug, Serialize, ToSchema)]
pub struct TotalTableDto {
    pub total: SalesFiguresDto,
    pub previous: SalesFiguresDto,
    pub rows: Vec<SalesRowDto>,
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    /// The span `previous` covers: as many days, just before.
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
}

/// The totals of the span and the span before, and of each group.
#[utoipa::path(get, path = "/api/sales-journal/total-table/", tag = "sales", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<TotalTableDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn total_table(
    State(s): State<AppState>,
    a: Authorized<perm::TotalList>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<TotalTableDto>>> {
    let r = totals(&s, a.principal(), q).await?;
    let zero = Figures::default();
    let rows = r
        .ranked_groups()
        .into_iter()
        .map(|k| SalesRowDto {
            id: k.clone(),
            name: r.name(k).to_string(),
            figures: (&r.current.groups[k]).into(),
            previous: r.previous.groups.get(k).unwrap_or(&zero).into(),
        })
        .collect();
    Ok(axum::Json(Data {
        data: TotalTableDto {
            total: (&r.current.total).into(),
            previous: (&r.previous.total).into(),
            rows,
            date_from: r.query.from,
            date_to: r.query.to,
            previous_from: r.previous_from,
            previous_to: r.previous_to,
        },
    }))
}

/// A column of the detail table.
#[derive(Debug, Serialize, ToSchema)]
pub struct ColumnDto {
    /// `name`, a bucket's first day (YYYY-MM-DD), or `total`: the key of the row's value.
    pub field: String,
    /// The column's title in the user's language.
    pub header_name: String,
    /// `group`, `period` or `total`.
    pub kind: String,
    /// A period column's first day.
    pub date: Option<NaiveDate>,
}

fn columns(r: &SalesReport, lang: Language) -> Vec<ColumnDto> {
    let mut out = vec![ColumnDto {
        field: "name".into(),
        header_name: group_label(lang, r.query.group_by),
        kind: "group".into(),
        date: None,
    }];
    out.extend(r.buckets().into_iter().map(|d| ColumnDto {
        field: d.to_string(),
        header_name: bucket_label(r.query.grouping, d),
        kind: "period".into(),
        date: Some(d),
    }));
    out.push(ColumnDto {
        field: "total".into(),
        header_name: total_label(lang),
        kind: "total".into(),
        date: None,
    });
    out
}

/// The columns of the detail table for the chosen grouping and span.
#[utoipa::path(get, path = "/api/table/header/", tag = "sales", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<Vec<ColumnDto>>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn table_header(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<Vec<ColumnDto>>>> {
    let query = q
        .check(s.app.calendar.today())
        .map_err(vendfleet_app::AppError::from)?;
    // The columns need no figures: an empty report of the query names them.
    let r = SalesReport {
        query,
        current: Default::default(),
        previous_from: NaiveDate::MIN,
        previous_to: NaiveDate::MIN,
        previous: Default::default(),
        names: Default::default(),
    };
    Ok(axum::Json(Data {
        data: columns(&r, a.principal().user.language),
    }))
}

/// One row of the detail table: a group's value (the chosen one) in each period, and in all.
#[derive(Debug, Serialize, ToSchema)]
pub struct DetailRowDto {
    pub id: String,
    pub name: String,
    /// By period column field (a bucket's first day, YYYY-MM-DD).
    pub values: std::collections::BTreeMap<String, i64>,
    pub total: i64,
}

/// The detail table: a row a group, a column a period, paged.
#[utoipa::path(get, path = "/api/sales-journal/detail-table/", tag = "sales", security(("bearer" = [])), params(SalesParams, DetailPaging),
    responses((status = 200, body = ListReply<DetailRowDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn detail_table(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Query(q): Query<SalesParams>,
    Query(pg): Query<DetailPaging>,
) -> ApiResult<axum::Json<ListReply<DetailRowDto>>> {
    let r = s.app.sales.current(a.principal(), &q).await?;
    let buckets = r.buckets();
    let page = r.detail(&pg.into())?;
    Ok(axum::Json(ListReply::from_page(page, |row| DetailRowDto {
        values: buckets
            .iter()
            .map(|d| d.to_string())
            .zip(row.values)
            .collect(),
        id: row.key,
        name: row.name,
        total: row.total,
    })))
}

/// `{"count": N}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountDto {
    pub count: usize,
}

/// How many rows the detail table has (after search).
#[utoipa::path(get, path = "/api/sales-journal/detail-table/count/", tag = "sales", security(("bearer" = [])), params(SalesParams, DetailPaging),
    responses((status = 200, body = Data<CountDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn detail_count(
    State(s): State<AppState>,
    a: Authorized<perm::List>,
    Query(q): Query<SalesParams>,
    Query(pg): Query<DetailPaging>,
) -> ApiResult<axum::Json<Data<CountDto>>> {
    let r = s.app.sales.current(a.principal(), &q).await?;
    let (rows, _) = r.detail_rows(&pg.into())?;
    Ok(axum::Json(Data {
        data: CountDto { count: rows.len() },
    }))
}

crate::kit::crud::export! {
    /// The detail table as a file (every row; the search and ordering of the screen).
    detail_export("/api/sales-journal/detail-table/export/", "sales") -> SalesOverview as "sales-overview",
    |s, a: perm::Export, q: SalesParams, pg: DetailPaging| ReportParams {
        sales: q,
        list: pg.into(),
        ..ReportParams::default()
    }
}

/// The chosen value over time: one point a period of the span, and the span before, period by
/// period (its periods are as many days earlier).
#[derive(Debug, Serialize, ToSchema)]
pub struct LineChartDto {
    /// Each period's first day.
    pub dates: Vec<NaiveDate>,
    pub labels: Vec<String>,
    pub current: Vec<i64>,
    /// The same periods of the span before (as many as it has; shorter when it has fewer).
    pub previous_dates: Vec<NaiveDate>,
    pub previous: Vec<i64>,
}

/// The chosen value over time.
#[utoipa::path(get, path = "/api/sales-journal/graphs/line-chart/", tag = "sales", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<LineChartDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn line_chart(
    State(s): State<AppState>,
    a: Authorized<perm::Graph>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<LineChartDto>>> {
    let r = s.app.sales.series(a.principal(), &q).await?;
    let value = r.query.value;
    let dates = r.buckets();
    let previous_dates = r.query.grouping.buckets(r.previous_from, r.previous_to);
    let series = |cube: &vendfleet_domain::report::Cube, dates: &[NaiveDate]| -> Vec<i64> {
        dates
            .iter()
            .map(|d| cube.buckets.get(d).map_or(0, |f| value.of(f)))
            .collect()
    };
    Ok(axum::Json(Data {
        data: LineChartDto {
            labels: dates
                .iter()
                .map(|d| bucket_label(r.query.grouping, *d))
                .collect(),
            current: series(&r.current, &dates),
            previous: series(&r.previous, &previous_dates),
            dates,
            previous_dates,
        },
    }))
}

/// One bar: a group's value over the span and over the span before.
#[derive(Debug, Serialize, ToSchema)]
pub struct BarDto {
    /// The group's id; `others` for the sum of the groups past the first 20.
    pub id: String,
    pub name: String,
    pub current: i64,
    pub previous: i64,
}

/// The chosen value by group, largest first (20 groups, then the others summed).
#[utoipa::path(get, path = "/api/sales-journal/graphs/bar-chart/", tag = "sales", security(("bearer" = [])), params(SalesParams),
    responses((status = 200, body = Data<Vec<BarDto>>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn bar_chart(
    State(s): State<AppState>,
    a: Authorized<perm::Graph>,
    Query(q): Query<SalesParams>,
) -> ApiResult<axum::Json<Data<Vec<BarDto>>>> {
    let r = totals(&s, a.principal(), q).await?;
    let value = r.query.value;
    let of = |cube: &vendfleet_domain::report::Cube, k: &str| {
        cube.groups.get(k).map_or(0, |f| value.of(f))
    };
    let ranked = r.ranked_groups();
    let mut bars: Vec<BarDto> = ranked
        .iter()
        .take(BAR_GROUPS)
        .map(|k| BarDto {
            id: (*k).clone(),
            name: r.name(k).to_string(),
            current: of(&r.current, k),
            previous: of(&r.previous, k),
        })
        .collect();
    if ranked.len() > BAR_GROUPS {
        let rest = &ranked[BAR_GROUPS..];
        bars.push(BarDto {
            id: "others".into(),
            name: tr(a.principal().user.language, "Others", "Autres", "Altri"),
            current: rest.iter().map(|k| of(&r.current, k)).sum(),
            previous: rest.iter().map(|k| of(&r.previous, k)).sum(),
        });
    }
    Ok(axum::Json(Data { data: bars }))
}

fn choices<C: Choice>(lang: Language, label: fn(Language, C) -> String) -> Vec<(String, String)> {
    C::ALL
        .iter()
        .map(|c| (c.key().to_string(), label(lang, *c)))
        .collect()
}

fn value_label(lang: Language, v: Value) -> String {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    match v {
        Value::Sales => t("Sales", "Ventes", "Vendite"),
        Value::Quantity => t("Quantity", "Quantité", "Quantità"),
        Value::SalesExclTax => t("Sales excl. tax", "Ventes HT", "Vendite IVA esclusa"),
    }
}

fn grouping_label(lang: Language, g: Grouping) -> String {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    match g {
        Grouping::Day => t("Day", "Jour", "Giorno"),
        Grouping::Week => t("Week", "Semaine", "Settimana"),
        Grouping::Month => t("Month", "Mois", "Mese"),
    }
}

crud::options! {
    /// The values a sales report can show (`value`).
    values("/api/filters/values/"),
    |_s, a: SignedIn| choices::<Value>(a.principal().user.language, value_label)
}

crud::options! {
    /// How a sales report's days are bucketed (`grouping_period`).
    grouping_periods("/api/filters/grouping-periods/"),
    |_s, a: SignedIn| choices::<Grouping>(a.principal().user.language, grouping_label)
}

crud::options! {
    /// What the sales overview's rows can be (`group_by`).
    group_by("/api/filters/sales-journal/group-by/"),
    |_s, a: SignedIn| choices::<GroupBy>(a.principal().user.language, group_label)
}

crud::options! {
    /// What a generated report's rows can be (the sales overview's groupings).
    generator_group_by("/api/filters/reports/generator/group-by/"),
    |_s, a: SignedIn| choices::<GroupBy>(a.principal().user.language, group_label)
}

crud::options! {
    /// What the sales overview can display.
    display("/api/filters/display/"),
    |_s, a: SignedIn| {
        let t = |en: &str, fr: &str, it: &str| tr(a.principal().user.language, en, fr, it);
        [
            ("line_chart", t("Over time", "Dans le temps", "Nel tempo")),
            ("bar_chart", t("By group", "Par groupe", "Per gruppo")),
            ("detail_table", t("Detail table", "Tableau détaillé", "Tabella dettagliata")),
            ("total_table", t("Total table", "Tableau des totaux", "Tabella dei totali")),
        ]
        .map(|(k, v)| (k.to_string(), v))
    }
}

/// A period preset with the operator-local dates it stands for today.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodDto {
    /// `yesterday`, `current_week`, `previous_week`, `current_month`, `previous_month`,
    /// `current_and_previous_month`, `current_year`, `previous_year` or `custom`.
    pub key: String,
    /// First local date (none for `custom`).
    pub date_from: Option<chrono::NaiveDate>,
    /// Last local date, inclusive (none for `custom`).
    pub date_to: Option<chrono::NaiveDate>,
}

/// The sales period presets, resolved in the operator's time zone.
#[utoipa::path(get, path = "/api/filters/periods/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<PeriodDto>>), (status = 401, body = ErrorBody)))]
async fn periods(
    State(s): State<AppState>,
    _a: Authorized<SignedIn>,
) -> axum::Json<Data<Vec<PeriodDto>>> {
    let today = s.app.calendar.today();
    axum::Json(Data {
        data: vendfleet_domain::Period::ALL
            .into_iter()
            .map(|p| {
                let range = p.range(today);
                PeriodDto {
                    key: p.key().into(),
                    date_from: range.map(|r| r.0),
                    date_to: range.map(|r| r.1),
                }
            })
            .collect(),
    })
}
