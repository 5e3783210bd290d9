//! Card settlements (issue 31): a processor's file with known mismatches reconciled exactly
//! against the machines' card sales; the same file again changes nothing; a broken file is
//! refused naming its rows and columns, with nothing imported; a corrected file supersedes its
//! payout and the history shows both; an XLSX file through the generic format; permissions and
//! the machine scope. On SQLite and on DynamoDB.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use base64::Engine;
use chrono::{Duration, NaiveDate, TimeZone};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use vendfleet_domain::events::MachineEvent;

struct Fleet {
    admin: String,
    /// Machines with terminals T-0 … T-2, and one without a terminal.
    machines: Vec<String>,
    location: Vec<String>,
    /// Card sales by (terminal index, day).
    sales: BTreeMap<(usize, NaiveDate), i64>,
    days: Vec<NaiveDate>,
}

/// Four machines (each at its own location), ten days of card and cash vends; the card vends'
/// count depends on the machine and day (some days none).
async fn fleet(h: &Harness) -> Fleet {
    let admin = h.admin().await;
    let product = create(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "price_minor": 150, "vat_bps": 550}),
    )
    .await;
    let today = h.app.calendar.today();
    let days: Vec<NaiveDate> = (1..=10).rev().map(|d| today - Duration::days(d)).collect();
    let mut machines = Vec::new();
    let mut location = Vec::new();
    let mut sales = BTreeMap::new();
    for i in 0..4 {
        let l = create(
            h,
            &admin,
            "/api/locations/",
            json!({"name": format!("Site {i}"), "time_zone": "Europe/Paris"}),
        )
        .await;
        let mut body = json!({"name": format!("M{i}"), "location_id": l});
        if i < 3 {
            body["terminal_id"] = json!(format!("T-{i}"));
        }
        let m = create(h, &admin, "/api/machines/", body).await;
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                json!({"machine_id": m, "selection": "A1", "product_id": product, "max": 500,
                       "price_minor": 150, "current": 500}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        let mut events: Vec<MachineEvent> = Vec::new();
        for (d, day) in days.iter().enumerate() {
            let at = chrono_tz::Europe::Paris
                .from_local_datetime(&day.and_hms_opt(10, 0, 0).unwrap())
                .unwrap();
            let card = (i + d) % 3;
            for k in 0..card {
                let e = json!({"id": format!("c{d}-{k}"), "type": "vend",
                    "at": (at + Duration::minutes(k as i64)).to_rfc3339(), "selection": "A1",
                    "price_minor": 150, "quantity": 1, "payment": "cashless"});
                events.push(serde_json::from_value(e).unwrap());
            }
            let e = json!({"id": format!("cash{d}"), "type": "vend", "at": at.to_rfc3339(),
                "selection": "A1", "price_minor": 150, "quantity": 1, "payment": "cash"});
            events.push(serde_json::from_value(e).unwrap());
            if card > 0 && i < 3 {
                sales.insert((i, *day), 150 * card as i64);
            }
        }
        h.app.events.apply(&m, &events).await.unwrap();
        machines.push(m);
        location.push(l);
    }
    Fleet {
        admin,
        machines,
        location,
        sales,
        days,
    }
}

/// A Nayax-like export: `;`, decimal commas, day-first dates, its own headers.
const NAYAX: &str =
    "Transaction day;Terminal;Gross amount;Commission;Net amount;Tx count;Payout ID;Cur";

fn money(minor: i64) -> String {
    format!(
        "{}{},{:02}",
        if minor < 0 { "-" } else { "" },
        minor.abs() / 100,
        minor.abs() % 100
    )
}

fn row(day: NaiveDate, terminal: usize, gross: i64, payout: &str) -> String {
    let fees = gross * 3 / 100;
    format!(
        "{};T-{terminal};{};{};{};{};{payout};EUR",
        day.format("%d/%m/%Y"),
        money(gross),
        money(fees),
        money(gross - fees),
        gross / 150
    )
}

