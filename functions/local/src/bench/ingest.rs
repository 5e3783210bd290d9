//! Ingest figures of the embedded store: machine events applied exactly once (receipt, ledger,
//! rollups, stock and status in one committed SQLite transaction), batched and one by one,
//! with the raw SQLite insert rate of the same rows beside them as the ceiling, and the
//! database's size per million vends.

use crate::error::BoxError;
use chrono::{DateTime, Duration as Span, FixedOffset, Utc};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::machines::{MachineInput, SelectionInput};
use vendfleet_app::ports::ManualClock;
use vendfleet_app::products::ProductInput;
use vendfleet_app::App;
use vendfleet_domain::events::{EventKind, MachineEvent, Payment, Vend};

/// Vends of the batched run (and of the size figure).
const BATCHED: usize = 200_000;
/// Vends of the one-by-one run.
const SINGLE: usize = 3_000;
const BATCH: usize = 500;
const SELECTIONS: usize = 20;

fn vend(i: usize, now: DateTime<Utc>) -> MachineEvent {
    // Spread over the 60 days before now, a few seconds apart.
    let at = now - Span::seconds(60 * 86_400 - (i as i64 * 17) % (60 * 86_400 - 60));
    MachineEvent {
        id: format!("e{i:09}"),
        at: at.with_timezone(&FixedOffset::east_opt(3600).expect("an offset")),
        kind: EventKind::Vend(Vend {
            selection: format!("{}", 10 + i % SELECTIONS),
            price_minor: 120 + (i % 5) as i64 * 10,
            quantity: 1 + u32::from(i.is_multiple_of(3)),
            payment: if i.is_multiple_of(2) {
                Payment::Cash
            } else {
                Payment::Cashless
            },
            product_id: None,
            free: false,
            test: false,
        }),
    }
}

