//! Sales history from export files (docs/history-import.md): the saved column mappings (and
//! Nayax Core's export, read by its own column titles), an import and its preview, and the
//! reading of one row into a sale of a known machine and product — or why it is none.

mod model;
mod reading;
mod tally;

pub use model::*;
pub use reading::{Lookup, Reading, Row, Sale};
pub use tally::Tally;
