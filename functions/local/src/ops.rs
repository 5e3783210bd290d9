//! Running the embedded deployment (issue 32): `GET /healthz` (the process answers),
//! `GET /readyz` (the database takes writes, the schema is current, the job queue drains, the
//! last backup is recent) and Prometheus metrics at `GET /metrics`, served only when
//! `VENDFLEET_METRICS_TOKEN` is set and only to a caller bearing it.

use crate::backup::{last_backup, Schedule};
use crate::error::BoxError;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chrono::{DateTime, Utc};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use vendfleet_adapters_embedded::Database;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod upgrades;

/// A due job not taken for this long makes the server unready: the worker takes one within
/// seconds.
pub const JOBS_OVERDUE: Duration = Duration::from_secs(300);
/// How long the readiness probe waits for the database's write lock.
const WRITE_WAIT: Duration = Duration::from_secs(2);
/// The request duration histogram's buckets, in seconds.
const BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// What the operations endpoints read.
#[derive(Clone)]
pub struct Ops {
    pub db: Database,
    pub backups: Option<Schedule>,
    /// When the server started: the age of "no backup yet" counts from it.
    pub started: DateTime<Utc>,
    /// The SHA-256 of the metrics token; `None`: `/metrics` is off (404).
    pub metrics_token: Option<[u8; 32]>,
    /// The data sources, whose health `/metrics` shows.
    pub data_sources: Option<vendfleet_app::data_sources::DataSourcesService>,
}

impl Ops {
    /// The operations state of a server on `db` started at `started`, from the environment.
    pub fn from_env(db: Database, started: DateTime<Utc>) -> Result<Ops, BoxError> {
        let token = match std::env::var("VENDFLEET_METRICS_TOKEN") {
            Ok(t) if t.len() >= 16 => Some(Sha256::digest(t.as_bytes()).into()),
            Ok(t) if !t.is_empty() => {
                return Err("VENDFLEET_METRICS_TOKEN must be at least 16 characters".into())
            }
            _ => None,
        };
        Ok(Ops {
            db,
            backups: Schedule::from_env()?,
            started,
            metrics_token: token,
            data_sources: None,
        })
    }
}

/// The process-wide Prometheus recorder (installed once: tests start many servers).
pub fn prometheus() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets(BUCKETS)
                .unwrap_or_else(|_| PrometheusBuilder::new());
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            // Another recorder may be installed already (a test's): the handle still renders.
            let _ = metrics::set_global_recorder(recorder);
            handle
        })
        .clone()
}

/// `/healthz`, `/readyz` and `/metrics`.
pub fn router(ops: Ops) -> Router {
    Router::new()
        .route("/healthz", get(|| async { Json(json!({"status": "ok"})) }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics_text))
        .with_state(Arc::new(ops))
}