fn b64(s: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

async fn import(
    h: &Harness,
    token: &str,
    mapping: &str,
    name: &str,
    bytes: &[u8],
) -> (StatusCode, Value) {
    let r = h
        .post(
            "/api/settlements/imports/",
            token,
            json!({"mapping_id": mapping, "file_name": name, "content_base64": b64(bytes)}),
        )
        .await;
    (r.status, r.json())
}

async fn reconcile(h: &Harness, token: &str, f: &Fleet) -> Value {
    let r = h
        .get(
            &format!(
                "/api/settlements/reconciliation/?period=custom&date_from={}&date_to={}",
                f.days[0], f.days[9]
            ),
            token,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"].clone()
}

/// (terminal, day) → status of the reconciliation's rows.
fn statuses(rec: &Value) -> BTreeMap<(String, String), String> {
    rec["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["terminal_id"].as_str().unwrap().to_string(),
                    r["date"].as_str().unwrap().to_string(),
                ),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

async fn a_processor_file_is_reconciled_exactly(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;
    let admin = f.admin.clone();
    // A terminal id is one machine's.
    let r = h
        .put(
            &format!("/api/machines/{}/settings/", f.machines[3]),
            &admin,
            json!({"name": "M3", "location_id": f.location[3], "terminal_id": "T-0"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    assert!(r.json()["errors"]["terminal_id"].is_array());
    // So is a Nayax machine id; an empty one clears it.
    let settings = |i: usize| format!("/api/machines/{}/settings/", f.machines[i]);
    let named = |i: usize, nayax: &str| json!({"name": format!("M{i}"), "location_id": f.location[i], "nayax_machine_id": nayax});
    let r = h.put(&settings(2), &admin, named(2, " 54265 ")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["nayax_machine_id"], "54265");
    let r = h.put(&settings(3), &admin, named(3, "54265")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    assert!(r.json()["errors"]["nayax_machine_id"].is_array());
    let r = h.put(&settings(2), &admin, named(2, "")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert!(r.json()["data"]["nayax_machine_id"].is_null());

    let r = h
        .post(
            "/api/settlements/mappings/",
            &admin,
            json!({"name": "Nayax", "date_format": "%d/%m/%Y", "decimal_separator": ",",
                   "columns": {"date": "Transaction day", "terminal": "Terminal", "gross": "Gross amount",
                               "fees": "Commission", "net": "Net amount", "count": "Tx count",
                               "payout_reference": "Payout ID", "currency": "Cur"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let nayax = r.json()["data"]["id"].as_str().unwrap().to_string();

    // The file: every machine-day with card sales settled, except the known mismatches.
    // The mismatches: each terminal's first day with card sales.
    let first_sale = |t: usize| {
        *f.days
            .iter()
            .find(|d| f.sales.contains_key(&(t, **d)))
            .expect("a day with card sales")
    };
    let (short_day, over_day, missing_day, extra_day) =
        (first_sale(0), first_sale(1), first_sale(2), f.days[5]);
    assert!(short_day < f.days[5], "the short day is in payout PO-1");
    let mut expected: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut lines = vec![NAYAX.to_string()];
    let mut gross_total = 0;
    for ((t, day), sales) in &f.sales {
        let key = (format!("T-{t}"), day.to_string());
        let payout = if *day < f.days[5] { "PO-1" } else { "PO-2" };
        let gross = match (*t, *day) {
            (0, d) if d == short_day => {
                expected.insert(key, "short".into());
                sales - 150
            }
            (1, d) if d == over_day => {
                expected.insert(key, "over".into());
                sales + 300
            }
            (2, d) if d == missing_day => {
                expected.insert(key, "not_settled".into());
                continue;
            }
            _ => {
                expected.insert(key, "matched".into());
                *sales
            }
        };
        gross_total += gross;
        lines.push(row(*day, *t, gross, payout));
    }
    // A settlement for a day T-2 sold nothing by card.
    let quiet = f
        .days
        .iter()
        .find(|d| !f.sales.contains_key(&(2, **d)) && **d >= extra_day)
        .copied()
        .expect("a day without card sales");
    lines.push(row(quiet, 2, 450, "PO-2"));
    gross_total += 450;
    expected.insert(("T-2".into(), quiet.to_string()), "settled_no_sales".into());
    let file = lines.join("\r\n");

    let (status, first) = import(&h, &admin, &nayax, "nayax-november.csv", file.as_bytes()).await;
    assert_eq!(status, StatusCode::CREATED, "{first}");
    assert_eq!(first["data"]["replayed"], false);
    let first_id = first["data"]["import"]["id"].as_str().unwrap().to_string();
    assert_eq!(first["data"]["import"]["rows"], lines.len() - 1);
    assert_eq!(first["data"]["import"]["gross_minor"], gross_total);
    assert_eq!(first["data"]["import"]["payouts"], json!(["PO-1", "PO-2"]));
    let rec = reconcile(&h, &admin, &f).await;
    assert_eq!(statuses(&rec), expected);
    assert_eq!(rec["totals"]["gross_minor"], gross_total);
    let sales_total: i64 = f.sales.values().sum();
    assert_eq!(rec["totals"]["sales_minor"], sales_total);
    assert_eq!(rec["totals"]["difference_minor"], gross_total - sales_total);
    let fees: i64 = rec["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(
                r["gross_minor"].as_i64().unwrap() - r["fees_minor"].as_i64().unwrap(),
                r["net_minor"].as_i64().unwrap()
            );
            r["fees_minor"].as_i64().unwrap()
        })
        .sum();
    assert_eq!(rec["totals"]["fees_minor"], fees);
    let short = rec["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["status"] == "short")
        .unwrap()
        .clone();
    assert_eq!(short["difference_minor"], -150);
    assert_eq!(short["payouts"], json!(["PO-1"]));
    // M3 has no terminal: not in the reconciliation.
    assert!(rec["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["machine_id"] != f.machines[3].as_str()));
    let payouts: Vec<&str> = rec["payouts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["reference"].as_str().unwrap())
        .collect();
    assert_eq!(payouts, ["PO-1", "PO-2"]);
    // The export: every machine-day, the statuses in words.
    let r = h
        .get(
            &format!(
                "/api/settlements/reconciliation/export/?period=custom&date_from={}&date_to={}&format=csv",
                f.days[0], f.days[9]
            ),
            &admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let csv = String::from_utf8_lossy(&r.bytes).to_string();
    assert_eq!(
        csv.lines().count(),
        rec["rows"].as_array().unwrap().len() + 1,
        "{csv}"
    );
    assert!(csv.contains("Short") && csv.contains("PO-1"), "{csv}");

    // The same file again changes nothing.
    let (status, again) = import(&h, &admin, &nayax, "copy.csv", file.as_bytes()).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["data"]["replayed"], true);
    assert_eq!(again["data"]["import"]["id"], first_id.as_str());
    assert_eq!(reconcile(&h, &admin, &f).await, rec);

    // A broken file: a bad amount on row 3, an unknown terminal on row 4, a net that does not
    // add up on row 5 — all named, nothing imported.
    let mut broken = vec![NAYAX.to_string(), row(f.days[0], 0, 150, "PO-9")];
    broken.push(row(f.days[0], 1, 150, "PO-9").replace("1,50;", "1,5x;"));
    broken.push(row(f.days[0], 9, 150, "PO-9"));
    broken.push(row(f.days[0], 2, 300, "PO-9").replace(";2,91;", ";2,90;"));
    let (status, refused) = import(
        &h,
        &admin,
        &nayax,
        "broken.csv",
        broken.join("\n").as_bytes(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    for (field, words) in [
        ("rows.3.gross", "Row 3, column \"Gross amount\""),
        ("rows.4.terminal", "T-9"),
        ("rows.5.net", "Row 5"),
    ] {
        let msg = refused["errors"][field][0]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(msg.contains(words), "{field}: {refused}");
    }
    assert_eq!(refused["errors"].as_object().unwrap().len(), 3, "{refused}");
    // A column the mapping names but the file lacks.
    let (status, refused) = import(
        &h,
        &admin,
        &nayax,
        "cols.csv",
        b"Day;Terminal\n01/11/2026;T-0",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused["errors"]["columns.date"].is_array(), "{refused}");
    let (status, _) = import(
        &h,
        &admin,
        &nayax,
        "garbage.xlsx",
        b"PK\x03\x04 not a workbook",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let imports = h.get("/api/settlements/imports/", &admin).await.json()["data"].clone();
    assert_eq!(
        imports.as_array().unwrap().len(),
        1,
        "nothing half-imported: {imports}"
    );
    assert_eq!(reconcile(&h, &admin, &f).await, rec);

    // The processor corrects payout PO-1: the short day is settled in full now; the earlier
    // file's PO-1 lines no longer count, and the history shows both.
    let mut corrected = vec![NAYAX.to_string()];
    for ((t, day), sales) in &f.sales {
        if *day < f.days[5] {
            let gross = if *t == 1 && *day == over_day {
                sales + 300
            } else {
                *sales
            };
            if !(*t == 2 && *day == missing_day) {
                corrected.push(row(*day, *t, gross, "PO-1"));
            }
        }
    }
    let (status, second) = import(
        &h,
        &admin,
        &nayax,
        "nayax-november-corrected.csv",
        corrected.join("\n").as_bytes(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{second}");
    assert_eq!(second["data"]["import"]["supersedes"], json!([first_id]));
    let mut now_expected = expected.clone();
    now_expected.insert(("T-0".into(), short_day.to_string()), "matched".into());
    let rec2 = reconcile(&h, &admin, &f).await;
    assert_eq!(statuses(&rec2), now_expected);
    assert_eq!(rec2["totals"]["gross_minor"], gross_total + 150);
    let imports = h.get("/api/settlements/imports/", &admin).await.json()["data"].clone();
    assert_eq!(imports.as_array().unwrap().len(), 2);
    let old = imports
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == first_id.as_str())
        .unwrap();
    assert_eq!(old["superseded"]["PO-1"], second["data"]["import"]["id"]);
    assert!(old["superseded"].get("PO-2").is_none());

    // The generic format from a workbook: dates as date cells, amounts as numbers.
    let r = h
        .post(
            "/api/settlements/mappings/",
            &admin,
            json!({"name": "Generic", "columns": {"date": "date", "terminal": "terminal_id", "gross": "gross",
                   "fees": "fees", "net": "net", "count": "transactions", "payout_reference": "payout_reference",
                   "currency": "currency"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let generic = r.json()["data"]["id"].as_str().unwrap().to_string();
    let day = f.days[9];
    let sales = f.sales.get(&(0, day)).copied().unwrap_or(0);
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in [
        "date",
        "terminal_id",
        "gross",
        "fees",
        "net",
        "transactions",
        "payout_reference",
        "currency",
    ]
    .iter()
    .enumerate()
    {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    let date = rust_xlsxwriter::ExcelDateTime::from_ymd(
        day.format("%Y").to_string().parse().unwrap(),
        day.format("%m").to_string().parse().unwrap(),
        day.format("%d").to_string().parse().unwrap(),
    )
    .unwrap();
    sheet.write_datetime(1, 0, &date).unwrap();
    sheet.write_string(1, 1, "T-0").unwrap();
    sheet
        .write_number(1, 2, (sales + 100) as f64 / 100.0)
        .unwrap();
    sheet.write_number(1, 3, 0.25).unwrap();
    sheet
        .write_number(1, 4, (sales + 75) as f64 / 100.0)
        .unwrap();
    sheet.write_number(1, 5, 2.0).unwrap();
    sheet.write_string(1, 6, "SUMUP-77").unwrap();
    sheet.write_string(1, 7, "EUR").unwrap();
    let bytes = book.save_to_buffer().unwrap();
    let (status, x) = import(&h, &admin, &generic, "sumup.xlsx", &bytes).await;
    assert_eq!(status, StatusCode::CREATED, "{x}");
    let rec3 = reconcile(&h, &admin, &f).await;
    let r = rec3["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["terminal_id"] == "T-0" && r["date"] == day.to_string())
        .unwrap()
        .clone();
    let settled_before = if f.sales.contains_key(&(0, day)) {
        sales
    } else {
        0
    };
    assert_eq!(r["gross_minor"], settled_before + sales + 100, "{r}");
    assert!(r["fees_minor"].as_i64().unwrap() >= 25, "{r}");

    // Who may: a reader sees the reconciliation of their machines only and cannot import.
    let role = h
        .role(&admin, "Accountant", &["reports.settlements.list"])
        .await;
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "Acc", "email": "acc@example.com", "password": "password-123", "role_id": role,
                   "access_all_machines": false, "location_ids": [f.location[1]]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let acc = h.token("acc@example.com", "password-123").await;
    let mine = reconcile(&h, &acc, &f).await;
    assert_eq!(
        h.get("/api/settlements/reconciliation/export/", &acc)
            .await
            .status,
        StatusCode::FORBIDDEN,
        "listing is not exporting"
    );
    assert!(!mine["rows"].as_array().unwrap().is_empty());
    assert!(
        mine["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["machine_id"] == f.machines[1].as_str()),
        "{mine}"
    );
    let (status, _) = import(&h, &acc, &nayax, "x.csv", file.as_bytes()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(
        h.get("/api/settlements/mappings/", &acc).await.status,
        StatusCode::FORBIDDEN
    );
    // An importer scoped to one location cannot settle another's terminal.
    let role = h
        .role(
            &admin,
            "Importer",
            &["reports.settlements.list", "reports.settlements.import"],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "Imp", "email": "imp@example.com", "password": "password-123", "role_id": role,
                   "access_all_machines": false, "location_ids": [f.location[1]]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let imp = h.token("imp@example.com", "password-123").await;
    let theirs = [NAYAX.to_string(), row(f.days[0], 0, 150, "PO-X")].join("\n");
    let (status, refused) = import(&h, &imp, &nayax, "other.csv", theirs.as_bytes()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused["errors"]["rows.2.terminal"].is_array(), "{refused}");
}

on_both_stores!(a_processor_file_is_reconciled_exactly);
