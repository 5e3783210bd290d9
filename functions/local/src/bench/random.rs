//! `vendfleet bench --random`: random report requests on the bench fleet against DuckDB (#28).
//!
//! Queries are drawn with a fixed seed from the whole parameter space of the sales reports: the
//! total table, the detail table (a page and its count), the line and bar charts, the
//! transaction log's count and the dashboard; every `group_by`, `grouping_period` and `value`;
//! period presets and arbitrary spans (partial months at both ends); 0–3 machine and product
//! filters of every kind, drawn from the fleet's real ids; the administrator and users scoped
//! to 1, 50 and 500 machines. Each is timed through the HTTP router (median of 5 after the
//! reports bench's warm-up) and answered by DuckDB in one warm in-memory process
//! (infra/bench_duckdb_random.py: the ledger pre-joined with each machine's current location,
//! client, region and tags and each product's tags, sorted by day), timed the same way and
//! compared to the cent. Any answer that differs is printed with its parameters and makes the
//! command fail.

use super::reports::{duckdb, export_ledger, Fleet, Stats};
use crate::error::BoxError;
use chrono::{Datelike, Duration as Days, NaiveDate};
use draw::{Catalogue, Drawn, Kind, Who, SCOPES};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::collections::BTreeMap;
use std::time::Duration;
use vendfleet_app::machines::Machine;
use vendfleet_app::sales::FILTER_KEYS;

/// Timed runs of each query, on either side, after the warm-up.
const REPEAT: usize = 5;

/// A period preset's span on `today`, worked out here as docs/api.md says.
fn preset(key: &str, today: NaiveDate) -> (NaiveDate, NaiveDate) {
    let month = today.with_day(1).expect("a first day");
    let last_month = month - chrono::Months::new(1);
    let year = NaiveDate::from_ymd_opt(today.year(), 1, 1).expect("Jan 1");
    let week = today - Days::days(i64::from(today.weekday().num_days_from_monday()));
    match key {
        "yesterday" => (today - Days::days(1), today - Days::days(1)),
        "current_week" => (week, today),
        "previous_week" => (week - Days::days(7), week - Days::days(1)),
        "current_month" => (month, today),
        "previous_month" => (last_month, month - Days::days(1)),
        "current_and_previous_month" => (last_month, today),
        "current_year" => (year, today),
        _ => (
            NaiveDate::from_ymd_opt(today.year() - 1, 1, 1).expect("Jan 1"),
            year - Days::days(1),
        ),
    }
}

const PRESETS: [&str; 8] = [
    "yesterday",
    "current_week",
    "previous_week",
    "current_month",
    "previous_month",
    "current_and_previous_month",
    "current_year",
    "previous_year",
];
const GROUP_BY: [&str; 6] = [
    "machine",
    "location",
    "client",
    "product",
    "product_tag",
    "machine_tag",
];
const GROUPINGS: [&str; 3] = ["day", "week", "month"];
const VALUES: [&str; 3] = ["sales", "quantity", "sales_excl_tax"];

