//! The VAT report against a brute-force computation from the sales made: by rate, taxable and
//! exempt apart, by client and by month, a product whose rate changed mid-period counted at
//! the rate it had when each sale was taken in; its totals equal the sales overview's; the
//! machine scope. On SQLite and on DynamoDB.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use chrono::{Datelike, Duration};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use vendfleet_domain::events::{net_of_vat, MachineEvent};

type Sums = BTreeMap<(String, u32), (i64, i64, i64)>;

fn add(s: &mut Sums, key: &str, rate: u32, gross: i64, rate_net: i64) {
    let e = s.entry((key.to_string(), rate)).or_default();
    e.0 += gross;
    e.1 += rate_net;
    e.2 += gross - rate_net;
}

fn of(report: &Value) -> Sums {
    report["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["key"].as_str().unwrap().to_string(),
                    r["rate_bps"].as_u64().unwrap() as u32,
                ),
                (
                    r["gross_minor"].as_i64().unwrap(),
                    r["net_minor"].as_i64().unwrap(),
                    r["vat_minor"].as_i64().unwrap(),
                ),
            )
        })
        .collect()
}

async fn vat_by_rate_client_and_month_equals_the_sales(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let today = h.app.calendar.today();
    let products = [
        ("Water", 120, 550),
        ("Crisps", 180, 1000),
        ("Paper", 250, 0),
    ];
    let mut ids = Vec::new();
    for (name, price, vat) in products {
        ids.push(
            create(
                &h,
                &admin,
                "/api/products/",
                json!({"name": name, "price_minor": price, "vat_bps": vat}),
            )
            .await,
        );
    }
    let mut machines = Vec::new();
    let mut clients = Vec::new();
    let mut locations = Vec::new();
    for i in 0..2 {
        let c = create(
            &h,
            &admin,
            "/api/clients/",
            json!({"name": format!("Client {i}")}),
        )
        .await;
        let l = create(
            &h,
            &admin,
            "/api/locations/",
            json!({"name": format!("Site {i}"), "time_zone": "Europe/Paris", "client_id": c}),
        )
        .await;
        let m = create(
            &h,
            &admin,
            "/api/machines/",
            json!({"name": format!("M{i}"), "location_id": l}),
        )
        .await;
        for (k, p) in ids.iter().enumerate() {
            let r = h
                .post(
                    "/api/machines/products/",
                    &admin,
                    json!({"machine_id": m, "selection": format!("A{k}"), "product_id": p, "max": 900,
                           "price_minor": products[k].1, "current": 900}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        }
        machines.push(m);
        clients.push(c);
        locations.push(l);
    }
    // 40 days of sales (two months at least); Water's rate rises from 5.5 % to 20 % halfway.
    let (mut by_rate, mut by_client, mut by_month) = (Sums::new(), Sums::new(), Sums::new());
    let mut rates = [550u32, 1000, 0];
    for half in 0..2 {
        if half == 1 {
            let r = h
                .put(
                    &format!("/api/products/{}/", ids[0]),
                    &admin,
                    json!({"name": "Water", "price_minor": 120, "vat_bps": 2000}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            rates[0] = 2000;
        }
        for (i, m) in machines.iter().enumerate() {
            let mut events: Vec<MachineEvent> = Vec::new();
            for d in (1..=40i64).filter(|d| (*d > 20) == (half == 0)) {
                let day = today - Duration::days(d);
                let at = day.and_hms_opt(11, 0, 0).unwrap().and_utc();
                for k in 0..3usize {
                    let n = (d as usize + i + k) % 4;
                    for q in 0..n {
                        let qty = 1 + (q % 2) as i64;
                        let free = (d + q as i64) % 13 == 0;
                        let mut e = json!({"id": format!("v{d}-{k}-{q}"), "type": "vend",
                            "at": (at + Duration::minutes((k * 10 + q) as i64)).to_rfc3339(),
                            "selection": format!("A{k}"), "price_minor": products[k].1,
                            "quantity": qty, "payment": if q % 3 == 0 { "cashless" } else { "cash" }});
                        if free {
                            e["free"] = json!(true);
                            // Taken in, no revenue: not in the VAT report.
                            events.push(serde_json::from_value(e).unwrap());
                            continue;
                        }
                        events.push(serde_json::from_value(e).unwrap());
                        let gross = products[k].1 * qty;
                        let net = net_of_vat(gross, rates[k]);
                        add(&mut by_rate, "", rates[k], gross, net);
                        add(&mut by_client, &clients[i], rates[k], gross, net);
                        add(
                            &mut by_month,
                            &format!("{:04}-{:02}", day.year(), day.month()),
                            rates[k],
                            gross,
                            net,
                        );
                    }
                }
            }
            h.app.events.apply(m, &events).await.unwrap();
        }
    }
    let q = format!(
        "period=custom&date_from={}&date_to={}",
        today - Duration::days(40),
        today - Duration::days(1)
    );
    let get = |group: &str| {
        let path = format!("/api/vat/?{q}&group={group}");
        let admin = admin.clone();
        let h = &h;
        async move {
            let r = h.get(&path, &admin).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            r.json()["data"].clone()
        }
    };
    let rate = get("rate").await;
    assert_eq!(of(&rate), by_rate);
    assert_eq!(of(&get("client").await), by_client);
    assert_eq!(of(&get("month").await), by_month);
    assert!(by_month.len() >= 2 * 3, "two months at least");
    assert!(
        by_rate.contains_key(&(String::new(), 550)) && by_rate.contains_key(&(String::new(), 2000))
    );
    let paper = by_rate[&(String::new(), 0)];
    assert_eq!(rate["exempt"]["gross_minor"], paper.0);
    assert_eq!(rate["exempt"]["vat_minor"], 0);
    let total_gross: i64 = by_rate.values().map(|v| v.0).sum();
    let total_vat: i64 = by_rate.values().map(|v| v.2).sum();
    assert_eq!(rate["total"]["gross_minor"], total_gross);
    assert_eq!(rate["total"]["vat_minor"], total_vat);
    assert_eq!(rate["taxable"]["gross_minor"], total_gross - paper.0);
    assert_eq!(rate["legacy_sales"], 0);
    // The accountant's file: each month at each rate, each rate, taxable, exempt, the total.
    let r = h
        .get(
            &format!("/api/vat/export/?{q}&group=month&format=xlsx"),
            &admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(r.bytes.to_vec())).unwrap();
    let sheet = calamine::Reader::worksheet_range_at(&mut book, 0)
        .unwrap()
        .unwrap();
    let rows: Vec<Vec<String>> = sheet
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect();
    assert_eq!(
        rows.len(),
        1 + by_month.len() + by_rate.len() + 3,
        "{rows:?}"
    );
    let last = rows.last().unwrap();
    let minor = |cell: &str| (cell.parse::<f64>().unwrap() * 100.0).round() as i64;
    assert_eq!(last[0], "Total");
    assert_eq!(minor(&last[3]), total_gross, "{last:?}");
    assert_eq!(minor(&last[5]), total_vat, "{last:?}");
    // The sales overview's totals, to the cent.
    let sales = h
        .get(&format!("/api/sales-journal/total-table/?{q}"), &admin)
        .await
        .json()["data"]["total"]
        .clone();
    assert_eq!(
        sales["sales_minor"], rate["total"]["gross_minor"],
        "{sales}"
    );
    assert_eq!(
        sales["sales_excl_tax_minor"], rate["total"]["net_minor"],
        "{sales}"
    );
    // A filter and the scope: one client's machine only.
    let one = h
        .get(
            &format!("/api/vat/?{q}&group=client&clients={}", clients[1]),
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    let want: Sums = by_client
        .iter()
        .filter(|((c, _), _)| c == &clients[1])
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    assert_eq!(of(&one), want);
    let role = h.role(&admin, "Accountant", &["reports.vat.list"]).await;
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "Acc", "email": "acc@example.com", "password": "password-123", "role_id": role,
                   "access_all_machines": false, "location_ids": [locations[0]]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let acc = h.token("acc@example.com", "password-123").await;
    let mine = h
        .get(&format!("/api/vat/?{q}&group=client"), &acc)
        .await
        .json()["data"]
        .clone();
    let want: Sums = by_client
        .iter()
        .filter(|((c, _), _)| c == &clients[0])
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    assert_eq!(of(&mine), want);
    assert_eq!(
        h.get(&format!("/api/vat/export/?{q}"), &acc).await.status,
        StatusCode::FORBIDDEN,
        "listing is not exporting"
    );
    // Without the permission; a bad grouping.
    let other = h
        .role(&admin, "Sales", &["reports.sales_overview.list"])
        .await;
    h.user(&admin, "sales@example.com", Some(&other)).await;
    let t = h.token("sales@example.com", "password-123").await;
    assert_eq!(
        h.get(&format!("/api/vat/?{q}"), &t).await.status,
        StatusCode::FORBIDDEN
    );
    let r = h.get(&format!("/api/vat/?{q}&group=product"), &admin).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["errors"]["group"].is_array());
}

on_both_stores!(vat_by_rate_client_and_month_equals_the_sales);
