//! The sales engine at fleet scale, measured in memory (#28; `make bench`, ignored by `make
//! test`): a synthetic fleet of `VENDFLEET_ENGINE_MACHINES` machines (10,000) ×
//! `VENDFLEET_ENGINE_DAYS` days (365), each machine selling 8 to 11 of its 30 products a day,
//! built as a store build would build it; then the anonymous memory it holds, the cost of the
//! commits of a new day (every machine's vends, product by product, in one commit a machine),
//! and the sums of a few questions. What the store and the HTTP layer add is the random
//! bench's (`vendfleet bench --random`, 1,000 machines); this is the engine alone, at a size
//! whose store would not fit this machine's disk.

use super::ask::{By, EngineAsk, Products};
use super::columns::{Columns, Engine, Gathered, LOG_BATCH};
use super::log::SaleLog;
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use vendfleet_domain::sales::Figures;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn env(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The process's anonymous resident memory, in MiB (Linux).
fn rss_anon_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("RssAnon:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// A machine's figures of one product on one day: `units` vends at 150 minor units.
fn figures(units: i64, cash: bool) -> Figures {
    let revenue = units * 150;
    Figures {
        quantity: units,
        sales_minor: revenue,
        sales_excl_tax_minor: revenue * 100 / 110,
        cash_minor: if cash { revenue } else { 0 },
        cashless_minor: if cash { 0 } else { revenue },
        transactions: units,
        ..Figures::default()
    }
}

/// One machine's sales of one day: (product, figures), 8 to 11 of its 30 products.
fn day_of(rng: &mut Rng, machine: usize, products: usize) -> Vec<(String, Figures)> {
    let sold = 8 + rng.below(4) as usize;
    let mut picked: Vec<usize> = (0..sold)
        .map(|_| (machine * 7 + rng.below(30) as usize * 13) % products)
        .collect();
    picked.sort_unstable();
    picked.dedup();
    picked
        .into_iter()
        .map(|p| {
            let units = 1 + rng.below(6) as i64;
            (format!("P{p:04}"), figures(units, rng.below(2) == 0))
        })
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[test]
#[ignore = "a benchmark: make bench"]
fn engine_at_scale() {
    let machines = env("VENDFLEET_ENGINE_MACHINES", 10_000);
    let days = env("VENDFLEET_ENGINE_DAYS", 365);
    let products = 300;
    let first = NaiveDate::from_ymd_opt(2025, 11, 1).expect("a date");
    let last = first + chrono::Days::new(days as u64 - 1);
    let ids: Vec<String> = (0..machines).map(|m| format!("M{m:06}")).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let before = rss_anon_mib();

    // The build, as `Engine::build` gathers the store's rollups.
    let started = Instant::now();
    let mut gathered = Gathered {
        columns: Columns {
            products_ok: true,
            ..Columns::default()
        },
        ..Gathered::default()
    };
    let mut cells = 0usize;
    for day in first.iter_days().take(days) {
        for (m, id) in ids.iter().enumerate() {
            let mut total = Figures::default();
            for (product, f) in day_of(&mut rng, m, products) {
                gathered.add_product(id, day, &product, &f);
                total.add(&f);
                cells += 1;
            }
            gathered.columns.add(id, day, &total);
        }
    }
    let columns = gathered.finish();
    let built = started.elapsed();
    let engine = Engine::new();
    *engine.write_columns() = Some(columns);
    let held = rss_anon_mib() - before;
    println!(
        "\nSales engine at scale: {machines} machines x {days} days ({first} .. {last}), \
         {cells} machine-day-product cells"
    );
    println!(
        "  build {:.1} s; anonymous memory held {held:.0} MiB",
        built.as_secs_f64()
    );

    // A new day's commits: one a machine, its day's vends by product (as `Engine::commit`
    // adds a commit's delta once the store has it). The first commit of a built week and
    // month opens them (once).
    let today = last + chrono::Days::new(1);
    let mut commits = Vec::with_capacity(machines);
    for (m, id) in ids.iter().enumerate() {
        let sales = day_of(&mut rng, m, products);
        let started = Instant::now();
        let mut guard = engine.write_columns();
        let columns = guard.as_mut().expect("built");
        let mut total = Figures::default();
        for (product, f) in &sales {
            columns.add_product(id, today, product, f);
            total.add(f);
        }
        columns.add(id, today, &total);
        drop(guard);
        commits.push(started.elapsed());
    }
    let worst = *commits.iter().max().expect("commits");
    let all: Duration = commits.iter().sum();
    println!(
        "  a new day's commits, one a machine: median {:.1} us, max {:.2} ms (the first of \
         a built week and month opens them), {:.0} ms for all {machines}",
        median(commits.clone()).as_secs_f64() * 1e6,
        ms(worst),
        ms(all)
    );
    println!(
        "  anonymous memory after the day's commits: {:.0} MiB",
        rss_anon_mib() - before
    );

    // Sums of a few questions (median of 11).
    let every: Vec<Option<usize>> = (0..machines).map(Some).collect();
    let fifty: Vec<Option<usize>> = (0..50).map(|k| Some(k * (machines / 50))).collect();
    let month_of = |d: NaiveDate| (d.year() * 12 + d.month() as i32) as usize;
    let year = (first, last);
    let by_month = |d: NaiveDate| month_of(d) - month_of(first);
    let months = by_month(last) + 1;
    let by_day = |d: NaiveDate| (d - first).num_days() as usize;
    let month = (last - chrono::Days::new(29), last);
    let by_day_month = |d: NaiveDate| (d - month.0).num_days() as usize;
    let time = |f: &dyn Fn() -> usize| {
        let mut samples = Vec::new();
        let mut size = 0;
        for _ in 0..11 {
            let started = Instant::now();
            size = f();
            samples.push(started.elapsed());
        }
        (median(samples), size)
    };
    let chosen = BTreeSet::from(["P0007".to_string()]);
    let questions: [(&str, &dyn Fn() -> usize); 6] = [
        ("a year by machine and month, every machine", &|| {
            let sums = engine.sums(&EngineAsk {
                machines: &every,
                products: Products::Every,
                by: By::Machine,
                span: year,
                buckets: months,
                bucket: by_month,
            });
            sums.map_or(0, |s| s.figures.len())
        }),
        ("a year by month, every machine (total)", &|| {
            let sums = engine.sums(&EngineAsk {
                machines: &every,
                products: Products::Every,
                by: By::Total,
                span: year,
                buckets: months,
                bucket: by_month,
            });
            sums.map_or(0, |s| s.figures.len())
        }),
        ("30 days by product and day, every machine", &|| {
            let sums = engine.sums(&EngineAsk {
                machines: &every,
                products: Products::Each,
                by: By::Product,
                span: month,
                buckets: 30,
                bucket: by_day_month,
            });
            sums.map_or(0, |s| s.figures.len())
        }),
        ("30 days by product, 50 machines", &|| {
            let sums = engine.sums(&EngineAsk {
                machines: &fifty,
                products: Products::Each,
                by: By::Product,
                span: month,
                buckets: 1,
                bucket: |_: NaiveDate| 0,
            });
            sums.map_or(0, |s| s.figures.len())
        }),
        ("a year by machine, one product", &|| {
            let sums = engine.sums(&EngineAsk {
                machines: &every,
                products: Products::Chosen(&chosen),
                by: By::Machine,
                span: year,
                buckets: 1,
                bucket: |_: NaiveDate| 0,
            });
            sums.map_or(0, |s| s.figures.len())
        }),
        ("a year by day, every machine (total)", &|| {
            let sums = engine.sums(&EngineAsk {
                machines: &every,
                products: Products::Every,
                by: By::Total,
                span: year,
                buckets: days,
                bucket: by_day,
            });
            sums.map_or(0, |s| s.figures.len())
        }),
    ];
    for (name, f) in questions {
        let (t, size) = time(f);
        assert!(size > 0, "{name}: no answer");
        println!("  {name}: median {:.2} ms", ms(t));
    }
}

/// The transaction log's index (`log.rs`) at the same scale: every machine's sales of every
/// day (8 to 11 products, 1 to 6 sales each, at random instants of the day), read a batch of
/// machines at a time as `Engine::build_log` reads the store; then its memory and a page of
/// the log for every machine, for 50, and for every machine's sales of one product.
#[test]
#[ignore = "a benchmark: make bench"]
fn engine_at_scale_log() {
    let machines = env("VENDFLEET_ENGINE_MACHINES", 10_000);
    let days = env("VENDFLEET_ENGINE_DAYS", 365);
    let products = 300u64;
    let first = NaiveDate::from_ymd_opt(2025, 11, 1).expect("a date");
    let ids: Vec<String> = (0..machines).map(|m| format!("M{m:06}")).collect();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let before = rss_anon_mib();
    let started = Instant::now();
    let mut log = SaleLog::waiting_for(0..machines);
    let mut sales = 0usize;
    for batch in (0..machines).collect::<Vec<_>>().chunks(LOG_BATCH) {
        let mut read = Vec::new();
        for &m in batch {
            for day in first.iter_days().take(days) {
                let midnight = day.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
                for _ in 0..8 + rng.below(4) {
                    let product = ((m as u64 * 7 + rng.below(30) * 13) % products) as u32;
                    for _ in 0..1 + rng.below(6) {
                        let at = midnight + chrono::Duration::seconds(rng.below(86_400) as i64);
                        read.push((m, day, at, product));
                    }
                }
            }
        }
        sales += read.len();
        log.read(batch, read);
    }
    assert!(log.ready());
    let built = started.elapsed();
    println!(
        "\nThe transaction log's index at scale: {machines} machines x {days} days, {sales} sales"
    );
    println!(
        "  built in {:.1} s; {:.0} MiB of entries and vectors (anonymous memory held {:.0} MiB)",
        built.as_secs_f64(),
        log.bytes() as f64 / (1024.0 * 1024.0),
        rss_anon_mib() - before
    );
    let day = first + chrono::Days::new(days as u64 - 1);
    let id = |slot: usize| ids[slot].as_str();
    let one: Vec<bool> = (0..products).map(|p| p == 7).collect();
    type Page<'a> = (&'a str, Vec<usize>, Option<&'a [bool]>);
    let pages: [Page; 3] = [
        ("every machine", (0..machines).collect(), None),
        (
            "50 machines",
            (0..50).map(|k| k * (machines / 50)).collect(),
            None,
        ),
        (
            "every machine, one product",
            (0..machines).collect(),
            Some(&one),
        ),
    ];
    for (name, slots, chosen) in pages {
        let mut samples = Vec::new();
        for _ in 0..11 {
            let started = Instant::now();
            let page = log.page(day, slots.iter().copied(), chosen, (0, 25), id);
            samples.push(started.elapsed());
            assert!(!page.is_empty(), "{name}: an empty page");
        }
        println!(
            "  the day's first page of 25, {name}: median {:.3} ms",
            ms(median(samples))
        );
    }
}
