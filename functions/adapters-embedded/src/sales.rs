//! The sales store on SQLite: typed tables in the same database file as the item store, so one
//! commit — receipts, ledger rows, the four machine rollups, the fleet's four, the machines
//! with vends and the item writes — is one transaction.

use crate::db::Database;
use crate::packed;
use crate::store::apply_write;
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use rustc_hash::FxHashMap;
use std::collections::{BTreeSet, HashMap, HashSet};
use vendfleet_app::ports::sales::{
    Commit, FleetRollups, Grain, RollupQuery, RollupRow, SalesStore, StoredReceipt,
};
use vendfleet_app::ports::StoreError;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::sales::{day_from_number, day_number, Figures, Month, VendFact};

/// The sales store on the embedded database.
#[derive(Debug, Clone)]
pub struct SqliteSalesStore {
    db: Database,
}

impl SqliteSalesStore {
    /// A sales store on `db` (migrations already applied by [`Database::open`]).
    pub fn new(db: Database) -> Self {
        SqliteSalesStore { db }
    }

    /// [`read_rollups`] of each query on one read connection, in one hop to the blocking pool
    /// (none for no machine or an empty range).
    async fn rollups_read(
        &self,
        queries: &[RollupQuery],
        summed: bool,
    ) -> Result<Vec<Vec<RollupRow>>, StoreError> {
        let empty = |q: &RollupQuery| q.machine_ids.is_empty() || q.from > q.to;
        if queries.iter().all(empty) {
            return Ok(vec![Vec::new(); queries.len()]);
        }
        let queries = queries.to_vec();
        self.db
            .read(move |c| {
                queries
                    .iter()
                    .map(|q| {
                        if empty(q) {
                            Ok(Vec::new())
                        } else {
                            read_rollups(c, q, summed)
                        }
                    })
                    .collect()
            })
            .await
            .map_err(backend)?
    }

    /// The one answer of [`SqliteSalesStore::rollups_read`] of one query.
    async fn rollups_read_one(
        &self,
        query: &RollupQuery,
        summed: bool,
    ) -> Result<Vec<RollupRow>, StoreError> {
        let mut answers = self
            .rollups_read(std::slice::from_ref(query), summed)
            .await?;
        Ok(answers.pop().unwrap_or_default())
    }
}

fn backend(e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(e.to_string())
}

const FIGURES: &str = "q, rev, net, cash, cashless, free, test, tx";

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

fn class_code(c: VendClass) -> i64 {
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

fn write_commit(c: &mut Connection, commit: &Commit) -> Result<(), StoreError> {
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
                 product_id, quantity, revenue, net, payment, class) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
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

fn figures_at(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Figures> {
    let mut a = [0i64; 8];
    for (i, slot) in a.iter_mut().enumerate() {
        *slot = r.get(first + i)?;
    }
    Ok(Figures::from_array(a))
}

/// Ledger rows of the machines of a JSON array over days `from..=to`, each machine's in time
/// order.
fn read_ledger(
    c: &Connection,
    machines: &str,
    from: i64,
    to: i64,
) -> Result<Vec<VendFact>, StoreError> {
    read_vends(
        c,
        "WHERE machine_id IN (SELECT value FROM json_each(?1)) AND day BETWEEN ?2 AND ?3 \
         ORDER BY machine_id, day, at, event_id",
        params![machines, from, to],
    )
}

/// Ledger rows chosen and ordered by `tail` (`[NOT INDEXED] WHERE … ORDER BY …`).
fn read_vends(
    c: &Connection,
    tail: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<VendFact>, StoreError> {
    let mut stmt = c
        .prepare_cached(&format!(
            "SELECT machine_id, day, at, event_id, location_id, selection, product_id, quantity, \
             revenue, net, payment, class FROM sales_ledger {tail}"
        ))
        .map_err(backend)?;
    let rows = stmt
        .query_map(args, |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, u32>(7)?,
                r.get::<_, i64>(8)?,
                r.get::<_, i64>(9)?,
                r.get::<_, i64>(10)?,
                r.get::<_, i64>(11)?,
            ))
        })
        .map_err(backend)?;
    let mut out = Vec::new();
    for row in rows {
        let (m, day, at, id, loc, sel, prod, q, rev, net, pay, class) = row.map_err(backend)?;
        out.push(VendFact {
            machine_id: m,
            event_id: id,
            at: DateTime::from_timestamp_millis(at)
                .ok_or_else(|| StoreError::Codec(format!("bad instant {at}")))?,
            local_date: day_from_number(day)
                .ok_or_else(|| StoreError::Codec(format!("bad day {day}")))?,
            location_id: loc,
            selection: sel,
            product_id: prod,
            quantity: q,
            revenue_minor: rev,
            net_minor: net,
            payment: if pay == 0 {
                Payment::Cash
            } else {
                Payment::Cashless
            },
            class: match class {
                0 => VendClass::Sale,
                1 => VendClass::Free,
                _ => VendClass::Test,
            },
        });
    }
    Ok(out)
}

