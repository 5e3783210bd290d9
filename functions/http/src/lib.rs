//! Vendfleet's HTTP layer: one axum router per API area, the auth extractor, the error mapping,
//! the DTOs and the OpenAPI document. Binaries add adapters and serve these routers.

pub mod audit;
pub mod auth;
pub mod contract;
pub mod crud;
pub mod dto;
pub mod error;
pub mod events;
pub mod export;
pub mod extract;
pub mod fields;
pub mod filters;
pub mod generator;
pub mod jobs;
pub mod machines;
pub mod mail_feedback;
pub mod planning;
pub mod products;
pub mod reply;
pub mod reports;
pub mod sales;
pub mod scheduler;
pub mod settings;
pub mod state;
pub mod transaction_log;
pub mod users;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use extract::ClientAddr;
pub use state::AppState;

/// The document's metadata; paths are collected from the routers, tags from [`AREAS`].
#[derive(OpenApi)]
#[openapi(info(
    title = "Vendfleet API",
    description = "Back office for fleets of vending machines."
))]
struct ApiDoc;

/// An API area, as deployed in one Lambda.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    Auth,
    Users,
    Settings,
    Machines,
    Products,
    Filters,
    /// The machines' webhook (outside `/api`).
    Events,
    /// Background jobs' status (served by the users function).
    Jobs,
    /// The audit trail of data leaving the system (served by the users function).
    Audit,
    /// The sales overview (sales journal, table header, graphs) and the dashboard.
    Sales,
    /// The reports: encashments, inventory, the transaction log and the report generator.
    Reports,
    /// Route planning and planned routes.
    Planning,
}

/// How an area is served: its OpenAPI tag, its routes, and the option lists it adds under
/// `/api/filters/` (served by the filters function).
struct AreaSpec {
    area: Area,
    tag: &'static str,
    routes: fn() -> OpenApiRouter<AppState>,
    filters: fn() -> OpenApiRouter<AppState>,
}

fn no_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
}

/// The one place that registers an area. A new area adds its line here, its Lambda binary in
/// `functions/lambdas/src/bin/` and its function in `template.yaml` (docs/architecture.md).
const AREAS: &[AreaSpec] = &[
    AreaSpec {
        area: Area::Auth,
        tag: "auth",
        routes: auth::router,
        filters: no_routes,
    },
    AreaSpec {
        area: Area::Users,
        tag: "users",
        routes: users::router,
        filters: filters::users_router,
    },
    AreaSpec {
        area: Area::Settings,
        tag: "settings",
        routes: settings_routes,
        filters: settings_filters,
    },
    AreaSpec {
        area: Area::Machines,
        tag: "machines",
        routes: machines_routes,
        filters: machines::filters_router,
    },
    AreaSpec {
        area: Area::Products,
        tag: "products",
        routes: products::router,
        filters: products::filters_router,
    },
    AreaSpec {
        area: Area::Sales,
        tag: "sales",
        routes: sales::router,
        filters: sales::filters_router,
    },
    AreaSpec {
        area: Area::Reports,
        tag: "reports",
        routes: reports_routes,
        filters: generator::filters_router,
    },
    AreaSpec {
        area: Area::Planning,
        tag: "planning",
        routes: planning::router,
        filters: no_routes,
    },
    AreaSpec {
        area: Area::Events,
        tag: "machine-events",
        routes: events::router,
        filters: no_routes,
    },
    AreaSpec {
        area: Area::Jobs,
        tag: "jobs",
        routes: jobs::router,
        filters: no_routes,
    },
    AreaSpec {
        area: Area::Audit,
        tag: "audit",
        routes: audit::router,
        filters: no_routes,
    },
    AreaSpec {
        area: Area::Filters,
        tag: "filters",
        routes: every_filter,
        filters: no_routes,
    },
];

/// The settings area: clients, locations, models and the query scheduler.
fn settings_routes() -> OpenApiRouter<AppState> {
    settings::router().merge(scheduler::router())
}

/// The settings area's option lists.
fn settings_filters() -> OpenApiRouter<AppState> {
    settings::filters_router().merge(scheduler::filters_router())
}

/// The machines area, with the visit booking of planned routes.
fn machines_routes() -> OpenApiRouter<AppState> {
    machines::router().merge(planning::machines_router())
}

/// The reports area: the report screens and the report generator.
fn reports_routes() -> OpenApiRouter<AppState> {
    reports::router().merge(generator::router())
}

