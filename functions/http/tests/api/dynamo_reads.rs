//! The reports benchmark's DynamoDB part (`make bench`; ignored by `make test`): how many items
//! a report request reads on DynamoDB (moto), and how that count grows with the fleet. Fleets of
//! 2, 8 and 32 machines (`VENDFLEET_BENCH_DYNAMO_FLEETS`) at 4 locations (two clients, two
//! machine tags), three products (two product tags), each machine selling one product a day
//! over the 80 days before today (partial months at both ends), loaded in bulk
//! (`DynamoSalesStore::load`: the items commits would leave, without moto's half a second a
//! commit). A sample of the random bench's kinds of queries (total and detail tables, line and
//! bar charts, the transaction log's first page with its count, the dashboard; every grouping,
//! day/week/month, with and without a product filter), asked by the administrator and by a
//! user scoped to one location (a quarter of the machines), read twice: **before** (the
//! machines' own rollups; the fleet's month items by period only) and **after** (the packed
//! fleet items, issue #28).
//!
//! Counts are of items returned by gets, queries and batch gets, the signed-in user's and the
//! catalogue's included, once the catalogue snapshots have settled.
//!
//! Asserted (after): every fleet-wide question of the administrator reads as many items at
//! every fleet size, but for those that need each machine's figures by product (grouped by
//! machine, location, client or machine tag with a product filter: the packed items hold
//! machines' totals and the shard's products, not machines × products) and the transaction
//! log's page and the dashboard (they read a day's ledger rows: one a machine); a scoped
//! question grows at most with the scope's machines.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use chrono::{Datelike, Duration, NaiveDate, TimeZone};
use serde_json::json;
use std::sync::Arc;
use vendfleet_adapters_aws::DynamoSalesStore;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::sales::VendFact;

/// Days of history before today (and today).
const DAYS: i64 = 80;

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

/// Who asks a query.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Admin,
    Scoped,
}

/// A query of the sample: its name, who asks it, its path and query string (`{P0}` stands
/// for the first product's id), whether it needs machines × products and whether it reads the
/// ledger (a day's rows: one a machine).
struct Sample {
    name: &'static str,
    who: Who,
    uri: String,
    machine_by_product: bool,
    ledger_page: bool,
}

fn samples(today: NaiveDate) -> Vec<Sample> {
    let first = today - Duration::days(DAYS);
    // Spans with partial months at both ends; a span inside a month; last month.
    let long = format!("date_from={}&date_to={today}", first + Duration::days(3));
    let mid = today - Duration::days(40);
    let short = format!("date_from={mid}&date_to={}", mid + Duration::days(9));
    let month_start = NaiveDate::from_ymd_opt(today.year(), today.month(), 1).unwrap();
    let last_to = month_start - Duration::days(1);
    let last_month = format!(
        "date_from={}&date_to={last_to}",
        NaiveDate::from_ymd_opt(last_to.year(), last_to.month(), 1).unwrap()
    );
    let table = "/api/sales-journal/total-table/";
    let detail = "/api/sales-journal/detail-table/";
    let line = "/api/sales-journal/graphs/line-chart/";
    let bar = "/api/sales-journal/graphs/bar-chart/";
    let mut out = Vec::new();
    let mut add = |name, who, uri: String, machine_by_product, ledger_page| {
        out.push(Sample {
            name,
            who,
            uri,
            machine_by_product,
            ledger_page,
        })
    };
    for who in [Who::Admin, Who::Scoped] {
        add(
            "line chart by day",
            who,
            format!("{line}?{long}&grouping_period=day"),
            false,
            false,
        );
        add(
            "line chart by month",
            who,
            format!("{line}?{long}&grouping_period=month"),
            false,
            false,
        );
        add(
            "line chart by week, product P0",
            who,
            format!("{line}?{long}&grouping_period=week&products={{P0}}"),
            false,
            false,
        );
        for g in [
            "machine",
            "location",
            "client",
            "machine_tag",
            "product",
            "product_tag",
        ] {
            let name = match g {
                "machine" => "total table by machine",
                "location" => "total table by location",
                "client" => "total table by client",
                "machine_tag" => "total table by machine tag",
                "product" => "total table by product",
                _ => "total table by product tag",
            };
            add(
                name,
                who,
                format!("{table}?{long}&group_by={g}"),
                false,
                false,
            );
        }
        add(
            "total table by machine, product P0",
            who,
            format!("{table}?{long}&group_by=machine&products={{P0}}"),
            true,
            false,
        );
        add(
            "total table by product, tag Hot",
            who,
            format!("{table}?{long}&group_by=product&product_tags={{HOT}}"),
            false,
            false,
        );
        add(
            "detail machine × week",
            who,
            format!("{detail}?{long}&group_by=machine&grouping_period=week&page=1&page_size=25"),
            false,
            false,
        );
        add(
            "detail location × month",
            who,
            format!(
                "{detail}?{last_month}&group_by=location&grouping_period=month&page=1&page_size=25"
            ),
            false,
            false,
        );
        add(
            "detail product × day (10 days)",
            who,
            format!("{detail}?{short}&group_by=product&grouping_period=day&page=1&page_size=25"),
            false,
            false,
        );
        add(
            "bar chart by client, month",
            who,
            format!("{bar}?{long}&group_by=client&grouping_period=month"),
            false,
            false,
        );
        add(
            "bar chart by product tag (10 days)",
            who,
            format!("{bar}?{short}&group_by=product_tag&grouping_period=day"),
            false,
            false,
        );
        add(
            "transaction log page 1 (count)",
            who,
            format!("/api/transaction-logs/?{long}&page=1&page_size=25"),
            false,
            true,
        );
        add(
            "transaction log, product P0",
            who,
            format!("/api/transaction-logs/?{long}&products={{P0}}&page=1&page_size=25"),
            false,
            true,
        );
        add("dashboard", who, "/api/dashboard/".into(), false, true);
    }
    out
}

