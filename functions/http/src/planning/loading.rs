//! The van loading list (`/api/planned-routes/loading-list/`) and its tick-off
//! (`/api/planned-routes/{id}/loading/`).

use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{planning_perm as perm, Authorized, Json, Query};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::response::IntoResponse;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::planning::{LoadProduct, LoadStop, LoadedInput, LoadingList, LoadingQuery};

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LoadingListQuery {
    /// The day whose routes to load (YYYY-MM-DD); or
    pub date: Option<String>,
    /// one route.
    pub route_id: Option<String>,
}

/// A route of the loading list.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoadRouteDto {
    pub id: String,
    pub name: String,
    pub employee_id: String,
    pub employee_name: String,
    pub visit_date: NaiveDate,
    pub version: u64,
}

/// The loading list of a day's routes or of one route.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoadingListDto {
    pub date: Option<NaiveDate>,
    pub routes: Vec<LoadRouteDto>,
    /// Most units first.
    pub products: Vec<LoadProduct>,
    /// Route by route, in stop order.
    pub stops: Vec<LoadStop>,
}

fn loading_dto(l: LoadingList) -> LoadingListDto {
    LoadingListDto {
        date: l.date,
        routes: l
            .routes
            .iter()
            .map(|r| LoadRouteDto {
                id: r.id.clone(),
                name: r.name.clone(),
                employee_id: r.employee_id.clone(),
                employee_name: r.employee_name.clone(),
                visit_date: r.visit_date,
                version: r.version,
            })
            .collect(),
        products: l.products,
        stops: l.stops,
    }
}

/// The loading list of a day or a route.
async fn listed(
    s: &AppState,
    a: &Authorized<perm::RoutesList>,
    date: Option<String>,
    route_id: Option<String>,
) -> ApiResult<LoadingListDto> {
    let list = s
        .app
        .planning
        .loading_list(a.principal(), &LoadingQuery { date, route_id })
        .await?;
    Ok(loading_dto(list))
}

#[utoipa::path(get, path = "/api/planned-routes/loading-list/", tag = "planning", security(("bearer" = [])), params(LoadingListQuery),
    responses((status = 200, body = Data<LoadingListDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub(super) async fn loading_list(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Query(q): Query<LoadingListQuery>,
) -> ApiResult<axum::Json<Data<LoadingListDto>>> {
    Ok(axum::Json(Data {
        data: listed(&s, &a, q.date, q.route_id).await?,
    }))
}

/// One product's tick-off.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadedLineBody {
    pub product_id: String,
    /// Units loaded (0 clears the tick).
    pub loaded: i64,
}

/// What was loaded into the van for a route.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoadedBody {
    pub lines: Vec<LoadedLineBody>,
    /// The route's version (409 when it changed meanwhile).
    pub version: Option<u64>,
}

#[utoipa::path(put, path = "/api/planned-routes/{id}/loading/", tag = "planning", security(("bearer" = [])), params(("id" = String, Path)), request_body = LoadedBody,
    responses((status = 200, body = MessageData<LoadingListDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub(super) async fn put_loading(
    State(s): State<AppState>,
    a: Authorized<perm::RoutesList>,
    Path(id): Path<String>,
    Json(b): Json<LoadedBody>,
) -> ApiResult<impl IntoResponse> {
    let lines: Vec<LoadedInput> = b
        .lines
        .into_iter()
        .map(|l| LoadedInput {
            product_id: l.product_id,
            loaded: l.loaded,
        })
        .collect();
    let route = s
        .app
        .planning
        .set_loaded(a.principal(), &id, &lines, b.version)
        .await?;
    Ok(updated(
        "Loading saved",
        listed(&s, &a, None, Some(route.id)).await?,
    ))
}

/// The routes of this part of the planning API.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(loading_list))
        .routes(routes!(put_loading))
}
