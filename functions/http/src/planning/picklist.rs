//! Generating a picklist: machines split into routes, with what to bring.

use super::machine::{components, selection_dto, ComponentNeedDto, SelectionPlanDto};
use super::ranked::PointDto;
use crate::kit::dto::Data;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Json};
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{PicklistInput, Plan, PlanStop};

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
    /// The location's street address.
    pub address: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub arrival: Option<DateTime<Utc>>,
    pub departure: Option<DateTime<Utc>>,
    /// Metres from the previous stop (or the depot).
    pub distance_m: i64,
    pub units: i64,
}

pub(super) fn stop_dto(s: &PlanStop) -> PlanStopDto {
    PlanStopDto {
        machine_id: s.machine_id.clone(),
        machine_name: s.machine_name.clone(),
        location_name: s.location_name.clone(),
        address: s.address.clone(),
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

pub(super) fn plan_dto(p: Plan) -> PlanDto {
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
pub(super) async fn generate_picklist(
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

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(generate_picklist))
}
