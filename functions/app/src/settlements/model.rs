//! Card settlements as stored: the processors' column mappings, the imports (one per file,
//! its lines in chunks under it) and the lines.

use crate::ports::{Item, Key};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the stored shape of settlement entities.
pub const SCHEMA: u32 = 1;

/// The file's column (by its header) of each field; `None`: the file has no such column.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Columns {
    /// The day the machine's sales were made (the processor's transaction day).
    pub date: String,
    /// The processor's terminal id, matched to the machine's `terminal_id`.
    pub terminal: String,
    /// What the customers paid.
    pub gross: String,
    pub fees: Option<String>,
    pub net: Option<String>,
    /// How many card transactions.
    pub count: Option<String>,
    /// The payout (bank transfer) the line was paid in.
    pub payout_reference: String,
    /// ISO 4217; absent: the machine's currency.
    pub currency: Option<String>,
}

impl Columns {
    /// The generic format's headers (`docs/api.md`).
    pub fn generic() -> Columns {
        Columns {
            date: "date".into(),
            terminal: "terminal_id".into(),
            gross: "gross".into(),
            fees: Some("fees".into()),
            net: Some("net".into()),
            count: Some("transactions".into()),
            payout_reference: "payout_reference".into(),
            currency: Some("currency".into()),
        }
    }
}

crate::entity! {
    /// How one processor's files read (its name, e.g. "Nayax", is unique).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct SettlementMapping {
        pub columns: Columns,
        /// chrono format of the dates of a CSV file (XLSX date cells need none).
        pub date_format: String,
        /// `.` or `,`: the amounts' decimal separator.
        pub decimal_separator: char,
        /// Amounts in minor units (cents) rather than major units.
        pub amounts_in_minor: bool,
    }
    record "SETTLEMAP", "Settlement mapping";
}

/// One line of a settlement file, matched to a machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettlementLine {
    /// The row in the file (1: the header).
    pub row: u32,
    pub machine_id: String,
    pub terminal_id: String,
    pub date: NaiveDate,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    pub count: i64,
    pub payout_reference: String,
    pub currency: String,
}

/// An imported file: the commit point of an import (its line chunks are written first and
/// read only through it). Its id is the file's digest: the same file again is the same import.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct SettlementImport {
    pub id: String,
    pub mapping_id: String,
    pub processor: String,
    pub file_name: String,
    pub imported_at: DateTime<Utc>,
    pub imported_by: String,
    pub imported_by_name: String,
    pub rows: usize,
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    /// The payout references of the file.
    pub payouts: Vec<String>,
    pub chunks: usize,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    /// The earlier imports whose payouts this one corrected.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub supersedes: Vec<String>,
    /// Payout reference → the later import that corrected it: those lines no longer count.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub superseded: BTreeMap<String, String>,
    #[serde(skip)]
    pub version: u64,
    /// The stored shape's version.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub schema: u32,
}

crate::record!(SettlementImport, "SETTLEMENT", "Settlement import");

/// A chunk of an import's lines, stored under the import's partition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineChunk {
    pub lines: Vec<SettlementLine>,
}

/// Lines per chunk item (about 150 bytes each: far under DynamoDB's 400 KB an item).
pub const CHUNK_LINES: usize = 500;

impl LineChunk {
    pub const PREFIX: &'static str = "LINES#";

    /// The partition of an import's chunks.
    pub fn partition(import_id: &str) -> String {
        format!(
            "{}#{import_id}",
            <SettlementImport as crate::records::Record>::KIND
        )
    }

    pub fn key(import_id: &str, n: usize) -> Key {
        Key::new(
            Self::partition(import_id),
            format!("{}{n:05}", Self::PREFIX),
        )
    }

    pub fn to_item(&self, import_id: &str, n: usize) -> Result<Item, crate::ports::StoreError> {
        Item::from_value(Self::key(import_id, n), self)
    }
}
