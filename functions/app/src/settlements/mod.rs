//! Card settlements (issue 31): a processor's settlement/payout file, read through the
//! processor's saved column mapping, matched to machines by terminal id, and reconciled
//! machine-day by machine-day against the cashless sales of the sales overview.
//!
//! An import is all or nothing and idempotent: its id is the file's digest, its lines are
//! written in chunks under it first and become visible only with its header, written last in
//! one step with the corrections it makes (a later file carrying a payout reference already
//! imported supersedes that payout's earlier lines, which stay in the history).

mod file;
mod model;
mod service;

pub use crate::tabular::{Cell, Table};
pub use file::{amount, read_table, MAX_ROWS};
pub use model::*;
pub use service::*;
