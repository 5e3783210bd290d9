//! Machines area: machines, their settings, export and overview (here), planograms and stock
//! (`planogram`), tags (`tags`), the refill log (`refills`), EVA-DTS audit reads (`audits`),
//! intake anomalies (`anomalies`), and the machines' option lists.

mod anomalies;
mod audits;
mod machine;
mod planogram;
pub(crate) mod refills;
mod tags;

use crate::kit::state::AppState;
use utoipa_axum::router::OpenApiRouter;

/// The machines area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    machine::router()
        .merge(planogram::router())
        .merge(tags::router())
        .merge(refills::router())
        .merge(audits::router())
        .merge(anomalies::router())
}

/// The machines area's filters.
pub fn filters() -> OpenApiRouter<AppState> {
    machine::filters()
}
