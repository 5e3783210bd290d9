//! The audit trail of data leaving the system (`/api/audit/exports/`): every export, generated
//! report downloaded and report mailed, for an all-machines administrator.

use crate::kit::dto::ListReply;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{Authorized, FleetAdmin, Query};
use crate::kit::state::AppState;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::audit::{DataExit, ExitFilter, ExitKind};

/// The audit area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_exits))
}

/// One time data left the system, with its taker's name.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExitDto {
    #[serde(flatten)]
    pub exit: DataExit,
    /// The name of `user_id` now (empty when the user is gone).
    pub user_name: String,
}

crate::kit::fields::list_query! {
    /// The audit trail's query.
    pub struct ExitsQuery {
        page,
        page_size,
        /// Text in the request, the file name or a recipient.
        search,
        /// `-at` (default, newest first) or `at`.
        #[param(pattern = r"^(-?at)?$")]
        ordering,
        /// First UTC date, YYYY-MM-DD (default: 29 days before `date_to`).
        pub date_from: Option<String>,
        /// Last UTC date, YYYY-MM-DD, inclusive (default: today); at most 366 days in all.
        pub date_to: Option<String>,
        /// Only this way out.
        #[param(value_type = Option<ExitKind>, inline)]
        pub kind: Option<String>,
        /// Only this user's.
        pub user_id: Option<String>,
    }
}

/// Data that left the system, newest first: exports, background exports, generated reports
/// downloaded and reports mailed — who, the definition, the machines covered, when and to whom.
#[utoipa::path(get, path = "/api/audit/exports/", tag = "audit", security(("bearer" = [])), params(ExitsQuery),
    responses((status = 200, body = ListReply<ExitDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_exits(
    State(s): State<AppState>,
    a: Authorized<FleetAdmin>,
    Query(q): Query<ExitsQuery>,
) -> ApiResult<axum::Json<ListReply<ExitDto>>> {
    let filter = ExitFilter {
        date_from: q.date_from.clone(),
        date_to: q.date_to.clone(),
        kind: q.kind.clone(),
        user_id: q.user_id.clone(),
    };
    let page = s.app.audit.list(a.principal(), &q.list(), &filter).await?;
    let mut data = Vec::with_capacity(page.items.len());
    for exit in page.items.clone() {
        let user_name = match s.app.users.directory().user(&exit.user_id).await {
            Ok(Some(u)) => u.name,
            _ => String::new(),
        };
        data.push(ExitDto { exit, user_name });
    }
    Ok(axum::Json(ListReply::of(&page, data)))
}
