//! `vendfleet bench --import`: a year of a 200-machine fleet's sales (2 million rows of Nayax
//! Core's export, 10,000 a machine) uploaded in parts, previewed and booked through the jobs
//! worker as the screen does, then the same file imported again (all duplicates): time, rows a
//! second and the process's peak memory (`VmHWM`, the generated file never held whole).

use super::generator::peak_mib;
use super::measure::{bench_admin, bench_app};
use crate::error::BoxError;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Instant;
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::data_sources::history::{HistoryImport, ImportStatus, MAX_PART_BYTES};
use vendfleet_app::machines::{MachineInput, SelectionInput};
use vendfleet_app::ports::SystemClock;
use vendfleet_app::products::ProductInput;
use vendfleet_app::App;

const MACHINES: usize = 200;
const SELECTIONS: usize = 20;

async fn fleet(app: &App, p: &vendfleet_app::auth::Principal) -> Result<(), BoxError> {
    let mut products = Vec::new();
    for s in 0..SELECTIONS {
        let product = app
            .products
            .create_product(
                p,
                ProductInput {
                    name: format!("Product {s}"),
                    sku: format!("SKU-{s:03}"),
                    price_minor: Some(150),
                    currency: "EUR".into(),
                    vat_bps: Some(1000),
                    units: "unit".into(),
                    ..Default::default()
                },
            )
            .await
            .map_err(|e| e.to_string())?;
        products.push(product.id);
    }
    for m in 0..MACHINES {
        let machine = app
            .machines
            .create(
                p,
                MachineInput {
                    name: format!("Machine {m:03}"),
                    nayax_machine_id: Some(format!("{}", 700_000 + m)),
                    ..Default::default()
                },
            )
            .await
            .map_err(|e| e.to_string())?;
        for (s, product) in products.iter().enumerate() {
            app.machines
                .upsert_selection(
                    p,
                    &machine.id,
                    SelectionInput {
                        selection: format!("{}", 10 + s),
                        product_id: product.clone(),
                        max: 50,
                        price_minor: 150,
                        current: 50,
                        expiry_date: None,
                    },
                )
                .await
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Row `i` of the export: a year of sales, the machines in turn, every third a two-product
/// transaction's second line, a selection or a catalogue number, cash or card.
fn row(i: usize, out: &mut String) {
    let second = i % 3 == 2;
    let tx = if second { i - 1 } else { i };
    let machine = 700_000 + tx % MACHINES;
    let minute = (tx / MACHINES) as i64 * 525_600 / (2_000_000 / MACHINES) as i64;
    let at = chrono::NaiveDate::from_ymd_opt(2025, 1, 1)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .expect("a day")
        + chrono::Duration::minutes(minute)
        + chrono::Duration::seconds((tx % 60) as i64);
    let s = (i * 7) % SELECTIONS;
    let (catalog, code) = if i.is_multiple_of(2) {
        (format!("SKU-{s:03}"), String::new())
    } else {
        (String::new(), format!("{}", 10 + s))
    };
    let payment = if i.is_multiple_of(4) { 3 } else { 1 };
    let _ = writeln!(
        out,
        "{},{machine},{},{}.{:02}00,{payment},{catalog},{code},1",
        3_000_000_000usize + tx,
        at.format("%Y-%m-%dT%H:%M:%S"),
        1 + s % 3,
        (s * 5) % 100
    );
}

/// Uploads `rows` rows of the export in parts, as the screen does.
async fn upload(
    app: &App,
    p: &vendfleet_app::auth::Principal,
    rows: usize,
) -> Result<HistoryImport, BoxError> {
    let import = app
        .data_sources
        .create_history_import(p, "nayax-2025.csv", "nayax")
        .await
        .map_err(|e| e.to_string())?;
    let mut buf = String::from(
        "Transaction ID,Machine ID,Machine AuTime,SeValue,Payment Method ID (1),Catalog Number,Product Code in Map,Quantity\n",
    );
    let mut n = 0;
    for i in 0..rows {
        row(i, &mut buf);
        if buf.len() >= MAX_PART_BYTES || i + 1 == rows {
            let mut bytes = std::mem::take(&mut buf).into_bytes();
            let rest = bytes.split_off(bytes.len().min(MAX_PART_BYTES));
            app.data_sources
                .put_history_part(p, &import.id, n, bytes)
                .await
                .map_err(|e| e.to_string())?;
            n += 1;
            buf = String::from_utf8(rest)?;
        }
    }
    if !buf.is_empty() {
        app.data_sources
            .put_history_part(p, &import.id, n, buf.into_bytes())
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(app
        .data_sources
        .history_import(p, &import.id)
        .await
        .map_err(|e| e.to_string())?
        .0)
}

/// Runs the queued jobs; the import as they left it.
async fn settle(
    app: &App,
    p: &vendfleet_app::auth::Principal,
    id: &str,
) -> Result<(HistoryImport, f64), BoxError> {
    let t = Instant::now();
    while vendfleet_http::jobs::work_once(app)
        .await
        .map_err(|e| e.to_string())?
    {}
    let secs = t.elapsed().as_secs_f64();
    let (import, _) = app
        .data_sources
        .history_import(p, id)
        .await
        .map_err(|e| e.to_string())?;
    if import.status == ImportStatus::Failed {
        return Err(format!("import failed: {:?}", import.error).into());
    }
    Ok((import, secs))
}

/// Prints the import figures for `rows` rows.
pub async fn run(rows: usize) -> Result<(), BoxError> {
    let dir = std::env::temp_dir().join(format!("vendfleet-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = run_in(&dir, rows).await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn run_in(dir: &std::path::Path, rows: usize) -> Result<(), BoxError> {
    let embedded = Embedded::open(dir, b"bench")?;
    let app = bench_app(&embedded, Arc::new(SystemClock));
    let p = bench_admin(&app).await?;
    fleet(&app, &p).await?;
    println!("History import: {rows} rows of Nayax Core's export, {MACHINES} machines, 2025");
    for pass in ["first import", "same file again"] {
        let t = Instant::now();
        let import = upload(&app, &p, rows).await?;
        let upload_secs = t.elapsed().as_secs_f64();
        app.data_sources
            .preview_history(&p, &import.id)
            .await
            .map_err(|e| e.to_string())?;
        let (_, preview_secs) = settle(&app, &p, &import.id).await?;
        app.data_sources
            .book_history(&p, &import.id, false)
            .await
            .map_err(|e| e.to_string())?;
        let (booked, book_secs) = settle(&app, &p, &import.id).await?;
        let result = booked.result.unwrap_or_default();
        println!(
            "  {pass:<16} {:>6.1} MB in {} parts: upload {upload_secs:.1} s, preview {preview_secs:.1} s ({:.0} rows/s), booking {book_secs:.1} s ({:.0} rows/s); stored {}, already {}; peak memory {:.0} MiB",
            booked.bytes as f64 / 1e6,
            booked.parts,
            rows as f64 / preview_secs,
            rows as f64 / book_secs,
            result.stored,
            result.already,
            peak_mib().unwrap_or(0.0)
        );
    }
    Ok(())
}
