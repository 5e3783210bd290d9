//! Settings area: clients, locations and machine models.

mod model;
mod service;

pub use model::{Client, Location, MachineModel, SCHEMA};
pub use service::{ClientInput, LocationInput, LocationListParams, ModelInput, SettingsService};