/// The counts of every sample on a fleet of `machines`, before and after, and the machines the
/// scoped user sees.
async fn fleet_of(machines: usize) -> (Vec<(u64, u64)>, usize, usize) {
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
    let clients = [
        create(&h, &admin, "/api/clients/", json!({"name": "Acme"})).await,
        create(&h, &admin, "/api/clients/", json!({"name": "Bolt"})).await,
    ];
    let mut locations = Vec::new();
    for i in 0..4 {
        let body = json!({"name": format!("Site {i}"), "time_zone": "Europe/Paris",
                          "client_id": clients[i % 2]});
        locations.push(create(&h, &admin, "/api/locations/", body).await);
    }
    let mtags = [
        create(
            &h,
            &admin,
            "/api/machines/tags/",
            json!({"name": "Route A"}),
        )
        .await,
        create(
            &h,
            &admin,
            "/api/machines/tags/",
            json!({"name": "Route B"}),
        )
        .await,
    ];
    let hot = create(&h, &admin, "/api/products/tags/", json!({"name": "Hot"})).await;
    let cold = create(&h, &admin, "/api/products/tags/", json!({"name": "Cold"})).await;
    let mut products = Vec::new();
    for (i, tag) in [&hot, &hot, &cold].into_iter().enumerate() {
        let body = json!({"name": format!("P{i}"), "sku": format!("S{i}"), "price_minor": 120,
                          "vat_bps": 2000, "units": "pcs", "tag_ids": [tag]});
        products.push(create(&h, &admin, "/api/products/", body).await);
    }
    let mut fleet = Vec::new();
    for i in 0..machines {
        let location = locations[i % 4].clone();
        let body = json!({"name": format!("Machine {i:03}"), "model_id": model,
                          "location_id": location, "tag_ids": [mtags[i % 2]]});
        fleet.push((create(&h, &admin, "/api/machines/", body).await, location));
    }
    let first = today - Duration::days(DAYS);
    let mut vends = Vec::new();
    for (d, day) in first.iter_days().take_while(|d| *d <= today).enumerate() {
        let at = zone
            .from_local_datetime(&day.and_hms_opt(12, 0, 0).unwrap())
            .unwrap()
            .to_utc();
        for (i, (machine, location)) in fleet.iter().enumerate() {
            vends.push(VendFact {
                machine_id: machine.clone(),
                event_id: format!("e{day}"),
                at,
                local_date: day,
                location_id: Some(location.clone()),
                selection: "10".into(),
                product_id: products[(d + i) % 3].clone(),
                quantity: 1,
                revenue_minor: 120,
                net_minor: 100,
                payment: if (d + i) % 2 == 0 {
                    Payment::Cash
                } else {
                    Payment::Cashless
                },
                class: VendClass::Sale,
                vat_bps: Some(2000),
            });
        }
    }
    let dynamo = h.dynamo.clone().unwrap();
    DynamoSalesStore::new(dynamo.clone())
        .load(&vends)
        .await
        .unwrap();
    let role = h
        .role(
            &admin,
            "Sales",
            &[
                "reports.sales_overview.total_list",
                "reports.sales_overview.list",
                "reports.sales_overview.graph",
                "reports.transaction_log.list",
            ],
        )
        .await;
    let body = json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                      "role_id": role, "access_all_machines": false,
                      "location_ids": [locations[0]]});
    let r = h.post("/api/users/", &admin, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped = h.token("scoped@example.com", "password-123").await;
    let before = h.twin_with_sales(Arc::new(
        DynamoSalesStore::new(dynamo).without_packed_reads(),
    ));
    let samples = samples(today);
    let uri = |s: &Sample| s.uri.replace("{P0}", &products[0]).replace("{HOT}", &hot);
    let token = |s: &Sample| if s.who == Who::Admin { &admin } else { &scoped };
    // Let the catalogue snapshots settle (DynamoDB's indexes lag; see records::snapshot).
    for s in &samples {
        items_read(&h, token(s), &uri(s)).await;
        items_read(&before, token(s), &uri(s)).await;
    }
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let mut counts = Vec::new();
    for s in &samples {
        let b = items_read(&before, token(s), &uri(s)).await;
        let a = items_read(&h, token(s), &uri(s)).await;
        counts.push((b, a));
    }
    let shards: std::collections::BTreeSet<u64> = fleet.iter().map(|(m, _)| shard_of(m)).collect();
    (counts, machines.div_ceil(4), shards.len())
}

