//! The webhook's contract where it used to be silent: an id reused with other content is
//! rejected and shown (not a duplicate); many connections of one machine at once get 200 (or 503
//! with Retry-After, never 409), and nothing is lost or counted twice.

use crate::common::audits::{booked, machine_with, post_events, stock, TestMachine};
use crate::common::{Backend, Harness};
use axum::http::{header, StatusCode};
use chrono::Duration;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use vendfleet_app::ports::Clock;

const CONNECTIONS: usize = 16;
const BATCHES: usize = 48;
const PER_BATCH: usize = 10;

/// 48 batches of 10 vends for one machine from 16 connections at once, through `processes`
/// servers over the same stores (their turns serialise a machine's steps within each; between
/// them commits retry). Every batch is answered 200, or 503 with Retry-After and resent as the
/// contract says; every vend is counted once. Answers each status's count.
async fn connections_at_once(b: Backend, processes: usize) -> BTreeMap<u16, usize> {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = machine_with(
        &h,
        &admin,
        "events",
        &[("1", 100), ("2", 100), ("3", 100)],
        1000,
    )
    .await;
    let processes: Arc<Vec<Harness>> = Arc::new((0..processes).map(|_| h.twin()).collect());
    let started = std::time::Instant::now();
    let turns = Arc::new(tokio::sync::Semaphore::new(CONNECTIONS));
    let now = h.clock.now();
    let mut tasks = Vec::new();
    for batch in 0..BATCHES {
        let (processes, turns, m) = (processes.clone(), turns.clone(), m.clone());
        tasks.push(tokio::spawn(async move {
            let _connection = turns.acquire().await.unwrap();
            let h = &processes[batch % processes.len()];
            let events: Vec<Value> = (0..PER_BATCH)
                .map(|i| {
                    json!({"id": format!("b{batch}-{i}"), "type": "vend",
                           "at": (now - Duration::minutes((batch * PER_BATCH + i) as i64)).to_rfc3339(),
                           "selection": ((i % 3) + 1).to_string(), "price_minor": 100,
                           "quantity": 1, "payment": "cash"})
                })
                .collect();
            send_until_done(h, &m, Value::from(events)).await
        }));
    }
    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut accepted = 0;
    for t in tasks {
        let (answers, data) = t.await.unwrap();
        for s in answers {
            *statuses.entry(s).or_default() += 1;
        }
        // A resend after a 503 may find part of its batch stored (a commit in parts on
        // DynamoDB): those come back as duplicates, never twice.
        accepted += data["accepted"].as_u64().unwrap() + data["duplicates"].as_u64().unwrap();
    }
    let first_answers: usize = statuses.values().sum();
    assert!(first_answers >= BATCHES);
    assert!(
        statuses.keys().all(|s| *s == 200 || *s == 503),
        "{statuses:?}"
    );
    assert_eq!(statuses[&200], BATCHES, "{statuses:?}");
    assert_eq!(accepted as usize, BATCHES * PER_BATCH);
    let f = booked(&h, &m.id).await;
    assert_eq!(f.quantity as usize, BATCHES * PER_BATCH);
    assert_eq!(f.transactions as usize, BATCHES * PER_BATCH);
    let s = stock(&h, &admin, &m.id).await;
    assert_eq!(s.values().sum::<i64>(), 3000 - (BATCHES * PER_BATCH) as i64);
    eprintln!(
        "{b:?}: {BATCHES} batches in {:.1} s, answers {statuses:?}",
        started.elapsed().as_secs_f64()
    );
    statuses
}

/// The case: 16 connections to one server. Before: 24 of 48 batches answered 409 on
/// SQLite, 21 on DynamoDB (45 in the run). Now the machine's turn queues them: on
/// SQLite all 200 at the first answer; on DynamoDB in moto (about a second a step here) a batch
/// that waited past the budget is a 503 with Retry-After, then 200 when resent.
async fn sixteen_connections_one_machine(b: Backend) {
    let statuses = connections_at_once(b, 1).await;
    eprintln!("{b:?}, one server: {statuses:?}");
    if b == Backend::Sqlite {
        assert_eq!(statuses, BTreeMap::from([(200, BATCHES)]));
    }
}

/// Two servers over one database (turns do not span processes): commits that collide retry;
/// whatever is left after the budget is a 503 with Retry-After, and the resent batch is counted
/// once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_connections_two_servers_sqlite() {
    let statuses = connections_at_once(Backend::Sqlite, 2).await;
    eprintln!("two servers: {statuses:?}");
}

