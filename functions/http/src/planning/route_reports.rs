//! What a planned route needs and did: picklists, values, stocks, forecast accuracy, the export.

use super::machine::{components, ComponentNeedDto};
use super::numbers::{one_decimal, two_decimals};
use super::routes::route_and_stops;
use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::export::Format;
use crate::kit::extract::{planning_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{accuracy, AccuracyRow, StockRow};
use vendfleet_app::planning::{PlannedRoute, RouteStop};
use vendfleet_domain::report::Choice;

/// A picklist line of a route's stop, with what the visit booked.
#[derive(Debug, Serialize, ToSchema)]
pub struct RouteLineDto {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub current: i64,
    pub max: i64,
    pub velocity: f64,
    pub predicted_at_visit: f64,
    pub need: i64,
    pub to_bring: i64,
    pub case_size: Option<i64>,
    pub components: Vec<ComponentNeedDto>,
    pub found: Option<i64>,
    pub filled: Option<i64>,
    pub removed: Option<i64>,
    pub removed_reason: Option<String>,
    /// With `…/values/`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_minor: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_bring_value_minor: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filled_value_minor: Option<i64>,
}

/// A stop's picklist.
#[derive(Debug, Serialize, ToSchema)]
pub struct StopPicklistDto {
    pub order: usize,
    pub machine_id: String,
    pub machine_name: String,
    pub currency: String,
    pub decimal_places: u8,
    pub visited: bool,
    pub lines: Vec<RouteLineDto>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_bring_value_minor: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filled_value_minor: Option<i64>,
}

pub(super) fn stop_picklists(
    route: &PlannedRoute,
    stops: &[RouteStop],
    values: bool,
) -> Vec<StopPicklistDto> {
    let names: HashMap<&str, (usize, &str)> = route
        .stops
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                s.stop.machine_id.as_str(),
                (i + 1, s.stop.machine_name.as_str()),
            )
        })
        .collect();
    stops
        .iter()
        .map(|st| {
            let (order, name) = names
                .get(st.machine_id.as_str())
                .copied()
                .unwrap_or((0, ""));
            let visited: HashMap<&str, &vendfleet_app::planning::VisitLine> = st
                .visit
                .iter()
                .flat_map(|v| v.lines.iter())
                .map(|l| (l.selection.as_str(), l))
                .collect();
            let lines: Vec<RouteLineDto> = st
                .lines
                .iter()
                .map(|l| {
                    let v = visited.get(l.selection.as_str());
                    let money = |q: i64| values.then_some(q * l.price_minor);
                    RouteLineDto {
                        selection: l.selection.clone(),
                        product_id: l.product_id.clone(),
                        product_name: l.product_name.clone(),
                        current: l.current,
                        max: l.max,
                        velocity: two_decimals(l.velocity),
                        predicted_at_visit: one_decimal(l.predicted_at_visit),
                        need: l.need,
                        to_bring: l.to_bring,
                        case_size: l.case_size,
                        components: components(&l.components),
                        found: v.map(|v| v.found),
                        filled: v.map(|v| v.filled),
                        removed: v.map(|v| v.removed),
                        removed_reason: v.and_then(|v| v.removed_reason).map(|r| r.key().into()),
                        price_minor: values.then_some(l.price_minor),
                        to_bring_value_minor: money(l.to_bring),
                        filled_value_minor: money(v.map_or(0, |v| v.filled)),
                    }
                })
                .collect();
            let sum = |f: fn(&RouteLineDto) -> Option<i64>| {
                values.then(|| lines.iter().filter_map(f).sum::<i64>())
            };
            StopPicklistDto {
                order,
                machine_id: st.machine_id.clone(),
                machine_name: name.to_string(),
                currency: st.currency.clone(),
                decimal_places: st.decimal_places,
                visited: st.visit.is_some(),
                to_bring_value_minor: sum(|l| l.to_bring_value_minor),
                filled_value_minor: sum(|l| l.filled_value_minor),
                lines,
            }
        })
        .collect()
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/machines/products/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<StopPicklistDto>>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn route_products(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<StopPicklistDto>>>> {
    let (route, stops) = route_and_stops(&s, a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: stop_picklists(&route, &stops, false),
    }))
}

/// The money of a route's picklist, by currency.
#[derive(Debug, Serialize, ToSchema)]
pub struct ValueTotalDto {
    pub currency: String,
    pub to_bring_value_minor: i64,
    pub filled_value_minor: i64,
}

