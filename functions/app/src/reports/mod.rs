//! Reports area: the encashment report (cash collections with the cash expected from the vends
//! since the machine's previous collection, and the over/short), the inventory report, the VAT
//! report and the visit ledger, within the user's scope.

mod model;
mod service;

pub use model::{
    CollectionRow, EncashmentParams, EncashmentTotals, OverShort, READ_WINDOW_MINUTES,
};
pub use service::*;