async fn machine(app: &App) -> Result<String, BoxError> {
    let p = super::measure::bench_admin(app).await?;
    let product = app
        .products
        .create_product(
            &p,
            ProductInput {
                name: "Espresso".into(),
                price_minor: Some(120),
                currency: "EUR".into(),
                vat_bps: Some(1000),
                units: "cup".into(),
                ..Default::default()
            },
        )
        .await
        .map_err(|e| e.to_string())?;
    let m = app
        .machines
        .create(
            &p,
            MachineInput {
                name: "Bench".into(),
                ..Default::default()
            },
        )
        .await
        .map_err(|e| e.to_string())?;
    for s in 0..SELECTIONS {
        app.machines
            .upsert_selection(
                &p,
                &m.id,
                SelectionInput {
                    selection: format!("{}", 10 + s),
                    product_id: product.id.clone(),
                    max: 10_000,
                    price_minor: 120,
                    current: 10_000,
                    expiry_date: None,
                },
            )
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(m.id)
}

fn file_bytes(dir: &Path) -> u64 {
    ["vendfleet.db", "vendfleet.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(dir.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The raw insert rate: the same receipts and ledger rows as plain prepared INSERTs, one
/// transaction per batch, no reads, no rollups, no JSON — what SQLite itself allows here.
fn raw_ceiling(dir: &Path, events: &[MachineEvent]) -> Result<f64, BoxError> {
    let mut c = rusqlite::Connection::open(dir.join("raw.db"))?;
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "NORMAL")?;
    c.execute_batch(
        "CREATE TABLE r (m TEXT, e TEXT, k TEXT, at INTEGER, rx INTEGER, PRIMARY KEY (m, e)) WITHOUT ROWID;
         CREATE TABLE l (m TEXT, d INTEGER, at INTEGER, e TEXT, loc TEXT, s TEXT, p TEXT, q INTEGER,
                         rev INTEGER, net INTEGER, pay INTEGER, c INTEGER,
                         PRIMARY KEY (m, d, at, e)) WITHOUT ROWID;",
    )?;
    let t = Instant::now();
    for chunk in events.chunks(BATCH) {
        let tx = c.transaction()?;
        {
            let mut r = tx.prepare_cached("INSERT INTO r VALUES (?1, ?2, 'vend', ?3, ?3)")?;
            let mut l = tx.prepare_cached(
                "INSERT INTO l VALUES (?1, 20260101, ?2, ?3, NULL, ?4, 'p', 1, 120, 109, 0, 0)",
            )?;
            for e in chunk {
                let at = e.at.timestamp_millis();
                r.execute(rusqlite::params!["m", e.id, at])?;
                l.execute(rusqlite::params!["m", at, e.id, "10"])?;
            }
        }
        tx.commit()?;
    }
    Ok(events.len() as f64 / t.elapsed().as_secs_f64())
}

/// Prints the ingest figures.
pub async fn run(dir: &Path) -> Result<(), BoxError> {
    let now: DateTime<Utc> = Utc::now();
    let events: Vec<MachineEvent> = (0..BATCHED + SINGLE).map(|i| vend(i, now)).collect();
    let data = dir.join("ingest");
    let embedded = Embedded::open(&data, b"bench")?;
    let app = super::measure::bench_app(&embedded, Arc::new(ManualClock::new(now)));
    let machine = machine(&app).await?;
    let size_before = file_bytes(&data);

    let mut per_batch = Vec::new();
    let t = Instant::now();
    for chunk in events[..BATCHED].chunks(BATCH) {
        let b = Instant::now();
        let applied = app
            .events
            .apply(&machine, chunk)
            .await
            .map_err(|e| e.to_string())?;
        if applied.stored != chunk.len() {
            return Err(format!("stored {} of {}", applied.stored, chunk.len()).into());
        }
        per_batch.push(b.elapsed());
    }
    let batched = BATCHED as f64 / t.elapsed().as_secs_f64();
    let m = median(per_batch);
    println!(
        "{:<48} {:>10.0} events/s  (median batch of {BATCH}: {:.1} ms; {BATCHED} vends)",
        "ingest: batches of 500, committed",
        batched,
        m.as_secs_f64() * 1e3
    );

    let mut singles = Vec::new();
    let t = Instant::now();
    for e in &events[BATCHED..] {
        let b = Instant::now();
        app.events
            .apply(&machine, std::slice::from_ref(e))
            .await
            .map_err(|e| e.to_string())?;
        singles.push(b.elapsed());
    }
    let single = SINGLE as f64 / t.elapsed().as_secs_f64();
    println!(
        "{:<48} {:>10.0} events/s  (median {:.0} µs per event)",
        "ingest: one event per call, committed",
        single,
        median(singles).as_secs_f64() * 1e6
    );

    let again = Instant::now();
    for chunk in events[..BATCH * 20].chunks(BATCH) {
        let applied = app
            .events
            .apply(&machine, chunk)
            .await
            .map_err(|e| e.to_string())?;
        if applied.already != chunk.len() {
            return Err("a retried batch was stored again".into());
        }
    }
    println!(
        "{:<48} {:>10.0} events/s",
        "ingest: retried batches (all duplicates)",
        (BATCH * 20) as f64 / again.elapsed().as_secs_f64()
    );

    let ceiling = raw_ceiling(dir, &events[..BATCHED])?;
    println!(
        "{:<48} {:>10.0} rows/s  (ingest batched = {:.0} % of it)",
        "sqlite: raw INSERT of receipt + ledger row",
        ceiling,
        100.0 * batched / ceiling
    );

    // Size: checkpoint the WAL into the file first.
    embedded
        .database
        .write(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)"))
        .await??;
    let grown = file_bytes(&data).saturating_sub(size_before);
    let vends = (BATCHED + SINGLE) as f64;
    println!(
        "{:<48} {:>10.0} MiB per million vends  ({:.1} MiB for {} vends)",
        "sqlite: database size",
        grown as f64 / vends * 1e6 / 1048576.0,
        grown as f64 / 1048576.0,
        BATCHED + SINGLE
    );
    Ok(())
}

/// Seeding speed: the demo fleet's history (events per second, sales per second) on a fresh
/// data directory, and the database's size per million sales it ends with.
pub async fn seeding(dir: &Path) -> Result<(), BoxError> {
    let data = dir.join("seed");
    let embedded = Embedded::open(&data, b"bench")?;
    let app = super::measure::bench_app(&embedded, Arc::new(ManualClock::new(Utc::now())));
    let p = super::measure::bench_admin(&app).await?;
    let options = crate::demo::Options {
        machines: 50,
        days: 30,
        seed: 7,
    };
    let s = crate::demo::seed(&app, &p, options).await?;
    let secs = s.history_time.as_secs_f64();
    embedded
        .database
        .write(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)"))
        .await??;
    println!(
        "{:<48} {:>10.0} sales/s  ({:.0} events/s; {} machines x {} days: {} sales in {:.1} s, catalogue {:.1} s)",
        "seed-demo: history",
        s.history.sales as f64 / secs,
        s.history.events as f64 / secs,
        options.machines,
        options.days,
        s.history.sales,
        secs,
        s.catalogue_time.as_secs_f64()
    );
    println!(
        "{:<48} {:>10.0} MiB per million sales  (the whole demo database)",
        "seed-demo: database size",
        file_bytes(&data) as f64 / s.history.sales.max(1) as f64 * 1e6 / 1048576.0
    );
    Ok(())
}
