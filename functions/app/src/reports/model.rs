//! The reports' shapes: a collection beside the one before it, over/short sums, the
//! encashment report's query; and the small rules on collections both the encashment report
//! and the visit ledger use.

use crate::events::{AuditRead, Encashment};
use crate::listing::ListParams;
use crate::sales::SalesParams;
use chrono::{DateTime, Duration, Utc};
use std::collections::BTreeMap;
use vendfleet_domain::sales::cash::Counts;

/// One collection and what it should have held.
#[derive(Debug, Clone, PartialEq)]
pub struct CollectionRow {
    pub row: Encashment,
    /// The machine's collection before this one (`None` for its first: nothing to compare).
    pub previous_at: Option<DateTime<Utc>>,
    /// Cash paid by customers since the previous collection, from the collection's figures.
    pub taken_minor: Option<i64>,
    /// Cash sales recorded between the previous collection and this one.
    pub expected_minor: Option<i64>,
    /// `taken − expected`: over when positive, short when negative.
    pub over_short_minor: Option<i64>,
    /// The cash the machine's own counters took in net of change (DEX `CA3`/`CA4`) between the
    /// audit reads taken at the two collections (within [`READ_WINDOW_MINUTES`] of each);
    /// `None` without such reads.
    pub counted_minor: Option<i64>,
    /// `taken − counted`.
    pub counted_over_short_minor: Option<i64>,
}

/// An audit read this close in time to a collection is the collection's read.
pub const READ_WINDOW_MINUTES: i64 = 120;

/// Each machine's audit reads, read once a request.
pub(crate) type Reads = BTreeMap<String, Vec<crate::events::AuditRead>>;

/// Overs and shorts of one employee or machine over the period.
// The API's `OverShortDto` as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = OverShortDto))]
pub struct OverShort {
    /// The employee or machine (empty for collections of no known employee, and for the total).
    pub id: String,
    pub name: String,
    pub collections: usize,
    /// Collections with an expectation (not a machine's first).
    pub compared: usize,
    pub collected_minor: i64,
    pub expected_minor: i64,
    pub over_short_minor: i64,
    /// Compared collections that came up short.
    pub shorts: usize,
}

/// The encashment report's totals and summaries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EncashmentTotals {
    pub all: OverShort,
    pub by_employee: Vec<OverShort>,
    pub by_machine: Vec<OverShort>,
}

/// The encashment report's query: the sales filters' period and machines, an employee filter
/// (comma-separated ids) and the list's paging.
#[derive(Debug, Clone, Default)]
pub struct EncashmentParams {
    pub sales: SalesParams,
    pub employees: Option<String>,
    pub list: ListParams,
}

/// A collection's coin and note figures.
pub(crate) fn counts(e: &Encashment) -> Counts {
    Counts {
        cash_box_minor: e.cash_box_minor,
        bill_stacker_minor: e.bill_stacker_minor,
        tubes_minor: e.tubes_minor,
        ejected_minor: e.ejected_minor,
        refilled_coins_minor: e.refilled_coins_minor,
    }
}

/// Sums by employee or machine, most short first (the lowest over/short), then by name.
pub(crate) fn most_short_first<T>(
    sums: BTreeMap<String, T>,
    key: impl Fn(&T) -> (i64, &String),
) -> Vec<T> {
    let mut v: Vec<T> = sums.into_values().collect();
    v.sort_by(|a, b| key(a).cmp(&key(b)));
    v
}

/// The audit read nearest an instant, within the window.
pub fn read_near(reads: &[AuditRead], at: DateTime<Utc>) -> Option<&AuditRead> {
    let window = Duration::minutes(READ_WINDOW_MINUTES);
    reads
        .iter()
        .filter(|r| (r.at - at).abs() <= window)
        .min_by_key(|r| (r.at - at).abs())
}
