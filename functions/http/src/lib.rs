//! Vendfleet's HTTP layer: one axum router per API area, the auth extractor, the error mapping,
//! the DTOs and the OpenAPI document. Binaries add adapters and serve these routers.

pub mod audit;
pub mod auth;
pub mod contract;
pub mod crud;
pub mod dashboard;
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
pub mod settlements;
pub mod state;
pub mod transaction_log;
pub mod users;
pub mod visits;

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

/// How an area is served: its OpenAPI tag and its routes.
struct AreaSpec {
    area: Area,
    tag: &'static str,
    routes: fn() -> OpenApiRouter<AppState>,
}

/// The one place that registers an area (with its option lists in [`FILTERS`] and, when it has a
/// Lambda function of its own, its [`served`] entry). A new area adds its line here, its Lambda
/// binary in `functions/lambdas/src/bin/` and its function in `template.yaml`
/// (docs/architecture.md).
const AREAS: &[AreaSpec] = &[
    AreaSpec {
        area: Area::Auth,
        tag: "auth",
        routes: auth::router,
    },
    AreaSpec {
        area: Area::Users,
        tag: "users",
        routes: users::router,
    },
    AreaSpec {
        area: Area::Settings,
        tag: "settings",
        routes: settings_routes,
    },
    AreaSpec {
        area: Area::Machines,
        tag: "machines",
        routes: machines_routes,
    },
    AreaSpec {
        area: Area::Products,
        tag: "products",
        routes: products::router,
    },
    AreaSpec {
        area: Area::Sales,
        tag: "sales",
        routes: sales::router,
    },
    AreaSpec {
        area: Area::Reports,
        tag: "reports",
        routes: reports_routes,
    },
    AreaSpec {
        area: Area::Planning,
        tag: "planning",
        routes: planning::router,
    },
    AreaSpec {
        area: Area::Events,
        tag: "machine-events",
        routes: events::router,
    },
    AreaSpec {
        area: Area::Jobs,
        tag: "jobs",
        routes: jobs::router,
    },
    AreaSpec {
        area: Area::Audit,
        tag: "audit",
        routes: audit::router,
    },
    AreaSpec {
        area: Area::Filters,
        tag: "filters",
        routes: every_filter,
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
    reports::router()
        .merge(generator::router())
        .merge(settlements::router())
        .merge(settlements::vat_router())
        .merge(visits::router())
}

/// The option lists each area adds under `/api/filters/` (served by the filters function). A
/// table of their own, apart from [`AREAS`], so that the filters function links no other handler.
const FILTERS: &[fn() -> OpenApiRouter<AppState>] = &[
    filters::users_router,
    settings_filters,
    machines::filters_router,
    products::filters_router,
    sales::filters_router,
    generator::filters_router,
];

/// Every area's option lists.
fn every_filter() -> OpenApiRouter<AppState> {
    FILTERS
        .iter()
        .fold(OpenApiRouter::new(), |r, f| r.merge(f()))
}

/// Every route of every area.
fn every_route() -> OpenApiRouter<AppState> {
    AREAS
        .iter()
        .fold(OpenApiRouter::new(), |r, a| r.merge((a.routes)()))
}

fn area_router(area: Area) -> OpenApiRouter<AppState> {
    match Served::of(area) {
        Some(s) => (s.routes)(),
        None => AREAS
            .iter()
            .find(|a| a.area == area)
            .map(|a| (a.routes)())
            .unwrap_or_default(),
    }
}

/// The users function's routes: background jobs' status and the audit trail have no function of
/// their own, the users function answers them.
fn users_function() -> OpenApiRouter<AppState> {
    users::router().merge(jobs::router()).merge(audit::router())
}

/// An area as its Lambda function serves it. A binary names its entry of [`served`], so it links
/// that area's handlers only ([`area`] and [`router`] reach every area's through [`AREAS`]), and
/// only the users function serves the OpenAPI document (`GET /api/openapi.json` is routed there),
/// which names every handler.
#[derive(Clone, Copy)]
pub struct Served {
    pub area: Area,
    routes: fn() -> OpenApiRouter<AppState>,
    document: Option<fn() -> utoipa::openapi::OpenApi>,
}

/// The areas with a Lambda function of their own.
pub mod served {
    use super::*;

    pub const AUTH: Served = Served::new(Area::Auth, auth::router);
    pub const USERS: Served = Served {
        area: Area::Users,
        routes: users_function,
        document: Some(openapi),
    };
    pub const SETTINGS: Served = Served::new(Area::Settings, settings_routes);
    pub const FILTERS: Served = Served::new(Area::Filters, every_filter);
    pub const MACHINES: Served = Served::new(Area::Machines, machines_routes);
    pub const PRODUCTS: Served = Served::new(Area::Products, products::router);
    pub const SALES: Served = Served::new(Area::Sales, sales::router);
    pub const REPORTS: Served = Served::new(Area::Reports, reports_routes);
    pub const PLANNING: Served = Served::new(Area::Planning, planning::router);
    pub const EVENTS: Served = Served::new(Area::Events, events::router);

    /// Every one (tests and the document; a binary names its own).
    pub const ALL: &[Served] = &[
        AUTH, USERS, SETTINGS, FILTERS, MACHINES, PRODUCTS, SALES, REPORTS, PLANNING, EVENTS,
    ];
}

impl Served {
    const fn new(area: Area, routes: fn() -> OpenApiRouter<AppState>) -> Self {
        Served {
            area,
            routes,
            document: None,
        }
    }

    /// The entry of an area with a function of its own.
    pub fn of(area: Area) -> Option<Served> {
        served::ALL.iter().find(|s| s.area == area).copied()
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
    if Served::of(area).is_some_and(|s| s.document.is_some()) {
        ops.push(("GET".into(), "/api/openapi.json".into()));
    }
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

async fn api_not_found() -> impl IntoResponse {
    error::ApiError::new(StatusCode::NOT_FOUND, "No such endpoint")
}

/// The router with `/api/openapi.json` (when given the document), the body limits and the JSON
/// errors. The document comes as a function pointer, so a router without it links no handler of
/// another area.
fn finish(
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
    finish(all_areas(), state, Some(openapi))
}

/// The router of one area as its function serves it ([`serve`]); an area without a function of
/// its own alone. Unknown paths answer a JSON 404.
pub fn area(area: Area, state: AppState) -> Router {
    match Served::of(area) {
        Some(s) => serve(s, state),
        None => finish(area_router(area), state, None).fallback(api_not_found),
    }
}

/// The router one Lambda function serves: its area, and the OpenAPI document for the users
/// function; unknown paths answer a JSON 404.
pub fn serve(s: Served, state: AppState) -> Router {
    finish((s.routes)(), state, s.document).fallback(api_not_found)
}

/// The JSON 404 for unknown API paths, for binaries that add their own fallback.
pub async fn not_found() -> impl IntoResponse {
    api_not_found().await
}