/// The picklist with money values.
#[derive(Debug, Serialize, ToSchema)]
pub struct RouteValuesDto {
    pub stops: Vec<StopPicklistDto>,
    /// The totals of the route's first currency (a route is in one currency in practice).
    pub totals: ValueTotalDto,
    /// The totals per currency.
    pub by_currency: Vec<ValueTotalDto>,
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/machines/products/values/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<RouteValuesDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn route_product_values(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<RouteValuesDto>>> {
    let (route, stops) = route_and_stops(&s, a.principal(), &id).await?;
    let stops = stop_picklists(&route, &stops, true);
    let mut by: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    for st in &stops {
        let t = by.entry(st.currency.clone()).or_default();
        t.0 += st.to_bring_value_minor.unwrap_or(0);
        t.1 += st.filled_value_minor.unwrap_or(0);
    }
    let by_currency: Vec<ValueTotalDto> = by
        .into_iter()
        .map(|(currency, (b, f))| ValueTotalDto {
            currency,
            to_bring_value_minor: b,
            filled_value_minor: f,
        })
        .collect();
    let first = stops
        .first()
        .map(|s| s.currency.clone())
        .unwrap_or_default();
    let totals = by_currency
        .iter()
        .find(|t| t.currency == first)
        .map(|t| ValueTotalDto {
            currency: t.currency.clone(),
            to_bring_value_minor: t.to_bring_value_minor,
            filled_value_minor: t.filled_value_minor,
        })
        .unwrap_or(ValueTotalDto {
            currency: first,
            to_bring_value_minor: 0,
            filled_value_minor: 0,
        });
    Ok(axum::Json(Data {
        data: RouteValuesDto {
            stops,
            totals,
            by_currency,
        },
    }))
}

/// A product's (or component's) way through the van.
#[derive(Debug, Serialize, ToSchema)]
pub struct StockRowDto {
    pub id: String,
    pub name: String,
    /// The component's unit (empty for products).
    pub unit: String,
    pub loaded: i64,
    pub filled: i64,
    pub removed: i64,
    /// Loaded − filled: back to the depot.
    pub returned: i64,
}

/// The stock report.
#[derive(Debug, Serialize, ToSchema)]
pub struct StocksDto {
    pub products: Vec<StockRowDto>,
    pub components: Vec<StockRowDto>,
}

pub(super) fn stock_dto(r: StockRow, unit: String) -> StockRowDto {
    StockRowDto {
        id: r.product_id,
        name: r.product_name,
        unit,
        loaded: r.loaded,
        filled: r.filled,
        removed: r.removed,
        returned: r.returned,
    }
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/stocks/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<StocksDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn route_stocks(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<StocksDto>>> {
    let (_, stops) = route_and_stops(&s, a.principal(), &id).await?;
    let (products, components) = vendfleet_app::planning::stock_report(&stops);
    Ok(axum::Json(Data {
        data: StocksDto {
            products: products
                .into_iter()
                .map(|r| stock_dto(r, String::new()))
                .collect(),
            components: components
                .into_iter()
                .map(|(r, unit)| stock_dto(r, unit))
                .collect(),
        },
    }))
}

/// A route's forecast accuracy.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccuracyDto {
    /// 1 − Σ|predicted − actual| / Σ actual over the visited stops; null before any visit.
    pub accuracy: Option<f64>,
    pub visited: usize,
    pub lines: Vec<AccuracyRow>,
    pub machines: Vec<AccuracyRow>,
    pub products: Vec<AccuracyRow>,
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/accuracy/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<AccuracyDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn route_accuracy(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<AccuracyDto>>> {
    let (route, stops) = route_and_stops(&s, a.principal(), &id).await?;
    let acc = vendfleet_app::planning::forecast_accuracy(&route, &stops);
    Ok(axum::Json(Data {
        data: AccuracyDto {
            accuracy: accuracy(&acc.lines),
            visited: route.visited(),
            lines: acc.lines,
            machines: acc.machines,
            products: acc.products,
        },
    }))
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/export/", tag = "planning", security(("bearer" = [])),
    params(("id" = String, Path), crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = MessageData<crate::kit::export::JobDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn route_export(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
    Query(e): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<Response> {
    // A refiller prints their own routes; anyone else's need the export permission.
    let route = s.app.planning.get_route(a.principal(), &id).await?;
    if route.employee_id != a.principal().user.id
        && !a
            .principal()
            .can(vendfleet_domain::Permission::PlannedRoutesExport)
    {
        return Err(vendfleet_app::AppError::Forbidden(
            "You may export only your own routes.".into(),
        )
        .into());
    }
    let format = Format::parse(e.format.as_deref())?;
    let table = vendfleet_render::tables::routes::route_table(&s.app, a.principal(), &id).await?;
    crate::kit::export::answer(table, &s, a.requester(), format, "planned-route").await
}

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(route_products))
        .routes(routes!(route_product_values))
        .routes(routes!(route_stocks))
        .routes(routes!(route_accuracy))
        .routes(routes!(route_export))
}
