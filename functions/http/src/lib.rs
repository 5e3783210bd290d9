//! Vendfleet's HTTP layer: the API's areas, each a module with its routes (and option lists),
//! over the plumbing they share (`kit`: the auth extractor, the errors, the reply envelopes, the
//! export answer, the OpenAPI contract); `registry` lists every area once, under the Lambda
//! function that serves it, and builds the OpenAPI document and the routers from that list.
//! Binaries add adapters and serve these routers.

pub mod kit;
pub mod registry;

pub mod audit;
pub mod auth;
pub mod dashboard;
pub mod data_sources;
pub mod events;
pub mod fleet;
pub mod generator;
pub mod jobs;
pub mod machines;
pub mod mail_feedback;
pub mod operator_settings;
pub mod planning;
pub mod products;
pub mod reports;
pub mod sales;
pub mod scheduler;
pub mod settlements;
pub mod transaction_log;
pub mod users;
pub mod visits;

pub use kit::extract::ClientAddr;
pub use kit::state::AppState;
pub use registry::{
    area, area_operations, not_found, openapi, operations, router, serve, served, Area, Served,
};
