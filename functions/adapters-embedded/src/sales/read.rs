//! Reads: the ledger, a page of vends, and the machines' and the fleet's rollups.

use super::sql::{backend, corrupt, FIGURES};
use crate::packed;
use chrono::{DateTime, NaiveDate};
use rusqlite::{params, Connection};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;
use vendfleet_app::ports::sales::{FleetRollups, Grain, RollupQuery, RollupRow, SaleTime};
use vendfleet_app::ports::StoreError;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::sales::{day_from_number, day_number, Figures, Month, VendFact};

fn figures_at(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Figures> {
    let mut a = [0i64; 8];
    for (i, slot) in a.iter_mut().enumerate() {
        *slot = r.get(first + i)?;
    }
    Ok(Figures::from_array(a))
}

/// Ledger rows of the machines of a JSON array over days `from..=to`, each machine's in time
/// order.
pub(super) fn read_ledger(
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

/// Ledger rows chosen and ordered by `tail` (`WHERE … ORDER BY …`).
/// The ledger's columns of a vend, before a `WHERE` tail.
pub(super) const VENDS: &str = "SELECT machine_id, day, at, event_id, location_id, selection, \
     product_id, quantity, revenue, net, payment, class, vat_bps FROM sales_ledger ";

/// One vend by its key.
pub(super) const VEND_BY_KEY: &str =
    "WHERE machine_id = ?1 AND day = ?2 AND at = ?3 AND event_id = ?4";

pub(super) fn read_vends(
    c: &Connection,
    tail: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<VendFact>, StoreError> {
    read_vends_of(c, &format!("{VENDS}{tail}"), args)
}

/// Vends of a statement that selects the ledger's columns of [`VENDS`], in their order.
pub(super) fn read_vends_of(
    c: &Connection,
    sql: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<VendFact>, StoreError> {
    let mut stmt = c.prepare_cached(sql).map_err(backend)?;
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
                r.get::<_, Option<u32>>(12)?,
            ))
        })
        .map_err(backend)?;
    let mut out = Vec::new();
    for row in rows {
        let (m, day, at, id, loc, sel, prod, q, rev, net, pay, class, vat) =
            row.map_err(backend)?;
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
            vat_bps: vat,
        });
    }
    Ok(out)
}

/// The vends at the keys of a JSON array of `[machine, day, instant]`, key after key, each
/// key's by event id: one statement (one read transaction, not one a key), each key a seek of
/// the primary key.
pub(super) const VENDS_AT: &str = "SELECT s.machine_id, s.day, s.at, s.event_id, s.location_id, \
     s.selection, s.product_id, s.quantity, s.revenue, s.net, s.payment, s.class, s.vat_bps \
     FROM json_each(?1) AS k CROSS JOIN sales_ledger AS s \
     ON s.machine_id = k.value ->> 0 AND s.day = k.value ->> 1 AND s.at = k.value ->> 2 \
     ORDER BY k.key, s.event_id";

/// The sales (class `sale`) of the machines of a JSON array: where each stands in the log.
pub(super) fn read_sale_times(
    c: &Connection,
    machines: &str,
    sale: i64,
) -> Result<Vec<SaleTime>, StoreError> {
    let mut stmt = c
        .prepare_cached(
            "SELECT machine_id, day, at, product_id FROM sales_ledger \
             WHERE machine_id IN (SELECT value FROM json_each(?1)) AND class = ?2",
        )
        .map_err(backend)?;
    let mut rows = stmt.query(params![machines, sale]).map_err(backend)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(backend)? {
        let (day, at): (i64, i64) = (r.get(1).map_err(backend)?, r.get(2).map_err(backend)?);
        out.push(SaleTime {
            machine_id: r.get(0).map_err(backend)?,
            local_date: day_from_number(day)
                .ok_or_else(|| StoreError::Codec(format!("bad day {day}")))?,
            at: DateTime::from_timestamp_millis(at)
                .ok_or_else(|| StoreError::Codec(format!("bad instant {at}")))?,
            product_id: r.get(3).map_err(backend)?,
        });
    }
    Ok(out)
}

/// Up to `take` vends of `machines` on `day` of class `class` (and of `products`, when given),
/// after the first `skip` of them, in the log's order: the day's keys newest first from the
/// time index, which also holds each vend's class and product (a vend not chosen is passed
/// over without reading its row), each chosen vend then read by its key.
pub(super) fn page_by_time(
    c: &Connection,
    day: i64,
    machines: &FxHashSet<String>,
    (class, products): (i64, Option<&BTreeSet<String>>),
    mut skip: usize,
    take: usize,
) -> Result<Vec<VendFact>, StoreError> {
    let mut keys = c
        .prepare_cached(
            "SELECT machine_id, at, event_id, class, product_id FROM sales_ledger \
             INDEXED BY sales_ledger_log WHERE day = ?1 ORDER BY at DESC, machine_id, event_id",
        )
        .map_err(backend)?;
    let mut rows = keys.query(params![day]).map_err(backend)?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(backend)? {
        let text = |i: usize| r.get_ref(i).and_then(|v| Ok(v.as_str()?)).map_err(backend);
        if r.get::<_, i64>(3).map_err(backend)? != class || !machines.contains(text(0)?) {
            continue;
        }
        if let Some(p) = products {
            if !p.contains(text(4)?) {
                continue;
            }
        }
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let (at, event) = (r.get::<_, i64>(1).map_err(backend)?, text(2)?);
        out.extend(read_vends(
            c,
            VEND_BY_KEY,
            params![text(0)?, day, at, event],
        )?);
        if out.len() >= take {
            break;
        }
    }
    Ok(out)
}

pub(super) fn read_fleet(
    c: &Connection,
    q: &RollupQuery,
) -> Result<Option<FleetRollups>, StoreError> {
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
pub(super) fn read_rollups(
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
