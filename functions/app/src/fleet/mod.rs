//! The fleet's records: machines, their selections (planogram and stock), tags and refill log
//! entries, and the lookups other areas read them through (the machines at a location, of a
//! model, holding a product). Depends on the ports and records only, so the catalogue areas
//! (settings, products) can ask "who uses this?" without depending on the machines area, which
//! depends on them. The machines area (`crate::machines`) is the service over these records.

mod index;
pub(crate) mod model;

pub use index::{MachineIndex, MachineRef};
pub use model::{
    Device, Machine, MachineTag, Peripherals, RefillEntry, SalesSource, Selection,
    SelectionPriceChange, SCHEMA,
};