/// Draws `n` queries with `seed`.
fn draw(
    n: usize,
    seed: u64,
    cat: &Catalogue,
    who: &[Who],
    today: NaiveDate,
    first_day: NaiveDate,
) -> Vec<Drawn> {
    let mut rng = StdRng::seed_from_u64(seed);
    let weights: u32 = Kind::DRAW.iter().map(|k| k.1).sum();
    (0..n)
        .map(|_| {
            let mut w = rng.random_range(0..weights);
            let kind = Kind::DRAW
                .iter()
                .find(|(_, k)| {
                    let hit = w < *k;
                    w = w.saturating_sub(*k);
                    hit
                })
                .map_or(Kind::TotalTable, |k| k.0);
            let who_i = rng.random_range(0..who.len());
            let seen: Vec<&Machine> = match &who[who_i].scope {
                None => cat.machines.iter().collect(),
                Some(ids) => cat
                    .machines
                    .iter()
                    .filter(|m| ids.contains(&m.id))
                    .collect(),
            };
            let mut params: Vec<(&'static str, String)> = Vec::new();
            let (from, to) = if rng.random_bool(0.3) {
                let p = *PRESETS.choose(&mut rng).expect("presets");
                params.push(("period", p.into()));
                preset(p, today)
            } else {
                // Any first day from a month before the history to today; a length of up to a
                // month, a quarter or well over a year; ends past today are cut at today.
                let span = (today - first_day).num_days() + 30;
                let from = today - Days::days(rng.random_range(0..=span));
                let len = match rng.random_range(0..4) {
                    0 => rng.random_range(1..=31),
                    1 => rng.random_range(28..=120),
                    2 => rng.random_range(90..=250),
                    _ => rng.random_range(250..=500),
                };
                let to = (from + Days::days(len - 1)).min(today);
                if rng.random_bool(0.5) {
                    params.push(("period", "custom".into()));
                }
                params.push(("date_from", from.to_string()));
                params.push(("date_to", to.to_string()));
                (from, to)
            };
            let group_by = *GROUP_BY.choose(&mut rng).expect("group_by");
            let grouping = *GROUPINGS.choose(&mut rng).expect("groupings");
            let value = *VALUES.choose(&mut rng).expect("values");
            if kind != Kind::TransactionCount {
                params.push(("group_by", group_by.into()));
                params.push(("grouping_period", grouping.into()));
                params.push(("value", value.into()));
            }
            let count = rng.random_range(0..=3);
            let mut filters = Vec::new();
            let anchor = seen.choose(&mut rng).copied();
            for &f in FILTER_KEYS.choose_multiple(&mut rng, count) {
                let ids = cat.pick(&mut rng, f, anchor, &seen);
                if !ids.is_empty() {
                    params.push((f, ids.join(",")));
                    filters.push((f, ids));
                }
            }
            let (page, page_size) = match kind {
                Kind::DetailTable => (
                    *[1, 1, 1, 2, 3].choose(&mut rng).expect("pages"),
                    *[25, 50, 100].choose(&mut rng).expect("sizes"),
                ),
                _ => (1, 25),
            };
            if kind == Kind::DetailTable || kind == Kind::TransactionCount {
                params.push(("page", page.to_string()));
                params.push(("page_size", page_size.to_string()));
            }
            let mut d = Drawn {
                kind,
                who: who_i,
                params,
                from,
                to,
                group_by,
                grouping,
                value,
                filters,
                page,
                page_size,
            };
            if kind == Kind::Dashboard {
                // The dashboard takes no parameters: this month and today, by sales.
                d.params.clear();
                d.filters.clear();
                (d.from, d.to) = preset("current_month", today);
                d.value = "sales";
            }
            d
        })
        .collect()
}

/// DuckDB's SQL for a query (infra/bench_duckdb_random.py's tables: `ledger`, `names`,
/// `scope_N`; enum types `mtag_t` and `ptag_t`).
mod sql;

mod answer;
use answer::{difference, ours, theirs};

mod draw;
mod users;
use users::users;

/// The value at `p` (0–1) of sorted values.
fn quantile<T: Copy>(sorted: &[T], p: f64) -> T {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

/// Runs `n` random queries drawn with `seed`; an error when any answer differs from DuckDB's.
pub async fn run(n: usize, seed: u64) -> Result<(), BoxError> {
    let fleet = Fleet::open().await?;
    let app = &fleet.local.app;
    let today = app.calendar.today();
    let cat = Catalogue::load(app, &fleet.admin).await?;
    let who = users(&fleet, &cat).await?;
    let first_day = fleet.end - Days::days(i64::from(super::reports::size().1));
    let queries = draw(n, seed, &cat, &who, today, first_day);
    println!(
        "\nRandom report queries: {n} drawn with seed {seed} (today {today}; users: admin and scoped to {SCOPES:?} machines)"
    );

    // For looking into any request under a profiler: the administrator's, for ten seconds.
    if let Ok(uri) = std::env::var("VENDFLEET_BENCH_URI") {
        let started = std::time::Instant::now();
        let mut times = Vec::new();
        while started.elapsed() < Duration::from_secs(10) {
            times.extend(fleet.admin_api.samples(&uri, REPEAT).await?.0);
        }
        let stats = Stats::of(times);
        println!("{uri} as admin: median {:.2} ms", Stats::ms(stats.median));
        return Ok(());
    }

    // For looking into one query under a profiler: only it, for ten seconds.
    if let Some(i) = std::env::var("VENDFLEET_BENCH_ONLY")
        .ok()
        .and_then(|i| i.parse::<usize>().ok())
    {
        let q = queries
            .get(i)
            .ok_or("VENDFLEET_BENCH_ONLY: no such query")?;
        let started = std::time::Instant::now();
        let mut times = Vec::new();
        while started.elapsed() < Duration::from_secs(10) {
            times.extend(who[q.who].api.samples(&q.uri(), REPEAT).await?.0);
        }
        let stats = Stats::of(times);
        println!(
            "#{i} {}: median {:.2} ms",
            q.describe(&who),
            Stats::ms(stats.median)
        );
        return Ok(());
    }

    // Ours: through the router, each after the warm-up, REPEAT timed.
    let mut answers = Vec::with_capacity(n);
    let mut samples: Vec<Vec<Duration>> = Vec::with_capacity(n);
    for (i, q) in queries.iter().enumerate() {
        let (s, v) = who[q.who]
            .api
            .samples(&q.uri(), REPEAT)
            .await
            .map_err(|e| format!("query {i} ({}): {e}", q.describe(&who)))?;
        answers.push(ours(q, &v));
        samples.push(s);
        if (i + 1) % 50 == 0 {
            println!("  ours: {} of {n} timed", i + 1);
        }
    }

    // DuckDB: all the queries in one warm process.
    export_ledger(&fleet.dir, &fleet.local.embedded).await?;
    let all_products = app
        .products
        .products()
        .all()
        .await
        .map_err(|e| e.to_string())?;
    let scopes: BTreeMap<String, Vec<String>> = who
        .iter()
        .filter_map(|w| Some((w.label.clone(), w.scope.clone()?)))
        .collect();
    let statements: Vec<Vec<String>> = queries
        .iter()
        .map(|q| sql::of(q, &who[q.who], today))
        .collect();
    let request = json!({"repeat": REPEAT, "dims": cat.dims(&all_products), "scopes": scopes, "queries": statements});
    println!("  DuckDB: loading the ledger and answering {n} queries …");
    let duck = duckdb("infra/bench_duckdb_random.py", &fleet.dir, request)?;
    println!(
        "  DuckDB's table: {} rows, built in {:.1} s",
        duck["rows"],
        duck["setup_s"].as_f64().unwrap_or(f64::NAN)
    );

    // Compare and summarise.
    let mut ratios: Vec<(f64, usize)> = Vec::new();
    let mut by_kind: BTreeMap<Kind, Vec<Duration>> = BTreeMap::new();
    let mut differ = Vec::new();
    // How many keys were compared, and the answers with no figure other than zero.
    let mut compared = 0;
    let mut zero = 0;
    for (i, q) in queries.iter().enumerate() {
        compared += answers[i].len();
        zero += usize::from(answers[i].values().flatten().all(|x| *x == 0));
        let d = &duck["answers"][i];
        let ours_median = Stats::of(samples[i].clone()).median;
        by_kind.entry(q.kind).or_default().extend(&samples[i]);
        let theirs_ms = d["median_ms"].as_f64().unwrap_or(f64::NAN);
        ratios.push((theirs_ms / Stats::ms(ours_median), i));
        if std::env::var("VENDFLEET_BENCH_SHOW").ok() == Some(i.to_string()) {
            // For looking into one query: both answers, its URI and DuckDB's SQL.
            println!("#{i} {}\n  ours   {:?}", q.uri(), answers[i]);
            println!(
                "  DuckDB {:?}\n  SQL {:?}",
                theirs(q, &d["rows"], today),
                statements[i]
            );
        }
        if let Some(e) = d["error"].as_str() {
            differ.push(format!("#{i} {}: DuckDB failed: {e}", q.describe(&who)));
        } else if let Some(diff) = difference(&answers[i], &theirs(q, &d["rows"], today)) {
            differ.push(format!("#{i} {}: {diff}", q.describe(&who)));
        }
    }
    ratios.sort_by(|a, b| a.0.total_cmp(&b.0));
    let only: Vec<f64> = ratios.iter().map(|r| r.0).collect();
    println!(
        "\nDuckDB median / ours, over {n} queries: min {:.1}x  median {:.1}x  p95 {:.1}x  (targets: min >= 10x, median >= 30x)",
        only[0],
        quantile(&only, 0.5),
        quantile(&only, 0.95)
    );
    println!("\nours by request type (every timed request):");
    for (kind, mut s) in by_kind {
        s.sort();
        println!(
            "  {:<24} {:>3} queries  median {:>8.2} ms  p95 {:>8.2} ms  max {:>8.2} ms{}",
            kind.name(),
            s.len() / REPEAT,
            Stats::ms(quantile(&s, 0.5)),
            Stats::ms(quantile(&s, 0.95)),
            Stats::ms(s[s.len() - 1]),
            if quantile(&s, 0.95) >= Duration::from_millis(50) {
                "  (over 50 ms)"
            } else {
                ""
            }
        );
    }
    let show = |title: &str, order: &[usize]| {
        println!("\n{title}:");
        for &i in order {
            let ours_ms = Stats::ms(Stats::of(samples[i].clone()).median);
            let theirs_ms = duck["answers"][i]["median_ms"].as_f64().unwrap_or(f64::NAN);
            println!(
                "  #{i:<3} ours {ours_ms:>8.2} ms  DuckDB {theirs_ms:>8.2} ms  {:>6.1}x  {}",
                theirs_ms / ours_ms,
                queries[i].describe(&who)
            );
        }
    };
    // Every query under the minimum target, and at least the lowest five.
    let under = ratios
        .iter()
        .take_while(|r| r.0 < 10.0)
        .count()
        .max(5.min(n));
    let lowest: Vec<usize> = ratios.iter().take(under).map(|r| r.1).collect();
    show(
        "lowest ratios (every one under 10x, at least five)",
        &lowest,
    );
    let mut slowest: Vec<usize> = (0..n).collect();
    slowest.sort_by_key(|&i| std::cmp::Reverse(Stats::of(samples[i].clone()).median));
    show("slowest five (ours, median)", &slowest[..5.min(n)]);
    println!(
        "\ncompared: {n} answers, {compared} keys (totals, rows, cells, points, bars, counts); {zero} answers all zero"
    );
    if differ.is_empty() {
        println!("\nevery answer equal to DuckDB's to the cent");
        Ok(())
    } else {
        println!("\n{} answers differ from DuckDB's:", differ.len());
        for d in &differ {
            println!("  {d}");
        }
        Err(format!("{} of {n} answers differ from DuckDB's", differ.len()).into())
    }
}
