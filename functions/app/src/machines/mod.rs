//! Machines area: machines and their tags, planograms, stock and the refill log.

mod index;
mod model;
mod service;

pub use index::{MachineIndex, MachineRef};
pub use model::{
    Device, Machine, MachineTag, Peripherals, RefillEntry, SalesSource, Selection,
    SelectionPriceChange, SCHEMA,
};
pub(crate) use service::planogram::natural;
pub(crate) use service::StockChange;
pub use service::{
    MachineContext, MachineInput, MachineListParams, MachinesService, Overview, ProductRefills,
    RefillListParams, SelectionInput, SelectionView, MAX_SELECTIONS,
};
