//! Planning: velocities and predictions against a brute-force computation from the ledger,
//! picklist arithmetic (par, cases, composites), the solver's routes (capacity, shifts, each
//! machine once), the planned route's lifecycle and refusals, the idempotent visit booking, the
//! stock and accuracy reports, and the machine scope on every call.

use crate::common::{create, Backend, Harness, Seeded};
use axum::http::StatusCode;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

#[derive(Clone)]
pub(crate) struct Fleet {
    pub(crate) admin: String,
    /// Three machines east of the depot in a line, one with no coordinates.
    pub(crate) machines: Vec<String>,
    pub(crate) nowhere: String,
    pub(crate) water: String,
    pub(crate) cappuccino: String,
    /// (machine, location).
    pub(crate) locations: Vec<String>,
}

pub(crate) fn now(h: &Harness) -> DateTime<Utc> {
    vendfleet_app::ports::Clock::now(h.clock.as_ref())
}

/// The fleet of [`fleet`], seeded once on DynamoDB.
static FLEET: Seeded<Fleet> = Seeded::new();

/// A harness holding the fleet of [`fleet`] (on DynamoDB a copy of one seeded once), and its
/// ids.
pub(crate) async fn fleet_harness(b: Backend) -> (Harness, Fleet) {
    FLEET.harness(b, fleet).await
}