/// Counts every request by method, route (the matched pattern, never the raw path: ids would
/// make a series each) and status, and times it.
pub async fn track(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let method = req.method().to_string();
    let started = Instant::now();
    let res = next.run(req).await;
    let status = res.status().as_u16().to_string();
    metrics::counter!("vendfleet_http_requests_total", "method" => method.clone(), "route" => route.clone(), "status" => status)
        .increment(1);
    metrics::histogram!("vendfleet_http_request_duration_seconds", "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    res
}

fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

/// The checks of `/readyz`, each `{"ok": bool, …}`; ready when all are.
pub async fn readiness(ops: &Ops, now: DateTime<Utc>) -> (bool, Value) {
    let database = match ops.db.probe_write(WRITE_WAIT).await {
        Ok(()) => json!({"ok": true}),
        Err(e) => json!({"ok": false, "error": format!("the database takes no writes: {e}")}),
    };
    let migrations = match ops.db.schema_state().await {
        Ok(s) => json!({"ok": s.current(), "applied": s.applied, "known": s.known}),
        Err(e) => json!({"ok": false, "error": e.to_string()}),
    };
    let jobs = match ops.db.backlog(now.timestamp_millis()).await {
        Ok(b) => json!({
            "ok": b.overdue_ms <= JOBS_OVERDUE.as_millis() as i64,
            "queued": b.queued,
            "dead": b.dead,
            "overdue_seconds": b.overdue_ms / 1000,
        }),
        Err(e) => json!({"ok": false, "error": e.to_string()}),
    };
    let backup = match &ops.backups {
        None => json!({"ok": true, "scheduled": false}),
        Some(s) => {
            let last = last_backup(&s.dir);
            let since = last.unwrap_or(ops.started);
            let age = (now - since).num_seconds().max(0);
            // Stale: two periods passed without one (a failed run is retried every minute).
            let stale = age as u64 > 2 * s.every.as_secs() + 600;
            json!({
                "ok": !stale,
                "scheduled": true,
                "last": last,
                "age_seconds": last.map(|l| (now - l).num_seconds().max(0)),
                "every_seconds": s.every.as_secs(),
            })
        }
    };
    let checks = json!({
        "database": database,
        "migrations": migrations,
        "jobs": jobs,
        "backup": backup,
    });
    let ready = checks
        .as_object()
        .is_some_and(|c| c.values().all(|v| v["ok"] == json!(true)));
    (ready, checks)
}

async fn readyz(State(ops): State<Arc<Ops>>) -> Response {
    let (ready, checks) = readiness(&ops, Utc::now()).await;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = json!({"status": if ready { "ready" } else { "unready" }, "checks": checks});
    (status, Json(body)).into_response()
}

async fn metrics_text(State(ops): State<Arc<Ops>>, headers: HeaderMap) -> Response {
    let Some(expected) = ops.metrics_token else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| <[u8; 32]>::from(Sha256::digest(t.as_bytes())));
    if given != Some(expected) {
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "a bearer token is needed",
        )
            .into_response();
    }
    // The gauges are read at the scrape.
    let now = now_ms();
    if let Ok(b) = ops.db.backlog(now).await {
        metrics::gauge!("vendfleet_jobs_queued").set(b.queued as f64);
        metrics::gauge!("vendfleet_jobs_dead").set(b.dead as f64);
        metrics::gauge!("vendfleet_jobs_oldest_age_seconds").set(b.oldest_ms as f64 / 1e3);
        metrics::gauge!("vendfleet_jobs_overdue_seconds").set(b.overdue_ms as f64 / 1e3);
    }
    if let Ok(n) = ops.db.held_audit_reads().await {
        metrics::gauge!("vendfleet_audit_reads_held").set(n as f64);
    }
    metrics::gauge!("vendfleet_database_bytes").set(ops.db.size_on_disk() as f64);
    if let Some(ds) = &ops.data_sources {
        for s in ds.sources().await.unwrap_or_default() {
            let Ok(h) = ds.health(&s.id).await else {
                continue;
            };
            let age = |t: Option<DateTime<Utc>>| {
                t.map_or(-1.0, |t| (now - t.timestamp_millis()) as f64 / 1e3)
            };
            for (name, value) in [
                ("vendfleet_data_source_booked_today", h.booked_today as f64),
                ("vendfleet_data_source_kept_today", h.kept_today as f64),
                (
                    "vendfleet_data_source_ignored_today",
                    h.ignored_today as f64,
                ),
                ("vendfleet_data_source_failed_today", h.failed_today as f64),
                (
                    "vendfleet_data_source_last_message_age_seconds",
                    age(h.last_message_at),
                ),
                (
                    "vendfleet_data_source_oldest_unbooked_age_seconds",
                    age(h.oldest_unbooked),
                ),
            ] {
                metrics::gauge!(name, "source" => s.name.clone()).set(value);
            }
        }
    }
    if let Some(s) = &ops.backups {
        let age = last_backup(&s.dir).map_or(-1.0, |l| (now - l.timestamp_millis()) as f64 / 1e3);
        metrics::gauge!("vendfleet_backup_age_seconds").set(age);
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        prometheus().render(),
    )
        .into_response()
}
