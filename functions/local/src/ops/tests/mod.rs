//! The embedded deployment run for real (issue 32): backups taken under a load of signed webhook
//! batches and report requests, restored and checked; restores refused; readiness and metrics.
//! Real parts: the whole router of `vendfleet serve` on SQLite in a temporary directory.

use super::*;
use crate::backup;
use crate::server::{self, Local};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request as HttpRequest};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::Path;
use tower::ServiceExt;

mod answers;
use vendfleet_domain::events::{sign, SIGNATURE_HEADER, TIMESTAMP_HEADER};

const EMAIL: &str = "ops@vendfleet.test";
const PASSWORD: &str = "ops-password-123";

/// A data directory with an administrator and a small seeded fleet, opened as the server does.
async fn fleet(dir: &Path) -> Local {
    server::create_admin(dir, EMAIL, PASSWORD).await.unwrap();
    let opts = crate::demo::Options {
        machines: 4,
        days: 3,
        seed: 5,
    };
    server::seed_demo(dir, Some(EMAIL), opts).await.unwrap();
    server::open(dir).unwrap()
}

fn ops_of(local: &Local, backups: Option<Schedule>, token: Option<&str>) -> Ops {
    Ops {
        db: local.embedded.database.clone(),
        backups,
        started: Utc::now(),
        metrics_token: token.map(|t| Sha256::digest(t.as_bytes()).into()),
        data_sources: Some(local.app.data_sources.clone()),
    }
}

/// One request through the router, as from 127.0.0.1: status and body.
async fn call(
    app: &Router,
    method: Method,
    path: &str,
    headers: &[(&str, String)],
    body: Vec<u8>,
) -> (StatusCode, Vec<u8>) {
    let mut req = HttpRequest::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, v);
    }
    let mut req = req.body(Body::from(body)).unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 26)
        .await
        .unwrap();
    (status, bytes.to_vec())
}

/// A temporary data directory with the small fleet, where its data directory is, the fleet
/// opened, and the server's router on it.
async fn served(
    metrics_token: Option<&str>,
) -> (tempfile::TempDir, std::path::PathBuf, Local, Router) {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let local = fleet(&data).await;
    let app = server::router(
        &local,
        &tmp.path().join("no-web"),
        ops_of(&local, None, metrics_token),
    );
    (tmp, data, local, app)
}

/// Posts `events` of machine `m` to the webhook, signed: the status, the reply and the
/// signature sent.
async fn post_batch(
    app: &Router,
    m: &crate::simulate::Live,
    events: &[vendfleet_domain::events::MachineEvent],
) -> (StatusCode, Vec<u8>, String) {
    let body = serde_json::to_vec(&json!({ "events": events })).unwrap();
    let ts = Utc::now().timestamp();
    let signature = sign(m.secret.as_bytes(), ts, &body);
    let headers = [
        (TIMESTAMP_HEADER, ts.to_string()),
        (SIGNATURE_HEADER, signature.clone()),
        ("content-type", "application/json".to_string()),
    ];
    let path = format!("/webhooks/machines/{}/events", m.id);
    let (status, reply) = call(app, Method::POST, &path, &headers, body).await;
    (status, reply, signature)
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or(Value::Null)
}

