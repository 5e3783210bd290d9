//! A commit's writes: receipts, ledger rows and the rollup deltas, in one transaction.

use super::sql::{backend, corrupt, FIGURES};
use crate::packed;
use crate::store::apply_write;
use chrono::{DateTime, Utc};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::collections::{HashMap, HashSet};
use vendfleet_app::ports::sales::Commit;
use vendfleet_app::ports::StoreError;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::sales::{day_number, Figures, Month, VendFact};

fn upsert_sql(table: &str, keys: &str) -> String {
    let holders = keys.split(',').count() + 8;
    let values = (1..=holders)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let updates = Figures::NAMES
        .iter()
        .map(|n| format!("{n} = {n} + excluded.{n}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "INSERT INTO {table} ({keys}, {FIGURES}) VALUES ({values}) \
         ON CONFLICT ({keys}) DO UPDATE SET {updates}"
    )
}

fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

fn payment_code(p: Payment) -> i64 {
    match p {
        Payment::Cash => 0,
        Payment::Cashless => 1,
    }
}

pub(super) fn class_code(c: VendClass) -> i64 {
    match c {
        VendClass::Sale => 0,
        VendClass::Free => 1,
        VendClass::Test => 2,
    }
}

/// The rollup deltas of a set of vends, keyed per grain.
#[derive(Default)]
struct Deltas {
    day: HashMap<(String, i64), Figures>,
    day_product: HashMap<(String, i64, String), Figures>,
    month: HashMap<(String, i64), Figures>,
    month_product: HashMap<(String, i64, String), Figures>,
    fleet_day: HashMap<i64, Figures>,
    fleet_month: HashMap<i64, Figures>,
    fleet_day_product: HashMap<(i64, String), Figures>,
    fleet_month_product: HashMap<(i64, String), Figures>,
    machines: HashSet<String>,
}

impl Deltas {
    fn of(vends: &[VendFact]) -> Deltas {
        let mut d = Deltas::default();
        for v in vends {
            let f = Figures::of(v);
            let day = day_number(v.local_date);
            let month = Month::of(v.local_date).number();
            let m = v.machine_id.clone();
            let p = v.product_id.clone();
            d.day.entry((m.clone(), day)).or_default().add(&f);
            d.day_product
                .entry((m.clone(), day, p.clone()))
                .or_default()
                .add(&f);
            d.month.entry((m.clone(), month)).or_default().add(&f);
            d.fleet_day.entry(day).or_default().add(&f);
            d.fleet_month.entry(month).or_default().add(&f);
            d.fleet_day_product
                .entry((day, p.clone()))
                .or_default()
                .add(&f);
            d.fleet_month_product
                .entry((month, p.clone()))
                .or_default()
                .add(&f);
            d.month_product
                .entry((m.clone(), month, p))
                .or_default()
                .add(&f);
            d.machines.insert(m);
        }
        d
    }
}

pub(super) fn write_commit(c: &mut Connection, commit: &Commit) -> Result<(), StoreError> {
    let tx = c
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(backend)?;
    {
        let mut receipt = tx
            .prepare_cached(
                "INSERT OR IGNORE INTO event_receipts \
                 (machine_id, event_id, kind, at, received_at, fingerprint, payload) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .map_err(backend)?;
        for (index, r) in commit.receipts.iter().enumerate() {
            let n = receipt
                .execute(params![
                    r.machine_id,
                    r.event_id,
                    r.kind,
                    millis(r.at),
                    millis(r.received_at),
                    r.fingerprint,
                    r.payload
                ])
                .map_err(backend)?;
            if n == 0 {
                return Err(StoreError::ConditionFailed { index });
            }
        }
        let mut ledger = tx
            .prepare_cached(
                "INSERT INTO sales_ledger (machine_id, day, at, event_id, location_id, selection, \
                 product_id, quantity, revenue, net, payment, class, vat_bps) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )
            .map_err(backend)?;
        for v in &commit.vends {
            ledger
                .execute(params![
                    v.machine_id,
                    day_number(v.local_date),
                    millis(v.at),
                    v.event_id,
                    v.location_id,
                    v.selection,
                    v.product_id,
                    v.quantity,
                    v.revenue_minor,
                    v.net_minor,
                    payment_code(v.payment),
                    class_code(v.class),
                    v.vat_bps,
                ])
                .map_err(backend)?;
        }
        let d = Deltas::of(&commit.vends);
        let mut day = tx
            .prepare_cached(&upsert_sql("sales_day", "machine_id, day"))
            .map_err(backend)?;
        for ((m, k), f) in &d.day {
            let a = f.to_array();
            day.execute(params![
                m, k, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
            ])
            .map_err(backend)?;
        }
        let mut month = tx
            .prepare_cached(&upsert_sql("sales_month", "machine_id, month"))
            .map_err(backend)?;
        for ((m, k), f) in &d.month {
            let a = f.to_array();
            month
                .execute(params![
                    m, k, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
                ])
                .map_err(backend)?;
        }
        for (table, key, rows) in [
            ("sales_fleet_day", "day", &d.fleet_day),
            ("sales_fleet_month", "month", &d.fleet_month),
        ] {
            let mut stmt = tx
                .prepare_cached(&upsert_sql(table, key))
                .map_err(backend)?;
            for (k, f) in rows {
                let a = f.to_array();
                stmt.execute(params![k, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]])
                    .map_err(backend)?;
            }
        }
        for (table, key, rows) in [
            ("sales_fleet_day_product", "day", &d.fleet_day_product),
            ("sales_fleet_month_product", "month", &d.fleet_month_product),
        ] {
            let mut stmt = tx
                .prepare_cached(&upsert_sql(table, &format!("{key}, product_id")))
                .map_err(backend)?;
            for ((k, p), f) in rows {
                let a = f.to_array();
                stmt.execute(params![
                    k, p, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
                ])
                .map_err(backend)?;
            }
        }
        let mut machine = tx
            .prepare_cached("INSERT OR IGNORE INTO sales_machines (machine_id) VALUES (?1)")
            .map_err(backend)?;
        for m in &d.machines {
            machine.execute(params![m]).map_err(backend)?;
        }
        for (table, key, rows) in [
            ("sales_day_products", "day", &d.day_product),
            ("sales_month_products", "month", &d.month_product),
        ] {
            let mut by_period: HashMap<(&str, i64), Vec<(&str, Figures)>> = HashMap::new();
            for ((m, k, p), f) in rows {
                by_period
                    .entry((m.as_str(), *k))
                    .or_default()
                    .push((p.as_str(), *f));
            }
            let mut read = tx
                .prepare_cached(&format!(
                    "SELECT products FROM {table} WHERE machine_id = ?1 AND {key} = ?2"
                ))
                .map_err(backend)?;
            let mut write = tx
                .prepare_cached(&format!(
                    "INSERT INTO {table} (machine_id, {key}, products) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (machine_id, {key}) DO UPDATE SET products = excluded.products"
                ))
                .map_err(backend)?;
            for ((m, k), delta) in by_period {
                let old: Vec<u8> = read
                    .query_row(params![m, k], |r| r.get(0))
                    .optional()
                    .map_err(backend)?
                    .unwrap_or_default();
                let new = packed::add(&old, &delta).map_err(|e| corrupt(table, m, k, e))?;
                write.execute(params![m, k, new]).map_err(backend)?;
            }
        }
    }
    let offset = commit.receipts.len();
    for (i, w) in commit.writes.iter().enumerate() {
        apply_write(&tx, offset + i, w)?;
    }
    tx.commit().map_err(backend)
}
