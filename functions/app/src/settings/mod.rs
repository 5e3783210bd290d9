//! Settings area: clients, locations and machine models.

mod model;
pub mod policy;
mod service;

pub use model::{Client, Location, MachineModel, SCHEMA};
pub use policy::{OperatorPolicy, Policies, PolicyInput};
pub use service::{ClientInput, LocationInput, LocationListParams, ModelInput, SettingsService};
