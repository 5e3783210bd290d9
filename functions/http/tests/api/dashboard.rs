//! The dashboard's "today so far" against the same hours of yesterday and of a week before,
//! around clock changes and in zones ahead of and behind the operator's; its trend charts
//! against the sales overview; its attention list's locations.

use crate::common::sellers::{seller, vend_at, Seller};
use crate::common::{created, Backend, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use serde_json::{json, Value};

/// A machine at a new location in `zone`, selling S0 at 250.
async fn machine_in(h: &Harness, admin: &str, product: &Value, zone: &str, stock: i64) -> Seller {
    let place = format!("Station {zone}");
    let name = format!("Lobby {zone}");
    seller(h, admin, product, (&place, zone), &name, (250, stock)).await
}

/// A fleet on `b` whose clock stands at `now`: its administrator's token and an espresso at 250.
async fn espresso_at(b: Backend, now: DateTime<Utc>) -> (Harness, String, Value) {
    let h = Harness::at(b, now, |_| {}).await;
    let admin = h.admin().await;
    let product = created(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Espresso", "sku": "ESP", "price_minor": 250, "vat_bps": 1000, "units": "pcs"}),
    )
    .await;
    (h, admin, product)
}

/// A vend every 37 minutes from 00:05 local time `days` days before `today` to `now` on the
/// local days within a day of an `edge` (the days whose hours a figure counts, and the first
/// and last days of the spans it sums: each side of their boundaries); on the days between,
/// whose vends only add to whole days' sums, one of every five of those instants (intake on
/// DynamoDB costs a transaction per hundred items).
fn every_37_minutes(
    zone: Tz,
    today: NaiveDate,
    days: i64,
    now: DateTime<Utc>,
    edges: &[NaiveDate],
) -> Vec<DateTime<Utc>> {
    let start = zone
        .from_local_datetime(&(today - Duration::days(days)).and_hms_opt(0, 5, 0).unwrap())
        .earliest()
        .unwrap()
        .with_timezone(&Utc);
    let near_an_edge = |at: &DateTime<Utc>| {
        let day = at.with_timezone(&zone).date_naive();
        edges.iter().any(|e| (day - *e).num_days().abs() <= 1)
    };
    (0..)
        .map(|k| (k, start + Duration::minutes(37 * k)))
        .take_while(|(_, at)| *at <= now)
        .filter(|(k, at)| k % 5 == 0 || near_an_edge(at))
        .map(|(_, at)| at)
        .collect()
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
    let (h, admin, product) = espresso_at(b, now).await;
    let today: NaiveDate = "2026-03-30".parse().unwrap();
    let zones = ["Europe/Paris", "America/New_York", "Pacific/Auckland"];
    let mut all = Vec::new();
    for (z, zone) in zones.iter().enumerate() {
        let tz: Tz = zone.parse().unwrap();
        let machine = machine_in(&h, &admin, &product, zone, if z == 0 { 0 } else { 4000 }).await;
        // Today, yesterday and the same day a week before are faced hour by hour.
        let edges = [today, today - Duration::days(1), today - Duration::days(7)];
        let instants = every_37_minutes(tz, today, 8, now, &edges);
        vend_at(&h, &machine.machine, &instants, |_| 250).await;
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

/// Sales minor units of the vends (250 each) whose local day in `zone` is in `from..=to`.
fn on_days(vends: &[DateTime<Utc>], zone: Tz, from: NaiveDate, to: NaiveDate) -> i64 {
    vends
        .iter()
        .map(|at| at.with_timezone(&zone).date_naive())
        .filter(|day| (from..=to).contains(day))
        .count() as i64
        * 250
}

/// A user whose machine access is one location, with the sales overview: every figure of the
/// dashboard — today so far, both comparisons, the trend, the month, the top lists and the
/// attention list — counts and names only that location's machine; the all-machines
/// administrator's counts the other one too (so each check could fail).
async fn a_scoped_user_sees_only_its_machines(b: Backend) {
    // 09:00 in Paris on Monday 2 November 2026, the day after New York's clocks went back.
    let now: DateTime<Utc> = "2026-11-02T08:00:00Z".parse().unwrap();
    let today: NaiveDate = "2026-11-02".parse().unwrap();
    let (h, admin, product) = espresso_at(b, now).await;
    let paris: Tz = "Europe/Paris".parse().unwrap();
    // Today, yesterday and a week before (hour by hour); the last 30 days, this month and the
    // same days of last month (their first and last days).
    let edges = [
        today,
        today - Duration::days(1),
        today - Duration::days(7),
        today - Duration::days(29),
        "2026-11-01".parse().unwrap(),
        "2026-10-01".parse().unwrap(),
        "2026-10-02".parse().unwrap(),
    ];
    let mine = machine_in(&h, &admin, &product, "Europe/Paris", 4000).await;
    let vends = every_37_minutes(paris, today, 35, now, &edges);
    vend_at(&h, &mine.machine, &vends, |_| 250).await;
    // The machine outside the scope sells too, and is sold out (the attention list holds it).
    let other = machine_in(&h, &admin, &product, "America/New_York", 0).await;
    let elsewhere = every_37_minutes("America/New_York".parse().unwrap(), today, 35, now, &edges);
    vend_at(&h, &other.machine, &elsewhere, |_| 250).await;

    let role = h
        .role(
            &admin,
            "Sales",
            &[
                "reports.sales_overview.total_list",
                "settings.machines.list",
            ],
        )
        .await;
    let body = json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                      "role_id": role, "access_all_machines": false,
                      "location_ids": [mine.location]});
    let r = h.post("/api/users/", &admin, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped = h.token("scoped@example.com", "password-123").await;

    let dashboard = |token: String| {
        let h = &h;
        async move {
            let d = h.get("/api/dashboard/", &token).await;
            assert_eq!(d.status, StatusCode::OK, "{}", d.json());
            d.json()["data"].clone()
        }
    };
    let (d, all) = (dashboard(scoped).await, dashboard(admin).await);
    let total = |v: &Value| v.as_array().unwrap().iter().map(sales).sum::<i64>();
    let checks = [
        (
            "today",
            sales(&d["today"]["figures"]),
            sales(&all["today"]["figures"]),
            brute(&vends, paris, today, today, now),
        ),
        (
            "yesterday",
            sales(&d["today"]["yesterday"]),
            sales(&all["today"]["yesterday"]),
            brute(&vends, paris, today - Duration::days(1), today, now),
        ),
        (
            "week before",
            sales(&d["today"]["week_before"]),
            sales(&all["today"]["week_before"]),
            brute(&vends, paris, today - Duration::days(7), today, now),
        ),
        (
            "last 30 days",
            total(&d["trend"]["last_days"]),
            total(&all["trend"]["last_days"]),
            on_days(&vends, paris, today - Duration::days(29), today),
        ),
        (
            "this month",
            total(&d["trend"]["month"]),
            total(&all["trend"]["month"]),
            on_days(&vends, paris, "2026-11-01".parse().unwrap(), today),
        ),
        (
            "last month",
            total(&d["trend"]["previous_month"]),
            total(&all["trend"]["previous_month"]),
            on_days(
                &vends,
                paris,
                "2026-10-01".parse().unwrap(),
                "2026-10-02".parse().unwrap(),
            ),
        ),
        (
            "month",
            sales(&d["month"]["figures"]),
            sales(&all["month"]["figures"]),
            on_days(&vends, paris, "2026-11-01".parse().unwrap(), today),
        ),
    ];
    for (what, seen, everything, want) in checks {
        assert_eq!(
            seen, want,
            "{what}: the scoped user's figure is its machine's"
        );
        assert!(
            want > 0 && everything > seen,
            "{what}: the administrator's counts both machines"
        );
    }
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|row| {
                row["name"]
                    .as_str()
                    .or(row["machine_name"].as_str())
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(names(&d["top_machines"]), ["Lobby Europe/Paris"]);
    assert_eq!(names(&all["top_machines"]).len(), 2);
    assert!(!names(&d["attention"]).contains(&"Lobby America/New_York".to_string()));
    assert!(names(&all["attention"]).contains(&"Lobby America/New_York".to_string()));
}

on_both_stores!(
    today_so_far_faces_the_same_hours,
    a_scoped_user_sees_only_its_machines
);
