//! The reports benchmark's DynamoDB part (`make bench`; ignored by `make test`): how many items
//! the sales overview reads per request on DynamoDB (moto), and how that count grows with the
//! fleet. Fleets of 2 and 4 machines (`VENDFLEET_BENCH_DYNAMO_FLEETS`), each with one sale
//! a day from 1 January to today (moto takes about half a second a commit: 4–10 min a fleet):
//! 1. the year to date by month, all machines (the line chart), and for contrast the total
//!    table by machine, which needs each machine's own rollups;
//! 2. last month by product for a user scoped to one location (a quarter of the machines).
//!
//! Counts are of items returned by gets, queries and batch gets, the signed-in user's and the
//! catalogue's included, once the catalogue snapshots have settled.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use chrono::{Datelike, Duration, NaiveDate, TimeZone};
use serde_json::json;
use vendfleet_app::ports::Commit;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::sales::VendFact;

/// Items read by one request (after a warm-up of the same request).
async fn items_read(h: &Harness, token: &str, uri: &str) -> u64 {
    let store = h.dynamo.as_ref().unwrap();
    let r = h.get(uri, token).await;
    assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.json());
    let before = store.items_read();
    let r = h.get(uri, token).await;
    assert_eq!(r.status, StatusCode::OK);
    store.items_read() - before
}

async fn fleet_of(machines: usize) -> [u64; 3] {
    let h = Harness::on_store(Backend::Dynamo).await;
    let admin = h.admin().await;
    let today = h.app.calendar.today();
    let zone = chrono_tz::Europe::Paris;
    let model = create(
        &h,
        &admin,
        "/api/machines/models/",
        json!({"name": "Kikko", "type": "Hot drinks", "manufacturer": "Evoca"}),
    )
    .await;
    let mut locations = Vec::new();
    for i in 0..4 {
        let body = json!({"name": format!("Site {i}"), "time_zone": "Europe/Paris"});
        locations.push(create(&h, &admin, "/api/locations/", body).await);
    }
    let product = create(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Espresso", "sku": "E", "price_minor": 120, "vat_bps": 2000, "units": "pcs"}),
    )
    .await;
    let mut fleet = Vec::new();
    for i in 0..machines {
        let location = locations[i % 4].clone();
        let body = json!({"name": format!("Machine {i:03}"), "model_id": model,
                          "location_id": location});
        fleet.push((create(&h, &admin, "/api/machines/", body).await, location));
    }
    // A day of up to 30 machines a commit (their ledger rows, day and month rollups and the
    // fleet's month items fit in one transaction).
    let sales = h.sales_store();
    let year_start = NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap();
    for day in year_start.iter_days().take_while(|d| *d <= today) {
        let at = zone
            .from_local_datetime(&day.and_hms_opt(12, 0, 0).unwrap())
            .unwrap()
            .to_utc();
        for chunk in fleet.chunks(30) {
            let vends = chunk
                .iter()
                .map(|(machine, location)| VendFact {
                    machine_id: machine.clone(),
                    event_id: format!("e{day}"),
                    at,
                    local_date: day,
                    location_id: Some(location.clone()),
                    selection: "10".into(),
                    product_id: product.clone(),
                    quantity: 1,
                    revenue_minor: 120,
                    net_minor: 100,
                    payment: Payment::Cash,
                    class: VendClass::Sale,
                    vat_bps: Some(550),
                })
                .collect();
            let commit = Commit {
                vends,
                ..Commit::default()
            };
            sales.commit(commit).await.unwrap();
        }
    }
    let role = h
        .role(&admin, "Sales", &["reports.sales_overview.total_list"])
        .await;
    let body = json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                      "role_id": role, "access_all_machines": false,
                      "location_ids": [locations[0]]});
    let r = h.post("/api/users/", &admin, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped = h.token("scoped@example.com", "password-123").await;

    let ytd = format!("date_from={year_start}&date_to={today}");
    let first = NaiveDate::from_ymd_opt(today.year(), today.month(), 1).unwrap();
    let last_to = first - Duration::days(1);
    let last_from = NaiveDate::from_ymd_opt(last_to.year(), last_to.month(), 1).unwrap();
    let line = format!("/api/sales-journal/graphs/line-chart/?{ytd}&grouping_period=month");
    let by_machine = format!("/api/sales-journal/total-table/?{ytd}&group_by=machine");
    let by_product = format!(
        "/api/sales-journal/total-table/?date_from={last_from}&date_to={last_to}&group_by=product"
    );
    // Let the catalogue snapshots settle (DynamoDB's indexes lag; see records::snapshot).
    items_read(&h, &admin, &line).await;
    items_read(&h, &scoped, &by_product).await;
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    [
        items_read(&h, &admin, &line).await,
        items_read(&h, &admin, &by_machine).await,
        items_read(&h, &scoped, &by_product).await,
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: make bench"]
async fn items_read_per_request() {
    println!("\nDynamoDB (moto): items read per request, one sale a machine a day this year");
    println!(
        "{:>9} {:>22} {:>22} {:>26}",
        "machines", "1. line chart (YTD)", "total table by machine", "2. last month by product"
    );
    // VENDFLEET_BENCH_DYNAMO_FLEETS: the fleet sizes, comma-separated.
    let sizes: Vec<usize> = std::env::var("VENDFLEET_BENCH_DYNAMO_FLEETS")
        .unwrap_or("2,4".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    for machines in sizes {
        let started = std::time::Instant::now();
        let [line, by_machine, by_product] = fleet_of(machines).await;
        println!(
            "{machines:>9} {line:>22} {by_machine:>22} {:>26}",
            format!("{by_product} ({} machines)", machines.div_ceil(4))
        );
        eprintln!(
            "  (fleet of {machines} seeded and measured in {:?})",
            started.elapsed()
        );
    }
}