async fn token(app: &Router) -> String {
    let body = serde_json::to_vec(&json!({"email": EMAIL, "password": PASSWORD})).unwrap();
    let (status, reply) = call(
        app,
        Method::POST,
        "/auth/token/",
        &[("content-type", "application/json".into())],
        body,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&reply)
    );
    json_of(&reply)["data"]["token"]["access"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The sales overview's totals over every day the fleet can have sold on.
const TOTALS: &str = "/api/sales-journal/total-table/?date_from=2026-01-01&date_to=2027-12-31\
    &group_by=machine&grouping_period=month&value=sales";

/// Sums of the restored copy, read straight from its tables: the ledger's revenue, and each
/// rollup's revenue, quantity and transactions.
fn sums(db: &Path) -> BTreeMap<&'static str, (i64, i64, i64)> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut out = BTreeMap::new();
    for (name, sql) in [
        ("ledger", "SELECT sum(revenue), 0, 0 FROM sales_ledger"),
        ("day", "SELECT sum(rev), sum(q), sum(tx) FROM sales_day"),
        ("month", "SELECT sum(rev), sum(q), sum(tx) FROM sales_month"),
        (
            "fleet_day",
            "SELECT sum(rev), sum(q), sum(tx) FROM sales_fleet_day",
        ),
        (
            "fleet_month",
            "SELECT sum(rev), sum(q), sum(tx) FROM sales_fleet_month",
        ),
    ] {
        let row = c
            .query_row(sql, [], |r| {
                Ok((
                    r.get::<_, Option<i64>>(0)?.unwrap_or(0),
                    r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                    r.get::<_, Option<i64>>(2)?.unwrap_or(0),
                ))
            })
            .unwrap();
        out.insert(name, row);
    }
    out
}

