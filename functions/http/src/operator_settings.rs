//! Operator settings: the operator's calendar (set by configuration) and policy on data leaving
//! the system, and the time zones to choose from.

use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{Authorized, Json, SignedIn};
use crate::kit::reply::{updated, values};
use crate::kit::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_domain::validation::time_zones;

/// The operator settings' routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(operator_settings, update_operator_settings))
}

/// The operator settings' filters: the time zones.
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(timezones))
}

/// The operator's settings: the calendar (set by configuration) and the policy on data leaving
/// the system (set by an all-machines administrator).
#[derive(Debug, Serialize, ToSchema)]
pub struct OperatorSettingsDto {
    /// IANA time zone of the operator (`VENDFLEET_TIME_ZONE`): fleet-wide "today", "this month",
    /// period presets and default ranges are local dates here.
    pub time_zone: String,
    /// The operator's local date now.
    pub today: chrono::NaiveDate,
    /// Domains (`example.com`) or subdomain patterns (`*.example.com`) that scheduled reports may
    /// be mailed to besides users; empty: users only.
    pub mail_domains: Vec<String>,
    /// The shortest interval allowed between a scheduled task's runs.
    pub min_task_interval_minutes: u32,
    /// Whether the caller may change the policy (an all-machines administrator).
    pub editable: bool,
    /// The policy's version (0 until first changed).
    pub version: u64,
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

async fn operator_dto(
    s: &AppState,
    p: &vendfleet_app::auth::Principal,
    policy: vendfleet_app::operator_settings::OperatorPolicy,
) -> OperatorSettingsDto {
    OperatorSettingsDto {
        time_zone: s.app.calendar.time_zone().name().to_string(),
        today: s.app.calendar.today(),
        mail_domains: policy.mail_domains,
        min_task_interval_minutes: policy.min_task_interval_minutes,
        editable: p.is_fleet_admin(),
        version: policy.version,
        updated_at: policy.updated_at,
    }
}

/// The operator's time zone and today's local date (set by configuration), and the policy on data
/// leaving the system.
#[utoipa::path(get, path = "/api/settings/operator/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<OperatorSettingsDto>), (status = 401, body = ErrorBody)))]
async fn operator_settings(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<OperatorSettingsDto>>> {
    let policy = s.app.operator_settings.get().await?;
    Ok(axum::Json(Data {
        data: operator_dto(&s, a.principal(), policy).await,
    }))
}

/// The operator's policy form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OperatorPolicyBody {
    /// Domains or `*.domain` patterns; empty: scheduled reports go to users only.
    #[serde(default)]
    #[schema(max_items = 100)]
    pub mail_domains: Vec<crate::kit::contract::MailDomain>,
    /// 1 to 1440 (default 15).
    #[schema(minimum = 1, maximum = 1440)]
    pub min_task_interval_minutes: Option<u32>,
    /// The version loaded.
    #[schema(minimum = 0)]
    pub version: Option<u64>,
}

/// Changes the policy on data leaving the system (an administrator of users and roles with
/// access to all machines).
#[utoipa::path(put, path = "/api/settings/operator/", tag = "settings", security(("bearer" = [])), request_body = OperatorPolicyBody,
    responses((status = 200, body = MessageData<OperatorSettingsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_operator_settings(
    State(s): State<AppState>,
    a: Authorized<crate::kit::extract::FleetAdmin>,
    Json(body): Json<OperatorPolicyBody>,
) -> ApiResult<axum::Json<MessageData<OperatorSettingsDto>>> {
    let policy = s
        .app
        .operator_settings
        .set(
            a.principal(),
            &vendfleet_app::operator_settings::PolicyInput {
                mail_domains: body.mail_domains.into_iter().map(|d| d.0).collect(),
                min_task_interval_minutes: body.min_task_interval_minutes,
                version: body.version,
            },
        )
        .await?;
    Ok(updated(
        "Settings updated successfully",
        operator_dto(&s, a.principal(), policy).await,
    ))
}

/// Every IANA time zone.
#[utoipa::path(get, path = "/api/filters/timezones/", tag = "filters",
    responses((status = 200, body = Data<Vec<String>>)))]
async fn timezones() -> axum::Json<Data<Vec<String>>> {
    values(time_zones().into_iter().map(String::from).collect())
}
