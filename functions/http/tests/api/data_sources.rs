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
