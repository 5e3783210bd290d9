//! The router's finish: `/api/openapi.json` where asked, the body limits, the JSON errors and
//! request tracing; the JSON 404 of unknown API paths.

use super::contract;
use super::extract;
use super::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Router;
use utoipa_axum::router::OpenApiRouter;

pub async fn api_not_found() -> impl IntoResponse {
    super::error::ApiError::new(StatusCode::NOT_FOUND, "No such endpoint")
}

/// The router with `/api/openapi.json` (when given the document), the body limits and the JSON
/// errors. The document comes as a function pointer, so a router without it links no handler of
/// another area.
pub fn finish(
    router: OpenApiRouter<AppState>,
    state: AppState,
    document: Option<fn() -> utoipa::openapi::OpenApi>,
) -> Router {
    let (mut router, _) = router.split_for_parts();
    if let Some(doc) = document {
        router = router.route(
            "/api/openapi.json",
            axum::routing::get(move || async move { axum::Json(doc()) }),
        );
    }
    traced(
        router
            // Every endpoint, those that take no body too, refuses one over its limit (413).
            .layer(axum::middleware::from_fn(body_limit))
            .layer(axum::middleware::from_fn(contract::json_errors))
            .layer(DefaultBodyLimit::max(extract::MAX_BODY_BYTES))
            .with_state(state),
    )
}

/// The endpoints that take a body larger than [`extract::MAX_BODY_BYTES`], by path template.
const LARGE_BODIES: &[(&str, usize)] = &[
    ("/api/settlements/imports/", extract::MAX_IMPORT_BODY_BYTES),
    (
        "/api/settings/data-sources/imports/{id}/parts/{n}/",
        vendfleet_app::data_sources::history::MAX_PART_BYTES,
    ),
];

/// Refuses a body over the endpoint's limit (413, as JSON): at once when its length says so,
/// else as it streams in.
async fn body_limit(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let limit = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .and_then(|p| LARGE_BODIES.iter().find(|(path, _)| *path == p.as_str()))
        .map_or(extract::MAX_BODY_BYTES, |(_, limit)| *limit);
    let declared = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return super::error::ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The body is larger than {limit} bytes"),
        )
        .into_response();
    }
    let req = req.map(|b| axum::body::Body::new(http_body_util::Limited::new(b, limit)));
    next.run(req).await
}

/// Request tracing: every request gets an `x-request-id` (the caller's, else a new UUID; on
/// Lambda the API Gateway request id), echoed on the answer, and one span with the method, path
/// and request id whose end is logged with the status and latency.
pub fn traced(router: Router) -> Router {
    use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
    use tower_http::trace::{DefaultOnResponse, TraceLayer};
    use tracing::Level;
    let trace = TraceLayer::new_for_http()
        .make_span_with(|req: &axum::http::Request<axum::body::Body>| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            tracing::info_span!(
                "request",
                method = %req.method(),
                path = %req.uri().path(),
                request_id = %id,
            )
        })
        .on_request(())
        .on_response(DefaultOnResponse::new().level(Level::INFO));
    router
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(trace)
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
}
