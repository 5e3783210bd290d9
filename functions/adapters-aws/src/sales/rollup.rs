//! The sales items' shapes: keys, rollup updates, ledger rows and the fleet's shards.

use crate::dynamo::{key_attrs, n};
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};
use chrono::{Datelike, NaiveDate};
use std::collections::{BTreeMap, HashMap};
use vendfleet_app::ports::{Item, Key, StoreError};
use vendfleet_domain::sales::{Figures, Month, VendFact};

pub(super) fn receipt_key(machine_id: &str, event_id: &str) -> Key {
    Key::new(format!("RECEIPT#{machine_id}"), event_id)
}

pub(super) fn ledger_partition(machine_id: &str, day: NaiveDate) -> String {
    format!("LEDGER#{machine_id}#{day}")
}

pub(super) fn rollup_partition(machine_id: &str) -> String {
    format!("ROLLUP#{machine_id}")
}

pub(super) fn month_sk(m: Month) -> String {
    format!("M#{:04}-{:02}", m.year, m.month)
}

/// The rollup items a set of vends adds to: (machine, sort key) → (totals, per product).
pub(super) type Deltas = BTreeMap<(String, String), (Figures, BTreeMap<String, Figures>)>;

pub(super) fn deltas(vends: &[VendFact]) -> Deltas {
    let mut d: Deltas = BTreeMap::new();
    for v in vends {
        let f = Figures::of(v);
        for sk in [
            format!("D#{}", v.local_date),
            month_sk(Month::of(v.local_date)),
        ] {
            let entry = d.entry((v.machine_id.clone(), sk)).or_default();
            entry.0.add(&f);
            entry.1.entry(v.product_id.clone()).or_default().add(&f);
        }
    }
    d
}

/// An update that `ADD`s values to top-level attributes of one item: the rollups' and the fleet
/// items'. Placeholders are `#a{i}` / `:v{i}` with `i` in base 36, so that a clause is 9 bytes
/// up to the 36th and 11 up to the 1,296th.
pub(crate) struct AddUpdate {
    pub(crate) key: Key,
    pub(super) clauses: Vec<(String, AttributeValue)>,
}

impl AddUpdate {
    pub(crate) fn new(key: Key) -> Self {
        AddUpdate {
            key,
            clauses: Vec::new(),
        }
    }

    pub(crate) fn add(&mut self, attr: String, v: AttributeValue) {
        self.clauses.push((attr, v));
    }

    /// Adds each figure of `f` to the attribute `{prefix}{name}`.
    pub(super) fn figures(&mut self, prefix: &str, f: &Figures) {
        for (name, v) in Figures::NAMES.iter().zip(f.to_array()) {
            self.add(format!("{prefix}{name}"), n(v));
        }
    }

    /// The update cut into updates of the same item whose expressions are at most `max`
    /// bytes (`ADD`s add up, so applied one after another they make the same item).
    pub(super) fn split(self, max: usize) -> Vec<AddUpdate> {
        let mut out = vec![AddUpdate::new(self.key.clone())];
        for (attr, v) in self.clauses {
            let last = out.last_mut().expect("one update");
            last.add(attr.clone(), v.clone());
            if last.expression_len() > max && last.clauses.len() > 1 {
                last.clauses.pop();
                let mut next = AddUpdate::new(self.key.clone());
                next.add(attr, v);
                out.push(next);
            }
        }
        out
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The length of the update expression [`AddUpdate::write`] sends, in bytes.
    pub(crate) fn expression_len(&self) -> usize {
        let k = self.clauses.len();
        let placeholders: usize = (0..k).map(|i| 5 + 2 * base36(i).len()).sum();
        "ADD ".len() + placeholders + 2 * k.saturating_sub(1)
    }

    pub(super) fn expression(
        &self,
    ) -> (
        String,
        HashMap<String, String>,
        HashMap<String, AttributeValue>,
    ) {
        let mut names = HashMap::with_capacity(self.clauses.len());
        let mut values = HashMap::with_capacity(self.clauses.len());
        let mut adds = Vec::with_capacity(self.clauses.len());
        for (i, (attr, v)) in self.clauses.iter().enumerate() {
            let i = base36(i);
            names.insert(format!("#a{i}"), attr.clone());
            values.insert(format!(":v{i}"), v.clone());
            adds.push(format!("#a{i} :v{i}"));
        }
        (format!("ADD {}", adds.join(", ")), names, values)
    }

    pub(crate) fn write(self, table: &str) -> Result<TransactWriteItem, StoreError> {
        let (expression, names, values) = self.expression();
        let update = Update::builder()
            .table_name(table)
            .set_key(Some(key_attrs(&self.key)?))
            .update_expression(expression)
            .set_expression_attribute_names(Some(names))
            .set_expression_attribute_values(Some(values))
            .build()
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(TransactWriteItem::builder().update(update).build())
    }
}

/// `i` in base 36 (digits, then lower-case letters).
pub(super) fn base36(mut i: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[i % 36]);
        i /= 36;
        if i == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
}

