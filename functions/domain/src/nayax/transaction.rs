//! A Nayax Core transaction message (the transactions feed): root fields (`TransactionId`,
//! `MachineId`, `MachineTime`, `Void` …) and the `Data` object with the operator's chosen
//! columns (`"Machine AuTime"`, `SeValue`, `"Payment Method ID (1)"`, `Products` …).

use super::model::Unreadable;
use super::value::{decimal, field, flag, id, local, minor_units, text};
use crate::events::{EventKind, MachineEvent, Payment, Vend};
use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use serde_json::{Map, Value};

/// Nayax's payment method id for cash (its Dynamic Transaction Monitor: 1 credit card, 2
/// prepaid credit, 3 cash); every other method is cashless.
pub const CASH_METHOD: i64 = 3;

/// What a transaction message says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionKind {
    /// A sale: its lines are booked.
    Sale,
    /// `"Void": true`: the transaction it names did not happen (reverses a booked sale).
    Void,
    /// A refund of the transaction it names (status "Refund…", or a negative settlement value).
    Refund,
    /// Cancelled (status "Cancel…"): never counts.
    Cancelled,
    /// Declined (status "Declin…"): never counts.
    Declined,
}

/// One product line (`Data.Products[n]`, or the transaction itself when it has no array).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The selection code: `"Product Code in Map"` (the MDB code), else `"Product PA Code"`.
    pub selection: Option<String>,
    /// `"Product Catalog Number"` (the operator's article code, our product's SKU).
    pub catalog_number: Option<String>,
    /// `"Product Name"`, kept for the unmatched inbox.
    pub name: Option<String>,
    /// The unit price before `discount`, as Nayax's decimal text: `"Product Bruto"`, or — for
    /// a transaction without a products array — `SeValue` (less its `"Extra Charge"`: the
    /// convenience fee is not the product's takings).
    pub unit_price: Option<String>,
    /// What comes off `unit_price`, as decimal text: `"Product Discount Amount"`, or the
    /// `"Extra Charge"` of a transaction without a products array.
    pub discount: Option<String>,
    /// `"Product Quantity"`; Nayax sends 0 for a plain single vend, read as 1.
    pub quantity: u32,
}

/// A transaction message, as read.
#[derive(Debug, Clone, PartialEq)]
pub struct Transaction {
    /// `TransactionId` (or `Data."Transaction ID"`).
    pub transaction_id: String,
    /// `SiteId` (or `Data."Site ID"`), when sent.
    pub site_id: Option<String>,
    /// `MachineId`: the machine's Nayax id.
    pub machine: String,
    /// `Data."Machine AuTime"` (authorisation, the machine's local time), else `MachineTime`.
    pub local_time: NaiveDateTime,
    /// Settlement in UTC (`"Settlement Time (Date only)"` + `"(Time only)"`), when sent.
    pub settled_at: Option<DateTime<Utc>>,
    pub kind: TransactionKind,
    /// `PaymentMethodId` (or `Data."Payment Method ID (1)"`).
    pub payment_method: Option<i64>,
    /// `Data."Payment Method Description"`.
    pub payment_description: Option<String>,
    /// `Data.Currency`.
    pub currency: Option<String>,
    /// `Data.SeValue`: the amount charged, decimal text.
    pub charged: Option<String>,
    pub lines: Vec<Line>,
}

const SELECTION: &[&str] = &["Product Code in Map", "Product PA Code"];

