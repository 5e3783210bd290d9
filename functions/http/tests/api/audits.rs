//! Sales from EVA-DTS audits: read-to-read differences counted for `audit` machines, flagged
//! reads held until someone with the machines' edit permission accepts or rejects them, audits
//! of `events` machines only reconciling, uploads by hand, and who may do what.

use crate::common::audits::{
    audit_list, booked, dex_event, machine_with, post_events, review, TestMachine,
};
use crate::common::{created, Backend, Harness, Reply};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};
use vendfleet_app::ports::Clock;

/// An audit file: selection 10 at 150 and 11 at 100 with the given since-init counters.
fn dex(reads: u64, a: (u64, u64), b: (u64, u64)) -> String {
    let body = format!(
        "ST*001*0001\r\nID1*SN-1*MODEL*0001\r\nID4*2*1978\r\nPA1*10*150\r\nPA2*{}*{}*0*0\r\n\
         PA1*11*100\r\nPA2*{}*{}*0*0\r\nEA3*{reads}*261122*1200\r\n",
        a.0, a.1, b.0, b.1
    );
    let crc = vendfleet_domain::dex::crc16_arc(body.as_bytes());
    format!("DXS*VF00000001*VA*V1/1*1\r\n{body}G85*{crc:04X}\r\nSE*9*0001\r\nDXE*1*1\r\n")
}

struct Setup {
    admin: String,
    m: TestMachine,
}

/// A machine selling from `source`, selections 10 at 1.50 and 11 at 1.00 with 40 each.
async fn setup(h: &Harness, source: &str) -> Setup {
    let admin = h.admin().await;
    let m = machine_with(h, &admin, source, &[("10", 150), ("11", 100)], 40).await;
    Setup { admin, m }
}

async fn send_dex(h: &Harness, s: &Setup, id: &str, at: DateTime<Utc>, content: &str) -> Reply {
    let r = post_events(h, &s.m, json!([dex_event(id, at, content)])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["accepted"], 1, "{}", r.json());
    r
}

async fn sold(h: &Harness, s: &Setup) -> (i64, i64) {
    let f = booked(h, &s.m.id).await;
    (f.quantity, f.sales_minor)
}

async fn stock(h: &Harness, s: &Setup) -> Vec<i64> {
    crate::common::audits::stock(h, &s.admin, &s.m.id)
        .await
        .into_values()
        .collect()
}

async fn audits(h: &Harness, s: &Setup) -> Vec<Value> {
    audit_list(h, &s.admin, &s.m.id).await
}

/// Whether the dashboard's attention list names the machine for held audit reads.
async fn held_on_dashboard(h: &Harness, s: &Setup) -> bool {
    let d = h.get("/api/dashboard/", &s.admin).await.json();
    d["data"]["attention"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["machine_id"] == s.m.id.as_str())
        .flat_map(|a| a["findings"].as_array().unwrap().clone())
        .any(|f| f["reason"] == "held_audits")
}

