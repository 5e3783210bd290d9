//! The operator's planning settings.

use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::State;
use axum::response::IntoResponse;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::PlanningSettings;

// ----- settings --------------------------------------------------------------------------

#[utoipa::path(get, path = "/api/route-planning/settings/", tag = "planning", security(("bearer" = [])),
    responses((status = 200, body = Data<PlanningSettings>), (status = 403, body = ErrorBody)))]
pub(super) async fn get_planning_settings(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
) -> ApiResult<axum::Json<Data<PlanningSettings>>> {
    let settings = s.app.planning.settings_for(a.principal()).await?;
    Ok(axum::Json(Data { data: settings }))
}

#[utoipa::path(put, path = "/api/route-planning/settings/", tag = "planning", security(("bearer" = [])), request_body = PlanningSettings,
    responses((status = 200, body = MessageData<PlanningSettings>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn put_planning_settings(
    State(s): State<AppState>,
    a: Authorized<perm::GeneratePicklist>,
    Json(body): Json<PlanningSettings>,
) -> ApiResult<impl IntoResponse> {
    let saved = s.app.planning.save_settings(a.principal(), &body).await?;
    Ok(updated("Planning settings updated successfully", saved))
}

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_planning_settings, put_planning_settings))
}
