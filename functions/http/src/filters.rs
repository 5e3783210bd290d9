//! Filters area: option lists for pickers and filters (the parts the users screens need).

use crate::dto::*;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{perm, Authorized, Query, SignedIn};
use crate::reply::options;
use crate::state::AppState;
use axum::extract::State;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_domain::{permissions::catalogue_tree, Language};

/// The filters of the users area.
pub fn users_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(roles))
        .routes(routes!(role_modules))
        .routes(routes!(employees))
        .routes(routes!(positions))
}

/// Every role, by name.
#[utoipa::path(get, path = "/api/filters/roles/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>), (status = 403, body = ErrorBody)))]
async fn roles(
    State(s): State<AppState>,
    _a: Authorized<perm::RoleOptions>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(s.app.users.role_options().await?))
}

/// The permission catalogue as a tree (modules → areas → permissions), localised.
#[utoipa::path(get, path = "/api/filters/roles/modules/", tag = "filters", security(("bearer" = [])), params(LangQuery),
    responses((status = 200, body = Data<Vec<CatalogueNodeDto>>)))]
async fn role_modules(
    a: Authorized<perm::PermissionCatalogue>,
    Query(q): Query<LangQuery>,
) -> axum::Json<Data<Vec<CatalogueNodeDto>>> {
    let lang = q
        .lang
        .as_deref()
        .and_then(Language::parse)
        .unwrap_or(a.principal().user.language);
    axum::Json(Data {
        data: catalogue_tree(lang).into_iter().map(Into::into).collect(),
    })
}

/// Every active employee, by name.
#[utoipa::path(get, path = "/api/filters/employees/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn employees(
    State(s): State<AppState>,
    _a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(s.app.users.employee_options().await?))
}

/// The positions employees hold.
#[utoipa::path(get, path = "/api/filters/employees/positions/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<String>>)))]
async fn positions(
    State(s): State<AppState>,
    _a: Authorized<perm::Positions>,
) -> ApiResult<axum::Json<Data<Vec<String>>>> {
    Ok(axum::Json(Data {
        data: s.app.users.positions().await?,
    }))
}
