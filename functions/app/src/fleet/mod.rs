//! The fleet: who the machines serve (clients), where they stand (locations), what kind they
//! are (machine models) — the records the fleet screens manage, with their service — and the
//! machines' own records (machines, their selections, tags and refill log entries) with the
//! lookups other areas read them through (the machines at a location, of a model, holding a
//! product). The machines area (`crate::machines`) is the service over the machines' records;
//! the catalogue areas (products) ask "who uses this?" here without depending on it.

mod index;
pub(crate) mod machine;
mod model;
mod service;

pub use index::{MachineIndex, MachineRef};
pub use machine::{
    Device, Machine, MachineStamp, MachineTag, Peripherals, RefillEntry, SalesSource, Selection,
    SelectionPriceChange, SCHEMA,
};
pub use model::{Client, Location, MachineModel};
pub use service::{ClientInput, FleetService, LocationInput, LocationListParams, ModelInput};