fn read_fleet(c: &Connection, q: &RollupQuery) -> Result<Option<FleetRollups>, StoreError> {
    let days = (day_number(q.from), day_number(q.to));
    let (a, b) = q.months();
    let months = (a.number(), b.number());
    let (table, key, product, (lo, hi)) = match q.grain {
        Grain::Day => ("sales_fleet_day", "day", false, days),
        Grain::DayProduct => ("sales_fleet_day_product", "day", true, days),
        Grain::Month => ("sales_fleet_month", "month", false, months),
        Grain::MonthProduct => ("sales_fleet_month_product", "month", true, months),
    };
    let product_col = if product { "product_id" } else { "NULL" };
    let sql = format!(
        "SELECT {key}, {product_col}, {FIGURES} FROM {table} WHERE {key} BETWEEN ?1 AND ?2"
    );
    let mut stmt = c.prepare_cached(&sql).map_err(backend)?;
    let rows = stmt
        .query_map(params![lo, hi], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<String>>(1)?,
                figures_at(r, 2)?,
            ))
        })
        .map_err(backend)?;
    let mut out = FleetRollups::default();
    for row in rows {
        let (k, product_id, figures) = row.map_err(backend)?;
        out.rows.push(RollupRow {
            machine_id: String::new(),
            date: date_of(key, k)?,
            product_id,
            figures,
        });
    }
    let mut stmt = c
        .prepare_cached("SELECT machine_id FROM sales_machines")
        .map_err(backend)?;
    let machines = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(backend)?;
    for m in machines {
        out.machines.insert(m.map_err(backend)?);
    }
    Ok(Some(out))
}

/// The date of a day (yyyymmdd) or month (yyyymm: its first day) key.
fn date_of(key: &str, k: i64) -> Result<NaiveDate, StoreError> {
    if key == "day" {
        day_from_number(k)
    } else {
        Month::from_number(k).map(Month::first_day)
    }
    .ok_or_else(|| StoreError::Codec(format!("bad {key} {k}")))
}

/// Rollup rows of a query's machines, each machine's (`summed`: summed across the machines,
/// one row per date and product, `machine_id` empty).
fn read_rollups(
    c: &Connection,
    q: &RollupQuery,
    summed: bool,
) -> Result<Vec<RollupRow>, StoreError> {
    let machines = serde_json::to_string(&q.machine_ids).map_err(backend)?;
    let (table, key, product, lo, hi) = match q.grain {
        Grain::Day => (
            "sales_day",
            "day",
            false,
            day_number(q.from),
            day_number(q.to),
        ),
        Grain::DayProduct => (
            "sales_day_products",
            "day",
            true,
            day_number(q.from),
            day_number(q.to),
        ),
        Grain::Month => {
            let (a, b) = q.months();
            ("sales_month", "month", false, a.number(), b.number())
        }
        Grain::MonthProduct => {
            let (a, b) = q.months();
            (
                "sales_month_products",
                "month",
                true,
                a.number(),
                b.number(),
            )
        }
    };
    let columns = if product {
        "products".to_string()
    } else {
        FIGURES.to_string()
    };
    let sql = format!(
        "SELECT machine_id, {key}, {columns} FROM {table} \
         WHERE machine_id IN (SELECT value FROM json_each(?1)) AND {key} BETWEEN ?2 AND ?3 \
         ORDER BY machine_id, {key}"
    );
    let mut stmt = c.prepare_cached(&sql).map_err(backend)?;
    let mut rows = stmt.query(params![machines, lo, hi]).map_err(backend)?;
    // Summed here rather than by SQL: SQLite's eight sum() calls a row and its sorter cost
    // several times the reading.
    let mut sums: FxHashMap<i64, Sums> = FxHashMap::default();
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(backend)? {
        let k: i64 = r.get(1).map_err(backend)?;
        if !product {
            let figures = figures_at(r, 2).map_err(backend)?;
            if summed {
                sums.entry(k).or_default().none.add(&figures);
            } else {
                out.push(RollupRow {
                    machine_id: r.get(0).map_err(backend)?,
                    date: date_of(key, k)?,
                    product_id: None,
                    figures,
                });
            }
            continue;
        }
        let machine = match r.get_ref(0).map_err(backend)? {
            rusqlite::types::ValueRef::Text(t) => std::str::from_utf8(t).map_err(backend)?,
            _ => "",
        };
        let bytes = r.get_ref(2).map_err(backend)?.as_blob().map_err(backend)?;
        let date = date_of(key, k)?;
        for entry in packed::entries(bytes) {
            let (product_id, figures) = entry.map_err(|e| corrupt(table, machine, k, e))?;
            if summed {
                let of_key = sums.entry(k).or_default();
                match of_key.products.get_mut(product_id) {
                    Some(sum) => sum.add(&figures),
                    None => {
                        of_key.products.insert(product_id.into(), figures);
                    }
                }
            } else {
                out.push(RollupRow {
                    machine_id: machine.to_string(),
                    date,
                    product_id: Some(product_id.to_string()),
                    figures,
                });
            }
        }
    }
    for (k, of_key) in sums {
        let date = date_of(key, k)?;
        let row = |product_id: Option<String>, figures: Figures| RollupRow {
            machine_id: String::new(),
            date,
            product_id,
            figures,
        };
        if !product {
            out.push(row(None, of_key.none));
        }
        out.extend(
            of_key
                .products
                .into_iter()
                .map(|(p, f)| row(Some(p.into()), f)),
        );
    }
    Ok(out)
}

