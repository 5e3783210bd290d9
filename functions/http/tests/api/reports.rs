//! The encashment report: each collection beside the cash sales since the machine's previous
//! collection (edge days from the ledger, whole days between from the rollups), the over/short,
//! the summaries by employee and machine, the scope and the permissions.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

fn event(v: Value) -> MachineEvent {
    serde_json::from_value(v).unwrap()
}

fn vend(id: &str, at: DateTime<Utc>, payment: &str, free: bool) -> MachineEvent {
    event(
        json!({"id": id, "type": "vend", "at": at.to_rfc3339(), "selection": "S0",
                 "price_minor": 200, "quantity": 1, "payment": payment, "free": free}),
    )
}

/// An EVA-DTS audit read at `at` whose cash counters stand at `cash_in` (`CA305`, since
/// initialisation) and `change` (`CA403`).
fn audit(id: &str, at: DateTime<Utc>, cash_in: u64, change: u64) -> MachineEvent {
    let body = format!(
        "ST*001*0001\r\nID1*SN-1*MODEL*0001\r\nID4*2*1978\r\nPA1*S0*200\r\nPA2*0*0*0*0\r\n\
         CA3*0*0*0*0*{cash_in}*0*0*0\r\nCA4*0*0*{change}*0\r\nEA3*1*261122*1200\r\n"
    );
    let crc = vendfleet_domain::dex::crc16_arc(body.as_bytes());
    let content =
        format!("DXS*VF00000001*VA*V1/1*1\r\n{body}G85*{crc:04X}\r\nSE*11*0001\r\nDXE*1*1\r\n");
    event(json!({"id": id, "type": "dex", "at": at.to_rfc3339(), "content": content}))
}

#[allow(clippy::too_many_arguments)]
fn collection(
    id: &str,
    at: DateTime<Utc>,
    employee: &str,
    cash_box: i64,
    bills: i64,
    tubes: i64,
    ejected: i64,
    refilled: i64,
) -> MachineEvent {
    event(
        json!({"id": id, "type": "cash_collection", "at": at.to_rfc3339(), "bag_no": id,
        "employee_id": employee, "cash_box_minor": cash_box, "bill_stacker_minor": bills,
        "tubes_minor": tubes, "ejected_minor": ejected, "refilled_coins_minor": refilled,
        "collected_minor": cash_box + bills + ejected}),
    )
}