async fn audit_differences_count_and_flagged_reads_wait_for_review(b: Backend) {
    let h = Harness::on_store(b).await;
    let s = setup(&h, "audit").await;
    let now = h.clock.now();
    let day = |d: i64| now - Duration::days(d);
    // The machine's vend events do not count: its sales come from its audits alone.
    let vend = json!([{"id": "v1", "type": "vend", "at": day(3).to_rfc3339(),
        "selection": "10", "price_minor": 150, "quantity": 2, "payment": "cash"}]);
    let r = post_events(&h, &s.m, vend).await;
    assert_eq!(r.json()["data"]["accepted"], 1, "{}", r.json());
    assert_eq!(
        sold(&h, &s).await,
        (0, 0),
        "an audit machine's vend events are not sales"
    );
    assert_eq!(stock(&h, &s).await, vec![40, 40]);
    // Baseline, then a clean day: 12 × 150 and 3 × 100 sold.
    send_dex(&h, &s, "r1", day(3), &dex(40, (100, 15000), (20, 2000))).await;
    assert_eq!(sold(&h, &s).await, (0, 0), "the first read is the baseline");
    send_dex(&h, &s, "r2", day(2), &dex(41, (112, 16800), (23, 2300))).await;
    assert_eq!(sold(&h, &s).await, (15, 2100));
    assert_eq!(stock(&h, &s).await, vec![28, 37]);
    // Selection 10 alone was reset (its counters went back, the machine's did not): held
    // out of the figures, with what accepting would book.
    send_dex(&h, &s, "r3", day(1), &dex(42, (5, 750), (24, 2400))).await;
    assert_eq!(sold(&h, &s).await, (15, 2100), "a held read is not counted");
    let list = audits(&h, &s).await;
    let states: Vec<&str> = list.iter().map(|r| r["state"].as_str().unwrap()).collect();
    assert_eq!(states, vec!["held", "counted", "baseline"]);
    assert_eq!(
        list[0]["findings"][0]["flag"], "counter_reset",
        "{}",
        list[0]
    );
    assert_eq!(list[0]["held_for"], json!(["counter_reset"]));
    assert!(list[0]["findings"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("went back"));
    assert_eq!(list[0]["preview"]["baseline_id"], "r2");
    assert_eq!(list[0]["preview"]["vends"], 6);
    assert_eq!(list[0]["preview"]["value_minor"], 850);
    assert_eq!(list[1]["vends"], 15);
    assert_eq!(list[1]["checksum"], "ok", "{}", list[1]);
    assert_eq!(list[1]["checksum_line_ends"], "crlf", "{}", list[1]);
    assert!(list[1]["preview"].is_null());
    let preview = h
        .get(
            &format!("/api/machines/{}/audits/r3/preview/", s.m.id),
            &s.admin,
        )
        .await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.json());
    assert_eq!(preview.json()["data"], list[0]["preview"]);

    // The dashboard lists the machine for its held read until someone reviews it.
    assert!(held_on_dashboard(&h, &s).await);

    // Accepting books what the preview said, once; accepting again answers the same read.
    let path = format!("/api/machines/{}/audits/r3/accept/", s.m.id);
    let r = h.post(&path, &s.admin, json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert!(!held_on_dashboard(&h, &s).await, "reviewed, no longer held");
    assert_eq!(r.json()["data"]["state"], "accepted");
    assert_eq!(r.json()["data"]["vends"], 6);
    assert!(r.json()["data"]["reviewed_by"].is_string());
    assert_eq!(sold(&h, &s).await, (21, 2100 + 850));
    assert_eq!(stock(&h, &s).await, vec![23, 36]);
    let again = h.post(&path, &s.admin, json!({})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.json());
    assert_eq!(again.json()["data"]["state"], "accepted");
    assert_eq!(sold(&h, &s).await, (21, 2950));
    let reject = review(&h, &s.admin, &s.m.id, "r3", "reject").await;
    assert_eq!(reject.status, StatusCode::CONFLICT, "{}", reject.json());

    // A jump of a thousand vends in a day is held; rejected, it never counts.
    send_dex(
        &h,
        &s,
        "r4",
        now - Duration::hours(5),
        &dex(43, (1205, 180750), (24, 2400)),
    )
    .await;
    let list = audits(&h, &s).await;
    assert_eq!(list[0]["state"], "held");
    assert_eq!(
        list[0]["previous_id"], "r3",
        "counted from the accepted read"
    );
    assert_eq!(
        list[0]["findings"][0]["flag"], "implausible_jump",
        "{}",
        list[0]
    );
    let r = review(&h, &s.admin, &s.m.id, "r4", "reject").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(sold(&h, &s).await, (21, 2950));
    // The next read counts from the accepted r3, never from the rejected r4.
    send_dex(
        &h,
        &s,
        "r5",
        now - Duration::hours(4),
        &dex(44, (7, 1050), (25, 2500)),
    )
    .await;
    assert_eq!(sold(&h, &s).await, (24, 2950 + 400));
    // The whole machine was reset (its read counter went back): a new baseline, no sales.
    send_dex(
        &h,
        &s,
        "r6",
        now - Duration::hours(3),
        &dex(1, (2, 300), (1, 100)),
    )
    .await;
    let list = audits(&h, &s).await;
    assert_eq!(list[0]["state"], "baseline");
    assert_eq!(list[0]["findings"][0]["flag"], "meter_reset");
    assert_eq!(list[0]["findings"][0]["holds"], false);
    assert_eq!(list[0]["vends"], 0);
    assert_eq!(sold(&h, &s).await, (24, 3350));
    send_dex(
        &h,
        &s,
        "r7",
        now - Duration::hours(2),
        &dex(2, (4, 600), (1, 100)),
    )
    .await;
    assert_eq!(
        sold(&h, &s).await,
        (26, 3650),
        "counted from the new baseline"
    );
    // A late read (older than the baseline) computes nothing.
    send_dex(&h, &s, "r0", day(5), &dex(39, (90, 13500), (19, 1900))).await;
    let list = audits(&h, &s).await;
    let late = list.iter().find(|r| r["id"] == "r0").unwrap();
    assert_eq!(late["state"], "late");
    assert_eq!(sold(&h, &s).await, (26, 3650));
    let unknown = review(&h, &s.admin, &s.m.id, "nope", "accept").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

async fn events_machines_only_reconcile_and_uploads_are_taken_once(b: Backend) {
    let h = Harness::on_store(b).await;
    let s = setup(&h, "events").await;
    let now = h.clock.now();
    send_dex(
        &h,
        &s,
        "r1",
        now - Duration::days(2),
        &dex(1, (100, 15000), (0, 0)),
    )
    .await;
    send_dex(
        &h,
        &s,
        "r2",
        now - Duration::days(1),
        &dex(2, (110, 16500), (0, 0)),
    )
    .await;
    let list = audits(&h, &s).await;
    assert_eq!(list[0]["state"], "reconcile");
    assert_eq!(list[0]["vends"], 10, "the difference is shown");
    assert_eq!(
        sold(&h, &s).await,
        (0, 0),
        "but never counted: sales come from events"
    );

    // An upload by hand: taken in once, as a read of now.
    let file = dex(3, (118, 17700), (0, 0));
    let r = h
        .post(
            "/api/machines/eva-dts/read/",
            &s.admin,
            json!({"machine_id": s.m.id, "content": file}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"][0]["vends"], 8);
    let again = h
        .post(
            "/api/machines/eva-dts/read/",
            &s.admin,
            json!({"machine_id": s.m.id, "content": file}),
        )
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json()["data"], json!([]));
    let bad = h
        .post(
            "/api/machines/eva-dts/read/",
            &s.admin,
            json!({"machine_id": s.m.id, "content": "not an audit"}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.json());
    assert!(bad.json()["errors"]["content"].is_array());
    assert_eq!(audits(&h, &s).await.len(), 3);
}

async fn audit_endpoints_need_their_permissions_and_scope(b: Backend) {
    let h = Harness::on_store(b).await;
    let s = setup(&h, "audit").await;
    let now = h.clock.now();
    send_dex(
        &h,
        &s,
        "r1",
        now - Duration::days(2),
        &dex(1, (0, 0), (0, 0)),
    )
    .await;
    send_dex(
        &h,
        &s,
        "r2",
        now - Duration::days(1),
        &dex(2, (5000, 750000), (0, 0)),
    )
    .await;
    let list = format!("/api/machines/{}/audits/", s.m.id);
    let accept = format!("/api/machines/{}/audits/r2/accept/", s.m.id);
    let preview = format!("/api/machines/{}/audits/r2/preview/", s.m.id);
    let reject = format!("/api/machines/{}/audits/r2/reject/", s.m.id);
    let upload = json!({"machine_id": s.m.id, "content": dex(3, (5001, 750150), (0, 0))});

    // A viewer of machines without the EVA-DTS permission reads nothing, uploads nothing.
    let viewer = h
        .role(&s.admin, "Viewer", &["settings.machines.list"])
        .await;
    h.user(&s.admin, "viewer@example.com", Some(&viewer)).await;
    let v = h.token("viewer@example.com", "password-123").await;
    assert_eq!(h.get(&list, &v).await.status, StatusCode::FORBIDDEN);
    assert_eq!(h.get(&preview, &v).await.status, StatusCode::FORBIDDEN);
    assert_eq!(
        h.post("/api/machines/eva-dts/read/", &v, upload.clone())
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // A reader of audits may not accept them: that takes the machines' edit permission.
    let reader = h
        .role(
            &s.admin,
            "Reader",
            &["settings.machines.list", "settings.machines.read_eva_dts"],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &s.admin,
            json!({"name": "Reader", "email": "reader@example.com",
            "password": "password-123", "role_id": reader, "access_all_machines": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let r = h.token("reader@example.com", "password-123").await;
    assert_eq!(h.get(&list, &r).await.status, StatusCode::OK);
    assert_eq!(h.get(&preview, &r).await.status, StatusCode::OK);
    for path in [&accept, &reject] {
        assert_eq!(
            h.post(path, &r, json!({})).await.status,
            StatusCode::FORBIDDEN
        );
    }
    assert_eq!(sold(&h, &s).await, (0, 0));
    // An editor scoped to other machines does not find this one.
    let editor = h
        .role(
            &s.admin,
            "Editor",
            &[
                "settings.machines.list",
                "settings.machines.edit",
                "settings.machines.read_eva_dts",
            ],
        )
        .await;
    let other = created(&h, &s.admin, "/api/machines/", json!({"name": "Elsewhere"})).await;
    let r = h
        .post(
            "/api/users/",
            &s.admin,
            json!({"name": "Editor", "email": "editor@example.com",
            "password": "password-123", "role_id": editor, "machine_ids": [other["id"]]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let e = h.token("editor@example.com", "password-123").await;
    assert_eq!(h.get(&list, &e).await.status, StatusCode::NOT_FOUND);
    assert_eq!(h.get(&preview, &e).await.status, StatusCode::NOT_FOUND);
    for path in [&accept, &reject] {
        assert_eq!(
            h.post(path, &e, json!({})).await.status,
            StatusCode::NOT_FOUND
        );
    }
    assert_eq!(
        h.post("/api/machines/eva-dts/read/", &e, upload)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(sold(&h, &s).await, (0, 0));
}

/// One webhook request reads its machine once (the signature's read serves the intake), fetches
/// each product it names once, and parses its audit file once (the check's parse is the one
/// booked: the read counts as ever).
async fn a_request_reads_its_machine_and_products_once(backend: Backend) {
    let h = Harness::on_store(backend).await;
    let s = setup(&h, "audit").await;
    let store = crate::common::counting::Counting::new(h.item_store());
    let t = h.twin_with_store(store.clone());
    let now = t.clock.now();
    let baseline = post_events(
        &t,
        &s.m,
        json!([dex_event("r1", now, &dex(1, (0, 0), (0, 0)))]),
    )
    .await;
    assert_eq!(baseline.status, StatusCode::OK, "{}", baseline.json());
    let product = t
        .app
        .machines
        .selections_of(std::slice::from_ref(&s.m.id))
        .await
        .unwrap()[&s.m.id][0]
        .product_id
        .clone();
    store.reset();
    let vend = json!({"id": "v1", "type": "vend", "at": now.to_rfc3339(), "selection": "11",
                      "price_minor": 100, "quantity": 1, "payment": "cash", "product_id": product});
    let read = dex_event("r2", now, &dex(2, (3, 450), (1, 100)));
    let r = post_events(&t, &s.m, json!([vend, read])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["accepted"], 2, "{}", r.json());
    let machine = format!("MACHINE#{}", s.m.id);
    assert_eq!(
        store.reads(&machine, "MACHINE"),
        1,
        "the machine is read once"
    );
    assert_eq!(
        store.reads(&format!("PRODUCT#{product}"), "PRODUCT"),
        1,
        "a product the request names is fetched once"
    );
    let audits = audit_list(&t, &s.admin, &s.m.id).await;
    let audits = serde_json::to_string(&audits).unwrap();
    assert!(audits.contains("\"r2\""), "{audits}");
}

on_both_stores!(
    a_request_reads_its_machine_and_products_once,
    audit_differences_count_and_flagged_reads_wait_for_review,
    events_machines_only_reconcile_and_uploads_are_taken_once,
    audit_endpoints_need_their_permissions_and_scope,
);
