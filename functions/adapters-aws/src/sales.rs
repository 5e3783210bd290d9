//! The sales store on the DynamoDB table, beside the item store's items:
//! - receipts `RECEIPT#{machine}` / `{event id}` (written on `attribute_not_exists`);
//! - ledger rows `LEDGER#{machine}#{day}` / `{at ms}#{event id}`, fleet-wide by day in GSI1
//!   (`LEDGERDAY#{day}`);
//! - rollups `ROLLUP#{machine}` / `D#{day}` and `M#{yyyy-mm}`: one item per machine and day or
//!   month, holding the totals (`t_{figure}`) and each product's figures
//!   (`p_{product}_{figure}`) as numbers that `ADD` updates in place;
//! - the whole fleet's rollups `FLEETROLLUP#{shard}` / `M#{yyyy-mm}`: one item per shard and
//!   month, holding the month's totals (`t_{figure}`), each day's (`d{dd}_{figure}`) and the set
//!   of machines whose vends it holds (`machines`). A machine always writes to the same one of
//!   [`FLEET_SHARDS`] shards, so that concurrent commits of different machines rarely touch the
//!   same item, and a year of the fleet is about a dozen items per shard.
//!
//! One commit is one `TransactWriteItems` (at most 100 items): intake sizes its commits by
//! [`SalesStore::cost`].

use crate::dynamo::{key_attrs, n, transact_item, DynamoItemStore};
use async_trait::async_trait;
use aws_sdk_dynamodb::types::{AttributeValue, TransactWriteItem, Update};
use chrono::{Datelike, NaiveDate};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use vendfleet_app::ports::sales::{
    ledger_machine_by_machine, Commit, FleetRollups, Grain, RollupQuery, RollupRow, SalesStore,
    StoredReceipt,
};
use vendfleet_app::ports::{
    query_all, Condition, Index, Item, ItemStore, Key, Query, SortKey, StoreError, Write,
    MAX_BATCH, MAX_TRANSACTION_WRITES,
};
use vendfleet_domain::sales::{Figures, Month, VendFact};

/// The sales store on the item store's table.
#[derive(Debug, Clone)]
pub struct DynamoSalesStore {
    items: DynamoItemStore,
}

impl DynamoSalesStore {
    /// A sales store on the table of `items`.
    pub fn new(items: DynamoItemStore) -> Self {
        DynamoSalesStore { items }
    }
}

/// Up to this many machines, a ledger read queries each machine's day partitions; beyond, the
/// fleet-wide day index.
const FEW_MACHINES: usize = 8;

fn receipt_key(machine_id: &str, event_id: &str) -> Key {
    Key::new(format!("RECEIPT#{machine_id}"), event_id)
}

fn ledger_partition(machine_id: &str, day: NaiveDate) -> String {
    format!("LEDGER#{machine_id}#{day}")
}

fn rollup_partition(machine_id: &str) -> String {
    format!("ROLLUP#{machine_id}")
}

fn month_sk(m: Month) -> String {
    format!("M#{:04}-{:02}", m.year, m.month)
}

/// The rollup items a set of vends adds to: (machine, sort key) → (totals, per product).
type Deltas = BTreeMap<(String, String), (Figures, BTreeMap<String, Figures>)>;