async fn collections_are_compared_with_the_cash_sales_between_them(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let product = create(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "price_minor": 200, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    let loc = create(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "Gare", "time_zone": "Europe/Paris"}),
    )
    .await;
    let machine = create(
        &h,
        &admin,
        "/api/machines/",
        json!({"name": "M1", "location_id": loc}),
    )
    .await;
    let r = h
        .post(
            "/api/machines/products/",
            &admin,
            json!({"machine_id": machine, "selection": "S0", "product_id": product, "max": 100,
                   "price_minor": 200, "current": 100}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let ann = h.user(&admin, "ann@example.com", None).await;
    let bob = h.user(&admin, "bob@example.com", None).await;

    // Five days ago the first collection (nothing to compare it with) leaves 30.00 in the tubes.
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    let t0 = now - Duration::days(5);
    let day = Duration::days(1);
    let events = vec![
        collection("c1", t0, &ann, 900, 0, 3_500, 1_000, 500),
        // Three cash sales over three days (an edge day, a whole day between, the other edge),
        // and what is no cash sale: cashless, free, and a cash sale before c1.
        vend("v0", t0 - Duration::minutes(5), "cash", false),
        vend("v1", t0 + Duration::minutes(10), "cash", false),
        vend("v2", t0 + day, "cash", false),
        vend("v3", t0 + day * 2 - Duration::minutes(10), "cash", false),
        vend("v4", t0 + day, "cashless", false),
        vend("v5", t0 + day, "cash", true),
        // c2 two days later: 6.00 taken (box 2.00, notes 0, tubes up 4.00 from 30.00): right.
        collection("c2", t0 + day * 2, &ann, 200, 0, 3_400, 0, 0),
        // Then one cash sale of 2.00, and c3 finds only 1.00: short by 1.00.
        vend("v6", t0 + day * 3, "cash", false),
        collection("c3", t0 + day * 4, &bob, 100, 0, 3_400, 0, 0),
    ];
    h.app.events.apply(&machine, &events).await.unwrap();
    // The machine's own counters, read at each collection: 6.00 in net of change by c2 (right),
    // 2.00 by c3 (1.00 short again); a read three hours off c3 is nobody's.
    let reads = vec![
        audit("a1", t0 - Duration::minutes(5), 50_000, 10_000),
        audit("a2", t0 + day * 2 + Duration::minutes(20), 50_800, 10_200),
        audit("a3", t0 + day * 4 - Duration::minutes(3), 51_050, 10_250),
        audit("a4", t0 + day * 4 + Duration::hours(3), 99_000, 10_250),
    ];
    h.app.events.apply(&machine, &reads).await.unwrap();

    let q = "period=custom&date_from=2000-01-01&date_to=2099-12-31";
    let r = h.get(&format!("/api/encashments/?{q}"), &admin).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "a century is too long");
    let today = h.app.calendar.today();
    let q = format!(
        "date_from={}&date_to={}",
        today - Duration::days(10),
        today + Duration::days(1)
    );
    let r = h.get(&format!("/api/encashments/?{q}"), &admin).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let rows = r.json()["data"].as_array().unwrap().clone();
    let got: Vec<(&str, Value, Value, Value)> = rows
        .iter()
        .map(|r| {
            (
                r["bag_no"].as_str().unwrap(),
                r["taken_minor"].clone(),
                r["expected_minor"].clone(),
                r["over_short_minor"].clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("c3", json!(100), json!(200), json!(-100)),
            ("c2", json!(600), json!(600), json!(0)),
            ("c1", Value::Null, Value::Null, Value::Null),
        ]
    );
    let counted: Vec<(Value, Value)> = rows
        .iter()
        .map(|r| {
            (
                r["counted_minor"].clone(),
                r["counted_over_short_minor"].clone(),
            )
        })
        .collect();
    assert_eq!(
        counted,
        vec![
            (json!(200), json!(-100)),
            (json!(600), json!(0)),
            (Value::Null, Value::Null)
        ]
    );
    assert_eq!(rows[0]["employee"], "Test User");
    assert_eq!(rows[0]["previous_date"], rows[1]["date"]);

    let t = h.get(&format!("/api/encashments/total/?{q}"), &admin).await;
    assert_eq!(t.status, StatusCode::OK, "{}", t.json());
    let t = &t.json()["data"];
    assert_eq!(t["total"]["collections"], 3);
    assert_eq!(t["total"]["compared"], 2);
    assert_eq!(t["total"]["expected_minor"], 800);
    assert_eq!(t["total"]["over_short_minor"], -100);
    assert_eq!(t["total"]["shorts"], 1);
    assert_eq!(t["by_employee"][0]["id"], bob.as_str(), "most short first");
    assert_eq!(t["by_employee"][0]["over_short_minor"], -100);
    assert_eq!(t["by_employee"][1]["id"], ann.as_str());
    assert_eq!(t["by_employee"][1]["collections"], 2);
    assert_eq!(t["by_machine"][0]["name"], "M1");
    // The employee filter.
    let only_bob = h
        .get(&format!("/api/encashments/?{q}&employees={bob}"), &admin)
        .await
        .json();
    assert_eq!(only_bob["pagination"]["count"], 1);

    // The export carries every collection.
    let csv = h
        .get(&format!("/api/encashments/export/?{q}&format=csv"), &admin)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let text = String::from_utf8(csv.bytes).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(text.contains("-1.00"), "{text}");

    // Each endpoint needs its permission; a user scoped elsewhere sees no collection.
    let other = create(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "Elsewhere", "time_zone": "Europe/Paris"}),
    )
    .await;
    for (i, perm) in ["list", "total", "export"].iter().enumerate() {
        let key = format!("reports.encashment.{perm}");
        let role = h.role(&admin, &format!("E{i}"), &[key.as_str()]).await;
        let email = format!("e{i}@example.com");
        let body = json!({"name": "E", "email": email, "password": "password-123",
                          "role_id": role, "location_ids": [other]});
        assert_eq!(
            h.post("/api/users/", &admin, body).await.status,
            StatusCode::CREATED
        );
        let token = h.token(&email, "password-123").await;
        for (path, needs) in [
            ("/api/encashments/", "list"),
            ("/api/encashments/total/", "total"),
            ("/api/encashments/export/", "export"),
        ] {
            let r = h.get(&format!("{path}?{q}"), &token).await;
            let want = if needs == *perm {
                StatusCode::OK
            } else {
                StatusCode::FORBIDDEN
            };
            assert_eq!(r.status, want, "{perm} on {path}");
        }
        match *perm {
            "list" => {
                let r = h
                    .get(&format!("/api/encashments/?{q}"), &token)
                    .await
                    .json();
                assert_eq!(r["pagination"]["count"], 0);
            }
            "total" => {
                let r = h
                    .get(&format!("/api/encashments/total/?{q}"), &token)
                    .await
                    .json();
                assert_eq!(r["data"]["total"]["collections"], 0);
                assert_eq!(r["data"]["by_machine"], json!([]));
            }
            _ => {}
        }
    }
}

