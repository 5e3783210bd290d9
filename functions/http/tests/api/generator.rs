//! The report generator: templates and their visibility, generated files equal to the report
//! endpoints, progress to 100 and the download, retries with back-off ending failed with the
//! reason, a worker killed mid-report, archiving, and the scope of the requester at run time.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use calamine::Reader;
use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

fn vend(id: &str, at: DateTime<Utc>, price: i64, payment: &str) -> MachineEvent {
    serde_json::from_value(json!({"id": id, "type": "vend", "at": at.to_rfc3339(),
        "selection": "S0", "price_minor": price, "quantity": 1, "payment": payment}))
    .unwrap()
}

struct Fleet {
    admin: String,
    l1: String,
    l2: String,
    m1: String,
    m2: String,
    span: String,
}

/// Two machines at two locations, each with a week of sales ending yesterday.
async fn fleet(h: &Harness) -> Fleet {
    let admin = h.admin().await;
    let product = create(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "price_minor": 200, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    let mut ids = Vec::new();
    for (i, name) in ["Gare", "Lycée"].iter().enumerate() {
        let l = create(
            h,
            &admin,
            "/api/locations/",
            json!({"name": name, "time_zone": "Europe/Paris"}),
        )
        .await;
        let m = create(
            h,
            &admin,
            "/api/machines/",
            json!({"name": format!("M{}", i + 1), "location_id": l}),
        )
        .await;
        let r = h
            .post(
                "/api/machines/products/",
                &admin,
                json!({"machine_id": m, "selection": "S0", "product_id": product, "max": 100,
                       "price_minor": 200, "current": 100}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        ids.push((l, m));
    }
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    for (k, (_, m)) in ids.iter().enumerate() {
        let events: Vec<MachineEvent> = (1..=7)
            .map(|d| {
                let payment = if d % 2 == 0 { "cash" } else { "cashless" };
                vend(
                    &format!("v{k}-{d}"),
                    now - Duration::days(d),
                    150 + 50 * (k as i64) + d,
                    payment,
                )
            })
            .collect();
        h.app.events.apply(m, &events).await.unwrap();
    }
    let today = h.app.calendar.today();
    Fleet {
        admin,
        l1: ids[0].0.clone(),
        l2: ids[1].0.clone(),
        m1: ids[0].1.clone(),
        m2: ids[1].1.clone(),
        span: format!(
            "period=custom&date_from={}&date_to={}",
            today - Duration::days(9),
            today
        ),
    }
}

fn params(query: &str) -> Value {
    let mut map = serde_json::Map::new();
    for pair in query.split('&') {
        let (k, v) = pair.split_once('=').unwrap();
        map.insert(k.into(), Value::String(v.into()));
    }
    Value::Object(map)
}

pub async fn principal_of(h: &Harness, token: &str) -> vendfleet_app::auth::Principal {
    let me = h.get("/api/users/me/", token).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let user = h.app.users.directory().user(&me).await.unwrap().unwrap();
    h.app.auth.principal(user).await.unwrap()
}

async fn status(h: &Harness, token: &str, id: &str) -> Value {
    let r = h
        .get(&format!("/api/reports/generator/progress/{id}/"), token)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"].clone()
}

async fn work(h: &Harness) {
    assert!(vendfleet_http::jobs::work_once(&h.app).await.unwrap());
}

fn xlsx_rows(bytes: Vec<u8>, sheet: usize) -> Vec<Vec<String>> {
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes)).unwrap();
    let range = book.worksheet_range_at(sheet).unwrap().unwrap();
    range
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

async fn a_generated_file_equals_the_report_endpoints(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;
    let q = format!(
        "{}&group_by=machine&grouping_period=day&value=sales",
        f.span
    );

    // A template of the sales overview, with a bar chart.
    let r = h
        .post(
            "/api/reports/generator/templates/",
            &f.admin,
            json!({"name": "Weekly sales", "module": "sales_overview", "params": params(&q),
                   "format": "xlsx", "graph": "bar", "visibility": "public"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let template = r.json()["data"].clone();
    assert_eq!(template["module"], "sales_overview");
    assert_eq!(template["editable"], true);
    let tid = template["id"].as_str().unwrap();

    // The preview shows the first rows as the screen has them.
    let r = h
        .post(
            "/api/reports/generator/preview/",
            &f.admin,
            json!({"name": "x", "module": "sales_overview", "params": params(&q)}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["total_rows"], 2);

    let r = h
        .post(
            &format!("/api/reports/generator/templates/{tid}/generate/"),
            &f.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let report = r.json()["data"].clone();
    let id = report["id"].as_str().unwrap().to_string();
    assert_eq!(report["status"], "queued");
    assert_eq!(report["file_name"], "weekly-sales.xlsx");
    assert_eq!(status(&h, &f.admin, &id).await["progress"], 0);
    // Not downloadable before it is done.
    let r = h
        .get(&format!("/api/reports/generator/{id}/export/"), &f.admin)
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    work(&h).await;
    let s = status(&h, &f.admin, &id).await;
    assert_eq!(s["status"], "done", "{s}");
    assert_eq!(s["progress"], 100);
    let r = h
        .get(&format!("/api/reports/generator/{id}/export/"), &f.admin)
        .await;
    assert_eq!(r.status, StatusCode::TEMPORARY_REDIRECT);
    assert!(r.headers.get("location").is_some());

    // The file's rows are the detail table's, and its total row the total table's.
    let admin = principal_of(&h, &f.admin).await;
    let blob = h.app.generator.file(&admin, &id).await.unwrap();
    let bytes = blob.bytes;
    // A native chart is in the workbook.
    assert!(
        bytes.windows(20).any(|w| w == b"xl/charts/chart1.xml"),
        "the workbook has a chart"
    );
    let rows = xlsx_rows(bytes.clone(), 0);
    // The period columns' titles are dates, not text; the group's and the total's are text.
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.clone())).unwrap();
    let range = book.worksheet_range_at(0).unwrap().unwrap();
    let header: Vec<calamine::Data> = range.rows().next().unwrap().to_vec();
    assert!(matches!(header[0], calamine::Data::String(_)), "{header:?}");
    assert!(
        matches!(header[1], calamine::Data::DateTime(_)),
        "{header:?}"
    );
    assert!(
        matches!(header.last(), Some(calamine::Data::String(_))),
        "{header:?}"
    );
    let detail = h
        .get(
            &format!("/api/sales-journal/detail-table/?{q}&page_size=200"),
            &f.admin,
        )
        .await
        .json();
    let detail_rows = detail["data"].as_array().unwrap();
    assert_eq!(rows.len(), 1 + detail_rows.len() + 1, "{rows:?}");
    for (row, d) in rows[1..].iter().zip(detail_rows) {
        assert_eq!(row[0], d["name"].as_str().unwrap());
        let total: f64 = row.last().unwrap().parse().unwrap();
        assert_eq!(
            (total * 100.0).round() as i64,
            d["total"].as_i64().unwrap(),
            "{row:?}"
        );
    }
    let totals = h
        .get(&format!("/api/sales-journal/total-table/?{q}"), &f.admin)
        .await
        .json();
    let total: f64 = rows.last().unwrap().last().unwrap().parse().unwrap();
    assert_eq!(
        (total * 100.0).round() as i64,
        totals["data"]["total"]["sales_minor"].as_i64().unwrap()
    );
    // The summary sheet compares with the span before.
    let summary = xlsx_rows(bytes, 1);
    assert_eq!(summary.len(), 6, "{summary:?}");

    // The transaction log as CSV, columns chosen: every sale of the log, in its order.
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            json!({"name": "Sales lines", "module": "transaction_log", "params": params(&f.span),
                   "format": "csv", "columns": ["machine", "revenue"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    work(&h).await;
    let s = status(&h, &f.admin, &id).await;
    assert_eq!(s["status"], "done", "{s}");
    let text = String::from_utf8(h.app.generator.file(&admin, &id).await.unwrap().bytes).unwrap();
    let lines: Vec<&str> = text.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(lines[0], "Machine,Revenue");
    let log = h
        .get(
            &format!("/api/transaction-logs/?{}&page_size=200", f.span),
            &f.admin,
        )
        .await
        .json();
    let log = log["data"].as_array().unwrap();
    assert_eq!(lines.len() - 1, log.len());
    assert_eq!(log.len(), 14);
    for (line, t) in lines[1..].iter().zip(log) {
        let minor = t["revenue_minor"].as_i64().unwrap();
        assert_eq!(
            *line,
            format!(
                "{},{}.{:02}",
                t["machine"].as_str().unwrap(),
                minor / 100,
                minor % 100
            )
        );
    }

    // The refill log takes the shared period and filters, as its screen sends them.
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            json!({"name": "Refills", "module": "refill_log", "format": "csv",
                   "params": {"period": "previous_month", "machines": f.m1, "locations": f.l1}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    work(&h).await;
    let s = status(&h, &f.admin, &id).await;
    assert_eq!(s["status"], "done", "{s}");
    let text = String::from_utf8(h.app.generator.file(&admin, &id).await.unwrap().bytes).unwrap();
    let log = h
        .get(
            &format!(
                "/api/refills/?period=previous_month&machines={}&locations={}",
                f.m1, f.l1
            ),
            &f.admin,
        )
        .await
        .json();
    assert_eq!(
        text.trim_start_matches('\u{feff}').lines().count() - 1,
        log["pagination"]["count"].as_u64().unwrap() as usize,
        "{text}"
    );

    // Bad definitions are 400s naming the field; nothing is queued.
    for (body, field) in [
        (json!({"name": "x", "module": "nope"}), "module"),
        (
            json!({"name": "x", "module": "encashment", "graph": "line"}),
            "graph",
        ),
        (
            json!({"name": "x", "module": "sales_overview", "params": {"date_from": "2026-13-01", "period": "custom", "date_to": "2026-01-01"}}),
            "date_from",
        ),
        (
            json!({"name": "x", "module": "refill_log", "params": {"group_by": "machine"}}),
            "params",
        ),
        (
            json!({"name": "x", "module": "transaction_log", "columns": ["secret"]}),
            "columns",
        ),
        (json!({"name": "", "module": "transaction_log"}), "name"),
    ] {
        let r = h
            .post("/api/reports/generator/generate/", &f.admin, body.clone())
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.json());
        assert!(r.json()["errors"][field].is_array(), "{body}: {}", r.json());
    }
    assert!(!vendfleet_http::jobs::work_once(&h.app).await.unwrap());
}

/// A user scoped to one location: their reports hold their machines only, as they stand when
/// the report runs; private things are their author's; a public report shows to those who see
/// all its machines.
async fn scope_and_visibility(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;
    let role = h
        .role(
            &f.admin,
            "Analysts",
            &[
                "reports.report_generator.reports_list",
                "reports.report_generator.templates_list",
                "reports.report_generator.run",
                "reports.report_generator.new",
                "reports.transaction_log.export",
                "reports.sales_overview.export",
            ],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &f.admin,
            json!({"name": "Ann", "email": "ann@example.com", "password": "password-123",
                   "role_id": role, "access_all_machines": false, "location_ids": [f.l1]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let ann_id = r.json()["data"]["id"].as_str().unwrap().to_string();
    let ann = h.token("ann@example.com", "password-123").await;
    let no_role = h.role(&f.admin, "Nobody", &[]).await;
    h.user(&f.admin, "bob@example.com", Some(&no_role)).await;
    let bob = h.token("bob@example.com", "password-123").await;

    // Bob holds nothing of the generator.
    for (path, body) in [
        ("/api/reports/generator/templates/", None),
        ("/api/reports/generator/reports/", None),
        (
            "/api/reports/generator/generate/",
            Some(json!({"name": "x", "module": "transaction_log"})),
        ),
    ] {
        let r = match body {
            Some(b) => h.post(path, &bob, b).await,
            None => h.get(path, &bob).await,
        };
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{path}");
    }
    // Ann may not generate what she may not export.
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &ann,
            json!({"name": "x", "module": "encashment"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());

    // Ann's report names both machines in its filter; it holds hers only.
    let q = format!("{}&machines={},{}", f.span, f.m1, f.m2);
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &ann,
            json!({"name": "Mine", "module": "transaction_log", "params": params(&q),
                   "format": "csv", "visibility": "public"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let ann_report = r.json()["data"]["id"].as_str().unwrap().to_string();
    work(&h).await;
    let ann_p = principal_of(&h, &ann).await;
    let text = String::from_utf8(
        h.app
            .generator
            .file(&ann_p, &ann_report)
            .await
            .unwrap()
            .bytes,
    )
    .unwrap();
    assert_eq!(text.lines().count(), 8, "seven sales of M1: {text}");
    assert!(text.contains("M1") && !text.contains("M2"));

    // The admin's public report covers both machines: Ann does not see it; his private
    // template neither; she sees his public template.
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            json!({"name": "Fleet", "module": "transaction_log", "params": params(&f.span),
                   "format": "csv", "visibility": "public"}),
        )
        .await;
    let fleet_report = r.json()["data"]["id"].as_str().unwrap().to_string();
    work(&h).await;
    let private = create(
        &h,
        &f.admin,
        "/api/reports/generator/templates/",
        json!({"name": "Mine only", "module": "transaction_log", "visibility": "private"}),
    )
    .await;
    let public = create(
        &h,
        &f.admin,
        "/api/reports/generator/templates/",
        json!({"name": "Shared", "module": "transaction_log", "visibility": "public"}),
    )
    .await;
    let list = h.get("/api/reports/generator/reports/", &ann).await.json();
    let ids: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![ann_report.as_str()]);
    for path in [
        format!("/api/reports/generator/progress/{fleet_report}/"),
        format!("/api/reports/generator/{fleet_report}/export/"),
        format!("/api/reports/generator/templates/{private}/"),
    ] {
        assert_eq!(
            h.get(&path, &ann).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let templates = h
        .get("/api/reports/generator/templates/", &ann)
        .await
        .json();
    assert_eq!(templates["pagination"]["count"], 1);
    assert_eq!(templates["data"][0]["id"], public.as_str());
    assert_eq!(templates["data"][0]["editable"], false);
    let r = h
        .put(
            &format!("/api/reports/generator/templates/{public}/"),
            &ann,
            json!({"name": "Mine now", "module": "transaction_log", "visibility": "private"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = h
        .delete(
            &format!("/api/reports/generator/templates/{public}/"),
            &ann,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // The admin sees Ann's public report: he sees all its machines.
    let list = h
        .get("/api/reports/generator/reports/", &f.admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 2, "{list}");

    // The scope is the one Ann has when the report runs: moved to M2's location before the
    // worker gets to it, her file holds M2's sales.
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &ann,
            json!({"name": "Later", "module": "transaction_log", "params": params(&f.span),
                   "format": "csv"}),
        )
        .await;
    let later = r.json()["data"]["id"].as_str().unwrap().to_string();
    let l2 = f.l2.clone();
    let form = json!({"name": "Ann", "email": "ann@example.com", "role_id": role,
                      "access_all_machines": false, "location_ids": [l2]});
    let r = h
        .put(&format!("/api/users/{ann_id}/"), &f.admin, form)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    work(&h).await;
    let ann_p = principal_of(&h, &ann).await;
    let text =
        String::from_utf8(h.app.generator.file(&ann_p, &later).await.unwrap().bytes).unwrap();
    assert!(text.contains("M2") && !text.contains("M1"), "{text}");
    // Her earlier public report covered M1, which she no longer sees: still hers.
    assert_eq!(
        h.get(
            &format!("/api/reports/generator/reports/{ann_report}/"),
            &ann
        )
        .await
        .status,
        StatusCode::OK
    );
}

/// A failing attempt comes back after a back-off; the last one fails the report with its
/// reason. A report that cannot succeed (its requester gone) fails at once.
async fn failures_retry_then_fail_with_the_reason(b: Backend) {
    let mut h = Harness::on_store(b).await;
    h.app.generator = h.app.generator.clone().with_timing(
        std::time::Duration::ZERO,
        std::time::Duration::from_secs(60),
    );
    let f = fleet(&h).await;
    h.break_report_files().await;
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            json!({"name": "Doomed", "module": "transaction_log", "params": params(&f.span)}),
        )
        .await;
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    for attempt in 1..=3 {
        work(&h).await;
        let s = status(&h, &f.admin, &id).await;
        if attempt < 3 {
            assert_eq!(s["status"], "queued", "attempt {attempt}: {s}");
            assert!(
                s["error"].as_str().is_some(),
                "the last attempt's reason: {s}"
            );
        } else {
            assert_eq!(s["status"], "failed", "{s}");
            assert!(!s["error"].as_str().unwrap().is_empty());
        }
    }
    assert!(!vendfleet_http::jobs::work_once(&h.app).await.unwrap());
    // Its message is in the dead-letter queue, for operators to see.
    let dead = h.app.generator.queue().dead_letters().await.unwrap();
    assert!(dead.iter().any(|m| m.contains(&id)), "{dead:?}");

    // A requester who is no longer active: no retry helps.
    let role = h
        .role(
            &f.admin,
            "Runner",
            &[
                "reports.report_generator.reports_list",
                "reports.report_generator.run",
                "reports.transaction_log.export",
            ],
        )
        .await;
    let cid = h.user(&f.admin, "carl@example.com", Some(&role)).await;
    let carl = h.token("carl@example.com", "password-123").await;
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &carl,
            json!({"name": "Orphan", "module": "transaction_log"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let orphan = r.json()["data"]["id"].as_str().unwrap().to_string();
    let r = h
        .post(
            &format!("/api/users/{cid}/active/"),
            &f.admin,
            json!({"active": false}),
        )
        .await;
    assert!(r.status.is_success(), "{}", r.json());
    work(&h).await;
    assert!(!vendfleet_http::jobs::work_once(&h.app).await.unwrap());
    let r = stored_report(&h, &orphan).await;
    assert_eq!(r.status, vendfleet_app::generator::ReportStatus::Failed);
    assert!(r.error.unwrap().contains("inactive"));
}

async fn stored_report(h: &Harness, id: &str) -> vendfleet_app::generator::GeneratedReport {
    use vendfleet_app::records::Records;
    let records: Records<vendfleet_app::generator::GeneratedReport> = Records::new(h.item_store());
    records.get(id).await.unwrap().unwrap()
}

/// A worker that dies mid-report leaves it to come back: the next worker writes it. A report
/// whose worker died on every attempt ends failed, never stuck at running.
async fn a_worker_killed_mid_report_is_retried(b: Backend) {
    let mut h = Harness::on_store(b).await;
    let visibility = std::time::Duration::from_secs(1);
    h.app.generator = h
        .app
        .generator
        .clone()
        .with_timing(std::time::Duration::ZERO, visibility);
    let f = fleet(&h).await;
    let generate = |name: &'static str| json!({"name": name, "module": "transaction_log", "params": params(&f.span), "format": "csv"});
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            generate("Once"),
        )
        .await;
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    // A worker claims it, marks it running, and dies.
    let delivery = h
        .app
        .generator
        .queue()
        .claim(visibility)
        .await
        .unwrap()
        .unwrap();
    let claimed = h.app.generator.start(delivery).await.unwrap().unwrap();
    drop(claimed);
    assert_eq!(status(&h, &f.admin, &id).await["status"], "running");
    assert!(
        !vendfleet_http::jobs::work_once(&h.app).await.unwrap(),
        "hidden meanwhile"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    work(&h).await;
    let s = status(&h, &f.admin, &id).await;
    assert_eq!(s["status"], "done", "{s}");

    // Killed on every attempt: the next delivery fails it with the reason.
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            generate("Never"),
        )
        .await;
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    for _ in 0..vendfleet_app::generator::MAX_ATTEMPTS {
        let mut delivery = None;
        for _ in 0..30 {
            delivery = h.app.generator.queue().claim(visibility).await.unwrap();
            if delivery.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        let claimed = h.app.generator.start(delivery.unwrap()).await.unwrap();
        drop(claimed.expect("started"));
    }
    let mut s = Value::Null;
    for _ in 0..30 {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        vendfleet_http::jobs::work_once(&h.app).await.unwrap();
        s = status(&h, &f.admin, &id).await;
        if s["status"] == "failed" {
            break;
        }
    }
    assert_eq!(s["status"], "failed", "{s}");
    assert!(s["error"].as_str().unwrap().contains("stopped"), "{s}");
    let dead = h.app.generator.queue().dead_letters().await.unwrap();
    assert!(dead.iter().any(|m| m.contains(&id)), "{dead:?}");
}

/// Archive and restore move only finished reports; deletion removes the report.
async fn archive_restore_and_delete(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &f.admin,
            json!({"name": "Old", "module": "inventory", "format": "xlsx"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    let change = |status: &'static str| {
        let path = format!("/api/reports/generator/reports/{id}/change-status/");
        let h = &h;
        let token = f.admin.clone();
        async move { h.post(&path, &token, json!({ "status": status })).await }
    };
    assert_eq!(change("archived").await.status, StatusCode::CONFLICT);
    work(&h).await;
    assert_eq!(change("bogus").await.status, StatusCode::BAD_REQUEST);
    let r = change("archived").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["archived"], true);
    let active = h
        .get("/api/reports/generator/reports/", &f.admin)
        .await
        .json();
    assert_eq!(active["pagination"]["count"], 0);
    let archived = h
        .get("/api/reports/generator/reports/?archived=true", &f.admin)
        .await
        .json();
    assert_eq!(archived["pagination"]["count"], 1);
    assert_eq!(change("active").await.json()["data"]["archived"], false);
    // The inventory's file has the product tab's rows.
    let admin = principal_of(&h, &f.admin).await;
    let rows = xlsx_rows(h.app.generator.file(&admin, &id).await.unwrap().bytes, 0);
    assert_eq!(rows[1][0], "Water", "{rows:?}");
    let r = h
        .delete(
            &format!("/api/reports/generator/reports/{id}/"),
            &f.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert_eq!(
        h.get(&format!("/api/reports/generator/progress/{id}/"), &f.admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let _ = f.m1;
}

on_both_stores!(
    a_generated_file_equals_the_report_endpoints,
    scope_and_visibility,
    failures_retry_then_fail_with_the_reason,
    a_worker_killed_mid_report_is_retried,
    archive_restore_and_delete,
);
