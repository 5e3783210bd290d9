//! The operator's planning settings.

use super::*;

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
