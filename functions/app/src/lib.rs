//! Vendfleet application services (one module per area) and the ports they need.

pub mod audit;
pub mod auth;
pub mod calendar;
pub mod config;
pub mod dashboard;
pub mod data_sources;
pub mod error;
pub mod events;
pub mod fleet;
pub mod generator;
pub mod ids;
pub mod jobs;
pub mod listing;
pub mod machines;
pub mod operator_settings;
pub mod password;
pub mod planning;
pub mod ports;
pub mod products;
pub mod records;
pub mod reports;
pub mod sales;
pub mod scheduler;
pub mod settlements;
pub mod tabular;
pub mod users;
pub mod wiring;

#[cfg(feature = "testkit")]
pub mod testkit;

pub use calendar::Calendar;
pub use error::{AppError, AppResult};
pub use wiring::{Adapters, App};
