//! Machines area: machines and their tags, planograms, stock and the refill log.

mod service;

pub use crate::fleet::{
    Device, Machine, MachineTag, Peripherals, RefillEntry, SalesSource, Selection,
    SelectionPriceChange, SCHEMA,
};
pub use crate::fleet::{MachineIndex, MachineRef};
pub(crate) use service::planogram::natural;
pub(crate) use service::StockChange;
pub use service::{
    MachineContext, MachineInput, MachineListParams, MachinesService, Overview, ProductRefills,
    RefillListParams, SelectionInput, SelectionView, MAX_SELECTIONS,
};
