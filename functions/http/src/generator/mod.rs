//! The report generator's API (`/api/reports/generator/`): templates, ad-hoc and templated
//! generation on the background worker, the reports list with progress, downloads, archiving.

mod definition;
mod report;
mod templates;

pub(crate) use definition::definition_form;
pub(crate) use report::{module_options, report_dto, ReportDto, UserRefDto};

use crate::kit::state::AppState;
use utoipa_axum::router::OpenApiRouter;

/// The generator's routes.
pub fn router() -> OpenApiRouter<AppState> {
    report::router().merge(templates::router())
}

/// The generator's option lists.
pub fn filters() -> OpenApiRouter<AppState> {
    report::filters()
}
