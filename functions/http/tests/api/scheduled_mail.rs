//! A scheduled report's mail reads on its own: the periods named, the headline figures, a chart
//! whose bars carry the groups' names and values, the top rows — each equal to what the API
//! answers for the same dates — in the recipient's language, as HTML and as plain text.

use crate::common::{create, Backend, Harness};
use crate::generator::principal_of;
use crate::scheduler::allow_mail;
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;
use vendfleet_domain::Language;
use vendfleet_render::mail::message::{content, html, text};
use vendfleet_render::mail::period::amount;

/// Three locations, each with a machine selling on some days of September and October.
async fn fleet(h: &Harness, admin: &str) {
    let product = create(
        h,
        admin,
        "/api/products/",
        json!({"name": "Café", "price_minor": 150, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    for (i, name) in ["Gare du Nord", "Lycée Hugo", "Hôpital Sud"]
        .iter()
        .enumerate()
    {
        let l = create(
            h,
            admin,
            "/api/locations/",
            json!({"name": name, "time_zone": "Europe/Paris"}),
        )
        .await;
        let m = create(
            h,
            admin,
            "/api/machines/",
            json!({"name": format!("M{i}"), "location_id": l}),
        )
        .await;
        let r = h
            .post(
                "/api/machines/products/",
                admin,
                json!({"machine_id": m, "selection": "S0", "product_id": product, "max": 500,
                       "price_minor": 150 + 50 * i as i64, "current": 500}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        let start: DateTime<Utc> = "2026-09-01T10:00:00Z".parse().unwrap();
        let events: Vec<MachineEvent> = (0..61)
            .filter(|d| d % (i + 2) == 0)
            .map(|d| {
                serde_json::from_value(json!({"id": format!("v{d}"), "type": "vend",
                    "at": (start + Duration::days(d as i64)).to_rfc3339(), "selection": "S0",
                    "price_minor": 150 + 50 * i as i64, "quantity": 1 + (d % 3), "payment": "cash"}))
                .unwrap()
            })
            .collect();
        h.app.events.apply(&m, &events).await.unwrap();
    }
}

async fn a_monthly_mail_reads_on_its_own(b: Backend) {
    // 1 November 2026, 07:00 in Paris: "previous month" is October, compared with September.
    let h = Harness::at(b, "2026-11-01T06:00:00Z".parse().unwrap(), |_| {}).await;
    let admin = h.admin().await;
    allow_mail(&h, &admin, &["example.com"]).await;
    fleet(&h, &admin).await;
    let params =
        json!({"period": "previous_month", "group_by": "location", "grouping_period": "day"});
    let id = create(
        &h,
        &admin,
        "/api/query-schedulers/",
        json!({"name": "Ventes par emplacement", "module": "sales_overview", "params": params,
               "format": "xlsx", "graph": "bar",
               "cron": {"minute": "0", "hour": "7", "day_of_month": "1", "month": "*", "day_of_week": "*"},
               "time_zone": "Europe/Paris", "recipients": {"emails": ["boss@example.com"]}}),
    )
    .await;
    let r = h
        .post(
            &format!("/api/query-schedulers/{id}/send-now/"),
            &admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    while vendfleet_http::jobs::work_once(&h.app).await.unwrap() {}
    let reports = h
        .get("/api/reports/generator/reports/", &admin)
        .await
        .json();
    let report_id = reports["data"][0]["id"].as_str().unwrap().to_string();
    let owner = principal_of(&h, &admin).await;
    let report = h
        .app
        .generator
        .get_report(&owner, &report_id)
        .await
        .unwrap();

    // What the API answers for October against September, by location.
    let api = h
        .get(
            "/api/sales-journal/total-table/?date_from=2026-10-01&date_to=2026-10-31&group_by=location",
            &admin,
        )
        .await
        .json()["data"]
        .clone();
    let rows: Vec<&Value> = api["rows"].as_array().unwrap().iter().collect();
    assert_eq!(rows.len(), 3, "{api}");

    for (lang, periods, sales) in [
        (Language::En, "October 2026 against September 2026", "Sales"),
        (
            Language::Fr,
            "octobre 2026 comparé à septembre 2026",
            "Ventes",
        ),
    ] {
        let c = content(&h.app, &owner, &report, lang, true, 0).await;
        assert_eq!(c.periods.as_deref(), Some(periods));
        assert_eq!(c.figures[0].label, sales);
        let money = |v: &Value| amount(lang, v.as_i64().unwrap(), true);
        assert_eq!(c.figures[0].now, money(&api["total"]["sales_minor"]));
        assert_eq!(c.figures[0].before, money(&api["previous"]["sales_minor"]));
        // The chart: one bar per location, named, valued, largest first.
        let chart = c.chart.as_ref().expect("a chart");
        let bars: Vec<(String, String)> = chart
            .bars
            .iter()
            .map(|b| (b.label.clone(), b.shown.clone()))
            .collect();
        let want: Vec<(String, String)> = rows
            .iter()
            .map(|r| {
                (
                    r["name"].as_str().unwrap().to_string(),
                    money(&r["sales_minor"]),
                )
            })
            .collect();
        assert_eq!(bars, want);
        let top = c.top.as_ref().expect("top rows");
        assert_eq!(top.1.len(), 3);
        assert_eq!(top.1[0][0], want[0].0);
        // Both renderings carry the periods, the names and the figures.
        let (html, text) = (html(&c), text(&c));
        // To look at it: VENDFLEET_MAIL_LOOK=DIR writes each language's HTML there (open it in
        // Chromium, or `chromium --headless --screenshot` it).
        if let Ok(dir) = std::env::var("VENDFLEET_MAIL_LOOK") {
            std::fs::write(format!("{dir}/mail-{b:?}-{lang:?}.html"), &html).unwrap();
        }
        for (name, value) in &want {
            assert!(text.contains(&format!("- {name}: {value}")), "{text}");
            let escaped = name.replace('&', "&amp;");
            assert!(
                html.contains(&escaped) && html.contains(value.as_str()),
                "{html}"
            );
        }
        assert!(html.contains(periods) && text.contains(periods));
        // No public address configured: no link.
        assert!(c.link.is_none());
    }

    // The mail itself went out with the periods in its subject.
    if b == Backend::Sqlite {
        let mails: Vec<String> = std::fs::read_dir(h.outbox())
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        assert_eq!(mails.len(), 1);
        assert!(mails[0].contains("text/html"), "{}", mails[0]);
    }
}

on_both_stores!(a_monthly_mail_reads_on_its_own);