fn receipts(db: &Path) -> BTreeSet<(String, String)> {
    let c = rusqlite::Connection::open(db).unwrap();
    let mut stmt = c
        .prepare("SELECT machine_id, event_id FROM event_receipts")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_load_restores_a_consistent_fleet_and_a_damaged_one_is_refused() {
    let (tmp, data, local, app) = served(None).await;
    let access = token(&app).await;
    let mut live = crate::simulate::machines(&local.app, 9, 1).await.unwrap();
    assert!(!live.is_empty());

    // The load: batches of signed events, machine after machine, with report requests between,
    // until told to stop; each batch's ids and whether its answer came before the backup began.
    let (began_tx, began) = tokio::sync::watch::channel(false);
    let (ended_tx, ended) = tokio::sync::watch::channel(false);
    let load_app = app.clone();
    let load_token = access.clone();
    let load = tokio::spawn(async move {
        let mut sent: Vec<(String, Vec<String>, bool, bool)> = Vec::new();
        let mut errors = Vec::new();
        let mut i = 0usize;
        let mut after_end = 0;
        while after_end < 12 || sent.len() < 40 {
            let m = i % live.len();
            i += 1;
            let started_after = *ended.borrow();
            after_end += usize::from(started_after);
            let events = crate::simulate::batch(&mut live[m].sim, 1 + i % 6, Utc::now());
            if events.is_empty() {
                continue;
            }
            let ids: Vec<String> = events.iter().map(|e| e.id.clone()).collect();
            let (status, reply, _) = post_batch(&load_app, &live[m], &events).await;
            let rejected = json_of(&reply)["data"]["rejected"]
                .as_array()
                .map_or(1, Vec::len);
            if status != StatusCode::OK || rejected > 0 {
                errors.push(format!("{status}: {}", String::from_utf8_lossy(&reply)));
            }
            let answered_before = !*began.borrow();
            sent.push((live[m].id.clone(), ids, answered_before, started_after));
            if i.is_multiple_of(5) {
                let auth = [("authorization", format!("Bearer {load_token}"))];
                let (status, reply) = call(&load_app, Method::GET, TOTALS, &auth, vec![]).await;
                if status != StatusCode::OK {
                    errors.push(format!(
                        "report {status}: {}",
                        String::from_utf8_lossy(&reply)
                    ));
                }
            }
            tokio::task::yield_now().await;
        }
        (sent, errors)
    });

    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let _ = began_tx.send(true);
    let made = backup::create(
        &data,
        &local.embedded.database,
        &tmp.path().join("backups"),
        Utc::now(),
    )
    .await
    .unwrap();
    let _ = ended_tx.send(true);
    let (sent, errors) = load.await.unwrap();
    assert!(errors.is_empty(), "the load saw errors: {errors:?}");
    assert_eq!(
        made.manifest.schema_version,
        vendfleet_adapters_embedded::MIGRATIONS.len() as i64
    );
    assert!(made.manifest.files.iter().any(|f| f.path == "secrets.json"));

    // Restore into a new directory: it is whole and consistent.
    let restored = tmp.path().join("restored");
    let r = backup::restore(&made.path, &restored, false, Utc::now()).unwrap();
    assert_eq!(r.manifest, made.manifest);
    let db = restored.join(vendfleet_adapters_embedded::DATABASE_FILE);
    let s = sums(&db);
    let ledger_revenue = s["ledger"].0;
    for (table, figures) in &s {
        assert_eq!(
            figures.0, ledger_revenue,
            "{table}'s revenue against the ledger's: {s:?}"
        );
    }
    for table in ["month", "fleet_day", "fleet_month"] {
        assert_eq!(
            s[table], s["day"],
            "{table} against the machines' days: {s:?}"
        );
    }
    // Every batch whole or absent; those answered before the backup began in it, those sent
    // after it ended not.
    let kept = receipts(&db);
    let (mut before, mut after) = (0, 0);
    for (machine, ids, answered_before, started_after_end) in &sent {
        let present = ids
            .iter()
            .filter(|id| kept.contains(&(machine.clone(), (*id).clone())))
            .count();
        assert!(
            present == 0 || present == ids.len(),
            "a batch half in the backup: {ids:?}"
        );
        if *answered_before {
            before += 1;
            assert_eq!(
                present,
                ids.len(),
                "a batch answered before the backup is missing"
            );
        }
        if *started_after_end {
            after += 1;
            assert_eq!(present, 0, "a batch sent after the backup ended is in it");
        }
    }
    assert!(
        before > 0 && after > 0,
        "batches before: {before}, after: {after}"
    );

    // The restored server answers the reports as the ledger says.
    let again = server::open(&restored).unwrap();
    let app2 = server::router(
        &again,
        &tmp.path().join("no-web"),
        ops_of(&again, None, None),
    );
    let access2 = token(&app2).await;
    let auth = [("authorization", format!("Bearer {access2}"))];
    let (status, reply) = call(&app2, Method::GET, TOTALS, &auth, vec![]).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&reply)
    );
    assert_eq!(
        json_of(&reply)["data"]["total"]["sales_minor"],
        json!(ledger_revenue),
        "{}",
        String::from_utf8_lossy(&reply)
    );

    // Into a directory that holds something: refused, and nothing in it changes.
    let err = backup::restore(&made.path, &restored, false, Utc::now()).unwrap_err();
    assert!(err.to_string().contains("is not empty"), "{err}");
    assert!(db.is_file());

    // A damaged archive: a byte of the database changed and the archive rebuilt around it
    // (so the gzip and tar layers are sound and only the checksum can tell).
    let damaged = tmp.path().join("damaged.tar.gz");
    rewrite(&made.path, &damaged, |name, bytes| {
        if name == vendfleet_adapters_embedded::DATABASE_FILE {
            let at = bytes.len() / 2;
            bytes[at] ^= 0x5a;
        }
    });
    let err = backup::restore(&damaged, &tmp.path().join("fresh"), false, Utc::now()).unwrap_err();
    assert!(err.to_string().contains("checksum differs"), "{err}");
    assert!(
        !tmp.path().join("fresh").exists(),
        "a refused restore left a directory"
    );
    // A truncated one.
    let bytes = std::fs::read(&made.path).unwrap();
    let cut = tmp.path().join("cut.tar.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let err = backup::restore(&cut, &tmp.path().join("fresh"), false, Utc::now()).unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
    // With --force over the restored directory: what it held is moved aside, not deleted.
    let r = backup::restore(&made.path, &restored, true, Utc::now()).unwrap();
    let aside = r.moved_aside.unwrap();
    assert!(aside
        .join(vendfleet_adapters_embedded::DATABASE_FILE)
        .is_file());
    assert!(db.is_file());
}

