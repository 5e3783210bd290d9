//! The planning area's API: route planning (`/api/route-planning/`), planned routes
//! (`/api/planned-routes/`) and the visit booking (`/api/machines/fill-from-route/`, served with
//! the machines area).

mod loading;
mod machine;
mod numbers;
mod picklist;
mod ranked;
mod route_reports;
mod routes;
mod settings;
mod visit;

use crate::kit::state::AppState;
use utoipa_axum::router::OpenApiRouter;

/// Route planning and planned routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(loading::router())
        .merge(machine::router())
        .merge(picklist::router())
        .merge(ranked::router())
        .merge(route_reports::router())
        .merge(routes::router())
        .merge(settings::router())
}

/// The visit booking, under `/api/machines/` (served by the machines function).
pub fn visits_router() -> OpenApiRouter<AppState> {
    visit::visits_router()
}
