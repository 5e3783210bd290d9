//! Sales area: the sales overview's figures, drawn from the sales store's rollups (never the
//! ledger), for the machines the user may see.
//!
//! A sale is counted where its machine stands now: grouping or filtering by location, client,
//! region or machine tag uses the machine's current location and tags (as the machine scope
//! does), so a scoped user's figures are exactly those of their machines.

mod ask;
mod engine;
mod model;
mod query;
mod service;

pub use model::{DetailRow, SalesReport, NO_GROUP};
pub(crate) use query::ids;
pub use query::{SalesFilters, SalesParams, SalesQuery, FILTER_KEYS, MAX_SPAN_DAYS};
pub use service::{SalesService, Transaction, TransactionCursor};
