//! The dashboard's "today so far" against the same hours of yesterday and of a week before,
//! around clock changes and in zones ahead of and behind the operator's; its trend charts
//! against the sales overview; its attention list's locations.

use crate::common::{created, Backend, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

/// A machine at a new location in `zone`, selling S0 at 250; its id.
async fn machine_in(h: &Harness, admin: &str, product: &Value, zone: &str, stock: i64) -> String {
    let loc = created(
        h,
        admin,
        "/api/locations/",
        json!({"name": format!("Station {zone}"), "time_zone": zone}),
    )
    .await;
    let m = created(
        h,
        admin,
        "/api/machines/",
        json!({"name": format!("Lobby {zone}"), "location_id": loc["id"]}),
    )
    .await;
    let id = m["id"].as_str().unwrap().to_string();
    let r = h
        .post(
            "/api/machines/products/",
            admin,
            json!({"machine_id": id, "selection": "S0", "product_id": product["id"],
                   "max": 5000, "price_minor": 250, "current": stock}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    id
}

/// Sales minor units of the vends (one unit at 250 each) whose local day in `zone` is `day`
/// and whose local time of day there is at most `now`'s, when `now` falls on `today` there:
/// the hours of `day` that today has already lived through (all of them once today is over
/// there, none before it has begun).
fn brute(
    vends: &[DateTime<Utc>],
    zone: Tz,
    day: NaiveDate,
    today: NaiveDate,
    now: DateTime<Utc>,
) -> i64 {
    let here = now.with_timezone(&zone);
    vends
        .iter()
        .map(|at| at.with_timezone(&zone))
        .filter(|local| local.date_naive() == day)
        .filter(|local| match here.date_naive().cmp(&today) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => local.time() <= here.time(),
        })
        .count() as i64
        * 250
}

fn sales(v: &Value) -> i64 {
    v["sales_minor"].as_i64().unwrap()
}

async fn today_so_far_faces_the_same_hours(b: Backend) {
    // 09:00 in Paris on the Monday after the clocks went forward (Sunday 29 March 2026 lost
    // 02:00–03:00); the week before was still in winter time. New York changed on 8 March and
    // is at 03:00; Auckland's Tuesday is already under way (it faces whole days).
    let now: DateTime<Utc> = "2026-03-30T07:00:00Z".parse().unwrap();
    let h = Harness::at(b, now, |_| {}).await;
    let admin = h.admin().await;
    let product = created(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Espresso", "sku": "ESP", "price_minor": 250, "vat_bps": 1000, "units": "pcs"}),
    )
    .await;
    let today: NaiveDate = "2026-03-30".parse().unwrap();
    let zones = ["Europe/Paris", "America/New_York", "Pacific/Auckland"];
    let mut all = Vec::new();
    for (z, zone) in zones.iter().enumerate() {
        let tz: Tz = zone.parse().unwrap();
        let machine = machine_in(&h, &admin, &product, zone, if z == 0 { 0 } else { 4000 }).await;
        // A vend every 37 minutes from 8 days before to now, in the machine's zone.
        let start = tz
            .from_local_datetime(&(today - Duration::days(8)).and_hms_opt(0, 5, 0).unwrap())
            .earliest()
            .unwrap()
            .with_timezone(&Utc);
        let instants: Vec<DateTime<Utc>> = (0..)
            .map(|k| start + Duration::minutes(37 * k))
            .take_while(|at| *at <= now)
            .collect();
        let events: Vec<MachineEvent> = instants
            .iter()
            .enumerate()
            .map(|(k, at)| {
                serde_json::from_value(json!({"id": format!("v{k}"), "type": "vend",
                    "at": at.to_rfc3339(), "selection": "S0", "price_minor": 250,
                    "quantity": 1, "payment": "cash"}))
                .unwrap()
            })
            .collect();
        h.app.events.apply(&machine, &events).await.unwrap();
        all.push((tz, instants));
    }
    let d = h.get("/api/dashboard/", &admin).await;
    assert_eq!(d.status, StatusCode::OK, "{}", d.json());
    let d = d.json()["data"].clone();
    let t = &d["today"];
    assert_eq!(t["date"], "2026-03-30");
    assert_eq!(t["until"], "09:00:00");
    for (field, back) in [("yesterday", 1), ("week_before", 7)] {
        let day = today - Duration::days(back);
        assert_eq!(t[field]["date"], day.to_string());
        let want: i64 = all
            .iter()
            .map(|(tz, v)| brute(v, *tz, day, today, now))
            .sum();
        assert_eq!(sales(&t[field]), want, "{field}");
        assert!(want > 0);
    }
    // Today itself is the sales overview's today.
    let day = h
        .get(
            &format!("/api/sales-journal/total-table/?date_from={today}&date_to={today}"),
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(t["figures"], day["total"]);

    // The trend: 30 days to today, every day present, each as the sales overview has it.
    let last = d["trend"]["last_days"].as_array().unwrap();
    assert_eq!(last.len(), 30);
    assert_eq!(last[0]["date"], (today - Duration::days(29)).to_string());
    assert_eq!(last[29]["date"], today.to_string());
    let line = h
        .get(
            &format!(
                "/api/sales-journal/total-table/?date_from={}&date_to={today}",
                today - Duration::days(29)
            ),
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(last.iter().map(sales).sum::<i64>(), sales(&line["total"]));
    for (key, span) in [("month", "figures"), ("previous_month", "previous")] {
        let days = d["trend"][key].as_array().unwrap();
        assert_eq!(
            days.iter().map(sales).sum::<i64>(),
            sales(&d["month"][span]),
            "{key}"
        );
    }
    assert_eq!(d["trend"]["month"].as_array().unwrap().len(), 30);
    assert_eq!(d["trend"]["previous_month"][0]["date"], "2026-02-01");

    // The attention list names the machine's location.
    let attention = d["attention"].as_array().unwrap();
    let paris = attention
        .iter()
        .find(|a| a["machine_name"] == "Lobby Europe/Paris")
        .expect("the sold-out machine");
    assert_eq!(paris["location_name"], "Station Europe/Paris");
}

on_both_stores!(today_so_far_faces_the_same_hours);
