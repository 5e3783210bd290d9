//! The operator's planning settings.

use super::*;

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
pub(super) async fn get_planning_settings(
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
pub(super) async fn put_planning_settings(
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
