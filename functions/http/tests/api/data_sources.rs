//! Data sources on SQLite and on DynamoDB: Nayax Core's messages (the documented examples)
//! booked through the intake exactly once, or kept in the inbox with why, and booked once a
//! machine is linked.

use crate::common::*;
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use vendfleet_app::data_sources::{Incoming, KeptReason, Taken};
use vendfleet_domain::events::Payment;
use vendfleet_domain::nayax::Feed;

const MULTI: &str =
    include_str!("../../../domain/tests/fixtures/nayax/transaction_multi_products.json");
const EVENT: &str = include_str!("../../../domain/tests/fixtures/nayax/event_documented.json");

struct Fleet {
    admin: String,
    location: String,
    machine: String,
    other: String,
    water: String,
}

async fn fleet(h: &Harness) -> Fleet {
    let admin = h.admin().await;
    let location = create(
        h,
        &admin,
        "/api/locations/",
        json!({"name": "Site", "time_zone": "Europe/Paris"}),
    )
    .await;
    let product = |name: &str, sku: &str| json!({"name": name, "sku": sku, "price_minor": 100, "vat_bps": 550});
    let water = create(h, &admin, "/api/products/", product("Water", "WAT-050")).await;
    let choc = create(h, &admin, "/api/products/", product("Choc", "")).await;
    let gum = create(h, &admin, "/api/products/", product("Gum", "")).await;
    let machine = create(
        h,
        &admin,
        "/api/machines/",
        json!({"name": "M1", "location_id": location, "nayax_machine_id": "54265"}),
    )
    .await;
    let other = create(
        h,
        &admin,
        "/api/machines/",
        json!({"name": "M2", "location_id": location}),
    )
    .await;
    for m in [&machine, &other] {
        for (code, product) in [("11", &water), ("24", &choc), ("37", &gum)] {
            let r = h
                .post(
                    "/api/machines/products/",
                    &admin,
                    json!({"machine_id": m, "selection": code, "product_id": product, "max": 50,
                           "price_minor": 100, "current": 50}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        }
    }
    Fleet {
        admin,
        location,
        machine,
        other,
        water,
    }
}

fn at(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

async fn take(h: &Harness, feed: Feed, id: &str, body: &str) -> Taken {
    h.app
        .data_sources
        .take(Incoming {
            source_id: "nayax",
            feed,
            message_id: id,
            body,
            sent_at: at("2020-04-20T11:06:00Z"),
        })
        .await
        .unwrap()
}

async fn ledger(h: &Harness, machine: &str) -> Vec<(String, String, i64, Payment, String)> {
    let mut facts: Vec<_> = h
        .app
        .sales
        .store()
        .ledger(
            machine,
            "2020-04-01".parse().unwrap(),
            "2020-04-30".parse().unwrap(),
        )
        .await
        .unwrap()
        .into_iter()
        .map(|v| {
            (
                v.event_id,
                v.selection,
                v.revenue_minor,
                v.payment,
                v.product_id,
            )
        })
        .collect();
    facts.sort_by(|a, b| a.0.cmp(&b.0));
    facts
}

fn edited(body: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(body).unwrap();
    edit(&mut v);
    v.to_string()
}

async fn nayax_messages_book_once_or_wait_in_the_inbox(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;
    // The documented transaction with three product lines: one vend a line, the water by its
    // catalogue number, the others by their selection in the planogram.
    let booked = take(&h, Feed::Transactions, "m-1", MULTI).await;
    assert_eq!(
        booked,
        Taken::Booked {
            stored: 3,
            already: 0
        }
    );
    // Delivered again (SQS is at least once), under the same or another message id.
    for id in ["m-1", "m-1-again"] {
        let again = take(&h, Feed::Transactions, id, MULTI).await;
        assert_eq!(
            again,
            Taken::Booked {
                stored: 0,
                already: 3
            }
        );
    }
    let facts = ledger(&h, &f.machine).await;
    let sold: Vec<(&str, i64, Payment)> = facts.iter().map(|v| (v.1.as_str(), v.2, v.3)).collect();
    assert_eq!(
        sold,
        [
            ("11", 150, Payment::Cashless),
            ("24", 220, Payment::Cashless),
            ("37", 100, Payment::Cashless)
        ]
    );
    assert_eq!(facts[0].4, f.water);
    // Declined and cancelled transactions never count; a void waits for review.
    let status = |s: &'static str| {
        edited(MULTI, |v| {
            v["TransactionId"] = json!(1);
            v["Data"]["Transaction Status Name"] = s.into();
        })
    };
    assert_eq!(
        take(&h, Feed::Transactions, "m-2", &status("Declined")).await,
        Taken::Ignored
    );
    assert_eq!(
        take(&h, Feed::Transactions, "m-3", &status("Cancelled")).await,
        Taken::Ignored
    );
    let void = edited(MULTI, |v| v["Void"] = true.into());
    assert_eq!(
        take(&h, Feed::Transactions, "m-4", &void).await,
        Taken::Kept(KeptReason::Reversal)
    );
    // What cannot be read, an unknown machine and an unknown product are kept, never lost.
    assert_eq!(
        take(&h, Feed::Transactions, "m-5", "{\"TransactionId\": ").await,
        Taken::Kept(KeptReason::Unreadable)
    );
    let stranger = edited(MULTI, |v| {
        v["TransactionId"] = json!(2);
        v["MachineId"] = json!(99999);
    });
    assert_eq!(
        take(&h, Feed::Transactions, "m-6", &stranger).await,
        Taken::Kept(KeptReason::UnknownMachine)
    );
    let unknown_product = edited(MULTI, |v| {
        v["TransactionId"] = json!(3);
        v["Data"]["Products"][2]["Product Code in Map"] = json!(99);
    });
    assert_eq!(
        take(&h, Feed::Transactions, "m-7", &unknown_product).await,
        Taken::Kept(KeptReason::UnknownProduct)
    );
    assert_eq!(
        take(&h, Feed::Events, "m-8", EVENT).await,
        Taken::Kept(KeptReason::UnknownMachine)
    );
    // Kept twice is one entry, seen twice.
    take(&h, Feed::Transactions, "m-6", &stranger).await;
    let inbox = h.app.data_sources.inbox().await.unwrap();
    let mut ids: Vec<&str> = inbox.iter().map(|k| k.message_id.as_str()).collect();
    ids.sort();
    assert_eq!(ids, ["m-4", "m-5", "m-6", "m-7", "m-8"]);
    let m6 = inbox.iter().find(|k| k.message_id == "m-6").unwrap();
    assert_eq!(
        (m6.times_seen, m6.nayax_machine_id.as_deref()),
        (2, Some("99999"))
    );
    let m7 = inbox.iter().find(|k| k.message_id == "m-7").unwrap();
    assert_eq!(m7.product_code.as_deref(), Some("99"));
    assert_eq!(
        ledger(&h, &f.machine).await.len(),
        3,
        "nothing more was booked"
    );

    // Linking the unknown machine (its settings) books its kept message exactly once.
    let r = h
        .put(
            &format!("/api/machines/{}/settings/", f.other),
            &f.admin,
            json!({"name": "M2", "location_id": f.location, "nayax_machine_id": "99999"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert!(h
        .app
        .data_sources
        .retake_machine("99999")
        .await
        .unwrap()
        .is_empty());
    let facts = ledger(&h, &f.other).await;
    assert_eq!(facts.iter().map(|v| v.2).sum::<i64>(), 470);
    assert!(
        facts.iter().all(|v| v.0.starts_with("nayax-2-")),
        "{facts:?}"
    );
    let left: Vec<String> = h
        .app
        .data_sources
        .inbox()
        .await
        .unwrap()
        .into_iter()
        .map(|k| k.message_id)
        .collect();
    assert!(!left.contains(&"m-6".to_string()), "{left:?}");
    // A machine's local time in its zone: 14:05:33 in Paris in April is 12:05:33 UTC.
    let first = h
        .app
        .sales
        .store()
        .ledger(
            &f.machine,
            "2020-04-20".parse().unwrap(),
            "2020-04-20".parse().unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(first[0].at, at("2020-04-20T12:05:33.250Z"));
}

async fn sources_keep_their_secrets_and_are_an_administrators(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;
    let form = json!({
        "name": "Nayax", "region": "eu-west-1",
        "feeds": {"transactions": "https://sqs.eu-west-1.amazonaws.com/1/tx", "dex": "https://sqs.eu-west-1.amazonaws.com/1/dex"},
        "access_key_id": "AKIAEXAMPLE", "secret_access_key": "s3cr3t-value",
        "encryption_key": "0f8fad5b-d9cb-469f-a165-70867728950e", "encryption_key_version": 3
    });
    let made = created(&h, &f.admin, "/api/settings/data-sources/", form.clone()).await;
    let id = made["id"].as_str().unwrap().to_string();
    assert_eq!(made["kind"], "nayax_sqs");
    assert_eq!(made["has_secret_access_key"], true);
    assert_eq!(made["has_encryption_key"], true);
    assert_eq!(made["feeds"]["events"], Value::Null);
    let path = format!("/api/settings/data-sources/{id}/");
    // The secrets never come back, in any reply.
    for r in [
        h.get("/api/settings/data-sources/", &f.admin).await,
        h.get(&path, &f.admin).await,
    ] {
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        let text = String::from_utf8_lossy(&r.bytes).to_string();
        assert!(
            !text.contains("s3cr3t-value") && !text.contains("0f8fad5b"),
            "{text}"
        );
    }
    // Left out of an update they stay; empty, they are cleared.
    let r = h
        .put(&path, &f.admin, json!({"name": "Nayax EU", "region": "eu-west-1", "feeds": form["feeds"], "version": 1}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["has_secret_access_key"], true);
    assert_eq!(r.json()["data"]["encryption_key_version"], 3);
    let r = h
        .put(&path, &f.admin, json!({"name": "Nayax EU", "region": "eu-west-1", "feeds": form["feeds"], "secret_access_key": "", "encryption_key": ""}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["has_secret_access_key"], false);
    assert_eq!(r.json()["data"]["has_encryption_key"], false);
    assert_eq!(r.json()["data"]["encryption_key_version"], Value::Null);
    // Bad input is named field by field.
    let r = h
        .post("/api/settings/data-sources/", &f.admin, json!({"name": "", "region": "EU West", "feeds": {"events": "ftp://x"}, "encryption_key": "k"}))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    for field in ["name", "region", "feeds.events", "encryption_key_version"] {
        assert!(
            r.json()["errors"][field].is_array(),
            "{field}: {}",
            r.json()
        );
    }
    let r = h
        .post(
            "/api/settings/data-sources/",
            &f.admin,
            json!({"name": "X", "region": "eu-west-1", "feeds": {}}),
        )
        .await;
    assert!(r.json()["errors"]["feeds"].is_array(), "{}", r.json());
    let r = h
        .post(
            "/api/settings/data-sources/",
            &f.admin,
            json!({"name": "X", "region": "eu-west-1", "feeds": {"sales": "https://x"}}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "unknown feeds are refused"
    );

    // A machine of an unknown Nayax id is kept; the inbox groups it.
    let stranger = edited(MULTI, |v| v["MachineId"] = json!(4242));
    take(&h, Feed::Transactions, "k-1", &stranger).await;
    let r = h.get("/api/settings/data-sources/inbox/", &f.admin).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let groups = r.json()["data"].clone();
    assert_eq!(groups.as_array().unwrap().len(), 1, "{groups}");
    assert_eq!(groups[0]["reason"], "unknown_machine");
    assert_eq!(groups[0]["nayax_machine_id"], "4242");
    assert_eq!(groups[0]["count"], 1);
    assert_eq!(groups[0]["sample_message_id"], "k-1");

    // A user with every permission but one location's machines sees none of it, changes
    // nothing, and books nothing.
    let r = h
        .post(
            "/api/users/",
            &f.admin,
            json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                   "access_all_modules": true, "access_all_machines": false, "location_ids": [f.location]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped = h.token("scoped@example.com", "password-123").await;
    let reply = |r: &Reply| (r.status, String::from_utf8_lossy(&r.bytes).to_string());
    for r in [
        h.get("/api/settings/data-sources/", &scoped).await,
        h.get(&path, &scoped).await,
        h.get("/api/settings/data-sources/inbox/", &scoped).await,
        h.post(
            "/api/settings/data-sources/inbox/retake/",
            &scoped,
            json!({}),
        )
        .await,
        h.post("/api/settings/data-sources/", &scoped, form.clone())
            .await,
        h.put(&path, &scoped, form.clone()).await,
        h.delete(&path, &scoped, json!({})).await,
    ] {
        let (status, text) = reply(&r);
        assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
        assert!(!text.contains("4242") && !text.contains("AKIA"), "{text}");
    }
    // Nor can the scoped user claim the kept messages by giving a machine of theirs the Nayax
    // id they name: linking is an administrator's.
    let r = h
        .put(
            &format!("/api/machines/{}/settings/", f.other),
            &scoped,
            json!({"name": "M2", "location_id": f.location, "nayax_machine_id": "4242"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    assert!(
        r.json()["errors"]["nayax_machine_id"].is_array(),
        "{}",
        r.json()
    );
    assert!(ledger(&h, &f.other).await.is_empty());
    // Linked through the retake call: booked once.
    let r = h
        .put(
            &format!("/api/machines/{}/settings/", f.other),
            &f.admin,
            json!({"name": "M2", "location_id": f.location, "nayax_machine_id": "4242"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let r = h
        .post(
            "/api/settings/data-sources/inbox/retake/",
            &f.admin,
            json!({}),
        )
        .await;
    assert_eq!(
        r.json()["data"],
        json!({"booked": 0, "ignored": 0, "kept": 0}),
        "booked on linking"
    );
    assert_eq!(ledger(&h, &f.other).await.len(), 3);
    let r = h.delete(&path, &f.admin, json!({})).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(h.get(&path, &f.admin).await.status, StatusCode::NOT_FOUND);
}

on_both_stores!(
    nayax_messages_book_once_or_wait_in_the_inbox,
    sources_keep_their_secrets_and_are_an_administrators,
);

/// A random stream of Nayax transactions through a real SQS queue (moto) and the embedded
/// poller: duplicates, any order, voids, an unknown machine, and a crash between booking and
/// deleting (the messages come again) — the booked sales equal the truth, every message is
/// booked once or kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_poller_books_a_queue_exactly_once_through_a_crash() {
    use vendfleet_adapters_embedded::SqsFeeds;
    use vendfleet_app::ports::{FeedQueues, QueueAccess};
    let h = Harness::on_store(Backend::Sqlite).await;
    let f = fleet(&h).await;
    let sqs = SqsFeeds::at(Some(moto_endpoint()));
    let access = QueueAccess {
        region: "us-east-1".into(),
        access_key_id: "testing".into(),
        secret_access_key: "testing".into(),
    };
    let name = format!("nayax-tx-{}", ulid::Ulid::new());
    let url = sqs
        .create_queue(&access, &name, json!({"VisibilityTimeout": "1"}))
        .await
        .unwrap();
    let made = created(
        &h,
        &f.admin,
        "/api/settings/data-sources/",
        json!({"name": "Nayax", "region": "us-east-1", "feeds": {"transactions": url},
               "access_key_id": "testing", "secret_access_key": "testing"}),
    )
    .await;
    let source = h
        .app
        .data_sources
        .sources()
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.id == made["id"])
        .unwrap();

    // The truth, drawn from a fixed seed.
    let mut seed: u64 = 0x5eed_0049;
    let mut draw = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    let template: Value = serde_json::from_str(MULTI).unwrap();
    let mut bodies = Vec::new();
    let (mut lines, mut cash, mut cashless) = (0usize, 0i64, 0i64);
    for i in 0..40u64 {
        let mut v = template.clone();
        let method = if draw(2) == 0 { 1 } else { 3 };
        let local = format!("2020-04-20T{:02}:{:02}:00.000", 8 + i / 60, i % 60);
        let n = 1 + draw(3) as usize;
        let mut products = Vec::new();
        let mut total = 0i64;
        for _ in 0..n {
            let code = ["11", "24", "37"][draw(3) as usize];
            let cents = 50 + draw(350) as i64;
            total += cents;
            let mut line = template["Data"]["Products"][1].clone();
            line["Product Code in Map"] = json!(code.parse::<u32>().unwrap());
            line["Product Catalog Number"] = json!("");
            line["Product Bruto"] = json!(cents as f64 / 100.0);
            products.push(line);
        }
        v["TransactionId"] = json!(7000 + i);
        v["PaymentMethodId"] = json!(method);
        v["MachineTime"] = json!(local);
        v["Data"]["Machine AuTime"] = json!(local);
        v["Data"]["Payment Method ID (1)"] = json!(method);
        v["Data"]["SeValue"] = json!(total as f64 / 100.0);
        v["Data"]["Products"] = json!(products);
        lines += n;
        if method == 3 {
            cash += total;
        } else {
            cashless += total;
        }
        bodies.push(v.to_string());
        if draw(8) == 0 {
            bodies.push(v.to_string()); // delivered twice by the provider
        }
    }
    let mut kept = 0;
    for i in 0..3 {
        let mut v: Value = serde_json::from_str(&bodies[i * 5]).unwrap();
        v["Void"] = json!(true);
        bodies.push(v.to_string());
        kept += 1;
    }
    for i in 0..2 {
        let mut v: Value = serde_json::from_str(&bodies[i]).unwrap();
        v["MachineId"] = json!(31337);
        v["TransactionId"] = json!(9000 + i);
        bodies.push(v.to_string());
        kept += 1;
    }
    // Any order.
    for i in (1..bodies.len()).rev() {
        let j = draw(i as u64 + 1) as usize;
        bodies.swap(i, j);
    }
    for b in &bodies {
        sqs.send(&access, &url, b).await.unwrap();
    }

    // A crash between booking and deleting: a batch is booked, never deleted.
    let batch = sqs.receive(&access, &url, 1).await.unwrap();
    assert!(!batch.is_empty());
    for m in &batch {
        h.app
            .data_sources
            .take(Incoming {
                source_id: &source.id,
                feed: Feed::Transactions,
                message_id: &m.message_id,
                body: &m.body,
                sent_at: m.sent_at.unwrap(),
            })
            .await
            .unwrap();
    }
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    // The poller, until the queue stays empty.
    let mut received = 0;
    let mut empty = 0;
    while empty < 2 {
        let n = h
            .app
            .data_sources
            .poll_feed(vendfleet_app::data_sources::FeedReader {
                queues: &sqs,
                source: &source,
                feed: Feed::Transactions,
                url: &url,
                wait_secs: 1,
            })
            .await
            .unwrap()
            .unwrap();
        received += n;
        empty = if n == 0 { empty + 1 } else { 0 };
    }
    assert!(received >= bodies.len(), "{received} of {}", bodies.len());
    let facts = ledger(&h, &f.machine).await;
    assert_eq!(facts.len(), lines);
    let paid = |p: Payment| facts.iter().filter(|v| v.3 == p).map(|v| v.2).sum::<i64>();
    assert_eq!(
        (paid(Payment::Cash), paid(Payment::Cashless)),
        (cash, cashless)
    );
    let inbox = h.app.data_sources.inbox().await.unwrap();
    assert_eq!(inbox.len(), kept, "{inbox:?}");
    let health = h.app.data_sources.health(&source.id).await.unwrap();
    // Every delivery counted once: the crashed batch's and the poller's.
    let counted = (health.booked_today + health.kept_today) as usize;
    assert_eq!(counted, batch.len() + received);
    assert!(health.last_message_at.is_some());
    assert_eq!(health.failed_today, 0);
}

/// `make bench`: from a message put on a queue (moto) to its sale in the ledger, with the
/// embedded server's long-polling readers — median and p95 of 60 messages put one at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: make bench"]
async fn latency_from_queue_to_ledger() {
    use vendfleet_adapters_embedded::{SqsFeeds, MAX_WAIT_SECS};
    use vendfleet_app::ports::QueueAccess;
    let h = Harness::on_store(Backend::Sqlite).await;
    let f = fleet(&h).await;
    let sqs = SqsFeeds::at(Some(moto_endpoint()));
    let access = QueueAccess {
        region: "us-east-1".into(),
        access_key_id: "testing".into(),
        secret_access_key: "testing".into(),
    };
    let name = format!("nayax-latency-{}", ulid::Ulid::new());
    let url = sqs.create_queue(&access, &name, json!({})).await.unwrap();
    created(
        &h,
        &f.admin,
        "/api/settings/data-sources/",
        json!({"name": "Nayax", "region": "us-east-1", "feeds": {"transactions": url},
               "access_key_id": "testing", "secret_access_key": "testing"}),
    )
    .await;
    let pollers = tokio::spawn(
        h.app
            .data_sources
            .clone()
            .run_pollers(std::sync::Arc::new(sqs.clone()), MAX_WAIT_SECS),
    );
    let template: Value = serde_json::from_str(MULTI).unwrap();
    let mut took = Vec::new();
    for i in 0..60u64 {
        let mut v = template.clone();
        v["TransactionId"] = json!(800_000 + i);
        let id = format!("nayax-{}-1", 800_000 + i);
        let started = std::time::Instant::now();
        sqs.send(&access, &url, &v.to_string()).await.unwrap();
        loop {
            let facts = ledger(&h, &f.machine).await;
            if facts.iter().any(|fact| fact.0 == id) {
                break;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(60),
                "{id} never booked"
            );
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        took.push(started.elapsed().as_secs_f64() * 1e3);
    }
    pollers.abort();
    took.sort_by(f64::total_cmp);
    let at = |q: f64| took[((took.len() - 1) as f64 * q).round() as usize];
    println!(
        "nayax latency, put on the queue → in the ledger (60 messages, moto, SQLite): median {:.0} ms, p95 {:.0} ms, max {:.0} ms",
        at(0.5),
        at(0.95),
        at(1.0)
    );
}
