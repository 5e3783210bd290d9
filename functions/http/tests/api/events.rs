//! The machines' webhook, from outside: signature, window, size and machine rules; each event
//! stored or rejected on its own; exactly-once under retries; the effects on stock, refill log,
//! encashments, status and the sales store; late events on their location's local day.

use crate::common::{created, Backend, Harness, Reply};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde_json::{json, Value};
use vendfleet_app::ports::{Grain, RollupQuery};
use vendfleet_domain::events::{sign, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use vendfleet_domain::sales::Figures;

/// A machine with two selections (A1 espresso at 150, A2 water at 100) and its secret.
struct Fleet {
    admin: String,
    machine: String,
    secret: String,
    espresso: String,
    water: String,
}

async fn fleet(h: &Harness, zone: &str) -> Fleet {
    let admin = h.admin().await;
    let espresso = created(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Espresso", "sku": "ESP", "price_minor": 150, "vat_bps": 1000, "units": "cl"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let water = created(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "sku": "WAT", "price_minor": 100, "vat_bps": 550, "units": "cl"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let loc = created(
        h,
        &admin,
        "/api/locations/",
        json!({"name": "Station", "time_zone": zone}),
    )
    .await;
    let m = created(
        h,
        &admin,
        "/api/machines/",
        json!({"name": "Lobby", "location_id": loc["id"]}),
    )
    .await;
    let machine = m["id"].as_str().unwrap().to_string();
    for (code, product, price) in [("A1", &espresso, 150), ("A2", &water, 100)] {
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                json!({"machine_id": machine, "selection": code, "product_id": product,
                       "max": 20, "price_minor": price, "current": 10}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    }
    let secret = h
        .app
        .machines
        .machines()
        .get(&machine)
        .await
        .unwrap()
        .unwrap()
        .webhook_secret;
    Fleet {
        admin,
        machine,
        secret,
        espresso,
        water,
    }
}

/// Posts `body` to the machine's webhook, signed with `secret` at `ts`.
async fn post_raw(h: &Harness, machine: &str, secret: &str, ts: i64, body: &[u8]) -> Reply {
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("/webhooks/machines/{machine}/events"))
        .header("content-type", "application/json")
        .header(TIMESTAMP_HEADER, ts.to_string())
        .header(SIGNATURE_HEADER, sign(secret.as_bytes(), ts, body))
        .body(Body::from(body.to_vec()))
        .unwrap();
    h.send(req).await
}

async fn post(h: &Harness, f: &Fleet, events: Value) -> Reply {
    let body = json!({ "events": events }).to_string();
    post_raw(
        h,
        &f.machine,
        &f.secret,
        now(h).timestamp(),
        body.as_bytes(),
    )
    .await
}

fn now(h: &Harness) -> DateTime<Utc> {
    vendfleet_app::ports::Clock::now(h.clock.as_ref())
}

fn at(h: &Harness, minutes_ago: i64) -> String {
    (now(h) - Duration::minutes(minutes_ago)).to_rfc3339()
}

fn vend(id: &str, at: &str, selection: &str, price: i64, qty: u32, payment: &str) -> Value {
    json!({"id": id, "type": "vend", "at": at, "selection": selection,
           "price_minor": price, "quantity": qty, "payment": payment})
}

async fn stock(h: &Harness, f: &Fleet) -> Vec<(String, i64, Value)> {
    let r = h
        .get(&format!("/api/machines/{}/products/", f.machine), &f.admin)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["selection"].as_str().unwrap().to_string(),
                s["current"].as_i64().unwrap(),
                s["last_purchase"].clone(),
            )
        })
        .collect()
}