/// The sums of one day or month: of every product (`products`), or without products (`none`).
#[derive(Default)]
struct Sums {
    none: Figures,
    products: FxHashMap<Box<str>, Figures>,
}

fn corrupt(table: &str, machine: &str, key: i64, e: String) -> StoreError {
    StoreError::Codec(format!("{table} of {machine} at {key}: {e}"))
}

#[async_trait]
impl SalesStore for SqliteSalesStore {
    fn commit_limit(&self) -> usize {
        usize::MAX
    }

    fn cost(&self, commit: &Commit) -> usize {
        commit.receipts.len() + commit.vends.len() + commit.writes.len()
    }

    async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        if commit.is_empty() {
            return Ok(());
        }
        self.db
            .write(move |c| write_commit(c, &commit))
            .await
            .map_err(backend)?
    }

    async fn receipts(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashMap<String, StoredReceipt>, StoreError> {
        if event_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let machine_id = machine_id.to_string();
        let ids = event_ids.to_vec();
        self.db
            .read(move |c| {
                let mut stmt = c
                    .prepare_cached(
                        "SELECT fingerprint, payload, received_at FROM event_receipts \
                         WHERE machine_id = ?1 AND event_id = ?2",
                    )
                    .map_err(backend)?;
                let mut found = HashMap::new();
                for id in ids {
                    let row = stmt
                        .query_row(params![machine_id, id], |r| {
                            Ok((
                                r.get::<_, Option<String>>(0)?,
                                r.get::<_, Option<String>>(1)?,
                                r.get::<_, i64>(2)?,
                            ))
                        })
                        .optional()
                        .map_err(backend)?;
                    if let Some((fingerprint, payload, received_at)) = row {
                        found.insert(
                            id,
                            StoredReceipt {
                                fingerprint,
                                payload,
                                received_at: DateTime::from_timestamp_millis(received_at)
                                    .unwrap_or_default(),
                            },
                        );
                    }
                }
                Ok(found)
            })
            .await
            .map_err(backend)?
    }

    async fn ledger(
        &self,
        machine_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        self.ledger_of(&[machine_id.to_string()], from, to).await
    }

    async fn ledger_of(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        if machine_ids.is_empty() || from > to {
            return Ok(Vec::new());
        }
        let machines = serde_json::to_string(machine_ids).map_err(backend)?;
        let (from, to) = (day_number(from), day_number(to));
        self.db
            .read(move |c| read_ledger(c, &machines, from, to))
            .await
            .map_err(backend)?
    }

    /// One query: each machine's day from the primary key (faster than the day index, whose
    /// rows lie apart), the sales of the products asked, ordered and sliced by SQLite.
    async fn sales_page(
        &self,
        machine_ids: &[String],
        day: NaiveDate,
        products: Option<&BTreeSet<String>>,
        skip: usize,
        take: usize,
    ) -> Result<Vec<VendFact>, StoreError> {
        if machine_ids.is_empty() || take == 0 {
            return Ok(Vec::new());
        }
        let machines = serde_json::to_string(machine_ids).map_err(backend)?;
        let products = products
            .map(serde_json::to_string)
            .transpose()
            .map_err(backend)?;
        let day = day_number(day);
        let sale = class_code(VendClass::Sale);
        let (take, skip) = (
            i64::try_from(take).unwrap_or(i64::MAX),
            i64::try_from(skip).unwrap_or(i64::MAX),
        );
        self.db
            .read(move |c| {
                read_vends(
                    c,
                    "NOT INDEXED WHERE day = ?1 AND machine_id IN (SELECT value FROM json_each(?2)) \
                     AND class = ?3 \
                     AND (?4 IS NULL OR product_id IN (SELECT value FROM json_each(?4))) \
                     ORDER BY at DESC, machine_id, event_id LIMIT ?5 OFFSET ?6",
                    params![day, machines, sale, products, take, skip],
                )
            })
            .await
            .map_err(backend)?
    }

    async fn rollups(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        self.rollups_read_one(query, false).await
    }

    async fn rollups_summed(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        self.rollups_read_one(query, true).await
    }

    async fn rollups_many(
        &self,
        queries: &[RollupQuery],
        summed: bool,
    ) -> Result<Vec<Vec<RollupRow>>, StoreError> {
        self.rollups_read(queries, summed).await
    }

    async fn fleet_rollups(&self, query: &RollupQuery) -> Result<Option<FleetRollups>, StoreError> {
        if query.from > query.to {
            return Ok(Some(FleetRollups::default()));
        }
        let query = query.clone();
        self.db
            .read(move |c| read_fleet(c, &query))
            .await
            .map_err(backend)?
    }
}
