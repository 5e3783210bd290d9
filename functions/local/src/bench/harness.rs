//! What the reports benchmarks share: signed-in requests through the router, their timings, and
//! the ledger handed to DuckDB.

use crate::error::BoxError;
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};
use tower::ServiceExt;
use vendfleet_http::ClientAddr;

/// Requests timed per figure, after a warm-up.
pub(super) const REPEAT: usize = 30;
/// How long a figure's request is repeated untimed before timing it: the caches of the CPU,
/// the allocator and SQLite, and the blocking pool's threads, warm as on a server in use.
pub(super) const WARM_UP: Duration = Duration::from_millis(500);

/// Signed-in GETs through the router.
pub(super) struct Api {
    pub(super) router: axum::Router,
    pub(super) token: String,
}

impl Api {
    pub(super) async fn get(&self, uri: &str) -> Result<Value, BoxError> {
        Ok(serde_json::from_slice(&self.get_body(uri).await?)?)
    }

    /// The body of a signed-in GET answered 200.
    pub(super) async fn get_body(&self, uri: &str) -> Result<axum::body::Bytes, BoxError> {
        let mut req = Request::builder()
            .uri(uri)
            .header(header::AUTHORIZATION, format!("Bearer {}", self.token))
            .body(Body::empty())?;
        req.extensions_mut().insert(ClientAddr("bench".into()));
        let res = self.router.clone().oneshot(req).await?;
        let status = res.status();
        let bytes = axum::body::to_bytes(res.into_body(), usize::MAX).await?;
        if status != StatusCode::OK {
            return Err(format!("{uri}: {status} {}", String::from_utf8_lossy(&bytes)).into());
        }
        Ok(bytes)
    }

    /// Times `REPEAT` requests after a warm-up: (median, p95) and the last answer.
    pub(super) async fn time(&self, uri: &str) -> Result<(Stats, Value), BoxError> {
        let (samples, last) = self.samples(uri, REPEAT).await?;
        Ok((Stats::of(samples), last))
    }

    /// Times `repeat` requests after a warm-up (untimed requests for `WARM_UP`, at least two),
    /// each from sending it to the last byte of its answer (the answer is parsed after,
    /// untimed): the times and the last answer.
    pub(super) async fn samples(
        &self,
        uri: &str,
        repeat: usize,
    ) -> Result<(Vec<Duration>, Value), BoxError> {
        self.get(uri).await?;
        let mut last = self.get_body(uri).await?;
        let warm = Instant::now();
        while warm.elapsed() < WARM_UP {
            last = self.get_body(uri).await?;
        }
        let mut samples = Vec::with_capacity(repeat);
        for _ in 0..repeat {
            let t = Instant::now();
            last = self.get_body(uri).await?;
            samples.push(t.elapsed());
        }
        Ok((samples, serde_json::from_slice(&last)?))
    }
}

/// Median and p95 of samples.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stats {
    pub(super) median: Duration,
    pub(super) p95: Duration,
}

impl Stats {
    pub(super) fn of(mut v: Vec<Duration>) -> Stats {
        v.sort();
        let p95 = v[(v.len() * 95).div_ceil(100).saturating_sub(1)];
        Stats {
            median: v[v.len() / 2],
            p95,
        }
    }

    pub(super) fn ms(d: Duration) -> f64 {
        d.as_secs_f64() * 1e3
    }
}

pub(super) fn show(name: &str, s: Stats) {
    println!(
        "{name:<64} median {:>8.2} ms  p95 {:>8.2} ms",
        Stats::ms(s.median),
        Stats::ms(s.p95)
    );
}

/// The ledger's file name for DuckDB (`.csv` as exported, `.parquet` once DuckDB read it); v2
/// has the net revenue and the payment beside what the first had.
const LEDGER: &str = "ledger-v2";

/// Exports the ledger as CSV for DuckDB, once: skipped when its Parquet (or CSV) exists.
pub(super) async fn export_ledger(
    dir: &Path,
    embedded: &vendfleet_adapters_embedded::Embedded,
) -> Result<(), BoxError> {
    let csv = dir.join(format!("{LEDGER}.csv"));
    if dir.join(format!("{LEDGER}.parquet")).exists() || csv.exists() {
        return Ok(());
    }
    // The first version's Parquet, if any, is not read again.
    let _ = std::fs::remove_file(dir.join("ledger.parquet"));
    println!("exporting the ledger for DuckDB (once) …");
    let tmp = csv.with_extension("csv.tmp");
    let path = tmp.clone();
    embedded
        .database
        .read(move |c| -> Result<(), BoxError> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
            writeln!(
                out,
                "machine_id,day,product_id,quantity,revenue,net,payment,class"
            )?;
            let mut stmt = c.prepare(
                "SELECT machine_id, day, product_id, quantity, revenue, net, payment, class \
                 FROM sales_ledger",
            )?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                writeln!(
                    out,
                    "{},{},{},{},{},{},{},{}",
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, i64>(7)?
                )?;
            }
            out.flush()?;
            Ok(())
        })
        .await??;
    std::fs::rename(tmp, csv)?;
    Ok(())
}

/// DuckDB's answers to `request` from `script` (run by the Python of `.venv-bench`, the ledger
/// of `dir` and the warm-up added to the request), or why there are none. The CSV export is
/// removed once the script made its Parquet.
pub(super) fn duckdb(script: &str, dir: &Path, mut request: Value) -> Result<Value, String> {
    let python = std::env::var("VENDFLEET_BENCH_PYTHON").unwrap_or(".venv-bench/bin/python".into());
    let csv = dir.join(format!("{LEDGER}.csv"));
    request["csv"] = json!(csv);
    request["parquet"] = json!(dir.join(format!("{LEDGER}.parquet")));
    request["warm_up_ms"] = json!(WARM_UP.as_millis() as u64);
    let mut child = std::process::Command::new(&python)
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{python}: {e} (make bench installs it)"))?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(request.to_string().as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("{script} failed: {}", out.status));
    }
    let _ = std::fs::remove_file(csv);
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}