async fn inventory_by_product_component_and_machine(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let water = create(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "price_minor": 150, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    let cup = create(
        &h,
        &admin,
        "/api/products/components/",
        json!({"name": "Cup", "unit": "pcs"}),
    )
    .await;
    let coffee = create(
        &h,
        &admin,
        "/api/products/components/",
        json!({"name": "Coffee", "unit": "g"}),
    )
    .await;
    let espresso = create(
        &h,
        &admin,
        "/api/products/composite-products/",
        json!({"name": "Espresso", "price_minor": 80, "vat_bps": 1000, "units": "cup",
               "is_composite": true, "recipe": [{"component_id": cup, "quantity": 1},
                                                 {"component_id": coffee, "quantity": 7}]}),
    )
    .await;
    let mut machines = Vec::new();
    let mut locations = Vec::new();
    for name in ["Gare", "Quai"] {
        let loc = create(
            &h,
            &admin,
            "/api/locations/",
            json!({"name": name, "time_zone": "Europe/Paris"}),
        )
        .await;
        machines.push(
            create(
                &h,
                &admin,
                "/api/machines/",
                json!({"name": format!("M-{name}"), "location_id": loc}),
            )
            .await,
        );
        locations.push(loc);
    }
    let soon = h.app.calendar.today() + Duration::days(1);
    for (m, code, product, current, max, price, expiry) in [
        (0, "S0", &water, 10, 20, 150, Some(soon)),
        (0, "S1", &espresso, 30, 100, 80, None),
        (0, "S2", &water, 0, 10, 150, None),
        (1, "S0", &water, 4, 20, 150, None),
    ] {
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                json!({"machine_id": machines[m], "selection": code, "product_id": product,
                       "max": max, "price_minor": price, "current": current,
                       "expiry_date": expiry.map(|d| d.to_string())}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    }
    let products = h.get("/api/inventories/", &admin).await;
    assert_eq!(products.status, StatusCode::OK, "{}", products.json());
    let rows = products.json()["data"].clone();
    assert_eq!(rows[0]["name"], "Espresso");
    assert_eq!(rows[0]["value_minor"], 30 * 80);
    let w = &rows[1];
    assert_eq!(
        (
            w["quantity"].clone(),
            w["value_minor"].clone(),
            w["capacity"].clone()
        ),
        (json!(14), json!(14 * 150), json!(50))
    );
    assert_eq!(
        (
            w["machines"].clone(),
            w["selections"].clone(),
            w["sold_out"].clone(),
            w["low"].clone()
        ),
        (json!(2), json!(3), json!(1), json!(1))
    );
    assert_eq!(w["next_expiry"], json!(soon));
    let components = h.get("/api/inventories/components/", &admin).await.json();
    let got: Vec<(Value, Value)> = components["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].clone(), c["quantity"].clone()))
        .collect();
    assert_eq!(
        got,
        vec![(json!("Coffee"), json!(210)), (json!("Cup"), json!(30))]
    );
    let detail = h
        .get(
            &format!("/api/inventories/machines/{}/", machines[0]),
            &admin,
        )
        .await
        .json();
    let codes: Vec<&str> = detail["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["selection"].as_str().unwrap())
        .collect();
    assert_eq!(codes[0], "S0", "expiring soonest first: {detail}");
    assert_eq!(codes, vec!["S0", "S1", "S2"]);
    assert_eq!(detail["data"][2]["sold_out"], true);
    assert_eq!(detail["data"][0]["value_minor"], 10 * 150);
    let csv = h
        .get("/api/inventory/export/?tab=products&format=csv", &admin)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    assert_eq!(String::from_utf8(csv.bytes).unwrap().lines().count(), 3);
    assert_eq!(
        h.get("/api/inventory/export/?tab=shelves", &admin)
            .await
            .status,
        StatusCode::BAD_REQUEST
    );

    // A user of the product tab scoped to the second location: its stock only, no other machine.
    let role = h
        .role(
            &admin,
            "Stock",
            &[
                "reports.inventory_report.products_list",
                "reports.inventory_report.products_export",
            ],
        )
        .await;
    let body = json!({"name": "S", "email": "stock@example.com", "password": "password-123",
                      "role_id": role, "location_ids": [locations[1]]});
    assert_eq!(
        h.post("/api/users/", &admin, body).await.status,
        StatusCode::CREATED
    );
    let token = h.token("stock@example.com", "password-123").await;
    let mine = h.get("/api/inventories/", &token).await.json();
    assert_eq!(mine["pagination"]["count"], 1);
    assert_eq!(mine["data"][0]["quantity"], 4);
    assert_eq!(
        h.get(
            &format!("/api/inventories/machines/{}/", machines[0]),
            &token
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        h.get("/api/inventories/components/", &token).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        h.get("/api/inventory/export/?tab=components", &token)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        h.get("/api/inventory/export/?tab=products", &token)
            .await
            .status,
        StatusCode::OK
    );
}

on_both_stores!(
    collections_are_compared_with_the_cash_sales_between_them,
    inventory_by_product_component_and_machine
);