/// Copies the archive `from` to `to`, changing its files' bytes with `change` (the manifest
/// kept as it was).
fn rewrite(from: &Path, to: &Path, change: impl Fn(&str, &mut Vec<u8>)) {
    use std::io::Read;
    let file = std::fs::File::open(from).unwrap();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let out = std::fs::File::create(to).unwrap();
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
        out,
        flate2::Compression::fast(),
    ));
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        change(&name, &mut bytes);
        let mut header = entry.header().clone();
        header.set_size(bytes.len() as u64);
        header.set_cksum();
        builder
            .append_data(&mut header, &name, bytes.as_slice())
            .unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_falls_when_the_database_is_locked_or_the_queue_is_stuck() {
    let (tmp, data, local, app) = served(None).await;
    let (status, body) = call(&app, Method::GET, "/healthz", &[], vec![]).await;
    assert_eq!(
        (status, json_of(&body)["status"].clone()),
        (StatusCode::OK, json!("ok"))
    );
    let (status, body) = call(&app, Method::GET, "/readyz", &[], vec![]).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(json_of(&body)["checks"]["migrations"]["ok"], json!(true));

    // Another process holds the write lock (a hand-run sqlite3, a copy tool): not writable.
    let db = data.join(vendfleet_adapters_embedded::DATABASE_FILE);
    let holder = rusqlite::Connection::open(&db).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let (status, body) = call(&app, Method::GET, "/readyz", &[], vec![]).await;
    let v = json_of(&body);
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["status"], json!("unready"));
    assert_eq!(v["checks"]["database"]["ok"], json!(false), "{v}");
    assert_eq!(v["checks"]["jobs"]["ok"], json!(true), "{v}");
    holder.execute_batch("ROLLBACK").unwrap();
    let (status, _) = call(&app, Method::GET, "/readyz", &[], vec![]).await;
    assert_eq!(status, StatusCode::OK);

    // A job due for ten minutes that no worker took: the queue is stuck.
    let ten_minutes_ago = Utc::now().timestamp_millis() - 600_000;
    holder
        .execute(
            "INSERT INTO jobs (id, payload, attempts, visible_at, receipt, dead, created_at)
             VALUES ('stuck', '{}', 0, ?1, NULL, 0, ?1)",
            [ten_minutes_ago],
        )
        .unwrap();
    let (status, body) = call(&app, Method::GET, "/readyz", &[], vec![]).await;
    let v = json_of(&body);
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["checks"]["jobs"]["ok"], json!(false), "{v}");
    assert!(
        v["checks"]["jobs"]["overdue_seconds"].as_i64().unwrap() >= 599,
        "{v}"
    );
    assert_eq!(v["checks"]["database"]["ok"], json!(true), "{v}");

    // A backup schedule whose last backup is three periods old: stale.
    holder.execute("DELETE FROM jobs", []).unwrap();
    let dir = tmp.path().join("backups");
    std::fs::create_dir_all(&dir).unwrap();
    let old = Utc::now() - chrono::Duration::hours(3);
    std::fs::write(dir.join(backup::file_name(old)), b"").unwrap();
    let schedule = Schedule {
        dir,
        every: Duration::from_secs(3600),
        keep_daily: 7,
        keep_monthly: 12,
    };
    let mut ops = ops_of(&local, Some(schedule), None);
    ops.started = old;
    let (ready, checks) = readiness(&ops, Utc::now()).await;
    assert!(!ready, "{checks}");
    assert_eq!(checks["backup"]["ok"], json!(false));
    let (ready, checks) = readiness(&ops, old + chrono::Duration::minutes(90)).await;
    assert!(ready, "{checks}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_need_the_token_and_count_a_webhook_batch() {
    prometheus();
    let secret = "a-metrics-token-of-some-length";
    let (tmp, _, local, app) = served(Some(secret)).await;
    // Off without a token configured; refused without the right bearer.
    let off = server::router(
        &local,
        &tmp.path().join("no-web"),
        ops_of(&local, None, None),
    );
    assert_eq!(
        call(&off, Method::GET, "/metrics", &[], vec![]).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        call(&app, Method::GET, "/metrics", &[], vec![]).await.0,
        StatusCode::UNAUTHORIZED
    );
    let wrong = [("authorization", "Bearer not-the-token-at-all".to_string())];
    assert_eq!(
        call(&app, Method::GET, "/metrics", &wrong, vec![]).await.0,
        StatusCode::UNAUTHORIZED
    );
    let auth = [("authorization", format!("Bearer {secret}"))];
    let scrape = |text: &str, name: &str| -> f64 {
        text.lines()
            .filter(|l| l.starts_with(name))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    };
    let (status, before) = call(&app, Method::GET, "/metrics", &auth, vec![]).await;
    assert_eq!(status, StatusCode::OK);
    let before = String::from_utf8(before).unwrap();
    let accepted = "vendfleet_webhook_events_total{outcome=\"accepted\"}";

    let mut live = crate::simulate::machines(&local.app, 3, 2).await.unwrap();
    let mut events = Vec::new();
    while events.is_empty() {
        events = crate::simulate::batch(&mut live[0].sim, 4, Utc::now());
    }
    let n = events.len();
    assert_eq!(post_batch(&app, &live[0], &events).await.0, StatusCode::OK);
    // A data source's health is scraped too.
    let admin = local
        .app
        .users
        .directory()
        .user_by_email(EMAIL)
        .await
        .unwrap()
        .unwrap();
    let p = local.app.auth.principal(admin).await.unwrap();
    let input = vendfleet_app::data_sources::DataSourceInput {
        name: "Nayax EU".into(),
        region: "eu-west-1".into(),
        feeds: vendfleet_app::data_sources::Feeds {
            transactions: Some("https://sqs.eu-west-1.amazonaws.com/1/tx".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    local.app.data_sources.create(&p, input).await.unwrap();

    let (_, after) = call(&app, Method::GET, "/metrics", &auth, vec![]).await;
    let after = String::from_utf8(after).unwrap();
    // Other tests of this process may count batches too: at least this one's.
    assert!(
        scrape(&after, accepted) - scrape(&before, accepted) >= n as f64,
        "{after}"
    );
    let route = "route=\"/webhooks/machines/{machine_id}/events\"";
    assert!(
        after
            .lines()
            .any(|l| l.starts_with("vendfleet_http_requests_total") && l.contains(route)),
        "{after}"
    );
    for gauge in [
        "vendfleet_jobs_queued",
        "vendfleet_database_bytes",
        "vendfleet_audit_reads_held",
    ] {
        assert!(
            after.lines().any(|l| l.starts_with(gauge)),
            "{gauge} missing: {after}"
        );
    }
    assert!(scrape(&after, "vendfleet_database_bytes") > 0.0);
    let source = "vendfleet_data_source_booked_today{source=\"Nayax EU\"} 0";
    assert!(after.lines().any(|l| l == source), "{after}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_schedule_backs_up_when_due_and_keeps_what_it_should() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let local = fleet(&data).await;
    let dir = tmp.path().join("backups");
    let schedule = Schedule {
        dir: dir.clone(),
        every: Duration::from_secs(3600),
        keep_daily: 1,
        keep_monthly: 0,
    };
    let db = &local.embedded.database;
    let t0: DateTime<Utc> = "2026-03-29T00:30:00Z".parse().unwrap();
    let names = || {
        let mut v: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        v.sort();
        v
    };
    schedule.run_once(&data, db, t0).await.unwrap();
    assert_eq!(names(), [backup::file_name(t0)]);
    // Not due a minute later; due an hour later, and the earlier one of the day goes.
    schedule
        .run_once(&data, db, t0 + chrono::Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!(names().len(), 1);
    let t1 = t0 + chrono::Duration::hours(1);
    schedule.run_once(&data, db, t1).await.unwrap();
    assert_eq!(names(), [backup::file_name(t1)]);
    assert_eq!(crate::backup::last_backup(&dir), Some(t1));
}