/// Every figure of the machine a test can compare: stock, rollups at each grain, ledger.
async fn figures(h: &Harness, f: &Fleet) -> Value {
    let sales = h.app.sales.store();
    // The tests' events are at most days old (each ledger day is one query on DynamoDB).
    let today = h.app.calendar.today();
    let (from, to): (NaiveDate, NaiveDate) =
        (today - Duration::days(10), today + Duration::days(2));
    let mut rollups = Vec::new();
    for grain in [
        Grain::Day,
        Grain::DayProduct,
        Grain::Month,
        Grain::MonthProduct,
    ] {
        let rows = sales
            .rollups(&RollupQuery {
                machine_ids: vec![f.machine.clone()],
                from,
                to,
                grain,
            })
            .await
            .unwrap();
        let mut v: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
        v.sort();
        rollups.push(v);
    }
    let ledger = sales.ledger(&f.machine, from, to).await.unwrap();
    let stock = stock(h, f).await;
    json!({
        "rollups": format!("{rollups:?}"),
        "ledger": ledger.len(),
        "stock": format!("{stock:?}"),
    })
}

async fn signature_window_size_and_machine_rules(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h, "Europe/Paris").await;
    let body = json!({"events": [vend("e1", &at(&h, 1), "A1", 150, 1, "cash")]}).to_string();
    let ts = now(&h).timestamp();
    let before = figures(&h, &f).await;

    // Wrong secret, stale or future timestamp, missing headers, unknown machine.
    let cases: Vec<(&str, Reply)> = vec![
        (
            "wrong secret",
            post_raw(&h, &f.machine, "not-the-secret", ts, body.as_bytes()).await,
        ),
        (
            "301 s old",
            post_raw(&h, &f.machine, &f.secret, ts - 301, body.as_bytes()).await,
        ),
        (
            "301 s ahead",
            post_raw(&h, &f.machine, &f.secret, ts + 301, body.as_bytes()).await,
        ),
        (
            "unknown machine",
            post_raw(&h, "01JUNKNOWNMACHINE", &f.secret, ts, body.as_bytes()).await,
        ),
        (
            "a machine id no key can hold",
            post_raw(&h, &"m".repeat(3000), &f.secret, ts, body.as_bytes()).await,
        ),
        (
            "unsigned",
            h.send(
                Request::builder()
                    .method(Method::POST)
                    .uri(format!("/webhooks/machines/{}/events", f.machine))
                    .body(Body::from(body.clone()))
                    .unwrap(),
            )
            .await,
        ),
    ];
    for (what, r) in cases {
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{what}: {}", r.json());
        assert!(
            r.json()["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}"
        );
    }
    // The same absurd id in the API finds nothing (on DynamoDB too, whose keys are bounded).
    let r = h
        .get(
            &format!("/api/machines/{}/details/", "m".repeat(3000)),
            &f.admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // A body signed for one machine does not pass for another.
    let other = created(&h, &f.admin, "/api/machines/", json!({"name": "Other"})).await;
    let r = post_raw(
        &h,
        other["id"].as_str().unwrap(),
        &f.secret,
        ts,
        body.as_bytes(),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // Within 300 s either way it passes.
    let r = post_raw(&h, &f.machine, &f.secret, ts - 299, body.as_bytes()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["accepted"], 1);
    let after_one = figures(&h, &f).await;
    assert_ne!(before, after_one);

    // An inactive machine is refused.
    let m = h
        .get(&format!("/api/machines/{}/details/", f.machine), &f.admin)
        .await
        .json()["data"]
        .clone();
    let edit = json!({"name": m["name"], "location_id": m["location_id"], "inactive": true});
    let r = h
        .put(
            &format!("/api/machines/{}/settings/", f.machine),
            &f.admin,
            edit,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let body2 = json!({"events": [vend("e2", &at(&h, 1), "A1", 150, 1, "cash")]}).to_string();
    let r = post_raw(&h, &f.machine, &f.secret, ts, body2.as_bytes()).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let edit = json!({"name": m["name"], "location_id": m["location_id"], "inactive": false});
    let r = h
        .put(
            &format!("/api/machines/{}/settings/", f.machine),
            &f.admin,
            edit,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());

    // Over 1 MiB: 413; not JSON, no events, empty, too many: 400. Nothing stored by any.
    let big = format!(
        "{{\"events\": [{}], \"pad\": \"{}\"}}",
        vend("big", &at(&h, 1), "A1", 150, 1, "cash"),
        "x".repeat(1 << 20)
    );
    let r = post_raw(&h, &f.machine, &f.secret, ts, big.as_bytes()).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.json());
    let too_many: Vec<Value> = (0..501)
        .map(|i| vend(&format!("m{i}"), &at(&h, 1), "A1", 150, 1, "cash"))
        .collect();
    for bad in [
        "not json".to_string(),
        "{}".to_string(),
        "[]".to_string(),
        json!({"events": []}).to_string(),
        json!({"events": "nope"}).to_string(),
        json!({ "events": too_many }).to_string(),
    ] {
        let r = post_raw(&h, &f.machine, &f.secret, ts, bad.as_bytes()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad:.40}: {}", r.json());
        assert!(r.json()["message"].is_string());
    }
    assert_eq!(
        figures(&h, &f).await,
        after_one,
        "refused requests store nothing"
    );
}

async fn one_bad_event_is_rejected_alone_and_retries_change_nothing(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h, "Europe/Paris").await;
    let events = json!([
        vend("v1", &at(&h, 30), "A1", 150, 2, "cash"),
        {"id": "bad", "type": "vend", "at": at(&h, 20), "selection": "A1", "price_minor": -5, "payment": "cash"},
        vend("v2", &at(&h, 10), "A2", 100, 1, "cashless"),
        vend("v1", &at(&h, 5), "A2", 999, 9, "cash"),
        {"id": "r1", "type": "refill", "at": at(&h, 4), "employee_id": "nobody", "source": "route",
         "lines": [{"selection": "A1", "added": 5, "removed": 1}]},
        {"id": "c1", "type": "cash_collection", "at": at(&h, 3), "bag_no": "B-17",
         "cash_box_minor": 1200, "bill_stacker_minor": 500, "tubes_minor": 300,
         "ejected_minor": 0, "refilled_coins_minor": 200, "collected_minor": 1700},
        {"id": "t1", "type": "telemetry", "at": at(&h, 2), "status": "ok", "signal": -71,
         "cash_box_minor": 40, "firmware": "4.2"},
        {"id": "p1", "type": "vend", "at": at(&h, 2), "selection": "A1", "price_minor": 150,
         "payment": "cash", "product_id": "no-such-product"},
    ]);
    let r = post(&h, &f, events.clone()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let d = &r.json()["data"];
    assert_eq!(d["accepted"], 5, "{d}");
    assert_eq!(d["duplicates"], 0, "{d}");
    let rejected = d["rejected"].as_array().unwrap();
    assert_eq!(rejected.len(), 3, "{d}");
    assert_eq!(rejected[0]["index"], 1);
    assert_eq!(rejected[0]["id"], "bad");
    assert!(rejected[0]["errors"]["price_minor"].is_array(), "{d}");
    // "v1" again with other content reuses the id: refused, the first stands.
    assert_eq!(rejected[1]["index"], 3);
    assert!(rejected[1]["errors"]["id"][0]
        .as_str()
        .unwrap()
        .starts_with("Reused id"));
    assert_eq!(rejected[2]["index"], 7);
    assert!(rejected[2]["errors"]["product_id"].is_array(), "{d}");

    // Stock: A1 10 − 2 + 5 − 1 = 12, A2 10 − 1 = 9; last purchases set.
    let s = stock(&h, &f).await;
    assert_eq!(s[0].0, "A1");
    assert_eq!(s[0].1, 12);
    assert_eq!(s[1].1, 9);
    assert!(s[0].2.is_string() && s[1].2.is_string(), "{s:?}");

    // Sales: 2 × 150 cash + 100 cashless; net of 10 % and 5.5 % VAT.
    let today = h.app.calendar.today();
    let day = h
        .app
        .sales
        .store()
        .rollups(&RollupQuery {
            machine_ids: vec![f.machine.clone()],
            from: today - Duration::days(1),
            to: today,
            grain: Grain::Day,
        })
        .await
        .unwrap();
    let total = day.iter().fold(Figures::default(), |mut t, r| {
        t.add(&r.figures);
        t
    });
    assert_eq!(total.quantity, 3);
    assert_eq!(total.sales_minor, 400);
    assert_eq!(total.cash_minor, 300);
    assert_eq!(total.cashless_minor, 100);
    assert_eq!(
        total.sales_excl_tax_minor,
        273 + 95,
        "300/1.10 → 273, 100/1.055 → 95"
    );
    assert_eq!(total.transactions, 2);

    // The refill log has the machine's refill; the overview its status and figures.
    let log = h
        .get(&format!("/api/refills/?machine={}", f.machine), &f.admin)
        .await
        .json();
    let machine_rows: Vec<&Value> = log["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source"] == "machine")
        .collect();
    assert_eq!(machine_rows.len(), 1, "{log}");
    assert_eq!(machine_rows[0]["amount_added"], 5);
    assert_eq!(machine_rows[0]["amount_removed"], 1);
    assert_eq!(machine_rows[0]["product_id"], f.espresso.as_str());
    let o = h
        .get(
            &format!("/api/machines/{}/dashboard/overview/", f.machine),
            &f.admin,
        )
        .await
        .json();
    let o = &o["data"];
    assert_eq!(o["status"], "ok", "{o}");
    assert_eq!(o["signal"], -71, "{o}");
    assert_eq!(o["firmware"], "4.2", "{o}");
    assert_eq!(o["cash_box"], 40, "{o}");
    assert!(o["last_sale"].is_string(), "{o}");
    assert!(o["last_refill"].is_string(), "{o}");
    assert!(o["last_encashment"].is_string(), "{o}");
    assert!(o["last_updated"].is_string(), "{o}");
    let cash = h
        .app
        .events
        .encashments(
            &[f.machine.clone()].into_iter().collect(),
            today - Duration::days(1),
            today,
        )
        .await
        .unwrap();
    assert_eq!(cash.len(), 1);
    assert_eq!(cash[0].bag_no, "B-17");
    assert_eq!(cash[0].collected_minor, 1700);
    assert_eq!(cash[0].stamp.location_name.as_deref(), Some("Station"));

    // The same batch again: every stored event is a duplicate, nothing changes (the reused
    // "v1" is refused again).
    let before = figures(&h, &f).await;
    let r = post(&h, &f, events).await;
    assert_eq!(r.status, StatusCode::OK);
    let d = &r.json()["data"];
    assert_eq!(d["accepted"], 0, "{d}");
    assert_eq!(d["duplicates"], 5, "{d}");
    assert_eq!(d["rejected"].as_array().unwrap().len(), 3, "{d}");
    assert_eq!(figures(&h, &f).await, before);
    let cash_again = h
        .app
        .events
        .encashments(
            &[f.machine.clone()].into_iter().collect(),
            today - Duration::days(1),
            today,
        )
        .await
        .unwrap();
    assert_eq!(cash_again.len(), 1);
    // A rejected event does not claim its id: fixed, it is accepted.
    let r = post(
        &h,
        &f,
        json!([vend("bad", &at(&h, 1), "A2", 100, 1, "cash")]),
    )
    .await;
    assert_eq!(r.json()["data"]["accepted"], 1);
    let _ = &f.water;
}

async fn late_events_land_on_their_local_day(b: Backend) {
    // 23:30 UTC on 22 November is already 23 November in Auckland.
    let h = Harness::at(b, "2026-11-22T23:30:00Z".parse().unwrap(), |_| {}).await;
    let f = fleet(&h, "Pacific/Auckland").await;
    let r = post(
        &h,
        &f,
        json!([
            vend("now", "2026-11-22T23:29:00Z", "A1", 150, 1, "cash"),
            // Offline for days: sent today, sold on the 18th (local) with a -05:00 offset.
            vend("old", "2026-11-17T08:00:00-05:00", "A1", 150, 1, "cash"),
        ]),
    )
    .await;
    assert_eq!(r.json()["data"]["accepted"], 2, "{}", r.json());
    let ledger = h
        .app
        .sales
        .store()
        .ledger(
            &f.machine,
            "2026-11-01".parse().unwrap(),
            "2026-11-30".parse().unwrap(),
        )
        .await
        .unwrap();
    let days: Vec<String> = ledger.iter().map(|v| v.local_date.to_string()).collect();
    assert_eq!(days, vec!["2026-11-18", "2026-11-23"]);
}

on_both_stores!(
    signature_window_size_and_machine_rules,
    one_bad_event_is_rejected_alone_and_retries_change_nothing,
    late_events_land_on_their_local_day,
);
