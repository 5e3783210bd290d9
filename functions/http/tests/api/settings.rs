//! Settings area through the real router, on SQLite and on DynamoDB: clients, locations,
//! machine models, their filters, and the machine access scope on locations.

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

fn location(name: &str, client: Option<&str>) -> Value {
    json!({"name": name, "address": "1 Rue de Rivoli, Paris", "type": "Office", "region": "Île-de-France",
           "client_id": client, "latitude": 48.8566, "longitude": 2.3522, "time_zone": "Europe/Paris"})
}

async fn clients_crud_and_validation(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let r = h
        .post(
            "/api/clients/",
            &admin,
            json!({"name": "Acme Offices", "email": "ops@acme.test", "commission_bps": 750}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json()["message"], "Client created successfully");
    let c = r.json()["data"].clone();
    assert_eq!(c["commission_bps"], 750);
    assert!(c["createdAt"].is_string());
    let id = c["id"].as_str().unwrap();

    for (body, field, msg) in [
        (json!({}), "name", "This field is required."),
        (
            json!({"name": "X", "commission_bps": 10001}),
            "commission_bps",
            "Must be between 0 and 10000 basis points (0–100 %).",
        ),
        (
            json!({"name": "X", "commission_bps": -1}),
            "commission_bps",
            "Must be between 0 and 10000 basis points (0–100 %).",
        ),
        (
            json!({"name": "X", "email": "nope"}),
            "email",
            "Enter a valid e-mail address.",
        ),
        (
            json!({"name": "X", "commission_bps": 2.5}),
            "commission_bps",
            "Wrong type: floating point `2.5`, expected i64.",
        ),
    ] {
        let r = h.post("/api/clients/", &admin, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(r.json()["errors"][field][0], msg, "{body}: {}", r.json());
    }
    let dup = h
        .post("/api/clients/", &admin, json!({"name": "ACME offices"}))
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.json()["errors"]["name"].is_array());

    let r = h
        .put(
            &format!("/api/clients/{id}/"),
            &admin,
            json!({"name": "Acme Ltd", "version": 1}),
        )
        .await;
    assert_eq!(r.json()["message"], "Client updated successfully");
    assert_eq!(r.json()["data"]["version"], 2);
    let stale = h
        .put(
            &format!("/api/clients/{id}/"),
            &admin,
            json!({"name": "Acme 2", "version": 1}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    // The old name is free again, the new one taken.
    create(&h, &admin, "/api/clients/", json!({"name": "Acme Offices"})).await;
    assert_eq!(
        h.post("/api/clients/", &admin, json!({"name": "acme ltd"}))
            .await
            .status,
        StatusCode::CONFLICT
    );

    let list = h
        .get("/api/clients/?search=acme&ordering=-name", &admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 2);
    assert_eq!(list["data"][0]["name"], "Acme Offices");

    // A client hosting a location cannot go.
    create(&h, &admin, "/api/locations/", location("Lobby", Some(id))).await;
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/clients/{id}/"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["message"],
        "Client \"Acme Ltd\" is used by locations: Lobby"
    );
    assert_eq!(
        h.get("/api/clients/nope/", &admin).await.status,
        StatusCode::NOT_FOUND
    );
}

async fn locations_crud_refiller_and_export(b: Backend) {
    use calamine::Reader;
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let client = create(
        &h,
        &admin,
        "/api/clients/",
        json!({"name": "Hospital Group"}),
    )
    .await;
    let refiller = h.user(&admin, "refiller@example.com", None).await;
    let mut body = location("Ward A", Some(&client));
    body["refiller_id"] = json!(refiller);
    let r = h.post("/api/locations/", &admin, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    assert_eq!(r.json()["message"], "Location created successfully");
    let l = r.json()["data"].clone();
    assert_eq!(l["client_name"], "Hospital Group");
    assert_eq!(l["refiller_name"], "Test User");
    assert_eq!(l["type"], "Office");
    let id = l["id"].as_str().unwrap().to_string();
    let other = create(
        &h,
        &admin,
        "/api/locations/",
        json!({"name": "Depot", "time_zone": "Europe/Rome", "type": "Warehouse"}),
    )
    .await;

    let bad = [
        (
            json!({"time_zone": "Europe/Paris"}),
            "name",
            "This field is required.",
        ),
        (json!({"name": "X"}), "time_zone", "This field is required."),
        (
            json!({"name": "X", "time_zone": "Mars/Base"}),
            "time_zone",
            "Choose a time zone from the list (e.g. Europe/Paris).",
        ),
        (
            json!({"name": "X", "time_zone": "UTC", "latitude": 95.0, "longitude": 0.0}),
            "latitude",
            "Must be between -90 and 90.",
        ),
        (
            json!({"name": "X", "time_zone": "UTC", "latitude": 45.0}),
            "longitude",
            "Give both latitude and longitude, or neither.",
        ),
        (
            json!({"name": "X", "time_zone": "UTC", "client_id": "nope"}),
            "client_id",
            "Choose an existing client.",
        ),
        (
            json!({"name": "X", "time_zone": "UTC", "refiller_id": "nope"}),
            "refiller_id",
            "Choose an active employee.",
        ),
        (
            json!({"name": "X", "time_zone": "UTC", "colour": "red"}),
            "",
            "",
        ),
    ];
    for (body, field, msg) in bad {
        let r = h.post("/api/locations/", &admin, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        if !field.is_empty() {
            assert_eq!(r.json()["errors"][field][0], msg, "{body}: {}", r.json());
        }
    }

    let list = h
        .get(&format!("/api/locations/?client={client}"), &admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 1);
    assert_eq!(
        h.get("/api/locations/?type=Warehouse", &admin).await.json()["data"][0]["id"],
        other.as_str()
    );
    assert_eq!(
        h.get("/api/locations/?search=ward", &admin).await.json()["pagination"]["count"],
        1
    );
    assert_eq!(
        h.get("/api/filters/locations/types/", &admin).await.json()["data"],
        json!(["Office", "Warehouse"])
    );
    assert_eq!(
        h.get("/api/filters/regions/", &admin).await.json()["data"],
        json!(["Île-de-France"])
    );

    let second = h.user(&admin, "second@example.com", None).await;
    let r = h
        .post(
            "/api/locations/change-refiller/",
            &admin,
            json!({"location_ids": [id, other], "refiller_id": second}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Refiller changed successfully");
    assert_eq!(
        h.get(&format!("/api/locations/?refiller={second}"), &admin)
            .await
            .json()["pagination"]["count"],
        2
    );
    // All or nothing: one unknown location changes none.
    let r = h
        .post(
            "/api/locations/change-refiller/",
            &admin,
            json!({"location_ids": [id, "nope"], "refiller_id": refiller}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(
        h.get(&format!("/api/locations/{id}/"), &admin).await.json()["data"]["refiller_id"],
        second.as_str()
    );
    let r = h
        .post(
            "/api/locations/change-refiller/",
            &admin,
            json!({"location_ids": [], "refiller_id": null}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    let r = h
        .get("/api/locations/export/?format=xlsx&ordering=name", &admin)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(r.bytes)).unwrap();
    let sheet = book.worksheet_range("Locations").unwrap();
    assert_eq!(sheet.height(), 3);
    assert_eq!(sheet.get_value((1, 0)).unwrap().to_string(), "Depot");
    assert_eq!(
        sheet.get_value((2, 4)).unwrap().to_string(),
        "Hospital Group"
    );
    let csv = h
        .get("/api/locations/export/?format=csv&search=ward", &admin)
        .await;
    assert!(String::from_utf8(csv.bytes)
        .unwrap()
        .contains("Ward A,\"1 Rue de Rivoli, Paris\",Office"));

    let r = h
        .put(
            &format!("/api/locations/{id}/"),
            &admin,
            json!({"name": "Ward B", "time_zone": "Europe/Paris", "client_id": client}),
        )
        .await;
    assert_eq!(r.json()["message"], "Location updated successfully");
    assert_eq!(r.json()["data"]["refiller_id"], Value::Null);
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/locations/{other}/"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.json()["message"], "Location deleted successfully");
    assert_eq!(
        h.get(&format!("/api/locations/{other}/"), &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

async fn a_scoped_user_sees_and_changes_only_their_locations(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let mine = create(&h, &admin, "/api/locations/", location("Mine", None)).await;
    let theirs = create(&h, &admin, "/api/locations/", location("Theirs", None)).await;
    let role = h
        .role(
            &admin,
            "Location managers",
            &[
                "settings.locations.list",
                "settings.locations.edit",
                "settings.locations.export",
                "settings.locations.delete",
                "settings.clients.list",
            ],
        )
        .await;
    let r = h.post("/api/users/", &admin, json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123", "role_id": role, "location_ids": [mine]})).await;
    assert_eq!(r.status, StatusCode::CREATED);
    let scoped = h.token("scoped@example.com", "password-123").await;

    let list = h.get("/api/locations/", &scoped).await.json();
    assert_eq!(list["pagination"]["count"], 1);
    assert_eq!(list["data"][0]["id"], mine.as_str());
    assert_eq!(
        h.get(&format!("/api/locations/{theirs}/"), &scoped)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let put = h
        .put(
            &format!("/api/locations/{theirs}/"),
            &scoped,
            location("Taken", None),
        )
        .await;
    assert_eq!(put.status, StatusCode::NOT_FOUND);
    let del = h
        .call(
            Method::DELETE,
            &format!("/api/locations/{theirs}/"),
            Some(&scoped),
            None,
        )
        .await;
    assert_eq!(del.status, StatusCode::NOT_FOUND);
    let r = h
        .post(
            "/api/locations/change-refiller/",
            &scoped,
            json!({"location_ids": [mine, theirs], "refiller_id": null}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let csv = String::from_utf8(h.get("/api/locations/export/", &scoped).await.bytes).unwrap();
    assert!(csv.contains("Mine") && !csv.contains("Theirs"));
    let opts = h.get("/api/filters/locations/", &scoped).await.json();
    assert_eq!(opts["data"].as_array().unwrap().len(), 1);
    assert_eq!(
        h.get(&format!("/api/locations/{theirs}/"), &admin)
            .await
            .json()["data"]["name"],
        "Theirs",
        "untouched"
    );
    // Without the permission at all: 403.
    assert_eq!(
        h.post("/api/locations/", &scoped, location("New", None))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        h.get("/api/machines/models/", &scoped).await.status,
        StatusCode::FORBIDDEN
    );
}

async fn machine_models_and_their_filters(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let r = h
        .post(
            "/api/machines/models/",
            &admin,
            json!({"name": "Necta Kikko Max", "type": "Hot drinks", "manufacturer": "Evoca"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json()["message"], "Model created successfully");
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    create(
        &h,
        &admin,
        "/api/machines/models/",
        json!({"name": "Sielaff FK 300", "type": "Snacks", "manufacturer": "Sielaff"}),
    )
    .await;
    let r = h
        .post(
            "/api/machines/models/",
            &admin,
            json!({"name": "", "type": ""}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    for f in ["name", "type", "manufacturer"] {
        assert_eq!(
            r.json()["errors"][f][0],
            "This field is required.",
            "{f}: {}",
            r.json()
        );
    }
    assert_eq!(
        h.get("/api/machines/models/?type=Snacks", &admin)
            .await
            .json()["pagination"]["count"],
        1
    );
    assert_eq!(
        h.get("/api/machines/models/?manufacturer=Evoca", &admin)
            .await
            .json()["data"][0]["name"],
        "Necta Kikko Max"
    );
    assert_eq!(
        h.get("/api/filters/machines/models/manufacturer/", &admin)
            .await
            .json()["data"],
        json!(["Evoca", "Sielaff"])
    );
    assert_eq!(
        h.get("/api/filters/machines/models/types/", &admin)
            .await
            .json()["data"],
        json!(["Hot drinks", "Snacks"])
    );
    assert_eq!(
        h.get("/api/filters/machines/models/", &admin).await.json()["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let r = h.put(&format!("/api/machines/models/{id}/"), &admin, json!({"name": "Kikko Max ES", "type": "Hot drinks", "manufacturer": "Evoca", "version": 1})).await;
    assert_eq!(r.json()["message"], "Model updated successfully");
    assert_eq!(
        h.get(&format!("/api/machines/models/{id}/"), &admin)
            .await
            .json()["data"]["name"],
        "Kikko Max ES"
    );
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/models/{id}/"),
            Some(&admin),
            None,
        )
        .await;
    assert_eq!(r.json()["message"], "Model deleted successfully");
    assert_eq!(
        h.get(&format!("/api/machines/models/{id}/"), &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let tz = h
        .call(Method::GET, "/api/filters/timezones/", None, None)
        .await
        .json();
    assert!(tz["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|z| z == "Europe/Rome"));
}

/// The operator's today and the period presets are Paris dates, also when the UTC date differs.
async fn operator_day_and_period_presets(b: Backend) {
    for (instant, today, month_from, prev_from, prev_to) in [
        // 23:30 UTC on the last day of November: December 1st in Paris.
        (
            "2026-11-30T23:30:00Z",
            "2026-12-01",
            "2026-12-01",
            "2026-11-01",
            "2026-11-30",
        ),
        // 10:30 UTC: the same day in Paris.
        (
            "2026-11-22T10:30:00Z",
            "2026-11-22",
            "2026-11-01",
            "2026-10-01",
            "2026-10-31",
        ),
        // New Year's Eve late evening UTC: already next year in Paris.
        (
            "2026-12-31T23:30:00Z",
            "2027-01-01",
            "2027-01-01",
            "2026-12-01",
            "2026-12-31",
        ),
    ] {
        let h = Harness::at(b, instant.parse().unwrap(), |_| {}).await;
        let admin = h.admin().await;
        let r = h.get("/api/settings/operator/", &admin).await;
        assert_eq!(r.status, StatusCode::OK);
        assert_eq!(r.json()["data"]["time_zone"], "Europe/Paris");
        assert_eq!(r.json()["data"]["today"], today, "at {instant}");
        let p = h.get("/api/filters/periods/", &admin).await.json();
        let find = |key: &str| {
            p["data"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["key"] == key)
                .cloned()
                .unwrap()
        };
        let month = find("current_month");
        assert_eq!(
            (month["date_from"].as_str(), month["date_to"].as_str()),
            (Some(month_from), Some(today)),
            "at {instant}"
        );
        let prev = find("previous_month");
        assert_eq!(
            (prev["date_from"].as_str(), prev["date_to"].as_str()),
            (Some(prev_from), Some(prev_to)),
            "at {instant}"
        );
        assert!(find("custom")["date_from"].is_null());
        let yesterday = find("yesterday");
        assert_eq!(yesterday["date_from"], yesterday["date_to"], "at {instant}");
        assert!(
            yesterday["date_to"].as_str().unwrap() < today,
            "at {instant}"
        );
        let week = find("current_week");
        assert_eq!(week["date_to"].as_str(), Some(today), "at {instant}");
        assert_eq!(p["data"].as_array().unwrap().len(), 9);
        // Signed-in users only.
        let r = h
            .call(Method::GET, "/api/settings/operator/", None, None)
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
}

on_both_stores!(
    operator_day_and_period_presets,
    clients_crud_and_validation,
    locations_crud_refiller_and_export,
    a_scoped_user_sees_and_changes_only_their_locations,
    machine_models_and_their_filters,
);
