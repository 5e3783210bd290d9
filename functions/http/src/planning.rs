//! The planning area's API: route planning (`/api/route-planning/`), planned routes
//! (`/api/planned-routes/`) and the visit booking (`/api/machines/fill-from-route/`, served with
//! the machines area).

use crate::dto::{Data, ListReply, MessageData};
use crate::error::{ApiResult, ErrorBody};
use crate::export::{col, titles, Cell, Column, Format, Table};
use crate::extract::{planning_perm as perm, Authorized, Json, Query};
use crate::reply::{created, tr, updated};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::routes::{
    accuracy, AccuracyRow, FillFromRouteInput, RouteEdit, RouteInput, RouteListParams,
    SaveRoutesInput, StockRow, VisitLineInput,
};
use vendfleet_app::planning::{
    ComponentNeed, MachineCash, MachinePlan, PicklistInput, Plan, PlanStop, PlannedRoute,
    PlanningListParams, PlanningSettings, RouteStop, SelectionPlan,
};
use vendfleet_domain::planning::Point;
use vendfleet_domain::report::Choice;

/// Route planning and planned routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ranked_list))
        .routes(routes!(planning_map))
        .routes(routes!(get_planning_settings, put_planning_settings))
        .routes(routes!(plan_machine_products))
        .routes(routes!(plan_machine_cash))
        .routes(routes!(generate_picklist))
        .routes(routes!(list_routes, save_routes))
        .routes(routes!(get_route, edit_route, delete_route))
        .routes(routes!(route_status))
        .routes(routes!(route_change_employee))
        .routes(routes!(route_machines))
        .routes(routes!(route_remove_machine))
        .routes(routes!(route_products))
        .routes(routes!(route_product_values))
        .routes(routes!(route_stocks))
        .routes(routes!(route_accuracy))
        .routes(routes!(route_export))
}

/// The visit booking, under `/api/machines/` (served by the machines function).
pub fn machines_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(fill_from_route))
}

fn one_decimal(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn two_decimals(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

// ----- settings --------------------------------------------------------------------------

/// The operator's planning settings.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsDto {
    /// A selection below this share of its max (percent) is low.
    pub low_share_pct: u32,
    pub expiry_days: i64,
    /// Cash box amount (minor units) at which a machine should be collected.
    pub auto_collect_minor: i64,
    pub stale_hours: i64,
    pub horizon_days: i64,
    /// Days of sales the velocities average (7–91).
    pub velocity_days: i64,
    pub van_capacity: i64,
    /// HH:MM in the operator's zone.
    pub shift_start: String,
    pub shift_end: String,
    pub service_minutes: i64,
    pub road_factor: f64,
    pub speed_kmh: f64,
    pub depot_latitude: Option<f64>,
    pub depot_longitude: Option<f64>,
    /// Ignored on writes.
    #[serde(default)]
    pub updated_at: Option<DateTime<Utc>>,
    /// The version the form was loaded with (0 before the first save).
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<PlanningSettings> for SettingsDto {
    fn from(s: PlanningSettings) -> Self {
        SettingsDto {
            low_share_pct: s.low_share_pct,
            expiry_days: s.expiry_days,
            auto_collect_minor: s.auto_collect_minor,
            stale_hours: s.stale_hours,
            horizon_days: s.horizon_days,
            velocity_days: s.velocity_days,
            van_capacity: s.van_capacity,
            shift_start: s.shift_start,
            shift_end: s.shift_end,
            service_minutes: s.service_minutes,
            road_factor: s.road_factor,
            speed_kmh: s.speed_kmh,
            depot_latitude: s.depot_latitude,
            depot_longitude: s.depot_longitude,
            updated_at: s.updated_at,
            version: Some(s.version),
        }
    }
}

impl From<SettingsDto> for PlanningSettings {
    fn from(s: SettingsDto) -> Self {
        PlanningSettings {
            low_share_pct: s.low_share_pct,
            expiry_days: s.expiry_days,
            auto_collect_minor: s.auto_collect_minor,
            stale_hours: s.stale_hours,
            horizon_days: s.horizon_days,
            velocity_days: s.velocity_days,
            van_capacity: s.van_capacity,
            shift_start: s.shift_start,
            shift_end: s.shift_end,
            service_minutes: s.service_minutes,
            road_factor: s.road_factor,
            speed_kmh: s.speed_kmh,
            depot_latitude: s.depot_latitude,
            depot_longitude: s.depot_longitude,
            updated_at: None,
            version: 0,
        }
    }
}

#[utoipa::path(get, path = "/api/route-planning/settings/", tag = "planning", security(("bearer" = [])),
    responses((status = 200, body = Data<SettingsDto>), (status = 403, body = ErrorBody)))]
async fn get_planning_settings(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
) -> ApiResult<axum::Json<Data<SettingsDto>>> {
    let settings = s.app.planning.settings_for(a.principal()).await?;
    Ok(axum::Json(Data {
        data: settings.into(),
    }))
}

