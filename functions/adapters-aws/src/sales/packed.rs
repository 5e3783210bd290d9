//! The fleet's packed items (issue #28): per shard `FLEETROLLUP#{shard}`, one item a month
//! (`M#{yyyy-mm}`) and one a day (`D#{yyyy-mm-dd}`), every figure of the shard's machines inside,
//! as top-level numbers that `ADD` updates in the commit of the vends:
//! - month item: `t_{figure}` the month's totals, `d{dd}_{figure}` each day's, `machines` the
//!   string set of machines whose vends it holds, and, packed, `M{machine}{c}` each machine's
//!   month figures and `P{product}{c}` the shard's month figures of each product;
//! - day item: `M{machine}{c}` and `P{product}{c}` of that day.
//!
//! `c` is one letter a figure ([`CODES`]: `q` quantity, `r` revenue, `n` net, `c` cash, `k`
//! cashless, `f` free, `e` test, `x` transactions); a zero figure is not written, and an
//! absent attribute reads as zero. A fleet-wide question reads shards × span items, whatever
//! the fleet's size; a question about some machines reads only their shards' items.

use super::rollup::{fleet_partition, month_sk, parse_sk, shard_of, AddUpdate, FLEET_SHARDS};
use crate::dynamo::{n, DynamoItemStore};
use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{Datelike, NaiveDate};
use std::collections::{BTreeMap, BTreeSet};
use vendfleet_app::ports::sales::{FleetRollups, Grain, RollupQuery, RollupRow};
use vendfleet_app::ports::{query_all, Index, Item, Key, Query, SortKey, StoreError};
use vendfleet_domain::sales::{Figures, Month, VendFact};

/// The letter of each figure in packed attribute names, in the order of [`Figures::NAMES`].
pub(crate) const CODES: [char; 8] = ['q', 'r', 'n', 'c', 'k', 'f', 'e', 'x'];

/// What a set of vends adds to one shard's month item.
#[derive(Default)]
struct MonthDelta {
    totals: Figures,
    days: BTreeMap<u32, Figures>,
    machines: BTreeMap<String, Figures>,
    products: BTreeMap<String, Figures>,
}

/// What a set of vends adds to one shard's day item.
#[derive(Default)]
struct DayDelta {
    machines: BTreeMap<String, Figures>,
    products: BTreeMap<String, Figures>,
}

/// Adds the non-zero figures of `f` to the attributes `{kind}{id}{c}`.
fn packed(u: &mut AddUpdate, kind: char, id: &str, f: &Figures) {
    for (c, v) in CODES.iter().zip(f.to_array()) {
        if v != 0 {
            u.add(format!("{kind}{id}{c}"), n(v));
        }
    }
}

/// The fleet items' updates of a set of vends: each shard's month and day items they fall in.
pub(crate) fn fleet_updates(vends: &[VendFact]) -> Vec<AddUpdate> {
    let mut months: BTreeMap<(u64, String), MonthDelta> = BTreeMap::new();
    let mut days: BTreeMap<(u64, NaiveDate), DayDelta> = BTreeMap::new();
    for v in vends {
        let f = Figures::of(v);
        let shard = shard_of(&v.machine_id);
        let m = months
            .entry((shard, month_sk(Month::of(v.local_date))))
            .or_default();
        m.totals.add(&f);
        m.days.entry(v.local_date.day()).or_default().add(&f);
        m.machines.entry(v.machine_id.clone()).or_default().add(&f);
        m.products.entry(v.product_id.clone()).or_default().add(&f);
        let d = days.entry((shard, v.local_date)).or_default();
        d.machines.entry(v.machine_id.clone()).or_default().add(&f);
        d.products.entry(v.product_id.clone()).or_default().add(&f);
    }
    let mut out = Vec::with_capacity(months.len() + days.len());
    for ((shard, sk), m) in months {
        let mut u = AddUpdate::new(Key::new(fleet_partition(shard), sk));
        u.figures("t_", &m.totals);
        for (day, f) in &m.days {
            u.figures(&format!("d{day:02}_"), f);
        }
        u.add(
            "machines".into(),
            AttributeValue::Ss(m.machines.keys().cloned().collect()),
        );
        for (id, f) in &m.machines {
            packed(&mut u, 'M', id, f);
        }
        for (id, f) in &m.products {
            packed(&mut u, 'P', id, f);
        }
        out.push(u);
    }
    for ((shard, day), d) in days {
        let mut u = AddUpdate::new(Key::new(fleet_partition(shard), format!("D#{day}")));
        for (id, f) in &d.machines {
            packed(&mut u, 'M', id, f);
        }
        for (id, f) in &d.products {
            packed(&mut u, 'P', id, f);
        }
        if !u.is_empty() {
            out.push(u);
        }
    }
    out
}

/// A packed attribute's kind (`M` or `P`), id and figure (its index in [`Figures::NAMES`]).
fn parse_packed(attr: &str) -> Option<(char, &str, usize)> {
    let kind = attr.chars().next().filter(|c| *c == 'M' || *c == 'P')?;
    let code = attr.chars().next_back()?;
    let i = CODES.iter().position(|c| *c == code)?;
    let id = attr.get(1..attr.len() - code.len_utf8())?;
    Some((kind, id, i))
}

/// The packed figures of a fleet item: by machine and by product.
pub(crate) struct Packed {
    pub machines: BTreeMap<String, Figures>,
    pub products: BTreeMap<String, Figures>,
}

