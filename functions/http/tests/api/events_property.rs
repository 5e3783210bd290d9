//! Exactly-once as a property: events delivered shuffled, duplicated and in batches of any size
//! leave rollups equal to a brute-force recomputation from the ledger (and from the events
//! themselves), and stock equal to the planogram arithmetic.

use crate::common::{Backend, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use vendfleet_app::ports::{Grain, RollupQuery};
use vendfleet_domain::sales::{Figures, Month, VendFact};

const SELECTIONS: [(&str, i64); 3] = [("A1", 150), ("A2", 90), ("B1", 210)];
const START_STOCK: i64 = 10;

async fn setup(h: &Harness) -> (String, String, String, Vec<String>) {
    let admin = h.admin().await;
    let mut products = Vec::new();
    for (i, vat) in [1000, 550, 2200].iter().enumerate() {
        let r = h
            .post(
                "/api/products/",
                &admin,
                json!({"name": format!("P{i}"), "sku": format!("S{i}"), "price_minor": 100,
                       "vat_bps": vat, "units": "pcs"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
        products.push(r.json()["data"]["id"].as_str().unwrap().to_string());
    }
    let loc = h
        .post(
            "/api/locations/",
            &admin,
            json!({"name": "Quay", "time_zone": "Pacific/Auckland"}),
        )
        .await
        .json()["data"]["id"]
        .clone();
    let m = h
        .post(
            "/api/machines/",
            &admin,
            json!({"name": "Quay 1", "location_id": loc}),
        )
        .await
        .json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for ((code, price), product) in SELECTIONS.iter().zip(&products) {
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                json!({"machine_id": m, "selection": code, "product_id": product, "max": 50,
                       "price_minor": price, "current": START_STOCK}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    }
    let secret = crate::common::audits::webhook_secret(h, &m).await;
    (admin, m, secret, products)
}

/// Random vends and refills over the five days before `now` (instants spread across local
/// midnights and a month end when `now` is near one).
fn events(rng: &mut StdRng, now: DateTime<Utc>, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let at = now - Duration::seconds(rng.random_range(60..5 * 86_400));
            let (code, price) = SELECTIONS[rng.random_range(0..SELECTIONS.len())];
            if rng.random_bool(0.15) {
                json!({"id": format!("r{i}"), "type": "refill", "at": at.to_rfc3339(), "source": "route",
                       "lines": [{"selection": code, "added": rng.random_range(0..8u32),
                                  "removed": rng.random_range(0..3u32)}]})
            } else {
                let mut v = json!({"id": format!("v{i}"), "type": "vend", "at": at.to_rfc3339(),
                    "selection": code, "price_minor": price + rng.random_range(0..3i64) * 10,
                    "quantity": rng.random_range(1..4u32),
                    "payment": if rng.random_bool(0.5) { "cash" } else { "cashless" }});
                match rng.random_range(0..10) {
                    0 => v["free"] = json!(true),
                    1 => v["test"] = json!(true),
                    _ => {}
                }
                v
            }
        })
        .collect()
}

fn brute_force(rows: &[VendFact], grain: Grain) -> BTreeMap<(NaiveDate, Option<String>), Figures> {
    let mut out: BTreeMap<(NaiveDate, Option<String>), Figures> = BTreeMap::new();
    for v in rows {
        let date = match grain {
            Grain::Day | Grain::DayProduct => v.local_date,
            Grain::Month | Grain::MonthProduct => Month::of(v.local_date).first_day(),
        };
        let product =
            matches!(grain, Grain::DayProduct | Grain::MonthProduct).then(|| v.product_id.clone());
        out.entry((date, product)).or_default().add(&Figures::of(v));
    }
    out
}

async fn shuffled_duplicated_deliveries_equal_brute_force(
    b: Backend,
    seeds: std::ops::Range<u64>,
    n: usize,
) {
    for seed in seeds {
        let mut rng = StdRng::seed_from_u64(seed);
        let h = Harness::on_store(b).await;
        let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
        let (admin, machine, secret, products) = setup(&h).await;
        let events = events(&mut rng, now, n);
        // Every event once or more, in any order, in batches of 1 to 60.
        let m = crate::common::audits::TestMachine {
            id: machine.clone(),
            secret,
        };
        crate::common::audits::deliver_shuffled(&h, &m, &events, &mut rng, 60).await;

        let sales = h.app.sales.store();
        // The machine stands in Auckland: its days are Auckland's.
        let today = vendfleet_domain::calendar::local_date(now, chrono_tz::Pacific::Auckland);
        let (from, to) = (today - Duration::days(7), today + Duration::days(2));
        let ledger = sales.ledger(&machine, from, to).await.unwrap();
        let vends = events.iter().filter(|e| e["type"] == "vend").count();
        assert_eq!(ledger.len(), vends, "seed {seed}: one ledger row per vend");
        // The ledger itself matches the events (quantity and revenue of each).
        let mut by_id: BTreeMap<&str, &Value> = BTreeMap::new();
        for e in &events {
            by_id.insert(e["id"].as_str().unwrap(), e);
        }
        for v in &ledger {
            let e = by_id[v.event_id.as_str()];
            assert_eq!(
                i64::from(v.quantity),
                e["quantity"].as_i64().unwrap(),
                "seed {seed}"
            );
            let sale = e.get("free").is_none() && e.get("test").is_none();
            let want = if sale {
                e["price_minor"].as_i64().unwrap() * e["quantity"].as_i64().unwrap()
            } else {
                0
            };
            assert_eq!(v.revenue_minor, want, "seed {seed}");
        }
        for grain in [
            Grain::Day,
            Grain::DayProduct,
            Grain::Month,
            Grain::MonthProduct,
        ] {
            let rows = sales
                .rollups(&RollupQuery {
                    machine_ids: vec![machine.clone()],
                    from: Month::of(from).first_day(),
                    to: Month::of(to).last_day(),
                    grain,
                })
                .await
                .unwrap();
            let got: BTreeMap<(NaiveDate, Option<String>), Figures> = rows
                .into_iter()
                .filter(|r| !r.figures.is_zero())
                .map(|r| ((r.date, r.product_id), r.figures))
                .collect();
            assert_eq!(got, brute_force(&ledger, grain), "seed {seed}, {grain:?}");
        }
        // Stock: start + added − removed − every vended unit.
        let r = h
            .get(&format!("/api/machines/{machine}/products/"), &admin)
            .await
            .json();
        for (code, _) in SELECTIONS {
            let mut want = START_STOCK;
            for e in &events {
                if e["type"] == "vend" && e["selection"] == code {
                    want -= e["quantity"].as_i64().unwrap();
                }
                if e["type"] == "refill" && e["lines"][0]["selection"] == code {
                    want += e["lines"][0]["added"].as_i64().unwrap()
                        - e["lines"][0]["removed"].as_i64().unwrap();
                }
            }
            let got = r["data"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["selection"] == code)
                .unwrap()["current"]
                .as_i64()
                .unwrap();
            assert_eq!(got, want, "seed {seed}: stock of {code}");
        }
        assert_eq!(products.len(), 3);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_deliveries_in_any_order_count_once() {
    shuffled_duplicated_deliveries_equal_brute_force(Backend::Sqlite, 0..16, 150).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamo_deliveries_in_any_order_count_once() {
    shuffled_duplicated_deliveries_equal_brute_force(Backend::Dynamo, 100..102, 60).await;
}