impl Transaction {
    /// Reads a transaction message's object.
    pub(super) fn read(o: &Map<String, Value>) -> Result<Transaction, Unreadable> {
        let empty = Map::new();
        let data = match field(o, &["Data"]) {
            None => &empty,
            Some(Value::Object(d)) => d,
            Some(v) => {
                return Err(Unreadable::Invalid {
                    field: "Data".into(),
                    expected: "an object",
                    found: v.to_string().chars().take(80).collect(),
                })
            }
        };
        let both = |root: &[&str], inner: &[&str]| -> Result<Option<String>, Unreadable> {
            Ok(id(o, root)?.or(id(data, inner)?))
        };
        let transaction_id =
            both(&["TransactionId"], &["Transaction ID"])?.ok_or(Unreadable::Missing {
                field: "TransactionId",
            })?;
        let machine = both(&["MachineId"], &["Machine ID"])?
            .ok_or(Unreadable::Missing { field: "MachineId" })?;
        let local_time = local(data, &["Machine AuTime"])?
            .or(local(o, &["MachineTime"])?)
            .ok_or(Unreadable::Missing {
                field: "Machine AuTime",
            })?;
        let settled_at = match (
            text(data, &["Settlement Time (Date only)"])?,
            text(data, &["Settlement Time (Time only)"])?,
        ) {
            (Some(d), Some(t)) => NaiveDate::parse_from_str(&d, "%Y-%m-%d")
                .ok()
                .zip(NaiveTime::parse_from_str(&t, "%H:%M:%S%.f").ok())
                .map(|(d, t)| d.and_time(t).and_utc()),
            _ => None,
        };
        let payment_method = both(&["PaymentMethodId"], &["Payment Method ID (1)"])?
            .map(|m| {
                m.parse::<i64>().map_err(|_| Unreadable::Invalid {
                    field: "PaymentMethodId".into(),
                    expected: "a whole number",
                    found: m.clone(),
                })
            })
            .transpose()?;
        let charged = decimal(data, &["SeValue"])?;
        let status = text(data, &["Transaction Status Name", "Transaction Status"])?
            .unwrap_or_default()
            .to_ascii_lowercase();
        let kind = if flag(o, &["Void"])?.unwrap_or(false) {
            TransactionKind::Void
        } else if status.contains("declin") {
            TransactionKind::Declined
        } else if status.contains("cancel") {
            TransactionKind::Cancelled
        } else if status.contains("refund")
            || flag(data, &["Is Refund Card"])?.unwrap_or(false)
            || charged.as_deref().is_some_and(|c| c.starts_with('-'))
        {
            TransactionKind::Refund
        } else {
            TransactionKind::Sale
        };
        let lines = match field(data, &["Products"]) {
            None => vec![Line {
                selection: text(data, SELECTION)?,
                catalog_number: text(data, &["Catalog Number", "Product Catalog Number"])?,
                name: text(data, &["Product Name"])?,
                unit_price: charged.clone(),
                discount: decimal(data, &["Extra Charge"])?,
                quantity: 1,
            }],
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(n, item)| {
                    let item = item.as_object().ok_or_else(|| Unreadable::Invalid {
                        field: format!("Products[{n}]"),
                        expected: "an object",
                        found: item.to_string().chars().take(80).collect(),
                    })?;
                    let quantity = match field(item, &["Product Quantity"]) {
                        None => 1,
                        Some(v) => match v.as_u64() {
                            Some(0) => 1,
                            Some(q) if q <= 1000 => q as u32,
                            _ => {
                                return Err(Unreadable::Invalid {
                                    field: format!("Products[{n}].Product Quantity"),
                                    expected: "a quantity from 0 to 1000",
                                    found: v.to_string(),
                                })
                            }
                        },
                    };
                    Ok(Line {
                        selection: text(item, SELECTION)?,
                        catalog_number: text(item, &["Product Catalog Number"])?,
                        name: text(item, &["Product Name"])?,
                        unit_price: decimal(item, &["Product Bruto"])?,
                        discount: decimal(item, &["Product Discount Amount"])?,
                        quantity,
                    })
                })
                .collect::<Result<_, _>>()?,
            Some(v) => {
                return Err(Unreadable::Invalid {
                    field: "Products".into(),
                    expected: "an array",
                    found: v.to_string().chars().take(80).collect(),
                })
            }
        };
        Ok(Transaction {
            transaction_id,
            site_id: both(&["SiteId"], &["Site ID"])?,
            machine,
            local_time,
            settled_at,
            kind,
            payment_method,
            payment_description: text(data, &["Payment Method Description"])?,
            currency: text(data, &["Currency"])?,
            charged,
            lines,
        })
    }

    /// The receipt id of line `n` (0-based): one per transaction and line, so a message
    /// delivered twice books once.
    pub fn line_id(&self, n: usize) -> String {
        format!("nayax-{}-{}", self.transaction_id, n + 1)
    }

    /// How it was paid: cash for Nayax's cash method, cashless otherwise.
    pub fn payment(&self) -> Payment {
        match self.payment_method {
            Some(CASH_METHOD) => Payment::Cash,
            _ => Payment::Cashless,
        }
    }

    /// Whether it is a test vend: the payment method's description says "test" (Nayax's test
    /// cards); its lines are booked as test vends (no takings).
    pub fn is_test(&self) -> bool {
        self.payment_description
            .as_deref()
            .is_some_and(|d| d.to_ascii_lowercase().contains("test"))
    }

    /// The vends of a sale at `at`, one per line, in minor units of a currency of `decimals`
    /// places; `products[n]` is line `n`'s product (`None`: the planogram's, by selection). A
    /// line at price 0 is a free vend. `Err` names the line whose price is not money.
    pub fn vends(
        &self,
        at: DateTime<Utc>,
        decimals: u8,
        products: &[Option<String>],
    ) -> Result<Vec<MachineEvent>, Unreadable> {
        let at = at.fixed_offset();
        let test = self.is_test();
        self.lines
            .iter()
            .enumerate()
            .map(|(n, line)| {
                let price = |t: &Option<String>| match t {
                    None => Ok(0),
                    Some(t) => minor_units(t, decimals).ok_or_else(|| Unreadable::Invalid {
                        field: format!("Products[{n}] price"),
                        expected: "an amount in the currency's minor units",
                        found: t.clone(),
                    }),
                };
                let unit = price(&line.unit_price)? - price(&line.discount)?;
                if unit < 0 {
                    return Err(Unreadable::Invalid {
                        field: format!("Products[{n}] price"),
                        expected: "a price of 0 or more",
                        found: unit.to_string(),
                    });
                }
                Ok(MachineEvent {
                    id: self.line_id(n),
                    at,
                    kind: EventKind::Vend(Vend {
                        selection: line.selection.clone().unwrap_or_default(),
                        price_minor: unit,
                        quantity: line.quantity,
                        payment: self.payment(),
                        product_id: products.get(n).cloned().flatten(),
                        free: unit == 0 && !test,
                        test,
                    }),
                })
            })
            .collect()
    }
}
