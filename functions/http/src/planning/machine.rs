//! One machine's plan: what its selections need, its cash.

use super::numbers::{one_decimal, two_decimals};
use super::ranked::VisitQuery;
use crate::kit::dto::Data;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{ComponentNeed, MachineCash, SelectionPlan};

// ----- one machine ------------------------------------------------------------------------

/// A component a need takes.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ComponentNeedDto {
    pub component_id: String,
    pub name: String,
    pub unit: String,
    pub quantity: i64,
}

pub(super) fn components(c: &[ComponentNeed]) -> Vec<ComponentNeedDto> {
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

pub(super) fn selection_dto(s: &SelectionPlan) -> SelectionPlanDto {
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
pub(super) async fn plan_machine_products(
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
pub(super) async fn plan_machine_cash(
    State(s): State<AppState>,
    a: Authorized<perm::PlanningList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<MachineCashDto>>> {
    let cash = s.app.planning.machine_cash(a.principal(), &id).await?;
    Ok(axum::Json(Data { data: cash.into() }))
}

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(plan_machine_products))
        .routes(routes!(plan_machine_cash))
}
