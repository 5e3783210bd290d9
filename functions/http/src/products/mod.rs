//! Products area: products with price history, components, composite products with their
//! recipes, product tags, and their filters.

mod components;
mod composites;
mod product;
mod tags;

use crate::kit::state::AppState;
use utoipa_axum::router::OpenApiRouter;

/// The products area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    product::router()
        .merge(components::router())
        .merge(composites::router())
        .merge(tags::router())
}

/// The products area's filters (served by the filters area).
pub fn filters() -> OpenApiRouter<AppState> {
    product::filters()
}