/// The fleet shard a machine writes to (the adapter's FNV-1a of its id, mod 4).
fn shard_of(machine_id: &str) -> u64 {
    machine_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }) % 4
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: make bench"]
async fn items_read_per_request() {
    // VENDFLEET_BENCH_DYNAMO_FLEETS: the fleet sizes, comma-separated.
    let sizes: Vec<usize> = std::env::var("VENDFLEET_BENCH_DYNAMO_FLEETS")
        .unwrap_or("2,8,32".into())
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let mut runs = Vec::new();
    for &machines in &sizes {
        let started = std::time::Instant::now();
        runs.push(fleet_of(machines).await);
        eprintln!(
            "  (fleet of {machines} seeded and measured in {:?})",
            started.elapsed()
        );
    }
    let samples = samples(NaiveDate::from_ymd_opt(2026, 1, 1).unwrap());
    println!(
        "\nDynamoDB (moto): items read per request, before → after (packed fleet items), one \
         sale a machine a day over {} days",
        DAYS + 1
    );
    let mut header = format!("{:<8} {:<40}", "who", "query");
    for (&m, (_, scoped, shards)) in sizes.iter().zip(&runs) {
        header.push_str(&format!(
            " {:>20}",
            format!("{m} m./{shards} sh. ({scoped} sc.)")
        ));
    }
    println!("{header}");
    for (i, s) in samples.iter().enumerate() {
        let who = if s.who == Who::Admin {
            "admin"
        } else {
            "scoped"
        };
        let mut line = format!("{who:<8} {:<40}", s.name);
        for (counts, _, _) in &runs {
            let (b, a) = counts[i];
            line.push_str(&format!(" {:>20}", format!("{b} → {a}")));
        }
        println!("{line}");
    }
    // A fleet-wide question reads shards × span items: the same at every size once the
    // machines fill the 4 shards (ULIDs are random: 2 machines fill at most 2, 8 usually 4),
    // fewer before. Questions that read the ledger (the transaction log's page; the
    // dashboard's today against the same hours before) add up to two rows a machine.
    let full: Vec<usize> = (0..runs.len()).filter(|&r| runs[r].2 == 4).collect();
    let mut failures = Vec::new();
    for (i, s) in samples.iter().enumerate() {
        let after: Vec<u64> = runs.iter().map(|(c, _, _)| c[i].1).collect();
        match s.who {
            Who::Admin if s.machine_by_product => {}
            Who::Admin => {
                let Some(&f0) = full.first() else { continue };
                for &f in &full {
                    let grown = after[f].saturating_sub(after[f0]);
                    let allowed = if s.ledger_page {
                        2 * (sizes[f] - sizes[f0]) as u64
                    } else {
                        0
                    };
                    if after[f] < after[f0] || grown > allowed {
                        failures.push(format!("admin {}: {after:?} items", s.name));
                    }
                }
                for (r, run) in runs.iter().enumerate() {
                    if run.2 < 4 && after[r] > after[f0] {
                        failures.push(format!("admin {}: {after:?} items", s.name));
                    }
                }
            }
            Who::Scoped => {
                let (a0, m0) = (after[0], runs[0].1 as u64);
                for (a, (_, m, _)) in after.iter().zip(&runs) {
                    if *a * m0 > a0 * (*m as u64) {
                        failures.push(format!("scoped {}: {after:?} items", s.name));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
