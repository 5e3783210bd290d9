//! The users area's option lists (roles, modules, employees, positions), served by the filters
//! function.

use crate::kit::crud;
use crate::kit::dto::*;
use crate::kit::error::ErrorBody;
use crate::kit::extract::{perm, Authorized, Query, SignedIn};
use crate::kit::state::AppState;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_domain::{permissions::catalogue_tree, Language};

/// The users area's option lists.
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(roles))
        .routes(routes!(role_modules))
        .routes(routes!(employees))
        .routes(routes!(positions))
}

crud::options! {
    /// Every role, by name.
    roles("/api/filters/roles/"),
    |s, _a: perm::RoleOptions| s.app.users.role_options().await?,
    responses(
        (status = 200, body = Data<Vec<OptionDto>>),
        (status = 403, body = ErrorBody),
    )
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

crud::options! {
    /// Every active employee, by name.
    employees("/api/filters/employees/"),
    |s, _a: SignedIn| s.app.users.employee_options().await?
}

crud::values! {
    /// The positions employees hold.
    positions("/api/filters/employees/positions/"),
    |s, _a: perm::Positions| s.app.users.positions().await?
}
