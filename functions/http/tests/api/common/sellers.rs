//! Machines that sell: a location in a time zone with one machine and one selection, and vends
//! posted to it at chosen instants (the comparison and dashboard tests).

use super::{created, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Utc};
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

/// A machine selling one product from selection S0 at `price_minor`.
pub struct Seller {
    pub machine: String,
    pub location: String,
}

/// A new location named `place` in `zone` with one machine named `name` whose S0 holds `product`
/// at `price_minor`, `stock` of it in the machine.
pub async fn seller(
    h: &Harness,
    admin: &str,
    product: &Value,
    (place, zone): (&str, &str),
    name: &str,
    (price_minor, stock): (i64, i64),
) -> Seller {
    let loc = created(
        h,
        admin,
        "/api/locations/",
        json!({"name": place, "time_zone": zone}),
    )
    .await;
    let m = created(
        h,
        admin,
        "/api/machines/",
        json!({"name": name, "location_id": loc["id"]}),
    )
    .await;
    let machine = m["id"].as_str().unwrap().to_string();
    let r = h
        .post(
            "/api/machines/products/",
            admin,
            json!({"machine_id": machine, "selection": "S0", "product_id": product["id"],
                   "max": 10000, "price_minor": price_minor, "current": stock}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    Seller {
        machine,
        location: loc["id"].as_str().unwrap().to_string(),
    }
}

/// One cash vend of S0 at each instant, the k-th at `price(k)`, applied to `machine`.
pub async fn vend_at(
    h: &Harness,
    machine: &str,
    instants: &[DateTime<Utc>],
    price: impl Fn(usize) -> i64,
) {
    let events: Vec<MachineEvent> = instants
        .iter()
        .enumerate()
        .map(|(k, at)| {
            serde_json::from_value(json!({"id": format!("v{k}"), "type": "vend",
                "at": at.to_rfc3339(), "selection": "S0", "price_minor": price(k),
                "quantity": 1, "payment": "cash"}))
            .unwrap()
        })
        .collect();
    h.app.events.apply(machine, &events).await.unwrap();
}
