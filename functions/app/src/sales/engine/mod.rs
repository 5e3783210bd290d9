//! The sales engine: every machine's figures by day, and by product and day, held as columns in
//! memory, so that a report costs what its answer covers (the chosen machines × the span's days)
//! instead of a read and decode of the store's rollups.
//!
//! - **Built lazily** from the store's day rollups on first use (or at start-up:
//!   [`super::SalesService::warm`]); the store stays the truth, and a restart rebuilds it.
//! - **Kept up to date in the commit's step:** a commit through the sales service takes the
//!   commit gate shared, writes the store, then adds its vends to the columns; a build takes the
//!   gate alone, so no commit is counted twice or lost between the store read and the columns.
//!   The commit runs in a task of its own, so a caller that goes away (a closed connection)
//!   cannot stop it between the store and the columns.
//! - **Only where this process is the store's sole writer** ([`SalesStore::sole_writer`]: the
//!   embedded SQLite store, written only by its server). On AWS each Lambda would see only its
//!   own commits, so reports there read the store's rollups as before.
//! - **Three grains** (`levels.rs`): each column is kept by day, by week and by month, so a
//!   span is read as its whole months and weeks (where their days fall in one bucket of the
//!   answer) and its edge days; a total of most of the fleet is the fleet's figures less the
//!   machines left out ([`By::Total`]).
//!
//! Memory: by machine, one [`Figures`] (64 bytes) per machine and day with a vend (a year of
//! 1,000 machines: 23 MB), and as much again by week and month (about 4 MB more); by product,
//! one [`Cell`] (32 bytes) per machine, day and product sold (the 1,000-machine bench fleet
//! sells about 9.5 products a machine a day: about 110 MB a year), plus a cell per machine,
//! week and product and per machine, month and product (on the bench fleet the process's
//! anonymous memory went from 270 to 400 MB with them), and each packed period's cells'
//! places by product (8 bytes a cell, `cells.rs`). A product figure too large for a cell
//! (over 2^31 minor units a machine and month), or a rollup whose revenue is not its cash plus
//! cashless, turns the product columns off: such reports read the store.

mod ask;
mod cells;
mod columns;
mod hours;
mod levels;
mod log;
#[cfg(test)]
mod scale;
mod slots;
mod sums;

pub(crate) use ask::{By, EngineAsk, Products, Rows, Sums};
pub(crate) use columns::{Delta, Engine};
pub(crate) use hours::Zones;
