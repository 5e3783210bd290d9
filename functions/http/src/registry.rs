//! The one registry of the API's areas: each Lambda function with the areas it serves, each area
//! in one row — its OpenAPI tag, its routes and, when it has any, its option lists under
//! `/api/filters/` (which the filters function serves, every area's). The OpenAPI document, the
//! embedded server's router and every Lambda binary's router are built from these rows; a
//! binary names its function's entry of [`served`], so it links that function's handlers only
//! (the filters function links every area's option lists and nothing else; only the users
//! function serves `/api/openapi.json`, the document that names every handler).
//!
//! Adding an area: its module beside the others (`router()`, and `filters()` when it has option
//! lists), one row here under the function that serves it; a new function also needs its binary
//! in `functions/lambdas/src/bin/`, its line in `vendfleet_lambdas::API_FUNCTIONS` and its
//! function in `template.yaml` (docs/architecture.md, "Adding an area").

use crate::kit::serve::{api_not_found, finish};
use crate::kit::state::AppState;
use crate::{
    audit, auth, dashboard, data_sources, events, fleet, generator, jobs, machines,
    operator_settings, planning, products, reports, sales, scheduler, settlements, transaction_log,
    users, visits,
};
use axum::response::IntoResponse;
use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

/// The document's metadata; paths are collected from the routers, tags from [`AREAS`].
#[derive(OpenApi)]
#[openapi(info(
    title = "Vendfleet API",
    description = "Back office for fleets of vending machines."
))]
struct ApiDoc;

/// One area: its OpenAPI tag, its routes and its option lists.
pub struct AreaRow {
    /// The area's module.
    pub name: &'static str,
    pub tag: &'static str,
    pub routes: fn() -> OpenApiRouter<AppState>,
    pub filters: Option<fn() -> OpenApiRouter<AppState>>,
}

/// An API area as its Lambda function serves it: its routes and, for the users function, the
/// OpenAPI document.
#[derive(Clone, Copy)]
pub struct Served {
    pub area: Area,
    pub(crate) routes: fn() -> OpenApiRouter<AppState>,
    pub(crate) document: Option<fn() -> utoipa::openapi::OpenApi>,
}

macro_rules! registry {
    (
        filters: $fserved:ident: $ffunction:ident, $ftag:literal;
        $(
            $(#[doc = $doc:tt])*
            $served:ident: $function:ident $(, $document:ident)? {
                $( $name:ident: $tag:literal, $routes:path $(, $filters:path)?; )*
            }
        )*
    ) => {
        /// An API function (one Lambda): the areas it serves are its rows in the registry.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Area {
            $( $(#[doc = $doc])* $function, )*
            /// The option lists of every area, under `/api/filters/`.
            $ffunction,
        }

        /// Every area, in the document's order of tags.
        pub const AREAS: &[AreaRow] = &[
            $( $( AreaRow {
                name: stringify!($name),
                tag: $tag,
                routes: $routes,
                filters: registry!(@filters $($filters)?),
            }, )* )*
        ];

        /// The functions: a binary names its own.
        pub mod served {
            use super::*;
            $(
                $(#[doc = $doc])*
                pub const $served: Served = Served {
                    area: Area::$function,
                    routes: || OpenApiRouter::new() $( .merge($routes()) )*,
                    document: registry!(@document $($document)?),
                };
            )*
            /// Every area's option lists.
            pub const $fserved: Served = Served {
                area: Area::$ffunction,
                routes: || OpenApiRouter::new() $( $( $( .merge($filters()) )? )* )*,
                document: None,
            };

            /// Every one (tests and the document).
            pub const ALL: &[Served] = &[$( $served, )* $fserved];
        }

        /// The filters function's OpenAPI tag.
        pub const FILTERS_TAG: &str = $ftag;
    };
    (@filters) => { None };
    (@filters $f:path) => { Some($f) };
    (@document) => { None };
    (@document document) => { Some(crate::openapi) };
}

registry! {
    // The option lists of every area (their `filters`), under `/api/filters/`.
    filters: FILTERS: Filters, "filters";
    /// Sign-in, tokens, the profile.
    AUTH: Auth {
        auth: "auth", auth::router;
    }
    /// Users and roles; background jobs' status and the audit trail (no function of their own).
    USERS: Users, document {
        users: "users", users::router, users::filters;
        jobs: "jobs", jobs::router;
        audit: "audit", audit::router;
    }
    /// The fleet (clients, locations, machine models), the operator's settings and the query
    /// scheduler.
    SETTINGS: Settings {
        fleet: "settings", fleet::router, fleet::filters;
        operator_settings: "settings", operator_settings::router, operator_settings::filters;
        scheduler: "query-scheduler", scheduler::router, scheduler::filters;
        data_sources: "settings", data_sources::router;
    }
    /// Machines, their planograms, refills, audits and intake anomalies; the visits of planned
    /// routes booked on them.
    MACHINES: Machines {
        machines: "machines", machines::router, machines::filters;
        route_visits: "planning", planning::visits_router;
    }
    /// Products, components, composite products and product tags.
    PRODUCTS: Products {
        products: "products", products::router, products::filters;
    }
    /// The sales overview and the dashboard.
    SALES: Sales {
        sales: "sales", sales::router, sales::filters;
        dashboard: "sales", dashboard::router;
    }
    /// The report screens: encashment, inventory, the transaction log, card settlements, VAT,
    /// the visit ledger and the report generator.
    REPORTS: Reports {
        reports: "reports", reports::router;
        transaction_log: "reports", transaction_log::router;
        settlements: "reports", settlements::router;
        vat: "reports", settlements::vat_router;
        visits: "reports", visits::router;
        generator: "report-generator", generator::router, generator::filters;
    }
    /// Route planning and planned routes.
    PLANNING: Planning {
        planning: "planning", planning::router;
    }
    /// The machines' webhook (outside `/api`).
    EVENTS: Events {
        events: "machine-events", events::router;
    }
}

impl Served {
    /// The entry of a function.
    pub fn of(area: Area) -> Served {
        *served::ALL
            .iter()
            .find(|s| s.area == area)
            .expect("every function has its entry")
    }
}

/// Every route of every area.
pub fn every_route() -> OpenApiRouter<AppState> {
    AREAS
        .iter()
        .fold(OpenApiRouter::new(), |r, a| r.merge((a.routes)()))
        .merge((served::FILTERS.routes)())
}

/// The router of a function's routes.
fn area_router(area: Area) -> OpenApiRouter<AppState> {
    (Served::of(area).routes)()
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
    if Served::of(area).document.is_some() {
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
            .map(|a| a.tag)
            .chain([FILTERS_TAG])
            .filter(|tag| used.contains(*tag))
            .fold(Vec::new(), |mut tags: Vec<&str>, tag| {
                if !tags.contains(&tag) {
                    tags.push(tag);
                }
                tags
            })
            .into_iter()
            .map(utoipa::openapi::tag::Tag::new)
            .collect(),
    );
    crate::kit::contract::complete(&mut doc);
    doc
}

/// The router of every area (the embedded server).
pub fn router(state: AppState) -> Router {
    finish(all_areas(), state, Some(openapi))
}

/// The router of one area as its function serves it ([`serve`]); an area without a function of
/// its own alone. Unknown paths answer a JSON 404.
pub fn area(area: Area, state: AppState) -> Router {
    serve(Served::of(area), state)
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