/// Sends a batch as a machine built to the contract does: on 503 it waits Retry-After (here
/// shortened) and sends the same events again. Answers every status it got and the 200's data.
async fn send_until_done(h: &Harness, m: &TestMachine, events: Value) -> (Vec<u16>, Value) {
    let mut answers = Vec::new();
    for _ in 0..20 {
        let r = post_events(h, m, events.clone()).await;
        answers.push(r.status.as_u16());
        match r.status {
            StatusCode::OK => return (answers, r.json()["data"].clone()),
            StatusCode::SERVICE_UNAVAILABLE => {
                let wait = r
                    .headers
                    .get(header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok());
                assert!(wait.is_some_and(|w| w > 0), "503 without Retry-After");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            other => panic!("{other}: {}", r.json()),
        }
    }
    panic!("the batch was never taken: {answers:?}");
}

fn vend(id: &str, at: chrono::DateTime<chrono::Utc>, price: i64, quantity: u32) -> Value {
    json!({"id": id, "type": "vend", "at": at.to_rfc3339(), "selection": "1",
           "price_minor": price, "quantity": quantity, "payment": "cash"})
}

/// The case: the same id, price 1.00 → 999.99 and quantity 1 → 50. Before: answered
/// `duplicates: 1`, nothing recorded anywhere. Now: rejected with the reason, nothing booked,
/// and listed with both payloads; the same event again is a plain duplicate.
async fn a_reused_id_is_rejected_and_listed(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = machine_with(&h, &admin, "events", &[("1", 100)], 100).await;
    let at = h.clock.now() - Duration::hours(1);
    let first = post_events(&h, &m, json!([vend("v1", at, 100, 1)])).await;
    assert_eq!(first.json()["data"]["accepted"], 1);
    let again = post_events(&h, &m, json!([vend("v1", at, 100, 1)])).await;
    assert_eq!(
        again.json()["data"],
        json!({"accepted": 0, "duplicates": 1, "rejected": []})
    );
    // The same instant written with another offset is the same event.
    let offset = at
        .with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap())
        .to_rfc3339();
    let mut shifted = vend("v1", at, 100, 1);
    shifted["at"] = json!(offset);
    let r = post_events(&h, &m, json!([shifted])).await;
    assert_eq!(r.json()["data"]["duplicates"], 1, "{}", r.json());

    let reused = post_events(
        &h,
        &m,
        json!([vend("v1", at, 99_999, 50), vend("v2", at, 100, 1)]),
    )
    .await;
    assert_eq!(reused.status, StatusCode::OK);
    let data = reused.json()["data"].clone();
    assert_eq!(
        (data["accepted"].clone(), data["duplicates"].clone()),
        (json!(1), json!(0)),
        "{data}"
    );
    assert_eq!(data["rejected"][0]["index"], 0);
    assert_eq!(data["rejected"][0]["id"], "v1");
    let why = data["rejected"][0]["errors"]["id"][0].as_str().unwrap();
    assert!(
        why.starts_with("Reused id: an event with this id was received at "),
        "{why}"
    );
    let f = booked(&h, &m.id).await;
    assert_eq!(
        (f.quantity, f.sales_minor),
        (2, 200),
        "nothing of the reused event"
    );
    assert_eq!(stock(&h, &admin, &m.id).await["1"], 98);

    // Sent again, the refused event is refused again and listed once.
    let r = post_events(&h, &m, json!([vend("v1", at, 99_999, 50)])).await;
    assert_eq!(r.json()["data"]["rejected"].as_array().unwrap().len(), 1);
    // Within one request: the first of an id stands, another content under it is refused.
    let r = post_events(
        &h,
        &m,
        json!([vend("v3", at, 100, 1), vend("v3", at, 100, 2)]),
    )
    .await;
    let data = r.json()["data"].clone();
    assert_eq!(
        (
            data["accepted"].clone(),
            data["rejected"][0]["index"].clone()
        ),
        (json!(1), json!(1)),
        "{data}"
    );

    let list = h
        .get(&format!("/api/machines/{}/intake-anomalies/", m.id), &admin)
        .await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.json());
    let list = list.json()["data"].as_array().unwrap().clone();
    let ids: Vec<&str> = list
        .iter()
        .map(|a| a["event_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{list:?}");
    assert!(ids.contains(&"v1") && ids.contains(&"v3"));
    let v1 = list.iter().find(|a| a["event_id"] == "v1").unwrap();
    assert_eq!(v1["kind"], "reused_id");
    let payload = |side: &str| -> Value {
        serde_json::from_str(v1[side]["payload"].as_str().unwrap()).unwrap()
    };
    assert_eq!(payload("first")["price_minor"], 100);
    assert_eq!(payload("first")["quantity"], 1);
    assert_eq!(payload("second")["price_minor"], 99_999);
    assert_eq!(payload("second")["quantity"], 50);
    assert_ne!(v1["first"]["fingerprint"], v1["second"]["fingerprint"]);
    assert!(v1["first"]["received_at"].is_string());

    // Who may see them: the machines' edit permission, within the machine scope.
    let viewer = h.role(&admin, "Viewer", &["settings.machines.list"]).await;
    h.user(&admin, "viewer@example.com", Some(&viewer)).await;
    let v = h.token("viewer@example.com", "password-123").await;
    let path = format!("/api/machines/{}/intake-anomalies/", m.id);
    assert_eq!(h.get(&path, &v).await.status, StatusCode::FORBIDDEN);
    let editor = h
        .role(
            &admin,
            "Editor",
            &["settings.machines.list", "settings.machines.edit"],
        )
        .await;
    let other = machine_with(&h, &admin, "events", &[("1", 100)], 1).await;
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "Editor", "email": "editor@example.com", "password": "password-123",
                   "role_id": editor, "machine_ids": [other.id]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let e = h.token("editor@example.com", "password-123").await;
    assert_eq!(h.get(&path, &e).await.status, StatusCode::NOT_FOUND);
    let own = format!("/api/machines/{}/intake-anomalies/", other.id);
    assert_eq!(h.get(&own, &e).await.status, StatusCode::OK);
}

on_both_stores!(
    sixteen_connections_one_machine,
    a_reused_id_is_rejected_and_listed
);
