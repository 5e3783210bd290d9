//! Planned routes: the list, saving, editing, status, employee and stops.

use super::picklist::{stop_dto, PlanStopDto};
use super::ranked::PointDto;
use crate::kit::dto::{Data, ListReply, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Json, Query};
use crate::kit::reply::{created, updated};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{PlannedRoute, RouteStop};
use vendfleet_app::planning::{RouteEdit, RouteInput, RouteListParams, SaveRoutesInput};
use vendfleet_domain::report::Choice;

// ----- planned routes -----------------------------------------------------------------------

/// A stop of a planned route.
#[derive(Debug, Serialize, ToSchema)]
pub struct RouteStopDto {
    /// 1 for the first stop.
    pub order: usize,
    #[serde(flatten)]
    pub stop: PlanStopDto,
    pub visited_at: Option<DateTime<Utc>>,
    /// `visited`, `not_serviced` (booked as could not be serviced), or null before the visit.
    pub outcome: Option<String>,
    /// Why the stop could not be serviced.
    #[schema(value_type = Option<vendfleet_app::planning::NotServiced>)]
    pub not_serviced: Option<String>,
}

/// A planned route.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlannedRouteDto {
    pub id: String,
    pub name: String,
    /// `refill`, `cash_collection` or `refill_and_collection`.
    pub route_type: String,
    pub visit_date: NaiveDate,
    /// The day the stops' picklists were computed for.
    pub picklist_date: NaiveDate,
    /// True when the route was moved to another day after its picklists were computed: they
    /// are the old day's.
    pub picklist_stale: bool,
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

pub(super) fn route_dto(s: &AppState, r: &PlannedRoute) -> PlannedRouteDto {
    let now = s.app.calendar.now();
    PlannedRouteDto {
        id: r.id.clone(),
        name: r.name.clone(),
        route_type: r.route_type.key().into(),
        visit_date: r.visit_date,
        picklist_date: r.picklist_date(),
        picklist_stale: r.picklist_date() != r.visit_date,
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
                outcome: st.visited_at.map(|_| {
                    if st.not_serviced.is_some() {
                        "not_serviced".into()
                    } else {
                        "visited".into()
                    }
                }),
                not_serviced: st.not_serviced.map(|r| r.key().into()),
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

crate::kit::fields::list_query! {
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
pub(super) async fn list_routes(
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
pub(super) async fn save_routes(
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
pub(super) async fn get_route(
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
pub(super) async fn edit_route(
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
pub(super) async fn delete_route(
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
pub(super) async fn route_status(
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
pub(super) async fn route_change_employee(
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
    pub note: Option<String>,
    /// Why the stop could not be serviced (then no lines and no cash).
    #[schema(value_type = Option<vendfleet_app::planning::NotServiced>)]
    pub not_serviced: Option<String>,
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

pub(super) fn visit_dto(v: &vendfleet_app::planning::Visit) -> VisitDto {
    VisitDto {
        request_id: v.request_id.clone(),
        at: v.at,
        employee_id: v.employee_id.clone(),
        employee_name: v.employee_name.clone(),
        filled: v.filled(),
        removed: v.removed(),
        cash_bag: v.cash_bag.clone(),
        collected_minor: v.collected_minor,
        note: v.note.clone(),
        not_serviced: v.not_serviced.map(|r| r.key().into()),
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

pub(super) async fn route_and_stops(
    s: &AppState,
    a: &vendfleet_app::auth::Principal,
    id: &str,
) -> ApiResult<(PlannedRoute, Vec<RouteStop>)> {
    Ok(s.app.planning.route_with_stops(a, id).await?)
}

#[utoipa::path(get, path = "/api/planned-routes/{id}/machines/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<RouteMachineDto>>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn route_machines(
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
pub(super) async fn route_remove_machine(
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

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_routes, save_routes))
        .routes(routes!(get_route, edit_route, delete_route))
        .routes(routes!(route_status))
        .routes(routes!(route_change_employee))
        .routes(routes!(route_machines))
        .routes(routes!(route_remove_machine))
}
