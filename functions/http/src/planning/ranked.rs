//! The ranked list of machines to visit and the map.

use super::numbers::one_decimal;
use crate::kit::dto::{Data, ListReply};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{MachinePlan, PlanningListParams, PlanningSettings};
use vendfleet_domain::planning::Point;

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

pub(super) fn ranked_dto(m: &MachinePlan, s: &PlanningSettings) -> RankedMachineDto {
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

crate::kit::fields::list_query! {
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
pub(super) async fn ranked_list(
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
pub(super) async fn planning_map(
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

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ranked_list))
        .routes(routes!(planning_map))
}
