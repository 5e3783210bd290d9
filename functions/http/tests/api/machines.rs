//! Machines area through the real router, on SQLite and on DynamoDB: machines, tags,
//! planograms, stock changes with the refill log, the overview, exports and the access scope.

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use vendfleet_app::ports::{Item, Key};

/// Stores a product the way the products area does (its own tests cover that area).
async fn product(h: &Harness, id: &str, name: &str, inactive: bool) {
    let attrs = json!({"id": id, "name": name, "inactive": inactive})
        .as_object()
        .cloned()
        .unwrap();
    h.app
        .fleet
        .store()
        .put(
            Item::new(Key::new(format!("PRODUCT#{id}"), "PRODUCT"), attrs),
            None,
        )
        .await
        .unwrap();
}

fn selection(
    machine: &str,
    code: &str,
    product: &str,
    max: i64,
    price: i64,
    current: i64,
) -> Value {
    json!({"machine_id": machine, "selection": code, "product_id": product, "max": max, "price_minor": price, "current": current})
}

async fn machines_crud_secret_and_overview(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let model = created(
        &h,
        &admin,
        "/api/machines/models/",
        json!({"name": "FK 300", "type": "Snacks", "manufacturer": "Sielaff"}),
    )
    .await;
    let loc = created(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "Station", "time_zone": "Europe/Zurich"}),
    )
    .await;
    let tag = created(
        &h,
        &admin,
        "/api/machines/tags/",
        json!({"name": "Route 1"}),
    )
    .await;
    let body = json!({"name": "Station Snack 1", "serial": "SN-001", "mcu_serial": "MCU-77", "model_id": model["id"],
        "location_id": loc["id"], "firmware": "4.2", "connection_method": "telemetry", "protocol": "EVA-DTS",
        "tag_ids": [tag["id"]], "currency": "CHF",
        "peripherals": {"coin_changer": {"fitted": true, "serial": "CC-9"}, "cashless": {"fitted": true}}});
    let r = h.post("/api/machines/", &admin, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    assert_eq!(r.json()["message"], "Machine created successfully");
    let m = r.json()["data"].clone();
    let id = m["id"].as_str().unwrap().to_string();
    let secret = m["webhook_secret"].as_str().unwrap().to_string();
    assert_eq!(secret.len(), 64, "32 random bytes, hex");
    assert_eq!(m["type"], "Snacks");
    assert_eq!(m["location_name"], "Station");
    assert_eq!(m["tags"][0]["name"], "Route 1");
    assert_eq!(m["peripherals"]["coin_changer"]["serial"], "CC-9");

    let d = h
        .get(&format!("/api/machines/{id}/details/"), &admin)
        .await
        .json();
    assert_eq!(d["data"]["id"], id.as_str());
    assert!(
        d["data"].get("webhook_secret").is_none(),
        "the secret is shown only once"
    );
    let r = h
        .post(
            &format!("/api/machines/{id}/webhook-secret/"),
            &admin,
            json!({}),
        )
        .await;
    assert_eq!(r.json()["message"], "Webhook secret rotated");
    assert_ne!(r.json()["data"]["webhook_secret"].as_str().unwrap(), secret);

    let bad = [
        (json!({}), "name", "This field is required."),
        (
            json!({"name": "X", "model_id": "nope"}),
            "model_id",
            "Choose an existing model.",
        ),
        (
            json!({"name": "X", "location_id": "nope"}),
            "location_id",
            "Choose one of your locations.",
        ),
        (
            json!({"name": "X", "tag_ids": ["nope"]}),
            "tag_ids",
            "Choose existing tags.",
        ),
        (
            json!({"name": "X", "currency": "euro"}),
            "currency",
            "Use a three-letter ISO 4217 code such as EUR.",
        ),
        (
            json!({"name": "X", "decimal_places": 7}),
            "decimal_places",
            "Must be between 0 and 4.",
        ),
    ];
    for (body, field, msg) in bad {
        let r = h.post("/api/machines/", &admin, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(r.json()["errors"][field][0], msg, "{body}: {}", r.json());
    }
    assert_eq!(
        h.post("/api/machines/", &admin, json!({"name": "station snack 1"}))
            .await
            .status,
        StatusCode::CONFLICT
    );

    let r = h.put(&format!("/api/machines/{id}/settings/"), &admin, json!({"name": "Station Snack 1", "inactive": true, "model_id": model["id"], "location_id": loc["id"], "version": 1})).await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "the rotation moved the version on"
    );
    let r = h.put(&format!("/api/machines/{id}/settings/"), &admin, json!({"name": "Station Snack 1", "inactive": true, "model_id": model["id"], "location_id": loc["id"]})).await;
    assert_eq!(r.json()["message"], "Machine updated successfully");
    assert_eq!(r.json()["data"]["tag_ids"], json!([]));

    let o = h
        .get(&format!("/api/machines/{id}/dashboard/overview/"), &admin)
        .await
        .json()["data"]
        .clone();
    for f in [
        "connection_method",
        "protocol",
        "firmware",
        "status",
        "last_sale",
        "last_refill",
        "last_encashment",
        "cash_box",
        "bill_stacker",
        "value_of_tubes",
        "last_updated",
        "power",
        "signal",
    ] {
        assert!(o.get(f).is_some(), "overview lacks {f}");
    }
    assert_eq!(o["status"], "inactive");
    assert!(
        o["last_sale"].is_null() && o["signal"].is_null(),
        "unknown until telemetry"
    );
    assert_eq!(
        h.get("/api/machines/?status=inactive", &admin).await.json()["pagination"]["count"],
        1
    );
    assert_eq!(
        h.get("/api/machines/?status=active", &admin).await.json()["pagination"]["count"],
        0
    );

    // A location or model in use cannot go.
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/locations/{}/", loc["id"].as_str().unwrap()),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["message"],
        "Location \"Station\" is used by machines: Station Snack 1"
    );
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/models/{}/", model["id"].as_str().unwrap()),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/{id}/"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.json()["message"], "Machine deleted successfully");
    assert_eq!(
        h.get(&format!("/api/machines/{id}/details/"), &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

async fn planogram_stock_and_refill_log(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    product(&h, "p1", "Espresso", false).await;
    product(&h, "p2", "Water 50 cl", false).await;
    product(&h, "p3", "Old crisps", true).await;
    let loc = created(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "Lab", "time_zone": "Pacific/Auckland"}),
    )
    .await;
    let m = created(
        &h,
        &admin,
        "/api/machines/",
        json!({"name": "M1", "location_id": loc["id"]}),
    )
    .await;
    let id = m["id"].as_str().unwrap().to_string();
    for (code, p, max, price) in [
        ("10", "p1", 20, 150),
        ("2", "p2", 8, 200),
        ("A1", "p1", 10, 160),
    ] {
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                selection(&id, code, p, max, price, 0),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        assert_eq!(r.json()["message"], "Selection saved successfully");
    }
    let plan = h
        .get(&format!("/api/machines/{id}/products/"), &admin)
        .await
        .json()["data"]
        .clone();
    let codes: Vec<_> = plan
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["selection"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes, ["2", "10", "A1"], "natural order");
    assert_eq!(plan[0]["product_name"], "Water 50 cl");
    assert_eq!(plan[0]["remaining"], 8);

    let bad = [
        (
            selection(&id, "", "p1", 5, 100, 0),
            "selection",
            "This field is required.",
        ),
        (
            selection(&id, "B 1", "p1", 5, 100, 0),
            "selection",
            "Use up to 10 letters, digits or dashes.",
        ),
        (
            selection(&id, "B1", "nope", 5, 100, 0),
            "product_id",
            "Choose an existing product.",
        ),
        (
            selection(&id, "B1", "p3", 5, 100, 0),
            "product_id",
            "This product is inactive.",
        ),
        (
            selection(&id, "B1", "p1", 0, 100, 0),
            "max",
            "Must be between 1 and 10000.",
        ),
        (
            selection(&id, "B1", "p1", 5, -1, 0),
            "price_minor",
            "Must be 0 or more (in cents).",
        ),
        (
            selection(&id, "B1", "p1", 5, 100, 6),
            "current",
            "Cannot be more than max.",
        ),
        (
            selection(&id, "B1", "p1", 5, 100, -1),
            "current",
            "Must be 0 or more.",
        ),
    ];
    for (body, field, msg) in bad {
        let r = h
            .post("/api/machines/products/", &admin, body.clone())
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(r.json()["errors"][field][0], msg, "{body}: {}", r.json());
    }
    let mut bad_date = selection(&id, "B1", "p1", 5, 100, 0);
    bad_date["expiry_date"] = json!("2026-02-30");
    let r = h.post("/api/machines/products/", &admin, bad_date).await;
    assert_eq!(
        r.json()["errors"]["expiry_date"][0],
        "Enter a real date as YYYY-MM-DD."
    );
    let r = h
        .post(
            "/api/machines/products/",
            &admin,
            json!({"machine_id": id, "selection": "B1", "product_id": "p1", "max": "five"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        h.get(&format!("/api/machines/{id}/products/"), &admin)
            .await
            .json()["data"]
            .as_array()
            .unwrap()
            .len(),
        3,
        "nothing half-written"
    );

    // Fill all, then a refiller's manual count, then empty one.
    let r = h
        .post(
            "/api/machines/fill-stock/",
            &admin,
            json!({"machine_id": id}),
        )
        .await;
    assert_eq!(r.json()["message"], "Stock filled successfully");
    assert!(r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["current"] == s["max"] && s["remaining"] == 0));
    let r = h
        .put(
            &format!("/api/machines/{id}/products/10/stock/"),
            &admin,
            json!({"current": 12, "expiry_date": "2027-01-31"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["expiry_date"], "2027-01-31");
    assert_eq!(r.json()["data"]["remaining"], 8);
    let r = h
        .put(
            &format!("/api/machines/{id}/products/10/stock/"),
            &admin,
            json!({"current": 99}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        h.put(
            &format!("/api/machines/{id}/products/ZZ/stock/"),
            &admin,
            json!({"current": 1})
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    let r = h
        .post(
            "/api/machines/empty-stock/",
            &admin,
            json!({"machine_id": id, "selections": ["2"]}),
        )
        .await;
    assert_eq!(r.json()["message"], "Stock emptied successfully");
    let r = h
        .post(
            "/api/machines/empty-stock/",
            &admin,
            json!({"machine_id": id, "selections": ["2", "nope"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    let log = h
        .get(&format!("/api/refills/?machine={id}&page_size=50"), &admin)
        .await
        .json();
    assert_eq!(
        log["pagination"]["count"], 5,
        "3 fills, 1 count, 1 empty: {log}"
    );
    let newest = &log["data"][0];
    assert_eq!(newest["source"], "empty-stock");
    assert_eq!(newest["product_name"], "Water 50 cl");
    assert_eq!(
        (
            newest["amount_added"].as_i64(),
            newest["amount_removed"].as_i64()
        ),
        (Some(0), Some(8))
    );
    assert_eq!(newest["employee"], "Administrator");
    assert_eq!(newest["location"], "Lab");
    let manual = &log["data"][1];
    assert_eq!(
        (manual["source"].as_str(), manual["amount_removed"].as_i64()),
        (Some("manual"), Some(8))
    );
    // The day is Auckland's, and the fleet-wide log finds it by that day.
    let day = newest["local_date"].as_str().unwrap().to_string();
    let fleet = h
        .get(&format!("/api/refills/?from={day}&to={day}"), &admin)
        .await
        .json();
    assert_eq!(fleet["pagination"]["count"], 5);
    let r = h.get("/api/refills/?from=2026-13-01", &admin).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // The reports' shared period and filters: the same lines by `date_from`/`date_to` and by
    // the machine list; none for another machine; a product's lines only; a bad period is a 400.
    let shared = format!("date_from={day}&date_to={day}");
    for (query, want) in [
        (shared.clone(), 5),
        (format!("{shared}&machines={id}"), 5),
        (format!("{shared}&machines=no-such-machine"), 0),
    ] {
        let r = h
            .get(&format!("/api/refills/?{query}"), &admin)
            .await
            .json();
        assert_eq!(r["pagination"]["count"], want, "{query}: {r}");
    }
    let water = newest["product_id"].as_str().unwrap();
    let of_water = log["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["product_id"] == water)
        .count();
    assert!(of_water > 0 && of_water < 5, "{log}");
    let r = h
        .get(&format!("/api/refills/?{shared}&products={water}"), &admin)
        .await
        .json();
    assert_eq!(r["pagination"]["count"], of_water, "{r}");
    assert!(r["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|l| l["product_id"] == water));
    let r = h
        .get(
            &format!("/api/refills/products/total/?{shared}&products={water}"),
            &admin,
        )
        .await
        .json();
    assert_eq!(r["data"].as_array().unwrap().len(), 1, "{r}");
    let r = h.get("/api/refills/?period=someday", &admin).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["errors"]["period"].is_array(), "{}", r.json());
    // The totals by product add up the same lines; the export carries every line.
    let totals = h
        .get(
            &format!("/api/refills/products/total/?machine={id}"),
            &admin,
        )
        .await
        .json();
    let mut want: std::collections::BTreeMap<String, (i64, i64)> = Default::default();
    for line in log["data"].as_array().unwrap() {
        let e = want
            .entry(line["product_id"].as_str().unwrap().into())
            .or_default();
        e.0 += line["amount_added"].as_i64().unwrap();
        e.1 += line["amount_removed"].as_i64().unwrap();
    }
    let got: std::collections::BTreeMap<String, (i64, i64)> = totals["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert_eq!(
                t["net"],
                t["amount_added"].as_i64().unwrap() - t["amount_removed"].as_i64().unwrap()
            );
            (
                t["product_id"].as_str().unwrap().to_string(),
                (
                    t["amount_added"].as_i64().unwrap(),
                    t["amount_removed"].as_i64().unwrap(),
                ),
            )
        })
        .collect();
    assert_eq!(got, want, "{totals}");
    let csv = h
        .get(
            &format!("/api/refills/export/?machine={id}&format=csv"),
            &admin,
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let csv = String::from_utf8(csv.bytes).unwrap();
    assert_eq!(csv.lines().count(), 1 + 5, "{csv}");
    assert!(csv.contains("empty-stock") && csv.contains("Water 50 cl"));
    // A line's refill: the fill's three lines together; the manual count and the emptying
    // are visits of their own.
    let fill = log["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["source"] == "fill-stock")
        .unwrap();
    let visit = h
        .get(
            &format!("/api/refills/{}/products", fill["id"].as_str().unwrap()),
            &admin,
        )
        .await
        .json();
    let lines = visit["data"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{visit}");
    assert!(lines
        .iter()
        .all(|l| l["source"] == "fill-stock" && l["machine_id"] == id));
    let own = h
        .get(
            &format!("/api/refills/{}/products", newest["id"].as_str().unwrap()),
            &admin,
        )
        .await
        .json();
    assert_eq!(own["data"].as_array().unwrap().len(), 1, "{own}");
    for missing in ["01ARZ3NDEKTSV4RRFFQ69G5FAV", "not-an-id"] {
        let r = h
            .get(&format!("/api/refills/{missing}/products"), &admin)
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND);
    }
    let o = h
        .get(&format!("/api/machines/{id}/dashboard/overview/"), &admin)
        .await
        .json();
    assert_eq!(o["data"]["last_refill"], newest["date"]);

    // Copy the planogram onto two machines, all or nothing.
    let m2 = created(&h, &admin, "/api/machines/", json!({"name": "M2"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let m3 = created(&h, &admin, "/api/machines/", json!({"name": "M3"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    h.post(
        "/api/machines/products/",
        &admin,
        selection(&m3, "99", "p2", 5, 100, 5),
    )
    .await;
    let r = h
        .post(
            "/api/machines/copy-products/",
            &admin,
            json!({"from_machine_id": id, "to_machine_ids": [m2, "nope"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(h
        .get(&format!("/api/machines/{m2}/products/"), &admin)
        .await
        .json()["data"]
        .as_array()
        .unwrap()
        .is_empty());
    let r = h
        .post(
            "/api/machines/copy-products/",
            &admin,
            json!({"from_machine_id": id, "to_machine_ids": [m2, m3]}),
        )
        .await;
    assert_eq!(r.json()["message"], "Products copied successfully");
    let copied = h
        .get(&format!("/api/machines/{m3}/products/"), &admin)
        .await
        .json()["data"]
        .clone();
    assert_eq!(
        copied.as_array().unwrap().len(),
        3,
        "the old selection 99 is gone"
    );
    assert!(copied.as_array().unwrap().iter().all(|s| s["current"] == 0));
    assert_eq!(copied[1]["price_minor"], 150);

    let r = h
        .post(
            "/api/machines/products/delete/",
            &admin,
            json!({"machine_id": id, "selections": ["A1"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(
        h.get(&format!("/api/machines/{id}/products/"), &admin)
            .await
            .json()["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

async fn tags_manage_export_and_filters(b: Backend) {
    use calamine::Reader;
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let t1 = created(&h, &admin, "/api/machines/tags/", json!({"name": "North"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let t2 = created(&h, &admin, "/api/machines/tags/", json!({"name": "South"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        h.post("/api/machines/tags/", &admin, json!({"name": "north"}))
            .await
            .status,
        StatusCode::CONFLICT
    );
    let a = created(
        &h,
        &admin,
        "/api/machines/",
        json!({"name": "A", "mcu_serial": "MCU-A"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let b2 = created(&h, &admin, "/api/machines/", json!({"name": "B"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = h
        .post(
            "/api/machines/tags/manage/",
            &admin,
            json!({"machine_ids": [a, b2], "add": [t1, t2]}),
        )
        .await;
    assert_eq!(r.json()["message"], "Tags updated successfully");
    let r = h
        .post(
            "/api/machines/tags/manage/",
            &admin,
            json!({"machine_ids": [a, "nope"], "remove": [t2]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = h
        .post(
            "/api/machines/tags/manage/",
            &admin,
            json!({"machine_ids": [a], "add": ["nope"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        h.get(&format!("/api/machines/?tag={t2}"), &admin)
            .await
            .json()["pagination"]["count"],
        2,
        "all or nothing"
    );
    let tags = h.get("/api/machines/tags/", &admin).await.json();
    assert_eq!(tags["data"][0]["machines_count"], 2);
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/tags/{t2}/"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.json()["message"], "Tag deleted successfully");
    let d = h
        .get(&format!("/api/machines/{a}/details/"), &admin)
        .await
        .json();
    assert_eq!(d["data"]["tag_ids"], json!([t1]));

    let r = h
        .get("/api/machines/export/?format=xlsx&ordering=-name", &admin)
        .await;
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(r.bytes)).unwrap();
    let sheet = book.worksheet_range("Machines").unwrap();
    assert_eq!(sheet.height(), 3);
    assert_eq!(sheet.get_value((1, 0)).unwrap().to_string(), "B");
    assert_eq!(sheet.get_value((1, 6)).unwrap().to_string(), "North");
    assert_eq!(
        h.get("/api/filters/machines/", &admin).await.json()["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        h.get("/api/filters/mcu/", &admin).await.json()["data"],
        json!([{"id": a, "name": "MCU-A"}])
    );
    assert_eq!(
        h.get("/api/filters/machines/tags/all-by-permissions/", &admin)
            .await
            .json()["data"][0]["name"],
        "North"
    );
}

async fn a_scoped_user_sees_and_changes_only_their_machines(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    product(&h, "p1", "Espresso", false).await;
    let client = created(&h, &admin, "/api/clients/", json!({"name": "Client A"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let loc_a = created(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "A", "time_zone": "UTC", "client_id": client}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let loc_b = created(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "B", "time_zone": "UTC"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tag = created(&h, &admin, "/api/machines/tags/", json!({"name": "VIP"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mine = created(
        &h,
        &admin,
        "/api/machines/",
        json!({"name": "Mine", "location_id": loc_a}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tagged = created(
        &h,
        &admin,
        "/api/machines/",
        json!({"name": "Tagged", "location_id": loc_b, "tag_ids": [tag]}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let theirs = created(
        &h,
        &admin,
        "/api/machines/",
        json!({"name": "Theirs", "location_id": loc_b}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    h.post(
        "/api/machines/products/",
        &admin,
        selection(&theirs, "1", "p1", 5, 100, 1),
    )
    .await;
    let everything: Vec<&str> = vendfleet_domain::Permission::ALL
        .iter()
        .map(|p| p.key())
        .filter(|k| k.starts_with("settings.machines") || k.starts_with("reports.refill_log"))
        .collect();
    let role = h.role(&admin, "Machine crew", &everything).await;
    let r = h.post("/api/users/", &admin, json!({"name": "Crew", "email": "crew@example.com", "password": "password-123", "role_id": role,
        "client_ids": [client], "machine_tag_ids": [tag]})).await;
    assert_eq!(r.status, StatusCode::CREATED);
    let crew = h.token("crew@example.com", "password-123").await;

    let names: Vec<String> = h.get("/api/machines/?ordering=name", &crew).await.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        ["Mine", "Tagged"],
        "client A's machines and the tagged one"
    );
    assert_eq!(
        h.get(&format!("/api/machines/{tagged}/details/"), &crew)
            .await
            .status,
        StatusCode::OK
    );
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (
            Method::GET,
            format!("/api/machines/{theirs}/details/"),
            None,
        ),
        (
            Method::PUT,
            format!("/api/machines/{theirs}/settings/"),
            Some(json!({"name": "Stolen"})),
        ),
        (Method::DELETE, format!("/api/machines/{theirs}/"), None),
        (
            Method::POST,
            format!("/api/machines/{theirs}/webhook-secret/"),
            Some(json!({})),
        ),
        (
            Method::GET,
            format!("/api/machines/{theirs}/dashboard/overview/"),
            None,
        ),
        (
            Method::GET,
            format!("/api/machines/{theirs}/products/"),
            None,
        ),
        (
            Method::POST,
            "/api/machines/products/".into(),
            Some(selection(&theirs, "2", "p1", 5, 100, 0)),
        ),
        (
            Method::PUT,
            format!("/api/machines/{theirs}/products/1/stock/"),
            Some(json!({"current": 0})),
        ),
        (
            Method::POST,
            "/api/machines/products/delete/".into(),
            Some(json!({"machine_id": theirs, "selections": ["1"]})),
        ),
        (
            Method::POST,
            "/api/machines/fill-stock/".into(),
            Some(json!({"machine_id": theirs})),
        ),
        (
            Method::POST,
            "/api/machines/empty-stock/".into(),
            Some(json!({"machine_id": theirs})),
        ),
        (
            Method::POST,
            "/api/machines/copy-products/".into(),
            Some(json!({"from_machine_id": theirs, "to_machine_ids": [mine]})),
        ),
        (
            Method::POST,
            "/api/machines/copy-products/".into(),
            Some(json!({"from_machine_id": mine, "to_machine_ids": [theirs]})),
        ),
        (
            Method::POST,
            "/api/machines/tags/manage/".into(),
            Some(json!({"machine_ids": [theirs], "add": [tag]})),
        ),
        (Method::GET, format!("/api/refills/?machine={theirs}"), None),
        (
            Method::GET,
            format!("/api/refills/products/total/?machine={theirs}"),
            None,
        ),
        (
            Method::GET,
            format!("/api/refills/export/?machine={theirs}"),
            None,
        ),
        (Method::GET, format!("/api/machines/{theirs}/prices/"), None),
    ];
    for (method, path, body) in calls {
        let r = h.call(method.clone(), &path, Some(&crew), body).await;
        assert_eq!(
            r.status,
            StatusCode::NOT_FOUND,
            "{method} {path}: {}",
            r.json()
        );
    }
    let csv = String::from_utf8(h.get("/api/machines/export/", &crew).await.bytes).unwrap();
    assert!(csv.contains("Mine") && csv.contains("Tagged") && !csv.contains("Theirs"));
    assert_eq!(
        h.get("/api/filters/machines/", &crew).await.json()["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let log = h.get("/api/refills/", &crew).await.json();
    assert_eq!(
        log["pagination"]["count"], 0,
        "the fill of their machine is not mine to see"
    );
    let totals = h.get("/api/refills/products/total/", &crew).await.json();
    assert_eq!(totals["data"], json!([]), "nor its totals");
    // Nor do the shared filters reach it: naming their machine or its location finds nothing,
    // where the admin finds its fill.
    for query in [format!("machines={theirs}"), format!("locations={loc_b}")] {
        let log = h.get(&format!("/api/refills/?{query}"), &crew).await.json();
        assert_eq!(log["pagination"]["count"], 0, "{query}: {log}");
        let export = h
            .get(&format!("/api/refills/export/?{query}&format=csv"), &crew)
            .await;
        assert_eq!(export.status, StatusCode::OK);
        assert_eq!(String::from_utf8(export.bytes).unwrap().lines().count(), 1);
        let log = h
            .get(&format!("/api/refills/?{query}"), &admin)
            .await
            .json();
        assert!(
            log["pagination"]["count"].as_u64().unwrap() > 0,
            "{query}: {log}"
        );
    }
    let their_log = h
        .get(&format!("/api/refills/?machine={theirs}"), &admin)
        .await
        .json();
    let line = their_log["data"][0]["id"].as_str().unwrap();
    let visit = format!("/api/refills/{line}/products");
    assert_eq!(h.get(&visit, &admin).await.status, StatusCode::OK);
    assert_eq!(
        h.get(&visit, &crew).await.status,
        StatusCode::NOT_FOUND,
        "nor the products of its refill"
    );
    // Nor may the crew move a machine out of their reach.
    let r = h
        .put(
            &format!("/api/machines/{mine}/settings/"),
            &crew,
            json!({"name": "Mine", "location_id": loc_b}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let theirs_plan = h
        .get(&format!("/api/machines/{theirs}/products/"), &admin)
        .await
        .json();
    assert_eq!(theirs_plan["data"][0]["current"], 1, "untouched");
}

async fn machine_endpoints_need_their_permissions(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = created(&h, &admin, "/api/machines/", json!({"name": "M"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let role = h.role(&admin, "Viewer", &["settings.machines.list"]).await;
    h.user(&admin, "viewer@example.com", Some(&role)).await;
    let viewer = h.token("viewer@example.com", "password-123").await;
    assert_eq!(
        h.get("/api/machines/", &viewer).await.status,
        StatusCode::OK
    );
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (
            Method::POST,
            "/api/machines/".into(),
            Some(json!({"name": "X"})),
        ),
        (
            Method::PUT,
            format!("/api/machines/{m}/settings/"),
            Some(json!({"name": "X"})),
        ),
        (Method::DELETE, format!("/api/machines/{m}/"), None),
        (Method::GET, "/api/machines/export/".into(), None),
        (
            Method::POST,
            "/api/machines/products/".into(),
            Some(selection(&m, "1", "p", 1, 1, 0)),
        ),
        (
            Method::POST,
            "/api/machines/fill-stock/".into(),
            Some(json!({"machine_id": m})),
        ),
        (
            Method::POST,
            "/api/machines/tags/".into(),
            Some(json!({"name": "T"})),
        ),
        (Method::GET, "/api/refills/".into(), None),
    ];
    for (method, path, body) in calls {
        assert_eq!(
            h.call(method.clone(), &path, Some(&viewer), body)
                .await
                .status,
            StatusCode::FORBIDDEN,
            "{method} {path}"
        );
    }
}

/// Four machines with an empty selection of p1: in Auckland, Paris, Los Angeles and at no
/// location; each with the zone whose day its refills are counted in.
async fn refill_fleet(h: &Harness) -> Vec<(String, &'static str)> {
    let admin = h.admin().await;
    product(h, "p1", "Espresso", false).await;
    let mut machines = Vec::new();
    for (name, zone, zone_for_day) in [
        ("Auckland", Some("Pacific/Auckland"), "Pacific/Auckland"),
        ("Paris", Some("Europe/Paris"), "Europe/Paris"),
        (
            "Los Angeles",
            Some("America/Los_Angeles"),
            "America/Los_Angeles",
        ),
        ("Nowhere", None, "Europe/Paris"),
    ] {
        let mut machine = json!({"name": format!("M {name}")});
        if let Some(z) = zone {
            let loc = created(
                h,
                &admin,
                "/api/locations/",
                json!({"name": name, "time_zone": z}),
            )
            .await;
            machine["location_id"] = loc["id"].clone();
        }
        let m = created(h, &admin, "/api/machines/", machine).await;
        let id = m["id"].as_str().unwrap().to_string();
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                selection(&id, "1", "p1", 10, 100, 0),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        machines.push((id, zone_for_day));
    }
    machines
}

/// The machines of [`refill_fleet`], made once on DynamoDB.
static REFILL_FLEET: Seeded<Vec<(String, &'static str)>> = Seeded::new();

/// The refill log at any hour: refills at locations in Auckland, Paris, Los Angeles and of a
/// machine at no location (the operator's zone, Paris) land on each one's local day, and the default
/// log (no dates) shows every one of them, at instants around midnight in those zones.
async fn refill_days_at_any_hour(b: Backend) {
    use chrono::{DateTime, Utc};
    for instant in TRICKY_INSTANTS {
        let now: DateTime<Utc> = instant.parse().unwrap();
        // The same machines each time (on DynamoDB a copy of those made once), refilled at `now`.
        let (h, machines) = REFILL_FLEET.harness(b, refill_fleet).await;
        h.clock.set(now);
        let admin = h.admin().await;
        let mut expected = Vec::new();
        for (id, zone_for_day) in &machines {
            let r = h
                .post(
                    "/api/machines/fill-stock/",
                    &admin,
                    json!({"machine_id": id}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            let tz: chrono_tz::Tz = zone_for_day.parse().unwrap();
            let day = now.with_timezone(&tz).format("%Y-%m-%d").to_string();
            expected.push((id, day));
        }
        let log = h.get("/api/refills/?page_size=50", &admin).await.json();
        assert_eq!(
            log["pagination"]["count"], 4,
            "at {instant} the default log shows every location's refill today: {log}"
        );
        for (id, day) in &expected {
            let entry = log["data"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["machine_id"] == id.as_str())
                .unwrap_or_else(|| panic!("at {instant}: no entry for {id}: {log}"));
            assert_eq!(entry["local_date"], day.as_str(), "at {instant}");
            // The fleet-wide log finds it by that day, and a machine's own log too.
            let by_day = h
                .get(&format!("/api/refills/?from={day}&to={day}"), &admin)
                .await
                .json();
            assert!(
                by_day["data"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["machine_id"] == id.as_str()),
                "at {instant}: {day} misses {id}: {by_day}"
            );
            let own = h
                .get(&format!("/api/refills/?machine={id}"), &admin)
                .await
                .json();
            assert_eq!(own["pagination"]["count"], 1, "at {instant}: {own}");
        }
        // An end date without a start date gives the 30 days before it (whatever the instant:
        // asked at the first).
        if instant == TRICKY_INSTANTS[0] {
            let r = h.get("/api/refills/?to=2020-01-31", &admin).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            assert_eq!(r.json()["pagination"]["count"], 0);
        }
    }
}

on_both_stores!(
    refill_days_at_any_hour,
    machines_crud_secret_and_overview,
    planogram_stock_and_refill_log,
    tags_manage_export_and_filters,
    a_scoped_user_sees_and_changes_only_their_machines,
    machine_endpoints_need_their_permissions,
);
