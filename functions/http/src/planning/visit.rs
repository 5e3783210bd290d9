//! The visit booking (`/api/machines/fill-from-route/`).

use super::routes::{route_dto, visit_dto, PlannedRouteDto, VisitDto};
use crate::kit::dto::MessageData;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::State;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{FillFromRouteInput, VisitLineInput};

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
    /// The cash counted (minor units): also books the machine's collection, once.
    pub collected_minor: Option<i64>,
    /// The refiller's note (at most 500 characters).
    pub note: Option<String>,
    /// The stop could not be serviced: `lines` empty, no cash.
    #[schema(value_type = Option<vendfleet_app::planning::NotServiced>)]
    pub not_serviced: Option<String>,
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
pub(super) async fn fill_from_route(
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
        note: b.note,
        not_serviced: b.not_serviced,
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

/// The visit booking, under `/api/machines/` (served by the machines function).
pub(super) fn visits_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(fill_from_route))
}