/// Every area's option lists.
fn every_filter() -> OpenApiRouter<AppState> {
    AREAS
        .iter()
        .fold(OpenApiRouter::new(), |r, a| r.merge((a.filters)()))
}

/// Every route of every area.
fn every_route() -> OpenApiRouter<AppState> {
    AREAS
        .iter()
        .fold(OpenApiRouter::new(), |r, a| r.merge((a.routes)()))
}

fn area_router(area: Area) -> OpenApiRouter<AppState> {
    let routes = |area: Area| {
        AREAS
            .iter()
            .find(|a| a.area == area)
            .map(|a| (a.routes)())
            .unwrap_or_default()
    };
    match area {
        // Background jobs' status and the audit trail have no function of their own: the users
        // function answers them.
        Area::Users => routes(Area::Users)
            .merge(routes(Area::Jobs))
            .merge(routes(Area::Audit)),
        other => routes(other),
    }
}

/// The operations one area's function answers, as `(method, path template)` with the OpenAPI
/// document's spelling (`GET`, `/api/clients/{id}/`), plus the webhook and `/api/openapi.json`
/// that no area documents. The routing proof of the Lambda deployment checks API Gateway's
/// routes against these (functions/lambdas/tests/routing.rs).
pub fn area_operations(area: Area) -> Vec<(String, String)> {
    let (_, doc) = area_router(area).split_for_parts();
    let mut ops = operations(&doc);
    if area == Area::Events {
        ops.push(("POST".into(), events::WEBHOOK_PATH.into()));
    }
    ops.push(("GET".into(), "/api/openapi.json".into()));
    ops
}

/// A path item's operations with their methods.
fn methods(
    item: &utoipa::openapi::PathItem,
) -> impl Iterator<Item = (&'static str, &utoipa::openapi::path::Operation)> {
    [
        ("GET", &item.get),
        ("PUT", &item.put),
        ("POST", &item.post),
        ("DELETE", &item.delete),
        ("PATCH", &item.patch),
    ]
    .into_iter()
    .filter_map(|(method, op)| op.as_ref().map(|op| (method, op)))
}

/// Every operation of a document as `(method, path template)`.
pub fn operations(doc: &utoipa::openapi::OpenApi) -> Vec<(String, String)> {
    doc.paths
        .paths
        .iter()
        .flat_map(|(path, item)| methods(item).map(|(m, _)| (m.to_string(), path.clone())))
        .collect()
}

fn all_areas() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi()).merge(every_route())
}

/// The OpenAPI document of the whole API.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, mut doc) = all_areas().split_for_parts();
    // Areas outside `/api` (the machines' webhook) document nothing here: no empty tags.
    let used: std::collections::BTreeSet<String> = doc
        .paths
        .paths
        .values()
        .flat_map(|item| {
            methods(item)
                .flat_map(|(_, op)| op.tags.clone().unwrap_or_default())
                .collect::<Vec<_>>()
        })
        .collect();
    doc.tags = Some(
        AREAS
            .iter()
            .filter(|a| used.contains(a.tag))
            .map(|a| utoipa::openapi::tag::Tag::new(a.tag))
            .collect(),
    );
    contract::complete(&mut doc);
    doc
}

async fn openapi_json() -> impl IntoResponse {
    axum::Json(openapi())
}

async fn api_not_found() -> impl IntoResponse {
    error::ApiError::new(StatusCode::NOT_FOUND, "No such endpoint")
}

fn finish(router: OpenApiRouter<AppState>, state: AppState) -> Router {
    let (router, _) = router.split_for_parts();
    traced(
        router
            .route("/api/openapi.json", axum::routing::get(openapi_json))
            // Every endpoint, those that take no body too, refuses one over the limit (413).
            .layer(tower_http::limit::RequestBodyLimitLayer::new(
                extract::MAX_BODY_BYTES,
            ))
            .layer(axum::middleware::from_fn(contract::json_errors))
            .layer(DefaultBodyLimit::max(extract::MAX_BODY_BYTES))
            .with_state(state),
    )
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

/// The router of every area (the embedded server).
pub fn router(state: AppState) -> Router {
    finish(all_areas(), state)
}

/// The router of one area (one Lambda); unknown paths answer a JSON 404.
pub fn area(area: Area, state: AppState) -> Router {
    finish(area_router(area), state).fallback(api_not_found)
}

/// The JSON 404 for unknown API paths, for binaries that add their own fallback.
pub async fn not_found() -> impl IntoResponse {
    api_not_found().await
}
