//! Reading one row of a file through a mapping into a sale of a known machine and product,
//! with its exactly-once event id — or why it is none.

use super::model::{HistoryMapping, RowError, UnmatchedKind, NAYAX};
use crate::fleet::Machine;
use crate::machines::{MachineContext, SalesSource};
use crate::tabular::{self, Cell};
use chrono::NaiveDateTime;
use chrono_tz::Tz;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use vendfleet_domain::events::{EventKind, MachineEvent, Payment, Vend};
use vendfleet_domain::nayax::local_instant;
use vendfleet_domain::FieldErrors;

/// What the rows are read against: the active machines and products.
pub struct Lookup {
    /// By Nayax machine id, terminal id and lower-case name (the first that has it).
    machines: HashMap<String, usize>,
    pub contexts: Vec<MachineContext>,
    /// Product id by SKU and by lower-case name.
    products: HashMap<String, String>,
}

impl Lookup {
    pub fn new(contexts: Vec<MachineContext>, products: &[crate::products::Product]) -> Lookup {
        let mut machines = HashMap::new();
        let keys = |m: &Machine| -> Vec<String> {
            [
                m.nayax_machine_id.clone(),
                m.terminal_id.clone(),
                Some(m.name.to_lowercase()),
            ]
            .into_iter()
            .flatten()
            .filter(|k| !k.is_empty())
            .collect()
        };
        // Names last: an id always wins over a name that happens to equal it.
        for pass in 0..3 {
            for (i, c) in contexts.iter().enumerate() {
                if let Some(k) = keys(&c.machine).get(pass) {
                    machines.entry(k.clone()).or_insert(i);
                }
            }
        }
        let mut by_code = HashMap::new();
        for p in products.iter().filter(|p| !p.inactive && !p.sku.is_empty()) {
            by_code.insert(p.sku.clone(), p.id.clone());
        }
        for p in products.iter().filter(|p| !p.inactive) {
            by_code
                .entry(p.name.to_lowercase())
                .or_insert_with(|| p.id.clone());
        }
        Lookup {
            machines,
            contexts,
            products: by_code,
        }
    }

    fn machine(&self, value: &str) -> Option<usize> {
        self.machines
            .get(value)
            .or_else(|| self.machines.get(&value.to_lowercase()))
            .copied()
    }
}