pub(super) fn rollup_update(
    machine_id: &str,
    sk: &str,
    totals: &Figures,
    products: &BTreeMap<String, Figures>,
) -> AddUpdate {
    let mut u = AddUpdate::new(Key::new(rollup_partition(machine_id), sk));
    u.figures("t_", totals);
    for (product, f) in products {
        u.figures(&format!("p_{product}_"), f);
    }
    u
}

pub(super) fn ledger_item(v: &VendFact) -> Result<Item, StoreError> {
    let at = v.at.timestamp_millis();
    Ok(Item::from_value(
        Key::new(
            ledger_partition(&v.machine_id, v.local_date),
            format!("{at:015}#{}", v.event_id),
        ),
        v,
    )?
    .with_gsi1(
        format!("LEDGERDAY#{}", v.local_date),
        format!("{}#{at:015}#{}", v.machine_id, v.event_id),
    ))
}

/// How many items the fleet's rollups of one month are spread over.
pub const FLEET_SHARDS: u64 = 4;

pub(super) fn fleet_partition(shard: u64) -> String {
    format!("FLEETROLLUP#{shard}")
}

/// The fleet shard a machine writes to (FNV-1a of its id: the same in every process).
pub(super) fn shard_of(machine_id: &str) -> u64 {
    machine_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) % FLEET_SHARDS
}

/// Reads a fleet item of month `month`: its totals, its days' totals (`d{dd}_…`) and its
/// machines.
pub(super) fn read_fleet(
    item: &Item,
    month: NaiveDate,
) -> (Figures, BTreeMap<NaiveDate, Figures>, Vec<String>) {
    let mut totals = [0i64; 8];
    let mut days: BTreeMap<NaiveDate, [i64; 8]> = BTreeMap::new();
    let mut machines = Vec::new();
    let slot = |name: &str| Figures::NAMES.iter().position(|n| *n == name);
    for (attr, value) in &item.attrs {
        if attr == "machines" {
            if let Some(ids) = value.as_array() {
                machines.extend(ids.iter().filter_map(|v| v.as_str().map(String::from)));
            }
            continue;
        }
        let Some(v) = value.as_i64() else { continue };
        if let Some(i) = attr.strip_prefix("t_").and_then(slot) {
            totals[i] = v;
        } else if let Some((day, name)) = attr.strip_prefix('d').and_then(|r| r.split_once('_')) {
            let date = day.parse().ok().and_then(|d| month.with_day(d));
            if let (Some(date), Some(i)) = (date, slot(name)) {
                days.entry(date).or_insert([0; 8])[i] = v;
            }
        }
    }
    (
        Figures::from_array(totals),
        days.into_iter()
            .map(|(d, a)| (d, Figures::from_array(a)))
            .collect(),
        machines,
    )
}

/// Reads the figures of a rollup item: totals and per product.
pub(super) fn read_rollup(item: &Item) -> (Figures, BTreeMap<String, Figures>) {
    let mut totals = [0i64; 8];
    let mut products: BTreeMap<String, [i64; 8]> = BTreeMap::new();
    for (attr, value) in &item.attrs {
        let Some(v) = value.as_i64() else { continue };
        let slot = |name: &str| Figures::NAMES.iter().position(|n| *n == name);
        if let Some(name) = attr.strip_prefix("t_") {
            if let Some(i) = slot(name) {
                totals[i] = v;
            }
        } else if let Some(rest) = attr.strip_prefix("p_") {
            if let Some((product, name)) = rest.rsplit_once('_') {
                if let Some(i) = slot(name) {
                    products.entry(product.to_string()).or_insert([0; 8])[i] = v;
                }
            }
        }
    }
    (
        Figures::from_array(totals),
        products
            .into_iter()
            .map(|(p, a)| (p, Figures::from_array(a)))
            .collect(),
    )
}

pub(super) fn parse_sk(sk: &str, monthly: bool) -> Result<NaiveDate, StoreError> {
    let bad = || StoreError::Codec(format!("bad rollup key {sk}"));
    if monthly {
        let rest = sk.strip_prefix("M#").ok_or_else(bad)?;
        NaiveDate::parse_from_str(&format!("{rest}-01"), "%Y-%m-%d").map_err(|_| bad())
    } else {
        let rest = sk.strip_prefix("D#").ok_or_else(bad)?;
        rest.parse().map_err(|_| bad())
    }
}
