//! The refiller's day from the phone (issue 30, the server's side): the stops' addresses, a
//! visit with its note and cash (the machine's collection booked once, however often the
//! phone sends it), "could not service", the refiller printing their own route and nobody
//! else's, the van loading list against the routes' picklists and its tick-off, and a route
//! moved to another day saying its picklists are the old day's.

use crate::common::{Backend, Harness};
use crate::planning::fleet_harness;
use axum::http::{Method, StatusCode};
use chrono::Duration;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The demo's refiller permissions.
const REFILLER: &[&str] = &[
    "planning.route_planning.list",
    "planning.planned_routes.list",
    "settings.machines.list",
    "settings.machines.edit_quantity_expiry",
    "settings.machines.read_eva_dts",
    "settings.machines.collect_cash",
    "reports.refill_log.list",
    "reports.encashment.list",
];

async fn refiller(h: &Harness, admin: &str, role: &str, email: &str) -> (String, String) {
    let r = h
        .post(
            "/api/users/",
            admin,
            json!({"name": email, "email": email, "password": "password-123",
                   "role_id": role, "access_all_machines": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    (id, h.token(email, "password-123").await)
}

/// Units to bring per product, from a route's stop picklists.
async fn to_bring(h: &Harness, token: &str, route: &str) -> Vec<BTreeMap<String, i64>> {
    let r = h
        .get(
            &format!("/api/planned-routes/{route}/machines/products/"),
            token,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stop| {
            let mut m = BTreeMap::new();
            for l in stop["lines"].as_array().unwrap() {
                let n = l["to_bring"].as_i64().unwrap();
                if n > 0 {
                    *m.entry(l["product_id"].as_str().unwrap().to_string())
                        .or_insert(0) += n;
                }
            }
            m
        })
        .collect()
}

fn units_by_product(list: &Value) -> BTreeMap<String, i64> {
    list["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["product_id"].as_str().unwrap().to_string(),
                p["units"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn a_refillers_day_from_the_phone(b: Backend) {
    let (h, f) = fleet_harness(b).await;
    let admin = f.admin.clone();
    let today = h.app.calendar.today();
    let r = h
        .put(
            &format!("/api/locations/{}/", f.locations[0]),
            &admin,
            json!({"name": "Site 0", "time_zone": "Europe/Paris", "latitude": 45.0,
                   "longitude": 7.0 + 2.0 / 78.7, "address": "1 Rue de Rivoli, Paris"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let role = h.role(&admin, "Refiller", REFILLER).await;
    let (rita, rt) = refiller(&h, &admin, &role, "rita@example.com").await;
    let no_cash: Vec<&str> = REFILLER
        .iter()
        .copied()
        .filter(|m| *m != "settings.machines.collect_cash")
        .collect();
    let role2 = h.role(&admin, "Refiller without cash", &no_cash).await;
    let (bob, bt) = refiller(&h, &admin, &role2, "bob@example.com").await;
    let r = h
        .post(
            "/api/planned-routes/",
            &admin,
            json!({"visit_date": today.to_string(), "route_type": "refill_and_collection",
                   "routes": [{"employee_id": rita, "machine_ids": [f.machines[0], f.machines[1]]},
                              {"employee_id": bob, "machine_ids": [f.machines[2]]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let routes = r.json()["data"].as_array().unwrap().clone();
    let route = routes
        .iter()
        .find(|r| r["employee_id"] == rita.as_str())
        .unwrap()
        .clone();
    let rita_route = route["id"].as_str().unwrap().to_string();
    let bob_route = routes
        .iter()
        .find(|r| r["employee_id"] == bob.as_str())
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(route["machines"][0]["address"], "1 Rue de Rivoli, Paris");
    assert_eq!(route["machines"][1]["address"], Value::Null);
    assert_eq!(route["machines"][0]["outcome"], Value::Null);
    assert_eq!(route["picklist_date"], today.to_string());
    assert_eq!(route["picklist_stale"], false);

    // Today's routes of Rita, as the phone asks for them.
    let r = h
        .get(
            &format!(
                "/api/planned-routes/?employee={rita}&date_from={today}&date_to={}",
                today + Duration::days(7)
            ),
            &rt,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["pagination"]["count"], 1);

    // The day's loading list: every stop of both routes, the products' units the sum of their
    // picklists', in cases of the product's case size and loose units.
    let rita_stops = to_bring(&h, &rt, &rita_route).await;
    let bob_stops = to_bring(&h, &bt, &bob_route).await;
    let mut expected: BTreeMap<String, i64> = BTreeMap::new();
    for stop in rita_stops.iter().chain(&bob_stops) {
        for (p, n) in stop {
            *expected.entry(p.clone()).or_insert(0) += n;
        }
    }
    assert!(!expected.is_empty(), "the fleet needs something");
    let r = h
        .get(
            &format!("/api/planned-routes/loading-list/?date={today}"),
            &rt,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let day = r.json()["data"].clone();
    assert_eq!(day["date"], today.to_string());
    assert_eq!(day["routes"].as_array().unwrap().len(), 2);
    assert_eq!(units_by_product(&day), expected);
    for p in day["products"].as_array().unwrap() {
        let units = p["units"].as_i64().unwrap();
        let (cases, loose) = if p["product_id"] == f.water.as_str() {
            assert_eq!(p["case_size"], 6);
            (units / 6, units % 6)
        } else {
            assert_eq!(p["case_size"], Value::Null);
            (0, units)
        };
        assert_eq!(
            (p["cases"].as_i64().unwrap(), p["loose"].as_i64().unwrap()),
            (cases, loose),
            "{p}"
        );
        assert_eq!(p["loaded"], 0);
    }
    let stops = day["stops"].as_array().unwrap();
    assert_eq!(stops.len(), 3);
    let totes: Vec<BTreeMap<String, i64>> = stops
        .iter()
        .map(|s| {
            s["tote"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["product_id"].as_str().unwrap().to_string(),
                        t["units"].as_i64().unwrap(),
                    )
                })
                .collect()
        })
        .collect();
    let mut want_totes = rita_stops.clone();
    want_totes.extend(bob_stops.clone());
    let mut got = totes.clone();
    got.sort();
    want_totes.sort();
    assert_eq!(got, want_totes);
    // One route's list; a day and a route at once, neither, or a bad day are refused.
    let r = h
        .get(
            &format!("/api/planned-routes/loading-list/?route_id={rita_route}"),
            &rt,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["stops"].as_array().unwrap().len(), 2);
    for q in [
        String::new(),
        format!("date={today}&route_id={rita_route}"),
        "date=2026-02-30".into(),
    ] {
        let r = h
            .get(&format!("/api/planned-routes/loading-list/?{q}"), &rt)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}: {}", r.json());
    }
    let r = h
        .get("/api/planned-routes/loading-list/?route_id=nope", &rt)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // The tick-off: Rita ticks her route; Bob may not tick hers; a product not on the route or
    // a negative count is refused on its field.
    let (water_units, water_id) = (
        rita_stops
            .iter()
            .filter_map(|s| s.get(&f.water))
            .sum::<i64>(),
        f.water.clone(),
    );
    assert!(water_units > 0);
    let path = format!("/api/planned-routes/{rita_route}/loading/");
    let r = h
        .put(
            &path,
            &bt,
            json!({"lines": [{"product_id": water_id, "loaded": 1}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    let r = h
        .put(
            &path,
            &rt,
            json!({"lines": [{"product_id": "nope", "loaded": 1}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.json()["errors"]["lines.0.product_id"].is_array(),
        "{}",
        r.json()
    );
    let r = h
        .put(
            &path,
            &rt,
            json!({"lines": [{"product_id": water_id, "loaded": -1}]}),
        )
        .await;
    assert!(
        r.json()["errors"]["lines.0.loaded"].is_array(),
        "{}",
        r.json()
    );
    let r = h
        .put(
            &path,
            &rt,
            json!({"lines": [{"product_id": water_id, "loaded": water_units - 1}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let loaded = |list: &Value| {
        list["products"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["product_id"] == f.water.as_str())
            .unwrap()["loaded"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(loaded(&r.json()["data"]), water_units - 1);
    let day = h
        .get(
            &format!("/api/planned-routes/loading-list/?date={today}"),
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(loaded(&day), water_units - 1);

    // Rita prints her own route; not Bob's.
    let r = h
        .get(
            &format!("/api/planned-routes/{rita_route}/export/?format=csv"),
            &rt,
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&r.bytes)
    );
    let r = h
        .get(
            &format!("/api/planned-routes/{bob_route}/export/?format=csv"),
            &rt,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // A visit with a note and cash: the machine's collection is booked once, however often
    // the phone sends the booking.
    let picks = h
        .get(
            &format!("/api/planned-routes/{rita_route}/machines/products/"),
            &rt,
        )
        .await
        .json()["data"][0]
        .clone();
    let lines: Vec<Value> = picks["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| json!({"selection": l["selection"], "found": 1, "filled": l["max"].as_i64().unwrap() - 1}))
        .collect();
    let visit = json!({"route_id": rita_route, "machine_id": f.machines[0], "request_id": "phone-1",
                       "lines": lines, "cash_bag": "BAG-1", "collected_minor": 2500,
                       "note": "  Door sticks  "});
    for replayed in [false, true, true] {
        let r = h
            .post("/api/machines/fill-from-route/", &rt, visit.clone())
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        assert_eq!(r.json()["data"]["replayed"], replayed);
        assert_eq!(r.json()["data"]["visit"]["note"], "Door sticks");
    }
    let q = format!(
        "date_from={}&date_to={}",
        today - Duration::days(1),
        today + Duration::days(1)
    );
    let rows = h
        .get(
            &format!("/api/encashments/?{q}&machines={}", f.machines[0]),
            &admin,
        )
        .await
        .json()["data"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["bag_no"], "BAG-1");
    assert_eq!(rows[0]["collected_minor"], 2500);
    assert_eq!(rows[0]["employee_id"], rita.as_str());
    let mut long = visit.clone();
    long["request_id"] = json!("phone-long");
    long["note"] = json!("x".repeat(501));
    let r = h.post("/api/machines/fill-from-route/", &rt, long).await;
    assert!(r.json()["errors"]["note"].is_array(), "{}", r.json());

    // Could not service: no selections, no cash, a known reason.
    let before = h
        .get(
            &format!("/api/machines/{}/products/", f.machines[1]),
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    let skip = |extra: Value| {
        let mut b = json!({"route_id": rita_route, "machine_id": f.machines[1],
                           "request_id": "phone-2", "not_serviced": "site_closed",
                           "note": "Closed for works"});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    for (extra, field) in [
        (json!({"lines": [{"selection": "A1", "found": 1}]}), "lines"),
        (json!({"collected_minor": 100}), "collected_minor"),
        (json!({"not_serviced": "raining"}), "not_serviced"),
    ] {
        let r = h
            .post("/api/machines/fill-from-route/", &rt, skip(extra))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
        assert!(
            r.json()["errors"][field].is_array(),
            "{field}: {}",
            r.json()
        );
    }
    let r = h
        .post("/api/machines/fill-from-route/", &rt, skip(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let route = r.json()["data"]["route"].clone();
    assert_eq!(r.json()["data"]["visit"]["not_serviced"], "site_closed");
    assert_eq!(route["machines"][0]["outcome"], "visited");
    assert_eq!(route["machines"][1]["outcome"], "not_serviced");
    assert_eq!(route["machines"][1]["not_serviced"], "site_closed");
    assert_eq!(route["status"], "done");
    let after = h
        .get(
            &format!("/api/machines/{}/products/", f.machines[1]),
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(before, after, "a stop not serviced leaves the stock alone");

    // Cash needs the collect-cash permission; the same visit without it is booked.
    let bob_picks = h
        .get(
            &format!("/api/planned-routes/{bob_route}/machines/products/"),
            &bt,
        )
        .await
        .json()["data"][0]
        .clone();
    let sel = bob_picks["lines"][0]["selection"].clone();
    let mut bob_visit = json!({"route_id": bob_route, "machine_id": f.machines[2], "request_id": "bob-1",
                               "lines": [{"selection": sel, "found": 2}], "collected_minor": 100});
    let r = h
        .post("/api/machines/fill-from-route/", &bt, bob_visit.clone())
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    bob_visit.as_object_mut().unwrap().remove("collected_minor");
    let r = h
        .post("/api/machines/fill-from-route/", &bt, bob_visit)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());

    // A route moved to another day keeps the day its picklists were computed for.
    let tomorrow = today + Duration::days(1);
    let r = h
        .post(
            "/api/planned-routes/",
            &admin,
            json!({"visit_date": tomorrow.to_string(),
                   "routes": [{"employee_id": rita, "machine_ids": [f.machines[0]]}]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let id = r.json()["data"][0]["id"].as_str().unwrap().to_string();
    let r = h
        .call(
            Method::PATCH,
            &format!("/api/planned-routes/{id}/"),
            Some(&admin),
            Some(json!({"visit_date": (tomorrow + Duration::days(2)).to_string()})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["picklist_date"], tomorrow.to_string());
    assert_eq!(r.json()["data"]["picklist_stale"], true);
}

on_both_stores!(a_refillers_day_from_the_phone);