pub(crate) fn read_packed(item: &Item) -> Packed {
    let mut machines: BTreeMap<String, [i64; 8]> = BTreeMap::new();
    let mut products: BTreeMap<String, [i64; 8]> = BTreeMap::new();
    for (attr, value) in &item.attrs {
        let Some(v) = value.as_i64() else { continue };
        let Some((kind, id, i)) = parse_packed(attr) else {
            continue;
        };
        let into = if kind == 'M' {
            &mut machines
        } else {
            &mut products
        };
        into.entry(id.to_string()).or_insert([0; 8])[i] = v;
    }
    let figures = |m: BTreeMap<String, [i64; 8]>| {
        m.into_iter()
            .map(|(id, a)| (id, Figures::from_array(a)))
            .collect()
    };
    Packed {
        machines: figures(machines),
        products: figures(products),
    }
}

/// The fleet items of `shards` over a query's span: month items for month grains, day items
/// for day grains, with each item's date.
async fn items_of(
    items: &DynamoItemStore,
    shards: &BTreeSet<u64>,
    query: &RollupQuery,
    monthly: bool,
) -> Result<Vec<(NaiveDate, Item)>, StoreError> {
    let (lo, hi) = if monthly {
        let (a, b) = query.months();
        (month_sk(a), month_sk(b))
    } else {
        (format!("D#{}", query.from), format!("D#{}", query.to))
    };
    let reads = shards.iter().map(|&shard| {
        let q = Query::partition(Index::Primary, fleet_partition(shard))
            .sk(SortKey::Between(lo.clone(), hi.clone()));
        query_all(items, q)
    });
    let mut out = Vec::new();
    for shard_items in futures_util::future::try_join_all(reads).await? {
        for item in shard_items {
            out.push((parse_sk(&item.key.sk, monthly)?, item));
        }
    }
    Ok(out)
}

/// The whole fleet's rows by product (`MonthProduct`: the month items; `DayProduct`: the day
/// items), and the machines they hold.
pub(crate) async fn fleet_products(
    items: &DynamoItemStore,
    query: &RollupQuery,
) -> Result<FleetRollups, StoreError> {
    let monthly = query.grain == Grain::MonthProduct;
    let mut out = FleetRollups::default();
    if query.from > query.to {
        return Ok(out);
    }
    let all: BTreeSet<u64> = (0..FLEET_SHARDS).collect();
    for (date, item) in items_of(items, &all, query, monthly).await? {
        if monthly {
            if let Some(ids) = item.attrs.get("machines").and_then(|v| v.as_array()) {
                out.machines
                    .extend(ids.iter().filter_map(|v| v.as_str().map(String::from)));
            }
        }
        let p = read_packed(&item);
        if !monthly {
            out.machines.extend(p.machines.into_keys());
        }
        out.rows
            .extend(p.products.into_iter().map(|(product, figures)| RollupRow {
                machine_id: String::new(),
                date,
                product_id: Some(product),
                figures,
            }));
    }
    Ok(out)
}

/// The shards `machine_ids` write to.
pub(crate) fn shards_of(machine_ids: &[String]) -> BTreeSet<u64> {
    machine_ids.iter().map(|m| shard_of(m)).collect()
}

/// Each of `query`'s machines' rows of a `Day` or `Month` grain from its shards' packed items
/// (`None` for product grains).
pub(crate) async fn machine_rows(
    items: &DynamoItemStore,
    query: &RollupQuery,
) -> Result<Option<Vec<RollupRow>>, StoreError> {
    let monthly = match query.grain {
        Grain::Day => false,
        Grain::Month => true,
        Grain::DayProduct | Grain::MonthProduct => return Ok(None),
    };
    let mut out = Vec::new();
    if query.from > query.to || query.machine_ids.is_empty() {
        return Ok(Some(out));
    }
    let wanted: BTreeSet<&str> = query.machine_ids.iter().map(String::as_str).collect();
    let shards = shards_of(&query.machine_ids);
    for (date, item) in items_of(items, &shards, query, monthly).await? {
        for (machine_id, figures) in read_packed(&item).machines {
            if wanted.contains(machine_id.as_str()) {
                out.push(RollupRow {
                    machine_id,
                    date,
                    product_id: None,
                    figures,
                });
            }
        }
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn packed_names_read_back() {
        assert_eq!(parse_packed("M01ABCq"), Some(('M', "01ABC", 0)));
        assert_eq!(parse_packed("Px"), Some(('P', "", 7)));
        assert_eq!(parse_packed("Pé_k"), Some(('P', "é_", 4)));
        assert_eq!(parse_packed("machines"), None);
        assert_eq!(parse_packed("t_q"), None);
        assert_eq!(parse_packed("MA"), None);
        let mut attrs = serde_json::Map::new();
        attrs.insert("M01Aq".into(), Value::from(3));
        attrs.insert("M01Ar".into(), Value::from(360));
        attrs.insert("Pq".into(), Value::from(2));
        attrs.insert("t_q".into(), Value::from(9));
        attrs.insert("d01_q".into(), Value::from(9));
        let p = read_packed(&Item::new(Key::new("FLEETROLLUP#0", "M#2026-11"), attrs));
        assert_eq!(p.machines["01A"].quantity, 3);
        assert_eq!(p.machines["01A"].sales_minor, 360);
        assert_eq!(p.products[""].quantity, 2);
        assert_eq!(p.machines.len() + p.products.len(), 2);
    }
}