/// A small fleet: water (cases of 6) and a cappuccino (7 g coffee and a cup a vend) in three
/// machines with coordinates and one without, and 28 days of vends whose pattern depends on
/// the weekday (free vends among them).
async fn fleet(h: &Harness) -> Fleet {
    let admin = h.admin().await;
    let water = create(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "price_minor": 120, "vat_bps": 550, "case_size": 6}),
    )
    .await;
    let coffee = create(
        h,
        &admin,
        "/api/products/components/",
        json!({"name": "Coffee beans", "unit": "g"}),
    )
    .await;
    let cup = create(
        h,
        &admin,
        "/api/products/components/",
        json!({"name": "Cup", "unit": "pcs"}),
    )
    .await;
    let cappuccino = create(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Cappuccino", "price_minor": 180, "vat_bps": 1000, "is_composite": true,
               "recipe": [{"component_id": coffee, "quantity": 7}, {"component_id": cup, "quantity": 1}]}),
    )
    .await;
    let mut machines = Vec::new();
    let mut locations = Vec::new();
    for (i, km) in [2.0, 4.0, 6.0].iter().enumerate() {
        let l = create(
            h,
            &admin,
            "/api/locations/",
            json!({"name": format!("Site {i}"), "time_zone": "Europe/Paris",
                   "latitude": 45.0, "longitude": 7.0 + km / 78.7}),
        )
        .await;
        let m = create(
            h,
            &admin,
            "/api/machines/",
            json!({"name": format!("M{i}"), "location_id": l}),
        )
        .await;
        locations.push(l);
        machines.push(m);
    }
    let nowhere_loc = create(
        h,
        &admin,
        "/api/locations/",
        json!({"name": "Unknown", "time_zone": "Europe/Paris"}),
    )
    .await;
    let nowhere = create(
        h,
        &admin,
        "/api/machines/",
        json!({"name": "Nowhere", "location_id": nowhere_loc}),
    )
    .await;
    let t = now(h);
    for (n, m) in machines.iter().chain([&nowhere]).enumerate() {
        for (sel, product, max) in [
            ("A1", &water, 30),
            ("A2", &water, 10),
            ("B1", &cappuccino, 40),
        ] {
            let r = h
                .post(
                    "/api/machines/products/",
                    &admin,
                    json!({"machine_id": m, "selection": sel, "product_id": product, "max": max,
                           "price_minor": 150, "current": max}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        }
        // 28 days of vends: more on some weekdays, a free vend now and then.
        let mut events: Vec<MachineEvent> = Vec::new();
        for d in 1..=28i64 {
            let at = t - Duration::days(d) - Duration::hours(3);
            let wd = at.weekday().num_days_from_monday() as i64;
            for k in 0..((wd + n as i64) % 4) {
                let sel = if k % 2 == 0 { "A1" } else { "B1" };
                let mut e = json!({"id": format!("v{d}-{k}"), "type": "vend", "at": at.to_rfc3339(),
                    "selection": sel, "price_minor": 150, "quantity": 1, "payment": "cash"});
                if (d + k) % 7 == 0 {
                    e["free"] = json!(true);
                }
                events.push(serde_json::from_value(e).unwrap());
            }
        }
        h.app.events.apply(m, &events).await.unwrap();
    }
    Fleet {
        admin,
        machines,
        nowhere,
        water,
        cappuccino,
        locations,
    }
}

fn dec1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

async fn velocities_and_predictions_equal_a_brute_force_from_the_ledger(b: Backend) {
    let (h, f) = fleet_harness(b).await;
    let paris: chrono_tz::Tz = "Europe/Paris".parse().unwrap();
    let today = vendfleet_domain::calendar::local_date(now(&h), h.app.calendar.time_zone());
    let visit = today + Duration::days(3);
    let (from, to) = (today - Duration::days(28), today - Duration::days(1));
    for m in &f.machines {
        let r = h
            .get(
                &format!("/api/route-planning/machines/{m}/products/?visit_date={visit}"),
                &f.admin,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        let lines = r.json()["data"].as_array().unwrap().clone();
        assert_eq!(lines.len(), 3);
        // Brute force: every vend of the ledger, by product and weekday.
        let ledger = h.sales_store().ledger(m, from, to).await.unwrap();
        let last = ledger.iter().map(|v| v.at).max().unwrap();
        let reading_day = vendfleet_domain::calendar::local_date(last, paris);
        let mut units: std::collections::HashMap<(String, usize), f64> = Default::default();
        for v in &ledger {
            *units
                .entry((
                    v.product_id.clone(),
                    v.local_date.weekday().num_days_from_monday() as usize,
                ))
                .or_default() += f64::from(v.quantity);
        }
        for line in &lines {
            let product = line["product_id"].as_str().unwrap();
            let max = line["max"].as_i64().unwrap();
            // Water is in A1 (30) and A2 (10): its velocity shared 3 : 1.
            let share = match line["selection"].as_str().unwrap() {
                "A1" => 0.75,
                "A2" => 0.25,
                _ => 1.0,
            };
            let mut v = [0.0f64; 7];
            for (wd, slot) in v.iter_mut().enumerate() {
                let days = (0..28)
                    .map(|i| from + Duration::days(i))
                    .filter(|d| d.weekday().num_days_from_monday() as usize == wd)
                    .count() as f64;
                *slot = units
                    .get(&(product.to_string(), wd))
                    .copied()
                    .unwrap_or(0.0)
                    / days
                    * share;
            }
            let got: Vec<f64> = line["velocity_by_weekday"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            for wd in 0..7 {
                assert!(
                    (got[wd] - v[wd]).abs() < 0.006,
                    "{m} {product} weekday {wd}: {got:?} vs {v:?}"
                );
            }
            let mut expected_sales = 0.0;
            let mut d = reading_day;
            while d < visit {
                expected_sales += v[d.weekday().num_days_from_monday() as usize];
                d += Duration::days(1);
            }
            let current = line["current"].as_i64().unwrap();
            let predicted = (current as f64 - expected_sales).max(0.0);
            assert!(
                (line["predicted_at_visit"].as_f64().unwrap() - dec1(predicted)).abs() < 0.051,
                "{line}"
            );
            let gap = ((max as f64 - predicted) - 1e-9).ceil().max(0.0) as i64;
            assert_eq!(line["need"], gap, "{line}");
            let bring = if product == f.water && gap > 0 {
                (gap + 5) / 6 * 6
            } else {
                gap
            };
            assert_eq!(line["to_bring"], bring, "{line}");
            if product == f.water {
                assert_eq!(line["to_bring"].as_i64().unwrap() % 6, 0);
                assert_eq!(line["case_size"], 6);
            }
            if product == f.cappuccino {
                let comps = line["components"].as_array().unwrap();
                let coffee = comps.iter().find(|c| c["unit"] == "g").unwrap();
                assert_eq!(coffee["quantity"], bring * 7);
                let cup = comps.iter().find(|c| c["name"] == "Cup").unwrap();
                assert_eq!(cup["quantity"], bring);
            }
        }
    }
    // The ranked list: every machine once, need first.
    let r = h
        .get(
            &format!("/api/route-planning/?visit_date={visit}&page_size=50"),
            &f.admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let rows = r.json()["data"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 4);
    let order = |n: &str| {
        ["now", "soon", "later"]
            .iter()
            .position(|k| *k == n)
            .unwrap()
    };
    for w in rows.windows(2) {
        assert!(order(w[0]["need"].as_str().unwrap()) <= order(w[1]["need"].as_str().unwrap()));
    }
    // Sell out a machine's A2: it needs a visit now and comes first.
    let r = h
        .post(
            "/api/machines/products/",
            &f.admin,
            json!({"machine_id": f.machines[2], "selection": "A2", "product_id": f.water, "max": 10,
                   "price_minor": 150, "current": 0}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.json());
    let rows = h
        .get(
            &format!("/api/route-planning/?visit_date={visit}&need=visit"),
            &f.admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(rows[0]["id"], f.machines[2].as_str(), "{rows}");
    assert_eq!(rows[0]["need"], "now");
    assert!(rows[0]["signals"]["sold_out"].as_u64().unwrap() >= 1);
    // The operator's thresholds drive the list and the dashboard alike: one unit of ten is low
    // at 25 %, not at 5 %.
    let r = h
        .post(
            "/api/machines/products/",
            &f.admin,
            json!({"machine_id": f.machines[1], "selection": "A2", "product_id": f.water, "max": 10,
                   "price_minor": 150, "current": 1}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.json());
    let reasons = |d: &Value| -> Vec<String> {
        d["data"]["attention"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["machine_id"] == f.machines[1].as_str())
            .flat_map(|a| a["findings"].as_array().unwrap().clone())
            .map(|x| x["reason"].as_str().unwrap().to_string())
            .collect()
    };
    let low_in_list = |list: &Value| {
        list["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == f.machines[1].as_str())
            .unwrap()["signals"]["low"]
            .as_u64()
            .unwrap()
    };
    let list_path = format!("/api/route-planning/?visit_date={visit}&page_size=50");
    assert!(reasons(&h.get("/api/dashboard/", &f.admin).await.json()).contains(&"low".to_string()));
    assert!(low_in_list(&h.get(&list_path, &f.admin).await.json()) >= 1);
    let mut s = h
        .get("/api/route-planning/settings/", &f.admin)
        .await
        .json()["data"]
        .clone();
    s["low_share_pct"] = json!(5);
    let r = h.put("/api/route-planning/settings/", &f.admin, s).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert!(!reasons(&h.get("/api/dashboard/", &f.admin).await.json()).contains(&"low".to_string()));
    assert_eq!(low_in_list(&h.get(&list_path, &f.admin).await.json()), 0);
    // Bad visit dates.
    for bad in ["2020-01-01", "tomorrow", "2099-01-01"] {
        let r = h
            .get(&format!("/api/route-planning/?visit_date={bad}"), &f.admin)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(r.json()["errors"]["visit_date"].is_array());
    }
}

async fn picklists_routes_and_the_route_lifecycle(b: Backend) {
    let (h, f) = fleet_harness(b).await;
    let today = vendfleet_domain::calendar::local_date(now(&h), h.app.calendar.time_zone());
    let visit = today + Duration::days(1);
    let me = h.get("/api/users/me/", &f.admin).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let role = h
        .role(
            &f.admin,
            "Refiller",
            &[
                "planning.planned_routes.list",
                "settings.machines.edit_quantity_expiry",
                "settings.machines.collect_cash",
            ],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &f.admin,
            json!({"name": "Rita Refiller", "email": "refiller@example.com", "password": "password-123",
                   "role_id": role, "access_all_machines": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let refiller = r.json()["data"]["id"].as_str().unwrap().to_string();
    // A depot west of the machines.
    let mut s = h
        .get("/api/route-planning/settings/", &f.admin)
        .await
        .json()["data"]
        .clone();
    s["depot_latitude"] = json!(45.0);
    s["depot_longitude"] = json!(7.0);
    let r = h
        .put("/api/route-planning/settings/", &f.admin, s.clone())
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    s["speed_kmh"] = json!(500);
    let r = h.put("/api/route-planning/settings/", &f.admin, s).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["errors"]["speed_kmh"].is_array());

    let all: Vec<&String> = f.machines.iter().chain([&f.nowhere]).collect();
    let r = h
        .post(
            "/api/route-planning/generate-picklist/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "machine_ids": all, "employee_ids": [me, refiller],
                   "van_capacity": 120}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let plan = r.json()["data"].clone();
    let mut seen: Vec<String> = Vec::new();
    for route in plan["routes"].as_array().unwrap() {
        let units: i64 = route["stops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|st| st["units"].as_i64().unwrap())
            .sum();
        assert!(units <= 120, "{route}");
        assert_eq!(route["units"], units);
        for st in route["stops"].as_array().unwrap() {
            seen.push(st["machine_id"].as_str().unwrap().to_string());
            let arrival: DateTime<Utc> = st["arrival"].as_str().unwrap().parse().unwrap();
            let local = arrival.with_timezone(&chrono_tz::Europe::Paris);
            assert_eq!(local.date_naive(), visit);
            assert!(local.time() >= chrono::NaiveTime::from_hms_opt(7, 30, 0).unwrap());
            assert!(local.time() <= chrono::NaiveTime::from_hms_opt(16, 30, 0).unwrap());
        }
    }
    let unassigned: Vec<Value> = plan["unassigned"].as_array().unwrap().clone();
    assert!(unassigned
        .iter()
        .any(|u| u["machine_id"] == f.nowhere.as_str() && u["reason"] == "no_coordinates"));
    for u in &unassigned {
        seen.push(u["machine_id"].as_str().unwrap().to_string());
    }
    seen.sort();
    let mut expected: Vec<String> = all.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(seen, expected, "each machine once: {plan}");
    // The totals add the machines' lines.
    let total_water: i64 = plan["picklist"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["lines"].as_array().unwrap().clone())
        .filter(|l| l["product_id"] == f.water.as_str())
        .map(|l| l["to_bring"].as_i64().unwrap())
        .sum();
    let water_total = plan["totals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["product_id"] == f.water.as_str())
        .map_or(0, |t| t["quantity"].as_i64().unwrap());
    assert_eq!(total_water, water_total);

    // Save one route for the refiller, in a given order.
    let order = vec![f.machines[2].clone(), f.machines[0].clone()];
    let r = h
        .post(
            "/api/planned-routes/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "route_type": "refill",
                   "routes": [{"employee_id": refiller, "machine_ids": order}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let route = r.json()["data"][0].clone();
    let id = route["id"].as_str().unwrap().to_string();
    assert_eq!(route["status"], "planned");
    assert_eq!(route["machines"][0]["machine_id"], f.machines[2].as_str());
    assert_eq!(route["machines"][1]["machine_id"], f.machines[0].as_str());
    // A machine twice is refused; an unknown employee too.
    let r = h
        .post(
            "/api/planned-routes/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "routes": [{"employee_id": refiller, "machine_ids": [order[0], order[0]]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = h
        .post(
            "/api/planned-routes/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "routes": [{"employee_id": "nobody", "machine_ids": [order[0]]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    // The lifecycle: done straight from planned is refused; start, then a visit.
    let path = format!("/api/planned-routes/{id}/status/");
    let r = h.post(&path, &f.admin, json!({"status": "done"})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());
    let r = h.post(&path, &f.admin, json!({"status": "flying"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // Edits while planned; not after it starts.
    let r = h
        .call(
            axum::http::Method::PATCH,
            &format!("/api/planned-routes/{id}/"),
            Some(&f.admin),
            Some(json!({"name": "Tuesday east"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let r = h
        .post(&path, &f.admin, json!({"status": "in_progress"}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let r = h
        .call(
            axum::http::Method::PATCH,
            &format!("/api/planned-routes/{id}/"),
            Some(&f.admin),
            Some(json!({"name": "Later"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = h
        .delete(&format!("/api/planned-routes/{id}/"), &f.admin, json!({}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // The refiller books the first stop; a retry books nothing.
    let rt = h.token("refiller@example.com", "password-123").await;
    let picks = h
        .get(&format!("/api/planned-routes/{id}/machines/products/"), &rt)
        .await;
    assert_eq!(picks.status, StatusCode::OK, "{}", picks.json());
    let stop = picks.json()["data"][0].clone();
    assert_eq!(stop["machine_id"], f.machines[2].as_str());
    let lines: Vec<Value> = stop["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let found = l["current"].as_i64().unwrap().min(l["max"].as_i64().unwrap()) - 1;
            let found = found.max(1);
            json!({"selection": l["selection"], "found": found,
                   "filled": l["max"].as_i64().unwrap() - found, "removed": 1, "removed_reason": "expired"})
        })
        .collect();
    let visit_body = json!({"route_id": id, "machine_id": f.machines[2], "request_id": "visit-1",
                            "lines": lines, "cash_bag": "BAG-7", "collected_minor": 4200});
    // A removal needs its reason: an empty one is refused on the line's field.
    let mut no_reason = visit_body.clone();
    no_reason["request_id"] = json!("visit-0");
    no_reason["lines"][0]["removed_reason"] = json!("");
    let r = h
        .post("/api/machines/fill-from-route/", &rt, no_reason)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    assert!(
        r.json()["errors"]
            .as_object()
            .unwrap()
            .keys()
            .any(|k| k.ends_with("removed_reason")),
        "{}",
        r.json()
    );
    let r = h
        .post("/api/machines/fill-from-route/", &rt, visit_body.clone())
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["replayed"], false);
    assert_eq!(r.json()["data"]["route"]["status"], "in_progress");
    let refills = || async {
        h.get(
            &format!("/api/refills/?machine={}&page_size=100", f.machines[2]),
            &f.admin,
        )
        .await
        .json()
    };
    let log = refills().await;
    let route_lines: Vec<&Value> = log["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source"] == "route")
        .collect();
    assert_eq!(route_lines.len(), 3, "{log}");
    let again = h
        .post("/api/machines/fill-from-route/", &rt, visit_body.clone())
        .await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.json()["data"]["replayed"], true);
    assert_eq!(
        refills().await["pagination"]["count"],
        log["pagination"]["count"]
    );
    let mut other = visit_body.clone();
    other["request_id"] = json!("visit-2");
    let r = h.post("/api/machines/fill-from-route/", &rt, other).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    // The stock is what the refiller left: found + filled − removed = max − 1.
    let sels = h
        .get(
            &format!("/api/machines/{}/products/", f.machines[2]),
            &f.admin,
        )
        .await
        .json();
    for sel in sels["data"].as_array().unwrap() {
        assert_eq!(
            sel["current"].as_i64().unwrap(),
            sel["max"].as_i64().unwrap() - 1,
            "{sel}"
        );
    }
    // Bad visits lose nothing: too much filled, an unknown selection.
    let bad = json!({"route_id": id, "machine_id": f.machines[0], "request_id": "bad",
                     "lines": [{"selection": "A2", "found": 5, "filled": 50, "removed": 0},
                               {"selection": "ZZ", "found": 1}]});
    let r = h.post("/api/machines/fill-from-route/", &rt, bad).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    assert!(r.json()["errors"]["lines.0.filled"].is_array());
    assert!(r.json()["errors"]["lines.1.selection"].is_array());

    // Reports: stock and accuracy.
    let stocks = h
        .get(&format!("/api/planned-routes/{id}/stocks/"), &rt)
        .await
        .json()["data"]
        .clone();
    let water = stocks["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == f.water.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        water["returned"].as_i64().unwrap(),
        water["loaded"].as_i64().unwrap() - water["filled"].as_i64().unwrap()
    );
    assert!(
        stocks["components"].as_array().unwrap().len() == 2,
        "{stocks}"
    );
    let acc = h
        .get(&format!("/api/planned-routes/{id}/accuracy/"), &rt)
        .await
        .json()["data"]
        .clone();
    let acc_lines = acc["lines"].as_array().unwrap();
    assert_eq!(acc_lines.len(), 3);
    let (mut err, mut actual) = (0i64, 0i64);
    for l in acc_lines {
        assert_eq!(
            l["error"].as_i64().unwrap(),
            l["predicted"].as_i64().unwrap() - l["actual"].as_i64().unwrap()
        );
        err += l["abs_error"].as_i64().unwrap();
        actual += l["actual"].as_i64().unwrap();
    }
    let expected = 1.0 - err as f64 / actual as f64;
    assert!((acc["accuracy"].as_f64().unwrap() - expected).abs() < 0.001);
    let export = h
        .get(
            &format!("/api/planned-routes/{id}/export/?format=csv"),
            &f.admin,
        )
        .await;
    assert_eq!(export.status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&export.bytes).contains("BAG") || export.bytes.len() > 100);

    // A visited stop stays; the other can go; the last stop booked makes the route done.
    let r = h
        .delete(
            &format!("/api/planned-routes/{id}/machines/{}/", f.machines[2]),
            &f.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let last = json!({"route_id": id, "machine_id": f.machines[0], "request_id": "visit-3",
                      "lines": [{"selection": "A1", "found": 10, "filled": 20}]});
    let r = h.post("/api/machines/fill-from-route/", &rt, last).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["route"]["status"], "done");
    let r = h
        .post(&path, &f.admin, json!({"status": "cancelled"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = h
        .post(
            &format!("/api/planned-routes/{id}/change-employee/"),
            &f.admin,
            json!({"employee_id": me}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // A planned route expires at the end of its day, and nothing moves it then.
    let r = h
        .post(
            "/api/planned-routes/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "routes": [{"employee_id": me, "machine_ids": [f.machines[1]]}]}),
        )
        .await;
    let late = r.json()["data"][0]["id"].as_str().unwrap().to_string();
    let expires: DateTime<Utc> = r.json()["data"][0]["expires_at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        expires
            .with_timezone(&chrono_tz::Europe::Paris)
            .date_naive(),
        visit + Duration::days(1)
    );
    h.clock.set(expires + Duration::minutes(1));
    let admin = h.admin().await;
    let r = h.get(&format!("/api/planned-routes/{late}/"), &admin).await;
    assert_eq!(r.json()["data"]["status"], "expired");
    let r = h
        .post(
            &format!("/api/planned-routes/{late}/status/"),
            &admin,
            json!({"status": "in_progress"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let list = h
        .get("/api/planned-routes/?status=expired", &admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 1);
    let r = h
        .delete(&format!("/api/planned-routes/{late}/"), &admin, json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    let _ = NaiveDate::MIN;
}

async fn the_machine_scope_holds_on_every_call(b: Backend) {
    let (h, f) = fleet_harness(b).await;
    let today = vendfleet_domain::calendar::local_date(now(&h), h.app.calendar.time_zone());
    let visit = today + Duration::days(1);
    let role = h
        .role(
            &f.admin,
            "Planner",
            &[
                "planning.route_planning.list",
                "planning.route_planning.generate_picklist",
                "planning.route_planning.change_employee",
                "planning.planned_routes.list",
                "planning.planned_routes.edit",
                "planning.planned_routes.change_employee",
                "settings.machines.edit_quantity_expiry",
            ],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &f.admin,
            json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                   "role_id": role, "access_all_machines": false, "location_ids": [f.locations[0]]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped_id = r.json()["data"]["id"].as_str().unwrap().to_string();
    let t = h.token("scoped@example.com", "password-123").await;
    let (mine, theirs) = (&f.machines[0], &f.machines[1]);
    let list = h.get("/api/route-planning/?page_size=50", &t).await.json();
    assert_eq!(list["pagination"]["count"], 1);
    assert_eq!(list["data"][0]["id"], mine.as_str());
    let map = h.get("/api/route-planning/map/", &t).await.json();
    assert_eq!(map["data"]["machines"].as_array().unwrap().len(), 1);
    for path in [
        format!("/api/route-planning/machines/{theirs}/products/"),
        format!("/api/route-planning/machines/{theirs}/machine-cash/"),
    ] {
        assert_eq!(
            h.get(&path, &t).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    assert_eq!(
        h.get(
            &format!("/api/route-planning/machines/{mine}/machine-cash/"),
            &t
        )
        .await
        .status,
        StatusCode::OK
    );
    let r = h
        .post(
            "/api/route-planning/generate-picklist/",
            &t,
            json!({"visit_date": visit.to_string(), "machine_ids": [theirs], "employee_ids": [scoped_id]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // The scoped planner may not change the operator's settings.
    let s = h.get("/api/route-planning/settings/", &t).await.json()["data"].clone();
    assert_eq!(
        h.put("/api/route-planning/settings/", &t, s).await.status,
        StatusCode::FORBIDDEN
    );
    // A route over a machine outside the scope is invisible, and cannot be given to them.
    let r = h
        .post(
            "/api/planned-routes/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "routes": [{"employee_id": scoped_id, "machine_ids": [theirs]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    let admin_id = h.get("/api/users/me/", &f.admin).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = h
        .post(
            "/api/planned-routes/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "routes": [{"employee_id": admin_id, "machine_ids": [mine, theirs]}]}),
        )
        .await;
    let id = r.json()["data"][0]["id"].as_str().unwrap().to_string();
    for path in [
        format!("/api/planned-routes/{id}/"),
        format!("/api/planned-routes/{id}/machines/"),
        format!("/api/planned-routes/{id}/machines/products/"),
        format!("/api/planned-routes/{id}/stocks/"),
        format!("/api/planned-routes/{id}/accuracy/"),
        format!("/api/planned-routes/{id}/machines/products/values/"),
        format!("/api/planned-routes/{id}/export/?format=csv"),
        format!("/api/planned-routes/loading-list/?route_id={id}"),
    ] {
        assert_eq!(
            h.get(&path, &t).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    // The day's loading list leaves the route out; its tick-off is not theirs either.
    let day = h
        .get(
            &format!("/api/planned-routes/loading-list/?date={visit}"),
            &t,
        )
        .await;
    assert_eq!(day.status, StatusCode::OK, "{}", day.json());
    assert_eq!(day.json()["data"]["routes"], json!([]));
    assert_eq!(day.json()["data"]["products"], json!([]));
    let r = h
        .put(
            &format!("/api/planned-routes/{id}/loading/"),
            &t,
            json!({"lines": [{"product_id": f.water, "loaded": 1}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.json());
    // Nor can they move, edit, give away or cut it.
    let moves = [
        h.post(
            &format!("/api/planned-routes/{id}/status/"),
            &t,
            json!({"status": "cancelled"}),
        )
        .await,
        h.post(
            &format!("/api/planned-routes/{id}/change-employee/"),
            &t,
            json!({"employee_id": scoped_id}),
        )
        .await,
        h.call(
            axum::http::Method::PATCH,
            &format!("/api/planned-routes/{id}/"),
            Some(&t),
            Some(json!({"name": "Mine"})),
        )
        .await,
        h.delete(
            &format!("/api/planned-routes/{id}/machines/{mine}/"),
            &t,
            json!({}),
        )
        .await,
    ];
    for r in moves {
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.json());
    }
    let admin_view = h
        .get(&format!("/api/planned-routes/{id}/"), &f.admin)
        .await
        .json();
    assert_eq!(admin_view["data"]["status"], "planned");
    assert_eq!(admin_view["data"]["stops"], 2);
    assert_eq!(
        h.get("/api/planned-routes/", &t).await.json()["pagination"]["count"],
        0
    );
    let r = h
        .post(
            "/api/machines/fill-from-route/",
            &t,
            json!({"route_id": id, "machine_id": mine, "request_id": "x", "lines": [{"selection": "A1", "found": 1}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // Without planning permissions: 403.
    let viewer = h
        .role(&f.admin, "Viewer", &["settings.machines.list"])
        .await;
    h.user(&f.admin, "viewer@example.com", Some(&viewer)).await;
    let v = h.token("viewer@example.com", "password-123").await;
    for path in [
        "/api/route-planning/",
        "/api/planned-routes/",
        "/api/route-planning/settings/",
    ] {
        assert_eq!(
            h.get(path, &v).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    for (path, body) in [
        (
            "/api/route-planning/generate-picklist/".to_string(),
            json!({"machine_ids": [mine], "employee_ids": [admin_id]}),
        ),
        ("/api/planned-routes/".to_string(), json!({"routes": []})),
        (
            format!("/api/planned-routes/{id}/status/"),
            json!({"status": "cancelled"}),
        ),
        (
            format!("/api/planned-routes/{id}/change-employee/"),
            json!({"employee_id": admin_id}),
        ),
        (
            "/api/machines/fill-from-route/".to_string(),
            json!({"route_id": id, "machine_id": mine, "request_id": "v", "lines": []}),
        ),
    ] {
        assert_eq!(
            h.post(&path, &v, body).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    assert_eq!(
        h.get(&format!("/api/planned-routes/{id}/export/?format=csv"), &v)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    // A planner without the change-employee permission plans only for themselves.
    let solo = h
        .role(
            &f.admin,
            "Solo",
            &[
                "planning.route_planning.list",
                "planning.route_planning.generate_picklist",
            ],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &f.admin,
            json!({"name": "Solo", "email": "solo@example.com", "password": "password-123",
                   "role_id": solo, "access_all_machines": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let solo_id = r.json()["data"]["id"].as_str().unwrap().to_string();
    let st = h.token("solo@example.com", "password-123").await;
    let body = |who: &str| json!({"visit_date": visit.to_string(), "machine_ids": [mine], "employee_ids": [who]});
    assert_eq!(
        h.post(
            "/api/route-planning/generate-picklist/",
            &st,
            body(&admin_id)
        )
        .await
        .status,
        StatusCode::FORBIDDEN
    );
    let r = h
        .post(
            "/api/route-planning/generate-picklist/",
            &st,
            body(&solo_id),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());

    // Two refillers of different reach: the machines are shared out among those who reach
    // them (the scoped refiller reaches only the first).
    let lined: Vec<&String> = f.machines.iter().collect();
    let r = h
        .post(
            "/api/route-planning/generate-picklist/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "machine_ids": lined,
                   "employee_ids": [scoped_id, admin_id]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let plan = r.json()["data"].clone();
    let mut placed = 0;
    for route in plan["routes"].as_array().unwrap() {
        for st in route["stops"].as_array().unwrap() {
            placed += 1;
            if route["employee_id"] == scoped_id.as_str() {
                assert_eq!(st["machine_id"], mine.as_str(), "{plan}");
            }
        }
    }
    assert_eq!(placed, lined.len(), "{plan}");
    // Alone, the scoped refiller reaches neither of the others: refused, naming them.
    let r = h
        .post(
            "/api/route-planning/generate-picklist/",
            &f.admin,
            json!({"visit_date": visit.to_string(), "machine_ids": lined,
                   "employee_ids": [scoped_id]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    let message = r.json()["errors"]["employee_ids"].to_string();
    for (i, id) in f.machines.iter().enumerate().skip(1) {
        let name = h
            .get(&format!("/api/machines/{id}/details/"), &f.admin)
            .await
            .json()["data"]["name"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(message.contains(&name), "machine {i} unnamed: {message}");
        assert!(
            !message.contains(id.as_str()),
            "an id in the message: {message}"
        );
    }
    assert!(message.contains("Nobody chosen can reach"), "{message}");
}

on_both_stores!(
    velocities_and_predictions_equal_a_brute_force_from_the_ledger,
    picklists_routes_and_the_route_lifecycle,
    the_machine_scope_holds_on_every_call
);