/// A header as compared: letters and digits, lower case (`Machine AuTime` = `machineAuTime`).
fn normal(header: &str) -> String {
    header
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The columns of a file resolved by a mapping, and how their cells read.
pub struct Reading {
    date: (usize, String),
    time: Option<(usize, String)>,
    machine: (usize, String),
    product: Option<(usize, String)>,
    selection: Option<(usize, String)>,
    quantity: Option<(usize, String)>,
    unit_price: Option<(usize, String)>,
    amount: Option<(usize, String)>,
    payment: Option<(usize, String)>,
    transaction_id: Option<(usize, String)>,
    status: Option<(usize, String)>,
    currency: Option<(usize, String)>,
    date_formats: Vec<String>,
    time_format: String,
    zone: Option<Tz>,
    separator: char,
    cash_values: Vec<String>,
    skip_values: Vec<String>,
    /// Event ids' prefix: `nayax` (the feed's ids) or `import`.
    prefix: &'static str,
}

/// One row read.
pub enum Row {
    Sale(Sale),
    NotSale,
    Unmatched(UnmatchedKind, String),
    Bad(RowError),
}

/// A sale of a known machine, as booked.
pub struct Sale {
    /// Index in [`Lookup::contexts`].
    pub machine: usize,
    pub local: NaiveDateTime,
    pub event: MachineEvent,
}

impl Reading {
    /// Resolves the mapping's columns in `headers`: an error names each column it lacks.
    pub fn new(m: &HistoryMapping, headers: &[String]) -> Result<Reading, FieldErrors> {
        let mut errors = FieldErrors::new();
        let normals: Vec<String> = headers.iter().map(|h| normal(h)).collect();
        let find = |spec: &str| -> Option<(usize, String)> {
            spec.split('|').find_map(|alt| {
                let n = normal(alt);
                normals
                    .iter()
                    .position(|h| !n.is_empty() && *h == n)
                    .map(|i| (i, headers[i].clone()))
            })
        };
        let mut required = |field: &str, spec: &str| {
            let found = find(spec);
            if found.is_none() {
                errors.add(
                    format!("columns.{field}"),
                    format!(
                        "The file has no column \"{}\".",
                        spec.replace('|', "\" or \"")
                    ),
                );
            }
            found
        };
        let date = required("date", &m.columns.date);
        let machine = required("machine", &m.columns.machine);
        let c = &m.columns;
        let optional = |spec: &Option<String>| spec.as_deref().and_then(&find);
        let product = optional(&c.product);
        let selection = optional(&c.selection);
        let unit_price = optional(&c.unit_price);
        let amount = optional(&c.amount);
        if product.is_none() && selection.is_none() {
            errors.add(
                "columns.product",
                "The file has neither a product nor a selection column.",
            );
        }
        if unit_price.is_none() && amount.is_none() {
            errors.add(
                "columns.unit_price",
                "The file has neither a price nor an amount column.",
            );
        }
        let (Some(date), Some(machine)) = (date, machine) else {
            return Err(errors);
        };
        errors.into_result()?;
        let zone = match m.zone.as_str() {
            "machine" | "" => None,
            z => z.parse::<Tz>().ok(),
        };
        Ok(Reading {
            date,
            time: optional(&c.time),
            machine,
            product,
            selection,
            quantity: optional(&c.quantity),
            unit_price,
            amount,
            payment: optional(&c.payment),
            transaction_id: optional(&c.transaction_id),
            status: optional(&c.status),
            currency: optional(&c.currency),
            date_formats: m.date_format.split('|').map(String::from).collect(),
            time_format: m.time_format.clone(),
            zone,
            separator: m.decimal_separator,
            cash_values: m.cash_values.clone(),
            skip_values: m.skip_values.clone(),
            prefix: if m.id == NAYAX { "nayax" } else { "import" },
        })
    }

    /// Reads one row. `occurrences` numbers the rows of one transaction (or identical rows),
    /// in file order, across the whole file: the n-th gets `-n` in its event id.
    pub fn row(
        &self,
        line: u32,
        cells: &[Cell],
        lookup: &Lookup,
        occurrences: &mut HashMap<u64, u32>,
    ) -> Row {
        let empty = Cell::Empty;
        let cell = |c: &(usize, String)| cells.get(c.0).unwrap_or(&empty);
        let bad = |c: &(usize, String), message: String| {
            Row::Bad(RowError {
                line,
                column: c.1.clone(),
                message,
            })
        };
        let Some(machine_value) = tabular::text(cell(&self.machine)) else {
            return bad(&self.machine, "empty".into());
        };
        // A transaction's rows are numbered in file order, every row counted (matched or not,
        // a sale or not): the same row has the same number in any file that holds its
        // transaction, before and after its machine or product is linked.
        let tx = self
            .transaction_id
            .as_ref()
            .and_then(|c| tabular::text(cell(c)));
        let tx_number = tx
            .as_ref()
            .map(|tx| next_occurrence(occurrences, &machine_value, tx));
        if let Some(c) = &self.status {
            if let Some(v) = tabular::text(cell(c)) {
                if self.skip_values.contains(&v.to_lowercase()) {
                    return Row::NotSale;
                }
            }
        }
        let Some(machine) = lookup.machine(&machine_value) else {
            return Row::Unmatched(UnmatchedKind::Machine, machine_value);
        };
        let ctx = &lookup.contexts[machine];
        if ctx.machine.sales_source == SalesSource::Audit {
            return Row::Unmatched(UnmatchedKind::AuditMachine, machine_value);
        }
        // The local time.
        let local = match &self.time {
            None => self.date_time(cell(&self.date)),
            Some(t) => tabular::date(cell(&self.date), &self.date_formats[0])
                .and_then(|d| tabular::time(cell(t), &self.time_format).map(|t| d.and_time(t))),
        };
        let local = match local {
            Ok(l) => l,
            Err(e) => return bad(&self.date, e),
        };
        if let Some(c) = &self.currency {
            if let Some(cur) = tabular::text(cell(c)) {
                if !cur.eq_ignore_ascii_case(&ctx.machine.currency) {
                    return bad(
                        c,
                        format!("{cur}, but the machine sells in {}", ctx.machine.currency),
                    );
                }
            }
        }
        let quantity = match &self.quantity {
            None => 1,
            Some(c) => match cell(c) {
                Cell::Empty => 1,
                Cell::Number(f) if f.fract() == 0.0 && (0.0..1e6).contains(f) => *f as u32,
                Cell::Text(t) => match t.parse::<u32>() {
                    Ok(n) if n < 1_000_000 => n,
                    _ => return bad(c, format!("\"{t}\" is not a quantity")),
                },
                other => {
                    let shown = tabular::text(other).unwrap_or_default();
                    return bad(c, format!("{shown} is not a quantity"));
                }
            },
        };
        if quantity == 0 {
            return Row::NotSale;
        }
        let places = ctx.machine.decimal_places;
        let price = match (&self.unit_price, &self.amount) {
            (Some(c), _) => match tabular::amount(cell(c), self.separator, false, places) {
                Ok(p) => p,
                Err(e) => return bad(c, e),
            },
            (None, Some(c)) => match tabular::amount(cell(c), self.separator, false, places) {
                Ok(total) if total % i64::from(quantity) == 0 => total / i64::from(quantity),
                Ok(total) => {
                    return bad(
                        c,
                        format!("{total} minor units do not divide into {quantity} equal prices"),
                    )
                }
                Err(e) => return bad(c, e),
            },
            (None, None) => 0,
        };
        if price < 0 {
            // A refund or a reversal: not a sale (docs/history-import.md).
            return Row::NotSale;
        }
        // The product: by SKU or name, else the planogram's at the selection.
        let product_value = self.product.as_ref().and_then(|c| tabular::text(cell(c)));
        let selection = self
            .selection
            .as_ref()
            .and_then(|c| tabular::text(cell(c)))
            .map(|s| selection_code(&s));
        let product_id = product_value.as_ref().and_then(|v| {
            lookup
                .products
                .get(v)
                .or_else(|| lookup.products.get(&v.to_lowercase()))
                .cloned()
        });
        let planned = selection
            .as_deref()
            .is_some_and(|s| ctx.selections.iter().any(|x| x.selection == s));
        if product_id.is_none() && !planned {
            let value = product_value.or(selection).unwrap_or_default();
            return Row::Unmatched(UnmatchedKind::Product, value);
        }
        let payment = match &self.payment {
            Some(c) => match tabular::text(cell(c)) {
                Some(v) if self.cash_values.contains(&v.to_lowercase()) => Payment::Cash,
                _ => Payment::Cashless,
            },
            None => Payment::Cashless,
        };
        let zone = self.zone.unwrap_or(ctx.zone);
        let at = local_instant(local, zone, None)
            .with_timezone(&zone)
            .fixed_offset();
        let selection = selection.unwrap_or_default();
        // The event's id: the transaction's, else the row's fingerprint (of its cells as
        // written, so that linking a machine or product later leaves it unchanged), numbered by
        // occurrence.
        let id = match (tx, tx_number) {
            (Some(tx), Some(n)) => format!("{}-{tx}-{n}", self.prefix),
            _ => {
                let mut h = Sha256::new();
                for part in [
                    machine_value.as_str(),
                    &local.to_string(),
                    product_value.as_deref().unwrap_or(""),
                    &selection,
                    &quantity.to_string(),
                    &price.to_string(),
                    if payment == Payment::Cash {
                        "cash"
                    } else {
                        "cashless"
                    },
                ] {
                    h.update(part.as_bytes());
                    h.update([0]);
                }
                let base = format!("import-f{}", hex::encode(&h.finalize()[..10]));
                let n = next_occurrence(occurrences, &machine_value, &base);
                format!("{base}-{n}")
            }
        };
        Row::Sale(Sale {
            machine,
            local,
            event: MachineEvent {
                id,
                at,
                kind: EventKind::Vend(Vend {
                    selection,
                    price_minor: price,
                    quantity,
                    payment,
                    product_id,
                    free: price == 0,
                    test: false,
                }),
            },
        })
    }

    fn date_time(&self, cell: &Cell) -> Result<NaiveDateTime, String> {
        let mut last = String::new();
        for f in &self.date_formats {
            match tabular::date_time(cell, f) {
                Ok(t) => return Ok(t),
                Err(e) => last = e,
            }
        }
        Err(last)
    }
}

/// The next number of `key`'s rows of the machine written `machine` (1 for its first).
fn next_occurrence(occurrences: &mut HashMap<u64, u32>, machine: &str, key: &str) -> u32 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let hash = BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
        .hash_one((machine, key));
    let n = occurrences.entry(hash).or_insert(0);
    *n += 1;
    *n
}

/// A selection as Nayax's "Product Selection Info" writes it, `Name(code = price)`, or as is.
fn selection_code(value: &str) -> String {
    match value.rsplit_once('(') {
        Some((_, rest)) if rest.contains('=') && rest.ends_with(')') => {
            rest.split('=').next().unwrap_or("").trim().to_string()
        }
        _ => value.trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nayax_selection_info_gives_its_code() {
        assert_eq!(selection_code("Coca Cola 0.5(12 = 1.50)"), "12");
        assert_eq!(selection_code("A1"), "A1");
        assert_eq!(normal("Payment Method ID (1)"), "paymentmethodid1");
        assert_eq!(normal("machineSeTime"), normal("Machine SeTime"));
    }
}
