//! The sales overview's comparison spans from outside, around both 2026 clock changes: a
//! calendar month against the month before, an ISO week against the week before, the current
//! month and week so far against the same days before, and a custom span against the same
//! weekdays before — the spans written out by hand here, the figures summed from the ledger.

use crate::common::sellers::{seller, vend_at};
use crate::common::{created, Backend, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use serde_json::{json, Value};
use vendfleet_domain::sales::VendFact;

/// A machine in Paris and one in Auckland, each selling every five hours from `from` to `to`
/// (a price that grows with each sale, so that a day moved is a figure changed); their ids.
async fn sellers(h: &Harness, admin: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> Vec<String> {
    let product = created(
        h,
        admin,
        "/api/products/",
        json!({"name": "Thé", "sku": "THE", "price_minor": 100, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    let instants: Vec<DateTime<Utc>> = (0..)
        .map(|k| from + Duration::hours(5 * k))
        .take_while(|at| *at <= to)
        .collect();
    let mut ids = Vec::new();
    for zone in ["Europe/Paris", "Pacific/Auckland"] {
        let s = seller(h, admin, &product, (zone, zone), zone, (100, 10000)).await;
        vend_at(h, &s.machine, &instants, |k| 100 + k as i64).await;
        ids.push(s.machine);
    }
    ids
}

/// The machines' ledgers on local days `from..=to` (on DynamoDB a read costs a query a
/// machine-day: they are read once, then summed span by span).
async fn ledgers(
    h: &Harness,
    machines: &[String],
    from: NaiveDate,
    to: NaiveDate,
) -> Vec<VendFact> {
    let mut rows = Vec::new();
    for m in machines {
        rows.extend(h.app.sales.store().ledger(m, from, to).await.unwrap());
    }
    rows
}

/// Sales minor units of the ledger rows on local days `from..=to`.
fn ledger_sales(rows: &[VendFact], from: NaiveDate, to: NaiveDate) -> i64 {
    rows.iter()
        .filter(|v| (from..=to).contains(&v.local_date))
        .map(|v| v.revenue_minor)
        .sum()
}

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

async fn comparison_spans_around_clock_changes(b: Backend) {
    // (now, [(query, span, span compared)]): Thursday 2 April 2026 (Paris went to summer time on
    // Sunday 29 March) and Monday 2 November 2026 (back to winter time on Sunday 25 October).
    let cases = [
        (
            "2026-04-02T10:00:00Z",
            vec![
                (
                    "period=previous_month",
                    ("2026-03-01", "2026-03-31"),
                    ("2026-02-01", "2026-02-28"),
                ),
                (
                    "period=previous_week",
                    ("2026-03-23", "2026-03-29"),
                    ("2026-03-16", "2026-03-22"),
                ),
                (
                    "period=current_month",
                    ("2026-04-01", "2026-04-02"),
                    ("2026-03-01", "2026-03-02"),
                ),
                (
                    "period=current_week",
                    ("2026-03-30", "2026-04-02"),
                    ("2026-03-23", "2026-03-26"),
                ),
                (
                    "date_from=2026-03-27&date_to=2026-03-31",
                    ("2026-03-27", "2026-03-31"),
                    ("2026-03-20", "2026-03-24"),
                ),
            ],
        ),
        (
            "2026-11-02T10:00:00Z",
            vec![
                (
                    "period=previous_month",
                    ("2026-10-01", "2026-10-31"),
                    ("2026-09-01", "2026-09-30"),
                ),
                (
                    "period=previous_week",
                    ("2026-10-26", "2026-11-01"),
                    ("2026-10-19", "2026-10-25"),
                ),
                (
                    "date_from=2026-10-20&date_to=2026-10-29",
                    ("2026-10-20", "2026-10-29"),
                    ("2026-10-06", "2026-10-15"),
                ),
            ],
        ),
    ];
    for (now, queries) in cases {
        let now: DateTime<Utc> = now.parse().unwrap();
        let h = Harness::at(b, now, |_| {}).await;
        let admin = h.admin().await;
        // Sales from the day before the first day compared (every local day of the spans,
        // in Paris and in Auckland, has sales) to now.
        let first = queries.iter().map(|(_, _, (pf, _))| d(pf)).min().unwrap();
        let since = (first - Duration::days(1))
            .and_time(NaiveTime::MIN)
            .and_utc();
        let machines = sellers(&h, &admin, since, now).await;
        let rows = ledgers(&h, &machines, first, now.date_naive() + Duration::days(1)).await;
        for (query, (from, to), (pf, pt)) in queries {
            let r = h
                .get(&format!("/api/sales-journal/total-table/?{query}"), &admin)
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            let data: Value = r.json()["data"].clone();
            assert_eq!(
                (&data["previous_from"], &data["previous_to"]),
                (&json!(pf), &json!(pt)),
                "{now} {query}"
            );
            let now_sales = ledger_sales(&rows, d(from), d(to));
            let before = ledger_sales(&rows, d(pf), d(pt));
            assert!(now_sales > 0 && before > 0, "{now} {query}");
            assert_eq!(data["total"]["sales_minor"], now_sales, "{now} {query}");
            assert_eq!(data["previous"]["sales_minor"], before, "{now} {query}");
        }
    }
}

on_both_stores!(comparison_spans_around_clock_changes);
