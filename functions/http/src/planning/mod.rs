//! The planning area's API: route planning (`/api/route-planning/`), planned routes
//! (`/api/planned-routes/`) and the visit booking (`/api/machines/fill-from-route/`, served with
//! the machines area).

use crate::dto::{Data, ListReply, MessageData};
use crate::error::{ApiResult, ErrorBody};
use crate::export::Format;
use crate::extract::{planning_perm as perm, Authorized, Json, Query};
use crate::reply::{created, updated};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{
    accuracy, AccuracyRow, FillFromRouteInput, RouteEdit, RouteInput, RouteListParams,
    SaveRoutesInput, StockRow, VisitLineInput,
};
use vendfleet_app::planning::{
    ComponentNeed, MachineCash, MachinePlan, PicklistInput, Plan, PlanStop, PlannedRoute,
    PlanningListParams, PlanningSettings, RouteStop, SelectionPlan,
};
use vendfleet_domain::planning::Point;
use vendfleet_domain::report::Choice;

mod loading;
mod machine;
mod picklist;
mod ranked;
mod route_reports;
mod routes;
mod settings;
mod visit;

use loading::*;
use machine::*;
use picklist::*;
use ranked::*;
use route_reports::*;
use routes::*;
use settings::*;
use visit::*;

/// Route planning and planned routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ranked_list))
        .routes(routes!(planning_map))
        .routes(routes!(get_planning_settings, put_planning_settings))
        .routes(routes!(plan_machine_products))
        .routes(routes!(plan_machine_cash))
        .routes(routes!(generate_picklist))
        .routes(routes!(list_routes, save_routes))
        .routes(routes!(get_route, edit_route, delete_route))
        .routes(routes!(route_status))
        .routes(routes!(route_change_employee))
        .routes(routes!(route_machines))
        .routes(routes!(route_remove_machine))
        .routes(routes!(route_products))
        .routes(routes!(route_product_values))
        .routes(routes!(route_stocks))
        .routes(routes!(route_accuracy))
        .routes(routes!(route_export))
        .routes(routes!(loading_list))
        .routes(routes!(put_loading))
}

/// The visit booking, under `/api/machines/` (served by the machines function).
pub fn machines_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(fill_from_route))
}

pub(super) fn one_decimal(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

pub(super) fn two_decimals(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
