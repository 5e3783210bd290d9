//! The audit trail of data leaving the system: every export download, every background export,
//! every generated report downloaded and every report mailed is recorded — who, what definition,
//! which machines (reach), when and to whom. An all-machines administrator reads it.
//!
//! Entries are kept by month (`EXITS#2026-11`), ordered by a time-carrying id, so a period's
//! entries are read from its months only.

mod model;
mod service;

pub use model::*;
pub use service::*;
