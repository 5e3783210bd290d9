//! Vendfleet's pure domain rules: no IO, no async.

pub mod access;
pub mod attention;
pub mod audit;
pub mod calendar;
pub mod dex;
pub mod events;
pub mod language;
pub mod nayax;
pub mod permissions;
pub mod planning;
pub mod reach;
pub mod report;

pub mod sales;
pub mod schedule;
pub mod thresholds;
pub mod validation;

pub use access::{MachineFacts, MachinePlace, MachineScope, ScopeCatalogue, ScopeGap};
pub use calendar::Period;
pub use language::Language;
pub use permissions::{Grants, Permission};
pub use validation::FieldErrors;