fn deltas(vends: &[VendFact]) -> Deltas {
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

/// An update that `ADD`s values to attributes of one item: the rollups' and the fleet items'.
#[derive(Default)]
struct AddUpdate {
    names: HashMap<String, String>,
    values: HashMap<String, AttributeValue>,
    adds: Vec<String>,
}

impl AddUpdate {
    fn add(&mut self, attr: String, v: AttributeValue) {
        let i = self.adds.len();
        self.names.insert(format!("#a{i}"), attr);
        self.values.insert(format!(":v{i}"), v);
        self.adds.push(format!("#a{i} :v{i}"));
    }

    /// Adds each figure of `f` to the attribute `{prefix}{name}`.
    fn figures(&mut self, prefix: &str, f: &Figures) {
        for (name, v) in Figures::NAMES.iter().zip(f.to_array()) {
            self.add(format!("{prefix}{name}"), n(v));
        }
    }

    fn write(self, table: &str, key: &Key) -> Result<TransactWriteItem, StoreError> {
        let update = Update::builder()
            .table_name(table)
            .set_key(Some(key_attrs(key)?))
            .update_expression(format!("ADD {}", self.adds.join(", ")))
            .set_expression_attribute_names(Some(self.names))
            .set_expression_attribute_values(Some(self.values))
            .build()
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok(TransactWriteItem::builder().update(update).build())
    }
}

fn rollup_update(
    table: &str,
    machine_id: &str,
    sk: &str,
    totals: &Figures,
    products: &BTreeMap<String, Figures>,
) -> Result<TransactWriteItem, StoreError> {
    let mut u = AddUpdate::default();
    u.figures("t_", totals);
    for (product, f) in products {
        u.figures(&format!("p_{product}_"), f);
    }
    u.write(table, &Key::new(rollup_partition(machine_id), sk))
}

fn ledger_item(v: &VendFact) -> Result<Item, StoreError> {
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

fn fleet_partition(shard: u64) -> String {
    format!("FLEETROLLUP#{shard}")
}

/// The fleet shard a machine writes to (FNV-1a of its id: the same in every process).
fn shard_of(machine_id: &str) -> u64 {
    machine_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) % FLEET_SHARDS
}

/// The fleet items a set of vends adds to: (shard, month sort key) → (month totals, totals by
/// day of the month, machines).
type FleetDeltas = BTreeMap<(u64, String), (Figures, BTreeMap<u32, Figures>, BTreeSet<String>)>;

fn fleet_deltas(vends: &[VendFact]) -> FleetDeltas {
    let mut d: FleetDeltas = BTreeMap::new();
    for v in vends {
        let f = Figures::of(v);
        let key = (shard_of(&v.machine_id), month_sk(Month::of(v.local_date)));
        let entry = d.entry(key).or_default();
        entry.0.add(&f);
        entry.1.entry(v.local_date.day()).or_default().add(&f);
        entry.2.insert(v.machine_id.clone());
    }
    d
}

/// What a fleet item's update counts for in [`SalesStore::cost`]: one item, and as much again
/// for each further day as its update expression grows (eight `ADD` clauses a day), so that
/// intake sizes commits of many days smaller and expressions stay far below DynamoDB's 4 KB.
fn fleet_cost(days: usize) -> usize {
    1 + Figures::NAMES.len() * days.saturating_sub(1)
}

fn fleet_update(
    table: &str,
    (shard, sk): &(u64, String),
    (totals, days, machines): &(Figures, BTreeMap<u32, Figures>, BTreeSet<String>),
) -> Result<TransactWriteItem, StoreError> {
    let mut u = AddUpdate::default();
    u.figures("t_", totals);
    for (day, f) in days {
        u.figures(&format!("d{day:02}_"), f);
    }
    u.add(
        "machines".into(),
        AttributeValue::Ss(machines.iter().cloned().collect()),
    );
    u.write(table, &Key::new(fleet_partition(*shard), sk))
}

/// Reads a fleet item of month `month`: its totals, its days' totals (`d{dd}_…`) and its
/// machines.
fn read_fleet(
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
fn read_rollup(item: &Item) -> (Figures, BTreeMap<String, Figures>) {
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

#[async_trait]
impl SalesStore for DynamoSalesStore {
    fn commit_limit(&self) -> usize {
        MAX_TRANSACTION_WRITES
    }

    fn cost(&self, commit: &Commit) -> usize {
        commit.receipts.len()
            + commit.vends.len()
            + deltas(&commit.vends).len()
            + fleet_deltas(&commit.vends)
                .values()
                .map(|(_, days, _)| fleet_cost(days.len()))
                .sum::<usize>()
            + commit.writes.len()
    }

    async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        if commit.is_empty() {
            return Ok(());
        }
        let cost = self.cost(&commit);
        if cost > MAX_TRANSACTION_WRITES {
            return Err(StoreError::Invalid(format!(
                "a sales commit touches at most {MAX_TRANSACTION_WRITES} items, got {cost}"
            )));
        }
        let table = self.items.table().to_string();
        let mut items = Vec::with_capacity(cost);
        for r in &commit.receipts {
            let mut attrs = serde_json::Map::new();
            attrs.insert("kind".into(), Value::from(r.kind.clone()));
            attrs.insert("at".into(), Value::from(r.at.to_rfc3339()));
            attrs.insert(
                "received_at".into(),
                Value::from(r.received_at.to_rfc3339()),
            );
            if let Some(f) = &r.fingerprint {
                attrs.insert("fingerprint".into(), Value::from(f.clone()));
            }
            if let Some(p) = &r.payload {
                attrs.insert("payload".into(), Value::from(p.clone()));
            }
            items.push(transact_item(
                Write::Put {
                    item: Item::new(receipt_key(&r.machine_id, &r.event_id), attrs),
                    condition: Some(Condition::NotExists),
                },
                &table,
            )?);
        }
        let unconditioned_start = items.len();
        for v in &commit.vends {
            items.push(transact_item(
                Write::Put {
                    item: ledger_item(v)?,
                    condition: None,
                },
                &table,
            )?);
        }
        for ((machine, sk), (totals, products)) in deltas(&commit.vends) {
            items.push(rollup_update(&table, &machine, &sk, &totals, &products)?);
        }
        for (key, delta) in fleet_deltas(&commit.vends) {
            items.push(fleet_update(&table, &key, &delta)?);
        }
        let unconditioned = items.len() - unconditioned_start;
        for w in commit.writes {
            items.push(transact_item(w, &table)?);
        }
        let receipts = commit.receipts.len();
        match self.items.transact_items(items).await {
            Err(StoreError::ConditionFailed { index }) if index >= receipts => {
                Err(StoreError::ConditionFailed {
                    index: index - unconditioned,
                })
            }
            other => other,
        }
    }

    async fn receipts(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashMap<String, StoredReceipt>, StoreError> {
        let mut found = HashMap::new();
        let unique: Vec<&String> = event_ids
            .iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        for chunk in unique.chunks(MAX_BATCH) {
            let keys: Vec<Key> = chunk.iter().map(|id| receipt_key(machine_id, id)).collect();
            for item in self.items.batch_get(&keys).await? {
                let text = |name: &str| {
                    item.attrs
                        .get(name)
                        .and_then(Value::as_str)
                        .map(str::to_string)
                };
                let received_at = text("received_at")
                    .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
                    .map(|t| t.with_timezone(&chrono::Utc))
                    .unwrap_or_default();
                found.insert(
                    item.key.sk.clone(),
                    StoredReceipt {
                        fingerprint: text("fingerprint"),
                        payload: text("payload"),
                        received_at,
                    },
                );
            }
        }
        Ok(found)
    }

    async fn ledger(
        &self,
        machine_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        let mut out = Vec::new();
        let mut day = from;
        while day <= to {
            let q = Query::partition(Index::Primary, ledger_partition(machine_id, day));
            for item in query_all(&self.items, q).await? {
                out.push(item.to_value::<VendFact>()?);
            }
            day = match day.succ_opt() {
                Some(d) => d,
                None => break,
            };
        }
        Ok(out)
    }

    /// Few machines: their day partitions; many: the fleet-wide day index, filtered.
    async fn ledger_of(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        if machine_ids.len() <= FEW_MACHINES {
            return ledger_machine_by_machine(self, machine_ids, from, to).await;
        }
        let wanted: HashSet<&str> = machine_ids.iter().map(String::as_str).collect();
        let mut out = Vec::new();
        for day in from.iter_days().take_while(|d| *d <= to) {
            let q = Query::partition(Index::Gsi1, format!("LEDGERDAY#{day}"));
            for item in query_all(&self.items, q).await? {
                let v = item.to_value::<VendFact>()?;
                if wanted.contains(v.machine_id.as_str()) {
                    out.push(v);
                }
            }
        }
        Ok(out)
    }

    async fn rollups(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        if query.from > query.to {
            return Ok(Vec::new());
        }
        let (lo, hi, by_product, monthly) = match query.grain {
            Grain::Day | Grain::DayProduct => (
                format!("D#{}", query.from),
                format!("D#{}", query.to),
                query.grain == Grain::DayProduct,
                false,
            ),
            Grain::Month | Grain::MonthProduct => {
                let (a, b) = query.months();
                (
                    month_sk(a),
                    month_sk(b),
                    query.grain == Grain::MonthProduct,
                    true,
                )
            }
        };
        let mut out = Vec::new();
        let mut machines = query.machine_ids.clone();
        machines.sort();
        machines.dedup();
        for machine in machines {
            let q = Query::partition(Index::Primary, rollup_partition(&machine))
                .sk(SortKey::Between(lo.clone(), hi.clone()));
            for item in query_all(&self.items, q).await? {
                let date = parse_sk(&item.key.sk, monthly)?;
                let (totals, products) = read_rollup(&item);
                if by_product {
                    for (product_id, figures) in products {
                        out.push(RollupRow {
                            machine_id: machine.clone(),
                            date,
                            product_id: Some(product_id),
                            figures,
                        });
                    }
                } else {
                    out.push(RollupRow {
                        machine_id: machine.clone(),
                        date,
                        product_id: None,
                        figures: totals,
                    });
                }
            }
        }
        Ok(out)
    }

    /// The month items of every shard over the span's months (a day grain reads the days
    /// inside them).
    async fn fleet_rollups(&self, query: &RollupQuery) -> Result<Option<FleetRollups>, StoreError> {
        let daily = match query.grain {
            Grain::Day => true,
            Grain::Month => false,
            Grain::DayProduct | Grain::MonthProduct => return Ok(None),
        };
        let mut out = FleetRollups::default();
        if query.from > query.to {
            return Ok(Some(out));
        }
        let (a, b) = query.months();
        for shard in 0..FLEET_SHARDS {
            let q = Query::partition(Index::Primary, fleet_partition(shard))
                .sk(SortKey::Between(month_sk(a), month_sk(b)));
            for item in query_all(&self.items, q).await? {
                let month = parse_sk(&item.key.sk, true)?;
                let (totals, days, machines) = read_fleet(&item, month);
                out.machines.extend(machines);
                if daily {
                    out.rows.extend(
                        days.into_iter()
                            .filter(|(d, _)| (query.from..=query.to).contains(d))
                            .map(|(date, figures)| RollupRow {
                                machine_id: String::new(),
                                date,
                                product_id: None,
                                figures,
                            }),
                    );
                } else {
                    out.rows.push(RollupRow {
                        machine_id: String::new(),
                        date: month,
                        product_id: None,
                        figures: totals,
                    });
                }
            }
        }
        Ok(Some(out))
    }
}

fn parse_sk(sk: &str, monthly: bool) -> Result<NaiveDate, StoreError> {
    let bad = || StoreError::Codec(format!("bad rollup key {sk}"));
    if monthly {
        let rest = sk.strip_prefix("M#").ok_or_else(bad)?;
        NaiveDate::parse_from_str(&format!("{rest}-01"), "%Y-%m-%d").map_err(|_| bad())
    } else {
        let rest = sk.strip_prefix("D#").ok_or_else(bad)?;
        rest.parse().map_err(|_| bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollup_items_read_back_totals_and_products() {
        let mut attrs = serde_json::Map::new();
        attrs.insert("t_q".into(), Value::from(5));
        attrs.insert("t_rev".into(), Value::from(900));
        attrs.insert("p_01ABC_q".into(), Value::from(3));
        attrs.insert("p__q".into(), Value::from(2));
        let item = Item::new(Key::new("ROLLUP#m", "D#2026-11-01"), attrs);
        let (t, p) = read_rollup(&item);
        assert_eq!(t.quantity, 5);
        assert_eq!(t.revenue_minor, 900);
        assert_eq!(p["01ABC"].quantity, 3);
        assert_eq!(p[""].quantity, 2);
        assert_eq!(
            parse_sk("M#2026-02", true).unwrap(),
            "2026-02-01".parse::<NaiveDate>().unwrap()
        );
    }
}