#[utoipa::path(put, path = "/api/route-planning/settings/", tag = "planning", security(("bearer" = [])), request_body = SettingsDto,
    responses((status = 200, body = MessageData<SettingsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn put_planning_settings(
    State(s): State<AppState>,
    a: Authorized<perm::GeneratePicklist>,
    Json(body): Json<SettingsDto>,
) -> ApiResult<impl IntoResponse> {
    let version = body.version;
    let saved = s
        .app
        .planning
        .save_settings(a.principal(), &body.into(), version)
        .await?;
    Ok(updated(
        "Planning settings updated successfully",
        SettingsDto::from(saved),
    ))
}

// ----- the ranked list and the map ---------------------------------------------------------

/// Why a machine needs a visit.
#[derive(Debug, Serialize, ToSchema)]
pub struct SignalsDto {
    /// Selections sold out.
    pub sold_out: usize,
    /// Selections below the low share.
    pub low: usize,
    /// Selections predicted empty at the visit.
    pub empty_at_visit: usize,
    /// Selections with stock expiring within the expiry days.
    pub expiring: usize,
    pub min_days_to_empty: Option<f64>,
    pub min_days_to_low: Option<f64>,
    pub cash_box_minor: Option<i64>,
    pub auto_collect_minor: i64,
    pub cash_due: bool,
    pub last_reading_at: Option<DateTime<Utc>>,
    pub last_reading_hours: Option<i64>,
    pub held_audits: usize,
}

/// A machine ranked by need.
#[derive(Debug, Serialize, ToSchema)]
pub struct RankedMachineDto {
    pub id: String,
    pub name: String,
    pub location_id: Option<String>,
    pub location_name: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub currency: String,
    pub decimal_places: u8,
    /// `now`, `soon` or `later`.
    pub need: String,
    pub offline: bool,
    pub visit_by: NaiveDate,
    pub signals: SignalsDto,
    /// Units to bring at the visit (rounded to cases).
    pub units_to_bring: i64,
}

fn ranked_dto(m: &MachinePlan, s: &PlanningSettings) -> RankedMachineDto {
    let sig = &m.need.signals;
    RankedMachineDto {
        id: m.machine.id.clone(),
        name: m.machine.name.clone(),
        location_id: m.machine.location_id.clone(),
        location_name: m.location.as_ref().map(|l| l.name.clone()),
        latitude: m.point.map(|p| p.latitude),
        longitude: m.point.map(|p| p.longitude),
        currency: m.machine.currency.clone(),
        decimal_places: m.machine.decimal_places,
        need: m.need.level.key().into(),
        offline: sig.offline,
        visit_by: m.need.visit_by,
        signals: SignalsDto {
            sold_out: sig.sold_out,
            low: sig.low,
            empty_at_visit: sig.empty_at_visit,
            expiring: sig.expiring,
            min_days_to_empty: sig.min_days_to_empty.map(one_decimal),
            min_days_to_low: sig.min_days_to_low.map(one_decimal),
            cash_box_minor: sig.cash_box_minor,
            auto_collect_minor: s.auto_collect_minor,
            cash_due: sig.cash_due,
            last_reading_at: m.last_reading,
            last_reading_hours: sig.last_reading_hours,
            held_audits: sig.held_audits,
        },
        units_to_bring: m.units_to_bring(),
    }
}

crate::crud::list_query! {
    pub struct RankedQuery {
        page,
        page_size,
        search,
        ordering,
        /// The visit day (default: tomorrow).
        pub visit_date: Option<String>,
        /// `all` (default) or `visit`: need now or soon.
        pub need: Option<String>,
    }
}

#[utoipa::path(get, path = "/api/route-planning/", tag = "planning", security(("bearer" = [])), params(RankedQuery),
    responses((status = 200, body = ListReply<RankedMachineDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn ranked_list(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
    Query(q): Query<RankedQuery>,
) -> ApiResult<axum::Json<ListReply<RankedMachineDto>>> {
    let params = PlanningListParams {
        list: q.list(),
        visit_date: q.visit_date.clone(),
        need: q.need.clone(),
    };
    let (page, settings) = s.app.planning.list(a.principal(), &params).await?;
    let data = page
        .items
        .iter()
        .map(|m| ranked_dto(m, &settings))
        .collect();
    Ok(axum::Json(ListReply::of(&page, data)))
}

/// A point.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PointDto {
    pub latitude: f64,
    pub longitude: f64,
}

impl From<Point> for PointDto {
    fn from(p: Point) -> Self {
        PointDto {
            latitude: p.latitude,
            longitude: p.longitude,
        }
    }
}

impl From<PointDto> for Point {
    fn from(p: PointDto) -> Self {
        Point {
            latitude: p.latitude,
            longitude: p.longitude,
        }
    }
}

/// A machine on the map.
#[derive(Debug, Serialize, ToSchema)]
pub struct MapMachineDto {
    pub id: String,
    pub name: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub need: String,
    pub offline: bool,
    pub units_to_bring: i64,
}

/// The map: every machine of the scope and the depot.
#[derive(Debug, Serialize, ToSchema)]
pub struct MapDto {
    pub machines: Vec<MapMachineDto>,
    pub depot: Option<PointDto>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct VisitQuery {
    /// The visit day (default: tomorrow).
    pub visit_date: Option<String>,
}

#[utoipa::path(get, path = "/api/route-planning/map/", tag = "planning", security(("bearer" = [])), params(VisitQuery),
    responses((status = 200, body = Data<MapDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn planning_map(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
    Query(q): Query<VisitQuery>,
) -> ApiResult<axum::Json<Data<MapDto>>> {
    let (plans, depot) = s
        .app
        .planning
        .map(a.principal(), q.visit_date.as_deref())
        .await?;
    Ok(axum::Json(Data {
        data: MapDto {
            machines: plans
                .iter()
                .map(|m| MapMachineDto {
                    id: m.machine.id.clone(),
                    name: m.machine.name.clone(),
                    latitude: m.point.map(|p| p.latitude),
                    longitude: m.point.map(|p| p.longitude),
                    need: m.need.level.key().into(),
                    offline: m.need.signals.offline,
                    units_to_bring: m.units_to_bring(),
                })
                .collect(),
            depot: depot.map(Into::into),
        },
    }))
}

// ----- one machine ------------------------------------------------------------------------

/// A component a need takes.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ComponentNeedDto {
    pub component_id: String,
    pub name: String,
    pub unit: String,
    pub quantity: i64,
}

fn components(c: &[ComponentNeed]) -> Vec<ComponentNeedDto> {
    c.iter()
        .map(|c| ComponentNeedDto {
            component_id: c.component_id.clone(),
            name: c.name.clone(),
            unit: c.unit.clone(),
            quantity: c.quantity,
        })
        .collect()
}

/// One selection's plan for the visit.
#[derive(Debug, Serialize, ToSchema)]
pub struct SelectionPlanDto {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub current: i64,
    pub max: i64,
    pub case_size: Option<i64>,
    pub price_minor: i64,
    /// Units a day, on average over the week.
    pub velocity: f64,
    /// Units a day, Monday to Sunday.
    pub velocity_by_weekday: Vec<f64>,
    pub days_to_empty: Option<f64>,
    pub predicted_at_visit: f64,
    /// The gap to par (before case rounding).
    pub need: i64,
    /// What to bring (rounded up to whole cases).
    pub to_bring: i64,
    pub expiry_date: Option<NaiveDate>,
    pub components: Vec<ComponentNeedDto>,
}

fn selection_dto(s: &SelectionPlan) -> SelectionPlanDto {
    SelectionPlanDto {
        selection: s.selection.clone(),
        product_id: s.product_id.clone(),
        product_name: s.product_name.clone(),
        current: s.current,
        max: s.max,
        case_size: s.case_size,
        price_minor: s.price_minor,
        velocity: two_decimals(s.velocity.average()),
        velocity_by_weekday: s
            .velocity
            .by_weekday
            .iter()
            .map(|v| two_decimals(*v))
            .collect(),
        days_to_empty: s.days_to_empty.map(one_decimal),
        predicted_at_visit: one_decimal(s.predicted_at_visit),
        need: s.need,
        to_bring: s.to_bring,
        expiry_date: s.expiry_date,
        components: components(&s.components),
    }
}

#[utoipa::path(get, path = "/api/route-planning/machines/{id}/products/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path), VisitQuery),
    responses((status = 200, body = Data<Vec<SelectionPlanDto>>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn plan_machine_products(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
    Path(id): Path<String>,
    Query(q): Query<VisitQuery>,
) -> ApiResult<axum::Json<Data<Vec<SelectionPlanDto>>>> {
    let plan = s
        .app
        .planning
        .machine_plan(a.principal(), &id, q.visit_date.as_deref())
        .await?;
    Ok(axum::Json(Data {
        data: plan.selections.iter().map(selection_dto).collect(),
    }))
}

/// The last collection.
#[derive(Debug, Serialize, ToSchema)]
pub struct CollectionDto {
    pub at: DateTime<Utc>,
    pub collected_minor: i64,
    pub employee_name: Option<String>,
    pub bag_no: String,
}

/// A machine's cash.
#[derive(Debug, Serialize, ToSchema)]
pub struct MachineCashDto {
    pub currency: String,
    pub decimal_places: u8,
    pub cash_box_minor: Option<i64>,
    pub bill_stacker_minor: Option<i64>,
    pub tubes_minor: Option<i64>,
    /// When the cash box was last read.
    pub read_at: Option<DateTime<Utc>>,
    pub last_collection: Option<CollectionDto>,
    /// Cash sales since the last collection.
    pub expected_cash_minor: i64,
    pub auto_collect_minor: i64,
    /// Whether the cash calls for a collection.
    pub collect: bool,
}

impl From<MachineCash> for MachineCashDto {
    fn from(c: MachineCash) -> Self {
        MachineCashDto {
            currency: c.currency,
            decimal_places: c.decimal_places,
            cash_box_minor: c.cash_box_minor,
            bill_stacker_minor: c.bill_stacker_minor,
            tubes_minor: c.tubes_minor,
            read_at: c.read_at,
            last_collection: c.last_collection.map(|e| CollectionDto {
                at: e.at,
                collected_minor: e.collected_minor,
                employee_name: e.employee_name,
                bag_no: e.bag_no,
            }),
            expected_cash_minor: c.expected_cash_minor,
            auto_collect_minor: c.auto_collect_minor,
            collect: c.collect,
        }
    }
}

#[utoipa::path(get, path = "/api/route-planning/machines/{id}/machine-cash/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<MachineCashDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn plan_machine_cash(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<MachineCashDto>>> {
    let cash = s.app.planning.machine_cash(a.principal(), &id).await?;
    Ok(axum::Json(Data { data: cash.into() }))
}

// ----- generate picklist --------------------------------------------------------------------

/// What to plan.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PicklistBody {
    /// Default: tomorrow.
    pub visit_date: Option<String>,
    #[serde(default)]
    pub machine_ids: Vec<String>,
    /// Every machine of the scope whose need is now or soon, instead of `machine_ids`.
    #[serde(default)]
    pub all_needing: bool,
    pub employee_ids: Vec<String>,
    pub depot: Option<PointDto>,
    pub van_capacity: Option<i64>,
    pub shift_start: Option<String>,
    pub shift_end: Option<String>,
    pub service_minutes: Option<i64>,
}

/// A stop.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanStopDto {
    pub machine_id: String,
    pub machine_name: String,
    pub location_name: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub arrival: Option<DateTime<Utc>>,
    pub departure: Option<DateTime<Utc>>,
    /// Metres from the previous stop (or the depot).
    pub distance_m: i64,
    pub units: i64,
}

fn stop_dto(s: &PlanStop) -> PlanStopDto {
    PlanStopDto {
        machine_id: s.machine_id.clone(),
        machine_name: s.machine_name.clone(),
        location_name: s.location_name.clone(),
        latitude: s.point.map(|p| p.latitude),
        longitude: s.point.map(|p| p.longitude),
        arrival: s.arrival,
        departure: s.departure,
        distance_m: s.distance_m,
        units: s.units,
    }
}

/// One refiller's route.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanRouteDto {
    pub employee_id: String,
    pub employee_name: String,
    pub stops: Vec<PlanStopDto>,
    pub distance_m: i64,
    pub duration_s: i64,
    pub start: Option<DateTime<Utc>>,
    pub end: Option<DateTime<Utc>>,
    pub units: i64,
}

/// A machine left out of the routes.
#[derive(Debug, Serialize, ToSchema)]
pub struct UnassignedDto {
    pub machine_id: String,
    pub machine_name: String,
    /// `no_coordinates`, `capacity` or `shift`.
    pub reason: String,
}

/// A machine's picklist.
#[derive(Debug, Serialize, ToSchema)]
pub struct MachinePicklistDto {
    pub machine_id: String,
    pub machine_name: String,
    pub lines: Vec<SelectionPlanDto>,
}

/// A product's total.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductTotalDto {
    pub product_id: String,
    pub product_name: String,
    pub quantity: i64,
    pub case_size: Option<i64>,
    pub components: Vec<ComponentNeedDto>,
}

/// The plan.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanDto {
    pub visit_date: NaiveDate,
    pub routes: Vec<PlanRouteDto>,
    pub unassigned: Vec<UnassignedDto>,
    pub picklist: Vec<MachinePicklistDto>,
    pub totals: Vec<ProductTotalDto>,
}

fn plan_dto(p: Plan) -> PlanDto {
    let names: HashMap<&str, &str> = p
        .machines
        .iter()
        .map(|m| (m.machine.id.as_str(), m.machine.name.as_str()))
        .collect();
    PlanDto {
        visit_date: p.visit_date,
        routes: p
            .routes
            .iter()
            .map(|r| PlanRouteDto {
                employee_id: r.employee_id.clone(),
                employee_name: r.employee_name.clone(),
                stops: r.stops.iter().map(stop_dto).collect(),
                distance_m: r.distance_m,
                duration_s: r.duration_s,
                start: r.start,
                end: r.end,
                units: r.units,
            })
            .collect(),
        unassigned: p
            .unassigned
            .iter()
            .map(|(id, reason)| UnassignedDto {
                machine_id: id.clone(),
                machine_name: names
                    .get(id.as_str())
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
                reason: reason.clone(),
            })
            .collect(),
        picklist: p
            .machines
            .iter()
            .map(|m| MachinePicklistDto {
                machine_id: m.machine.id.clone(),
                machine_name: m.machine.name.clone(),
                lines: m
                    .selections
                    .iter()
                    .filter(|s| s.to_bring > 0)
                    .map(selection_dto)
                    .collect(),
            })
            .collect(),
        totals: p
            .totals
            .iter()
            .map(|t| ProductTotalDto {
                product_id: t.product_id.clone(),
                product_name: t.product_name.clone(),
                quantity: t.quantity,
                case_size: t.case_size,
                components: components(&t.components),
            })
            .collect(),
    }
}

#[utoipa::path(post, path = "/api/route-planning/generate-picklist/", tag = "planning", security(("bearer" = [])), request_body = PicklistBody,
    responses((status = 200, body = Data<PlanDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn generate_picklist(
    State(s): State<AppState>,
    a: Authorized<perm::GeneratePicklist>,
    Json(b): Json<PicklistBody>,
) -> ApiResult<axum::Json<Data<PlanDto>>> {
    let input = PicklistInput {
        visit_date: b.visit_date,
        machine_ids: b.machine_ids,
        all_needing: b.all_needing,
        employee_ids: b.employee_ids,
        depot: b.depot.map(Into::into),
        van_capacity: b.van_capacity,
        shift_start: b.shift_start,
        shift_end: b.shift_end,
        service_minutes: b.service_minutes,
    };
    let plan = s.app.planning.generate(a.principal(), &input).await?;
    Ok(axum::Json(Data {
        data: plan_dto(plan),
    }))
}

// ----- planned routes -----------------------------------------------------------------------

/// A stop of a planned route.
#[derive(Debug, Serialize, ToSchema)]
pub struct RouteStopDto {
    /// 1 for the first stop.
    pub order: usize,
    #[serde(flatten)]
    pub stop: PlanStopDto,
    pub visited_at: Option<DateTime<Utc>>,
}

/// A planned route.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlannedRouteDto {
    pub id: String,
    pub name: String,
    /// `refill`, `cash_collection` or `refill_and_collection`.
    pub route_type: String,
    pub visit_date: NaiveDate,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub employee_id: String,
    pub employee_name: String,
    /// `planned`, `in_progress`, `done`, `cancelled` or `expired`.
    pub status: String,
    /// The stops in order.
    pub machines: Vec<RouteStopDto>,
    /// How many stops.
    pub stops: usize,
    /// How many were visited.
    pub visited: usize,
    pub distance_m: i64,
    pub duration_s: i64,
    pub depot: Option<PointDto>,
    pub version: u64,
}

fn route_dto(s: &AppState, r: &PlannedRoute) -> PlannedRouteDto {
    let now = s.app.calendar.now();
    PlannedRouteDto {
        id: r.id.clone(),
        name: r.name.clone(),
        route_type: r.route_type.key().into(),
        visit_date: r.visit_date,
        created_at: r.created_at,
        expires_at: r.expires_at,
        employee_id: r.employee_id.clone(),
        employee_name: r.employee_name.clone(),
        status: r.status_at(now).key().into(),
        machines: r
            .stops
            .iter()
            .enumerate()
            .map(|(i, st)| RouteStopDto {
                order: i + 1,
                stop: stop_dto(&st.stop),
                visited_at: st.visited_at,
            })
            .collect(),
        stops: r.stops.len(),
        visited: r.visited(),
        distance_m: r.distance_m,
        duration_s: r.duration_s,
        depot: r.depot.map(Into::into),
        version: r.version,
    }
}

crate::crud::list_query! {
    pub struct RoutesQuery {
        page,
        page_size,
        search,
        ordering,
        /// `planned`, `in_progress`, `done`, `cancelled` or `expired`.
        pub status: Option<String>,
        /// An employee's id.
        pub employee: Option<String>,
        pub date_from: Option<String>,
        pub date_to: Option<String>,
    }
}

#[utoipa::path(get, path = "/api/planned-routes/", tag = "planning", security(("bearer" = [])), params(RoutesQuery),
    responses((status = 200, body = ListReply<PlannedRouteDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_routes(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Query(q): Query<RoutesQuery>,
) -> ApiResult<axum::Json<ListReply<PlannedRouteDto>>> {
    let params = RouteListParams {
        list: q.list(),
        status: q.status.clone(),
        employee: q.employee.clone(),
        date_from: q.date_from.clone(),
        date_to: q.date_to.clone(),
    };
    let page = s.app.planning.list_routes(a.principal(), &params).await?;
    let data = page.items.iter().map(|r| route_dto(&s, r)).collect();
    Ok(axum::Json(ListReply::of(&page, data)))
}

/// One route of a save.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RouteBody {
    pub employee_id: String,
    /// In stop order.
    pub machine_ids: Vec<String>,
}

/// A plan to save.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SaveRoutesBody {
    pub visit_date: Option<String>,
    pub route_type: Option<String>,
    pub name: Option<String>,
    pub depot: Option<PointDto>,
    pub routes: Vec<RouteBody>,
}

#[utoipa::path(post, path = "/api/planned-routes/", tag = "planning", security(("bearer" = [])), request_body = SaveRoutesBody,
    responses((status = 201, body = MessageData<Vec<PlannedRouteDto>>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn save_routes(
    State(s): State<AppState>,
    a: Authorized<perm::GeneratePicklist>,
    Json(b): Json<SaveRoutesBody>,
) -> ApiResult<impl IntoResponse> {
    let input = SaveRoutesInput {
        visit_date: b.visit_date,
        route_type: b.route_type,
        name: b.name,
        depot: b.depot.map(Into::into),
        routes: b
            .routes
            .into_iter()
            .map(|r| RouteInput {
                employee_id: r.employee_id,
                machine_ids: r.machine_ids,
            })
            .collect(),
    };
    let saved = s.app.planning.save_routes(a.principal(), &input).await?;
    let data: Vec<PlannedRouteDto> = saved.iter().map(|r| route_dto(&s, r)).collect();
    Ok(created("Planned route created successfully", data))
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<PlannedRouteDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_route(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<PlannedRouteDto>>> {
    let r = s.app.planning.get_route(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: route_dto(&s, &r),
    }))
}

/// A change of a planned route.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RouteEditBody {
    pub name: Option<String>,
    pub route_type: Option<String>,
    pub visit_date: Option<String>,
    pub version: Option<u64>,
}

#[utoipa::path(patch, path = "/api/planned-routes/{id}/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)), request_body = RouteEditBody,
    responses((status = 200, body = MessageData<PlannedRouteDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn edit_route(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesEdit>,
    Path(id): Path<String>,
    Json(b): Json<RouteEditBody>,
) -> ApiResult<impl IntoResponse> {
    let r = s
        .app
        .planning
        .edit_route(
            a.principal(),
            &id,
            &RouteEdit {
                name: b.name,
                route_type: b.route_type,
                visit_date: b.visit_date,
                version: b.version,
            },
        )
        .await?;
    Ok(updated(
        "Planned route updated successfully",
        route_dto(&s, &r),
    ))
}

#[utoipa::path(delete, path = "/api/planned-routes/{id}/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_route(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesDelete>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    s.app.planning.delete_route(a.principal(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A status move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusBody {
    /// `in_progress`, `done` or `cancelled`.
    pub status: String,
    pub version: Option<u64>,
}

#[utoipa::path(post, path = "/api/planned-routes/{id}/status/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)), request_body = StatusBody,
    responses((status = 200, body = MessageData<PlannedRouteDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn route_status(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesEdit>,
    Path(id): Path<String>,
    Json(b): Json<StatusBody>,
) -> ApiResult<impl IntoResponse> {
    let r = s
        .app
        .planning
        .move_route(a.principal(), &id, &b.status, b.version)
        .await?;
    Ok(updated(
        "Planned route status changed successfully",
        route_dto(&s, &r),
    ))
}

/// The new employee.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeEmployeeBody {
    pub employee_id: String,
    pub version: Option<u64>,
}

#[utoipa::path(post, path = "/api/planned-routes/{id}/change-employee/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)), request_body = ChangeEmployeeBody,
    responses((status = 200, body = MessageData<PlannedRouteDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn route_change_employee(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesChangeEmployee>,
    Path(id): Path<String>,
    Json(b): Json<ChangeEmployeeBody>,
) -> ApiResult<impl IntoResponse> {
    let r = s
        .app
        .planning
        .change_employee(a.principal(), &id, &b.employee_id, b.version)
        .await?;
    Ok(updated("Employee changed successfully", route_dto(&s, &r)))
}

/// A visited selection.
#[derive(Debug, Serialize, ToSchema)]
pub struct VisitLineDto {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub found: i64,
    pub filled: i64,
    pub removed: i64,
    pub removed_reason: Option<String>,
    pub after: i64,
}

/// A booked visit.
#[derive(Debug, Serialize, ToSchema)]
pub struct VisitDto {
    pub request_id: String,
    pub at: DateTime<Utc>,
    pub employee_id: String,
    pub employee_name: String,
    pub filled: i64,
    pub removed: i64,
    pub cash_bag: Option<String>,
    pub collected_minor: Option<i64>,
    pub lines: Vec<VisitLineDto>,
}

/// A stop with its visit.
#[derive(Debug, Serialize, ToSchema)]
pub struct RouteMachineDto {
    pub order: usize,
    #[serde(flatten)]
    pub stop: PlanStopDto,
    pub currency: String,
    pub decimal_places: u8,
    pub visit: Option<VisitDto>,
}

fn visit_dto(v: &vendfleet_app::planning::Visit) -> VisitDto {
    VisitDto {
        request_id: v.request_id.clone(),
        at: v.at,
        employee_id: v.employee_id.clone(),
        employee_name: v.employee_name.clone(),
        filled: v.filled(),
        removed: v.removed(),
        cash_bag: v.cash_bag.clone(),
        collected_minor: v.collected_minor,
        lines: v
            .lines
            .iter()
            .map(|l| VisitLineDto {
                selection: l.selection.clone(),
                product_id: l.product_id.clone(),
                product_name: l.product_name.clone(),
                found: l.found,
                filled: l.filled,
                removed: l.removed,
                removed_reason: l.removed_reason.map(|r| r.key().to_string()),
                after: l.after,
            })
            .collect(),
    }
}

async fn route_and_stops(
    s: &AppState,
    a: &vendfleet_app::auth::Principal,
    id: &str,
) -> ApiResult<(PlannedRoute, Vec<RouteStop>)> {
    Ok(s.app.planning.route_with_stops(a, id).await?)
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/machines/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<RouteMachineDto>>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn route_machines(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<RouteMachineDto>>>> {
    let (route, stops) = route_and_stops(&s, a.principal(), &id).await?;
    let by: HashMap<&str, &RouteStop> = stops
        .iter()
        .map(|st| (st.machine_id.as_str(), st))
        .collect();
    let data = route
        .stops
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let detail = by.get(st.stop.machine_id.as_str());
            RouteMachineDto {
                order: i + 1,
                stop: stop_dto(&st.stop),
                currency: detail.map(|d| d.currency.clone()).unwrap_or_default(),
                decimal_places: detail.map_or(2, |d| d.decimal_places),
                visit: detail.and_then(|d| d.visit.as_ref()).map(visit_dto),
            }
        })
        .collect();
    Ok(axum::Json(Data { data }))
}

#[utoipa::path(delete, path = "/api/planned-routes/{id}/machines/{machine_id}/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path), ("machine_id" = String, Path)),
    responses((status = 200, body = MessageData<PlannedRouteDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn route_remove_machine(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesEdit>,
    Path((id, machine_id)): Path<(String, String)>,
) -> ApiResult<impl IntoResponse> {
    let r = s
        .app
        .planning
        .remove_stop(a.principal(), &id, &machine_id)
        .await?;
    Ok(updated(
        "Machine removed from the route successfully",
        route_dto(&s, &r),
    ))
}

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

fn stop_picklists(route: &PlannedRoute, stops: &[RouteStop], values: bool) -> Vec<StopPicklistDto> {
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
async fn route_products(
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
async fn route_product_values(
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

fn stock_dto(r: StockRow, unit: String) -> StockRowDto {
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
async fn route_stocks(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<StocksDto>>> {
    let (_, stops) = route_and_stops(&s, a.principal(), &id).await?;
    let (products, components) = vendfleet_app::planning::routes::stock_report(&stops);
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

/// Forecast accuracy of a line or a total.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccuracyRowDto {
    pub machine_id: String,
    pub machine_name: String,
    pub product_id: String,
    pub product_name: String,
    /// The need predicted when the route was saved.
    pub predicted: i64,
    /// The need found at the visit (max − found).
    pub actual: i64,
    pub filled: i64,
    pub error: i64,
    pub abs_error: i64,
    pub accuracy: Option<f64>,
}

/// A route's forecast accuracy.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccuracyDto {
    /// 1 − Σ|predicted − actual| / Σ actual over the visited stops; null before any visit.
    pub accuracy: Option<f64>,
    pub visited: usize,
    pub lines: Vec<AccuracyRowDto>,
    pub machines: Vec<AccuracyRowDto>,
    pub products: Vec<AccuracyRowDto>,
}

fn accuracy_dto(r: &AccuracyRow) -> AccuracyRowDto {
    AccuracyRowDto {
        machine_id: r.machine_id.clone(),
        machine_name: r.machine_name.clone(),
        product_id: r.product_id.clone(),
        product_name: r.product_name.clone(),
        predicted: r.predicted,
        actual: r.actual,
        filled: r.filled,
        error: r.error(),
        abs_error: r.error().abs(),
        accuracy: accuracy(std::slice::from_ref(r)).map(|a| (a * 1000.0).round() / 1000.0),
    }
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/accuracy/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<AccuracyDto>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn route_accuracy(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<AccuracyDto>>> {
    let (route, stops) = route_and_stops(&s, a.principal(), &id).await?;
    let acc = vendfleet_app::planning::routes::forecast_accuracy(&route, &stops);
    Ok(axum::Json(Data {
        data: AccuracyDto {
            accuracy: accuracy(&acc.lines).map(|a| (a * 1000.0).round() / 1000.0),
            visited: route.visited(),
            lines: acc.lines.iter().map(accuracy_dto).collect(),
            machines: acc.machines.iter().map(accuracy_dto).collect(),
            products: acc.products.iter().map(accuracy_dto).collect(),
        },
    }))
}

const ROUTE_COLUMNS: [Column; 13] = [
    col("order", "Stop", "Arrêt", "Fermata"),
    col("machine", "Machine", "Machine", "Macchina"),
    col("location", "Location", "Emplacement", "Posizione"),
    col("arrival", "Arrival", "Arrivée", "Arrivo"),
    col("selection", "Selection", "Sélection", "Selezione"),
    col("product", "Product", "Produit", "Prodotto"),
    col("current", "Stock", "Stock", "Scorta"),
    col(
        "predicted",
        "Predicted at visit",
        "Prévu à la visite",
        "Previsto alla visita",
    ),
    col("to_bring", "To bring", "À apporter", "Da portare"),
    col("found", "Found", "Trouvé", "Trovato"),
    col("filled", "Filled", "Rempli", "Riempito"),
    col("removed", "Removed", "Retiré", "Rimosso"),
    col("reason", "Reason", "Motif", "Motivo"),
];

async fn route_table(
    app: &vendfleet_app::App,
    p: &vendfleet_app::auth::Principal,
    id: &str,
) -> ApiResult<Table> {
    let lang = p.user.language;
    let (route, stops) = app.planning.route_with_stops(p, id).await?;
    let mut rows = Vec::new();
    for pl in stop_picklists(&route, &stops, false) {
        let summary = route
            .stops
            .iter()
            .find(|s| s.stop.machine_id == pl.machine_id);
        for l in pl.lines {
            rows.push(vec![
                Cell::Int(pl.order as i64),
                pl.machine_name.clone().into(),
                summary
                    .and_then(|s| s.stop.location_name.clone())
                    .unwrap_or_default()
                    .into(),
                summary.and_then(|s| s.stop.arrival).into(),
                l.selection.into(),
                l.product_name.into(),
                l.current.into(),
                l.predicted_at_visit.into(),
                l.to_bring.into(),
                l.found.into(),
                l.filled.into(),
                l.removed.into(),
                l.removed_reason.unwrap_or_default().into(),
            ]);
        }
    }
    Ok(Table {
        sheet: tr(lang, "Route", "Tournée", "Percorso"),
        header: titles(lang, &ROUTE_COLUMNS),
        rows,
    })
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/export/", tag = "planning", security(("bearer" = [])),
    params(("id" = String, Path), crate::export::ExportQuery),
    responses((status = 200, response = inline(crate::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = MessageData<crate::jobs::JobDto>),
        (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn route_export(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesExport>,
    Path(id): Path<String>,
    Query(e): Query<crate::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let lang = a.principal().user.language;
    route_table(&s.app, a.principal(), &id)
        .await?
        .answer(&s, a.requester(), format, "planned-route", lang)
        .await
}

// ----- the visit ------------------------------------------------------------------------

/// One selection of a visit.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VisitLineBody {
    pub selection: String,
    /// Units counted in the selection on arrival.
    pub found: i64,
    #[serde(default)]
    pub filled: i64,
    #[serde(default)]
    pub removed: i64,
    /// `expired`, `damaged` or `other` (required when something was removed).
    #[schema(value_type = Option<vendfleet_app::planning::RemovalReason>)]
    pub removed_reason: Option<String>,
    /// The new expiry date of the selection's stock.
    pub expiry_date: Option<String>,
}

/// A visit of a route's stop.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FillFromRouteBody {
    pub route_id: String,
    pub machine_id: String,
    /// The client's id of this booking: the same id again books nothing.
    pub request_id: String,
    #[serde(default)]
    pub lines: Vec<VisitLineBody>,
    pub cash_bag: Option<String>,
    pub collected_minor: Option<i64>,
}

/// A booked visit.
#[derive(Debug, Serialize, ToSchema)]
pub struct BookedDto {
    pub route: PlannedRouteDto,
    pub visit: VisitDto,
    /// True when this request had been booked before and nothing was written now.
    pub replayed: bool,
}

#[utoipa::path(post, path = "/api/machines/fill-from-route/", tag = "machines", security(("bearer" = [])), request_body = FillFromRouteBody,
    responses((status = 200, body = MessageData<BookedDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn fill_from_route(
    State(s): State<AppState>,
    a: Authorized<perm::FillFromRoute>,
    Json(b): Json<FillFromRouteBody>,
) -> ApiResult<impl IntoResponse> {
    let input = FillFromRouteInput {
        route_id: b.route_id,
        machine_id: b.machine_id,
        request_id: b.request_id,
        lines: b
            .lines
            .into_iter()
            .map(|l| VisitLineInput {
                selection: l.selection,
                found: l.found,
                filled: l.filled,
                removed: l.removed,
                removed_reason: l.removed_reason,
                expiry_date: l.expiry_date,
            })
            .collect(),
        cash_bag: b.cash_bag,
        collected_minor: b.collected_minor,
    };
    let booked = s
        .app
        .planning
        .fill_from_route(a.principal(), &input)
        .await?;
    let visit = booked
        .stop
        .visit
        .as_ref()
        .map(visit_dto)
        .expect("a booked stop has its visit");
    Ok(updated(
        "Stock filled from route successfully",
        BookedDto {
            route: route_dto(&s, &booked.route),
            visit,
            replayed: booked.replayed,
        },
    ))
}
