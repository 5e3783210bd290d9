//! A machine's intake anomalies (part of the machines area): events refused because the
//! machine had used their id before with other content, each beside the event stored first.

use crate::kit::dto::Data;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{machines_perm as perm, Authorized};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::events::{IntakeAnomaly, SeenEvent};

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_anomalies))
}

/// An event refused because its id was used before with other content.
#[derive(Debug, Serialize, ToSchema)]
pub struct IntakeAnomalyDto {
    pub event_id: String,
    /// reused_id.
    pub kind: String,
    /// The event stored under the id first (booked).
    pub first: SeenEvent,
    /// The event refused under the same id (nothing booked).
    pub second: SeenEvent,
}

impl From<IntakeAnomaly> for IntakeAnomalyDto {
    fn from(a: IntakeAnomaly) -> Self {
        IntakeAnomalyDto {
            event_id: a.event_id,
            kind: a.kind,
            first: a.first,
            second: a.second,
        }
    }
}

/// The machine's intake anomalies, the latest refused first.
#[utoipa::path(get, path = "/api/machines/{id}/intake-anomalies/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<IntakeAnomalyDto>>), (status = 404, body = ErrorBody)))]
async fn list_anomalies(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<IntakeAnomalyDto>>>> {
    let list = s.app.events.intake_anomalies(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: list.into_iter().map(Into::into).collect(),
    }))
}
