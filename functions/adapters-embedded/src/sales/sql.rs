//! What the reads and the writes both name: the figures' columns, and how an SQLite error or
//! a damaged packed value becomes the port's error.

use vendfleet_app::ports::StoreError;

/// An SQLite error, as the port's.
pub(crate) fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// The figures' columns, in the order of `Figures::NAMES`.
pub(crate) const FIGURES: &str = "q, rev, net, cash, cashless, free, test, tx";

/// A damaged packed value of a rollup row.
pub(crate) fn corrupt(table: &str, machine: &str, key: i64, e: String) -> StoreError {
    StoreError::Codec(format!("{table} of {machine} at {key}: {e}"))
}
