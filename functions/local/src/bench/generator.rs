//! `vendfleet bench --report-file`: the report generator writing a year of the whole bench
//! fleet's transaction log (CSV, then XLSX) through the worker, as a scheduled or ad-hoc report
//! would: the time, the rows, the file's size and the process's peak memory (`VmHWM`).

use super::reports::ADMIN;
use crate::error::BoxError;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use vendfleet_app::generator::{FileFormat, Graph, Module, ReportSpec, ReportStatus, Visibility};

/// The process's peak resident memory so far, MiB (Linux; `None` elsewhere).
pub(super) fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Runs the measurement on the seeded bench fleet (see `reports`).
pub async fn run() -> Result<(), BoxError> {
    let dir = PathBuf::from(
        std::env::var("VENDFLEET_BENCH_FLEET").unwrap_or("target/bench-fleet".into()),
    );
    if !dir.join("READY").is_file() {
        return Err(format!(
            "no bench fleet in {}: run `vendfleet bench --reports-only` first",
            dir.display()
        )
        .into());
    }
    let local = crate::server::open(&dir)?;
    let app = local.app.clone();
    let (first, last): (i64, i64) = local
        .embedded
        .database
        .read(|c| {
            c.query_row("SELECT min(day), max(day) FROM sales_ledger", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
        })
        .await??;
    let day = |n| vendfleet_domain::sales::day_from_number(n).ok_or("empty ledger");
    let (from, to) = (day(first)?, day(last)?);
    let (_, admin) = app
        .auth
        .login(ADMIN.0, ADMIN.1, "bench")
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "\nReport generator: the transaction log of every machine, {from} to {to} (peak memory before: {:.0} MiB)",
        peak_mib().unwrap_or(0.0)
    );
    for format in [FileFormat::Csv, FileFormat::Xlsx] {
        let spec = ReportSpec {
            module: Module::TransactionLog,
            params: BTreeMap::from([
                ("period".to_string(), "custom".to_string()),
                ("date_from".to_string(), from.to_string()),
                ("date_to".to_string(), to.to_string()),
            ]),
            format,
            graph: Graph::None,
            columns: Vec::new(),
        };
        let report = app
            .generator
            .submit(
                &admin,
                "Bench year".into(),
                Visibility::Private,
                spec,
                vendfleet_app::generator::Origin::default(),
            )
            .await
            .map_err(|e| e.to_string())?;
        let started = Instant::now();
        while vendfleet_http::jobs::work_once(&app)
            .await
            .map_err(|e| e.to_string())?
        {}
        let elapsed = started.elapsed();
        let done = app
            .generator
            .get_report(&admin, &report.id)
            .await
            .map_err(|e| e.to_string())?;
        if done.status != ReportStatus::Done {
            return Err(format!("the report ended {:?}: {:?}", done.status, done.error).into());
        }
        let size = match &done.result_key {
            Some(key) => {
                std::fs::metadata(dir.join(vendfleet_adapters_embedded::BLOBS_DIR).join(key))
                    .map(|m| m.len())
                    .unwrap_or(0)
            }
            None => 0,
        };
        println!(
            "  {:<5} {:>11} rows in {:>6.1} s ({:>7.0} rows/s), file {:>7.1} MiB, peak memory {:>6.0} MiB",
            format!("{format:?}").to_lowercase(),
            done.rows,
            elapsed.as_secs_f64(),
            done.rows as f64 / elapsed.as_secs_f64().max(1e-9),
            size as f64 / (1024.0 * 1024.0),
            peak_mib().unwrap_or(0.0)
        );
        app.generator
            .delete_report(&admin, &report.id)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}
