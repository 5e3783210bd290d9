//! The history import's records and shapes: the saved mappings (and Nayax Core's export as
//! one), an import, its preview and its result.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// The id of Nayax Core's export as a reading (no saved mapping).
pub const NAYAX: &str = "nayax";
/// Most bytes of one uploaded part.
pub const MAX_PART_BYTES: usize = 5 * 1024 * 1024;
/// Most parts of one file (a 2-million-row export is about 40).
pub const MAX_PARTS: u32 = 400;
/// Rows in error listed in a preview (all are counted).
pub const MAX_ERRORS: usize = 50;
/// Machine-months listed in a preview.
pub const MAX_MONTHS: usize = 5_000;
/// Unmatched values listed in a preview.
pub const MAX_UNMATCHED: usize = 200;

/// The file's column (by its header; `A|B`: the first of these the file has) of each field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryColumns))]
#[serde(deny_unknown_fields)]
pub struct HistoryColumns {
    /// The sale's local date, or date and time.
    pub date: String,
    /// Its time, when the date column has none.
    #[serde(default)]
    pub time: Option<String>,
    /// The Nayax machine id, terminal id or name of the machine.
    pub machine: String,
    /// The product's SKU (catalogue number) or name.
    #[serde(default)]
    pub product: Option<String>,
    /// The planogram selection.
    #[serde(default)]
    pub selection: Option<String>,
    #[serde(default)]
    pub quantity: Option<String>,
    #[serde(default)]
    pub unit_price: Option<String>,
    /// The row's total.
    #[serde(default)]
    pub amount: Option<String>,
    #[serde(default)]
    pub payment: Option<String>,
    #[serde(default)]
    pub transaction_id: Option<String>,
    /// A row whose value here is one of the mapping's `skip_values` is not a sale.
    #[serde(default)]
    pub status: Option<String>,
    /// The currency, checked against the machine's.
    #[serde(default)]
    pub currency: Option<String>,
}

crate::entity! {
    /// How one vendor's transaction exports read (its name is unique).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub struct HistoryMapping {
        pub columns: HistoryColumns,
        /// chrono format of the date (and time) texts; `A|B`: either.
        pub date_format: String,
        pub time_format: String,
        /// `machine` (each machine's location's zone) or an IANA zone.
        pub zone: String,
        pub decimal_separator: char,
        /// Payment values meaning cash (any other is cashless), lower case.
        pub cash_values: Vec<String>,
        /// Status values of rows that are not sales, lower case.
        pub skip_values: Vec<String>,
    }
    record "DSMAP", "History mapping";
}

impl HistoryMapping {
    /// Nayax Core's transactions export, read by Nayax's column titles (docs/history-import.md).
    pub fn nayax(now: DateTime<Utc>) -> HistoryMapping {
        let s = |v: &str| Some(v.to_string());
        HistoryMapping {
            id: NAYAX.into(),
            name: "Nayax Core export".into(),
            columns: HistoryColumns {
                date: "Machine AuTime|Machine Authorization Time|MachineTime|Machine SeTime".into(),
                time: None,
                machine: "Machine ID|MachineId|Machine Name|Machine Reference".into(),
                product: s("Catalog Number|Product Catalog Number"),
                selection: s("Product Code in Map|Product Selection Info"),
                quantity: s("Quantity"),
                unit_price: None,
                amount: s("SeValue|Settlement Value|Authorization Value|auValue"),
                payment: s(
                    "Payment Method ID (1)|Payment Method ID|PaymentMethodId|payment_method_id_enc",
                ),
                transaction_id: s("Transaction ID|TransactionId"),
                status: s("Transaction Status Name|Void"),
                currency: s("Currency"),
            },
            date_format: "%Y-%m-%dT%H:%M:%S|%Y-%m-%d %H:%M:%S|%d/%m/%Y %H:%M:%S|%d/%m/%Y %H:%M"
                .into(),
            time_format: "%H:%M:%S".into(),
            zone: "machine".into(),
            decimal_separator: '.',
            cash_values: vec!["3".into(), "cash".into()],
            skip_values: [
                "cancelled",
                "canceled",
                "declined",
                "voided",
                "void",
                "refunded",
                "true",
            ]
            .map(String::from)
            .to_vec(),
            created_at: now,
            updated_at: now,
            version: 0,
            schema: crate::data_sources::model::SCHEMA,
        }
    }
}

/// Where an import is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryImportStatus))]
#[serde(rename_all = "lowercase")]
pub enum ImportStatus {
    Uploading,
    Previewing,
    Previewed,
    Booking,
    Booked,
    Failed,
}

/// What a booking did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryImportResult))]
pub struct ImportResult {
    /// Sales booked now.
    pub stored: u64,
    /// Sales booked before (by this file, an overlapping one or the feed).
    pub already: u64,
    /// Rows not booked: in error (skipped), unmatched or not sales.
    pub skipped: u64,
    pub seconds: f64,
}

/// A history import: a file uploaded in parts, previewed, then booked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct HistoryImport {
    pub id: String,
    pub file_name: String,
    pub mapping_id: String,
    pub mapping_name: String,
    pub status: ImportStatus,
    pub progress: u8,
    pub parts: u32,
    pub bytes: u64,
    pub created_by: String,
    pub created_by_name: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub error: Option<String>,
    pub result: Option<ImportResult>,
    /// Rows in error when previewed (booking needs `skip_bad_rows` then).
    #[serde(default)]
    pub bad_rows: u64,
    /// The mapping's version the preview read with (a changed mapping needs a new preview).
    #[serde(default)]
    pub mapping_version: u64,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

crate::record!(HistoryImport, "DSIMPORT", "History import");

impl HistoryImport {
    /// The blob of part `n` of the file.
    pub fn part_key(&self, n: u32) -> String {
        format!("imports/{}/part-{n:05}", self.id)
    }

    pub fn preview_key(&self) -> String {
        format!("imports/{}/preview.json", self.id)
    }
}

/// A machine-month of a preview.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryPreviewMonth))]
pub struct MonthRow {
    pub machine_id: String,
    pub machine_name: String,
    /// `2025-01`.
    pub month: String,
    pub vends: u64,
    pub quantity: u64,
    pub revenue_minor: i64,
    pub cash_minor: i64,
    pub cashless_minor: i64,
    pub currency: String,
    pub decimal_places: u8,
}

/// What kind of value left rows unmatched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryUnmatchedKind))]
#[serde(rename_all = "snake_case")]
pub enum UnmatchedKind {
    /// No active machine has this Nayax machine id, terminal id or name.
    Machine,
    /// No product has this SKU or name, and the machine's planogram has no such selection.
    Product,
    /// The machine's sales come from its audits: it takes no row-level sales.
    AuditMachine,
}

/// Rows left unmatched by one value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryUnmatched))]
pub struct Unmatched {
    pub kind: UnmatchedKind,
    pub value: String,
    pub rows: u64,
    pub first_line: u32,
}

/// A row in error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryRowError))]
pub struct RowError {
    pub line: u32,
    pub column: String,
    pub message: String,
}

/// What an import would book, nothing booked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = HistoryPreview))]
pub struct Preview {
    pub rows: u64,
    /// Rows that are sales of a known machine and product.
    pub sales: u64,
    /// Rows that are not sales (cancelled, declined, voided; quantity 0).
    pub not_sales: u64,
    pub bad_rows: u64,
    pub unmatched_rows: u64,
    pub first_day: Option<NaiveDate>,
    pub last_day: Option<NaiveDate>,
    pub months: Vec<MonthRow>,
    pub unmatched: Vec<Unmatched>,
    pub errors: Vec<RowError>,
}
