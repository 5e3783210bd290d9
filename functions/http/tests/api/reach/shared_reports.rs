//! Shared reports, tried as an attacker would: a user whose machine access is one location and who
//! holds every report-generator and query-scheduler permission tries to read, change, delete,
//! run and be mailed through the administrator's templates and tasks. After each attempt the
//! administrator's objects are unchanged, and every file the user can get holds nothing outside
//! their location (read back). Also: the operator's mail allow-list and minimum interval, tasks
//! whose template went, reports that follow their reader's current reach, and the audit trail of
//! data leaving the system. On SQLite and on DynamoDB.

use crate::common::*;
use axum::http::StatusCode;
use chrono::Duration;
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

const PARIS: &str = "Paris One";
const MILAN: &str = "Secret Milan";

/// Every permission of the report generator and the query scheduler, and the reports they feed.
const REPORTER: &[&str] = &[
    "reports.report_generator.reports_list",
    "reports.report_generator.templates_list",
    "reports.report_generator.run",
    "reports.report_generator.new",
    "reports.report_generator.delete_report",
    "reports.report_generator.delete_template",
    "reports.report_generator.edit_template",
    "reports.sales_overview.list",
    "reports.sales_overview.export",
    "reports.transaction_log.list",
    "reports.transaction_log.export",
    "settings.query_scheduler.list",
    "settings.query_scheduler.new",
    "settings.query_scheduler.edit",
    "settings.query_scheduler.delete",
];

struct World {
    admin: String,
    admin_id: String,
    l1: String,
    l2: String,
    m2: String,
    /// The scoped reporter (location one only).
    eve: String,
    eve_id: String,
    role: String,
}

/// Two locations with a machine each, both selling for a week; Eve sees the first location only.
async fn world(h: &Harness) -> World {
    let admin = h.admin().await;
    let admin_id = me(h, &admin).await;
    let product = create(
        h,
        &admin,
        "/api/products/",
        json!({"name": "Water", "price_minor": 200, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    let mut places = Vec::new();
    for (name, machine) in [("Gare de Lyon", PARIS), ("Milano Centrale", MILAN)] {
        let l = create(
            h,
            &admin,
            "/api/locations/",
            json!({"name": name, "time_zone": "Europe/Paris", "region": name}),
        )
        .await;
        let m = create(
            h,
            &admin,
            "/api/machines/",
            json!({"name": machine, "location_id": l}),
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
        let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
        let events: Vec<MachineEvent> = (1..=5)
            .map(|d| {
                serde_json::from_value(json!({"id": format!("v{d}"), "type": "vend",
                    "at": (now - Duration::days(d)).to_rfc3339(), "selection": "S0",
                    "price_minor": 200, "quantity": 1, "payment": "cash"}))
                .unwrap()
            })
            .collect();
        h.app.events.apply(&m, &events).await.unwrap();
        places.push((l, m));
    }
    let role = h.role(&admin, "Reporters", REPORTER).await;
    let eve_id = create(
        h,
        &admin,
        "/api/users/",
        json!({"name": "Eve", "email": "eve@example.com", "password": "password-123",
               "role_id": role, "access_all_machines": false, "location_ids": [places[0].0]}),
    )
    .await;
    let eve = h.token("eve@example.com", "password-123").await;
    World {
        admin,
        admin_id,
        l1: places[0].0.clone(),
        l2: places[1].0.clone(),
        m2: places[1].1.clone(),
        eve,
        eve_id,
        role,
    }
}

async fn me(h: &Harness, token: &str) -> String {
    h.get("/api/users/me/", token).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn principal(h: &Harness, user_id: &str) -> vendfleet_app::auth::Principal {
    let user = h
        .app
        .users
        .directory()
        .user(user_id)
        .await
        .unwrap()
        .unwrap();
    h.app.auth.principal(user).await.unwrap()
}

/// A report's file as text (CSV), read as `user_id`.
async fn file_text(h: &Harness, user_id: &str, report_id: &str) -> String {
    let p = principal(h, user_id).await;
    let blob = h.app.generator.file(&p, report_id).await.unwrap();
    String::from_utf8(blob.bytes).unwrap()
}

async fn work_all(h: &Harness) {
    while vendfleet_http::jobs::work_once(&h.app).await.unwrap() {}
}

fn by_machine(extra: &[(&str, &str)]) -> Value {
    let mut params = json!({"period": "current_and_previous_month", "group_by": "machine",
                            "grouping_period": "month"});
    for (k, v) in extra {
        params[*k] = json!(v);
    }
    params
}

fn template(name: &str, visibility: &str, params: Value) -> Value {
    json!({"name": name, "module": "sales_overview", "params": params, "format": "csv",
           "visibility": visibility})
}

async fn read_template(h: &Harness, admin: &str, id: &str) -> Value {
    let r = h
        .get(&format!("/api/reports/generator/templates/{id}/"), admin)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"].clone()
}

async fn allow_mail(h: &Harness, admin: &str, domains: &[&str], minutes: u32) {
    let r = h
        .put(
            "/api/settings/operator/",
            admin,
            json!({"mail_domains": domains, "min_task_interval_minutes": minutes}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
}

fn task_of(name: &str, template_id: Option<&str>, recipients: Value) -> Value {
    let mut t = json!({"name": name, "cron": {"minute": "0", "hour": "7", "day_of_month": "*",
        "month": "*", "day_of_week": "*"}, "time_zone": "Europe/Paris", "recipients": recipients});
    match template_id {
        Some(id) => t["template_id"] = json!(id),
        None => {
            t["module"] = json!("sales_overview");
            t["params"] = by_machine(&[]);
            t["format"] = json!("csv");
        }
    }
    t
}

/// The reports of a run, from the task's last run.
async fn run_reports(h: &Harness, admin: &str, task: &str) -> Vec<Value> {
    let t = h
        .get(&format!("/api/query-schedulers/{task}/"), admin)
        .await
        .json()["data"]
        .clone();
    let mut out = Vec::new();
    for id in t["last_run"]["report_ids"].as_array().unwrap() {
        let r = h
            .get(
                &format!("/api/reports/generator/reports/{}/", id.as_str().unwrap()),
                admin,
            )
            .await;
        out.push(r.json()["data"].clone());
    }
    out
}

/// The mails in the outbox addressed to `address` (at least one), their quoted-printable soft
/// line breaks undone.
fn mails_to(h: &Harness, address: &str) -> Vec<String> {
    let mails: Vec<String> = std::fs::read_dir(h.outbox())
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|m| {
            m.lines()
                .any(|l| l.starts_with("To:") && l.contains(address))
        })
        .map(|m| m.replace("=\r\n", "").replace("=\n", ""))
        .collect();
    assert!(!mails.is_empty(), "no mail to {address}");
    mails
}

/// The file mailed to `address` in the task's last run, read back.
async fn mailed_to(h: &Harness, w: &World, task: &str, address: &str) -> Option<String> {
    for r in run_reports(h, &w.admin, task).await {
        let to: Vec<&str> = r["recipients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        if to.contains(&address) {
            return Some(file_text(h, &w.admin_id, r["id"].as_str().unwrap()).await);
        }
    }
    None
}

async fn others_templates_are_shown_within_reach_and_only_their_author_changes_them(b: Backend) {
    let h = Harness::on_store(b).await;
    let w = world(&h).await;
    let whole = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template("Whole fleet", "public", by_machine(&[])),
    )
    .await;
    let paris = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template("Paris", "public", by_machine(&[("locations", &w.l1)])),
    )
    .await;
    let milan = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template(
            "Milan",
            "public",
            by_machine(&[("locations", &format!("{},{}", w.l1, w.l2))]),
        ),
    )
    .await;
    let by_machine_id = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template("One machine", "public", by_machine(&[("machines", &w.m2)])),
    )
    .await;
    let by_region = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template(
            "Region",
            "public",
            by_machine(&[("regions", "Milano Centrale")]),
        ),
    )
    .await;
    let private = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template("Mine", "private", by_machine(&[])),
    )
    .await;
    let before: Vec<Value> = {
        let mut v = Vec::new();
        for id in [&whole, &paris, &milan, &by_machine_id, &by_region, &private] {
            v.push(read_template(&h, &w.admin, id).await);
        }
        v
    };

    // Eve lists only the templates naming nothing beyond her location.
    let list = h
        .get("/api/reports/generator/templates/", &w.eve)
        .await
        .json();
    let mut seen: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    seen.sort();
    let mut expected = vec![whole.as_str(), paris.as_str()];
    expected.sort();
    assert_eq!(seen, expected, "{list}");
    assert!(!list.to_string().contains(&w.l2), "{list}");
    assert!(!list.to_string().contains(&w.m2), "{list}");
    for t in list["data"].as_array().unwrap() {
        assert_eq!(t["editable"], false, "{t}");
        assert_eq!(t["copyable"], true, "{t}");
    }
    // Those beyond her reach (and the private one) are not found, whatever she tries.
    for id in [&milan, &by_machine_id, &by_region, &private] {
        let path = format!("/api/reports/generator/templates/{id}/");
        assert_eq!(h.get(&path, &w.eve).await.status, StatusCode::NOT_FOUND);
        let body = template("Taken", "public", by_machine(&[]));
        assert_eq!(
            h.put(&path, &w.eve, body).await.status,
            StatusCode::NOT_FOUND
        );
        assert_eq!(
            h.delete(&path, &w.eve, json!({})).await.status,
            StatusCode::NOT_FOUND
        );
        for action in ["generate", "copy"] {
            let r = h.post(&format!("{path}{action}/"), &w.eve, json!({})).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{action} {id}");
        }
    }
    // The ones she sees are not hers to change or delete.
    for id in [&whole, &paris] {
        let path = format!("/api/reports/generator/templates/{id}/");
        let mut body = template("Dropped filter", "public", by_machine(&[]));
        body["version"] = json!(1);
        let r = h.put(&path, &w.eve, body).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
        assert!(r.json()["message"].as_str().unwrap().contains("copy"));
        let r = h.delete(&path, &w.eve, json!({})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    }
    for (id, was) in [&whole, &paris, &milan, &by_machine_id, &by_region, &private]
        .iter()
        .zip(&before)
    {
        assert_eq!(&read_template(&h, &w.admin, id).await, was, "unchanged");
    }

    // She copies one into her own, which she may change.
    let r = h
        .post(
            &format!("/api/reports/generator/templates/{paris}/copy/"),
            &w.eve,
            json!({"name": "My Paris"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let copy = r.json()["data"].clone();
    assert_eq!(copy["visibility"], "private");
    assert_eq!(copy["editable"], true);
    assert_eq!(copy["params"], before[1]["params"]);
    let mut body = template("My Paris, weekly", "private", by_machine(&[]));
    body["version"] = copy["version"].clone();
    let r = h
        .put(
            &format!(
                "/api/reports/generator/templates/{}/",
                copy["id"].as_str().unwrap()
            ),
            &w.eve,
            body,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());

    // Running the administrator's whole-fleet template runs it in her reach.
    let r = h
        .post(
            &format!("/api/reports/generator/templates/{whole}/generate/"),
            &w.eve,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let report = r.json()["data"]["id"].as_str().unwrap().to_string();
    work_all(&h).await;
    let text = file_text(&h, &w.eve_id, &report).await;
    assert!(text.contains(PARIS) && !text.contains(MILAN), "{text}");
}

/// The escalation chain closed: the administrator mails Eve a report of her own location through
/// a public template; she cannot drop its filter; and even when the administrator widens it, the
/// next run mails her only her location.
async fn a_scoped_recipient_cannot_widen_what_is_mailed_to_them(b: Backend) {
    let h = Harness::on_store(b).await;
    let w = world(&h).await;
    let paris = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template("Paris", "public", by_machine(&[("locations", &w.l1)])),
    )
    .await;
    let task = create(
        &h,
        &w.admin,
        "/api/query-schedulers/",
        task_of("For Eve", Some(&paris), json!({"user_ids": [w.eve_id]})),
    )
    .await;
    // Eve drops the location filter of the template her report follows: refused.
    let mut body = template("Paris", "public", by_machine(&[]));
    body["version"] = json!(1);
    let r = h
        .put(
            &format!("/api/reports/generator/templates/{paris}/"),
            &w.eve,
            body.clone(),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    assert_eq!(
        read_template(&h, &w.admin, &paris).await["params"]["locations"],
        json!(w.l1)
    );
    // The administrator widens it himself: Eve's file still holds her location only.
    let r = h
        .put(
            &format!("/api/reports/generator/templates/{paris}/"),
            &w.admin,
            body,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let r = h
        .post(
            &format!("/api/query-schedulers/{task}/send-now/"),
            &w.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    work_all(&h).await;
    let text = mailed_to(&h, &w, &task, "eve@example.com")
        .await
        .expect("a file for Eve");
    assert!(text.contains(PARIS) && !text.contains(MILAN), "{text}");
    if b == Backend::Sqlite {
        for entry in std::fs::read_dir(h.outbox()).unwrap() {
            let mail = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            assert!(mail.contains("To: eve@example.com"), "only Eve is mailed");
            assert!(!mail.contains(MILAN), "{mail}");
        }
    }
}

async fn each_recipient_gets_only_what_they_may_see(b: Backend) {
    let h = Harness::on_store(b).await;
    let w = world(&h).await;
    // A reader of the whole fleet, one without the module, and one of the second location.
    let boss_id = create(
        &h,
        &w.admin,
        "/api/users/",
        json!({"name": "Boss", "email": "boss@example.com", "password": "password-123",
               "role_id": w.role, "access_all_machines": true, "language": "fr"}),
    )
    .await;
    let no_module = h
        .role(&w.admin, "Planners", &["planning.route_planning.list"])
        .await;
    let planner_id = create(
        &h,
        &w.admin,
        "/api/users/",
        json!({"name": "Pat", "email": "pat@example.com", "password": "password-123",
               "role_id": no_module, "access_all_machines": true}),
    )
    .await;
    let milan_id = create(
        &h,
        &w.admin,
        "/api/users/",
        json!({"name": "Mila", "email": "mila@example.com", "password": "password-123",
               "role_id": w.role, "access_all_machines": false, "location_ids": [w.l2]}),
    )
    .await;
    // Plain addresses: none allowed by default, then the operator's own domain.
    let recipients = json!({"user_ids": [w.eve_id, boss_id, planner_id, milan_id, w.admin_id],
                            "emails": ["auditor@partner.example"]});
    let r = h
        .post(
            "/api/query-schedulers/",
            &w.admin,
            task_of("Everyone", None, recipients.clone()),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    assert!(
        r.json()["errors"]["recipients.emails"].is_array(),
        "{}",
        r.json()
    );
    allow_mail(&h, &w.admin, &["partner.example"], 15).await;
    let task = create(
        &h,
        &w.admin,
        "/api/query-schedulers/",
        task_of("Everyone", None, recipients),
    )
    .await;
    let r = h
        .post(
            &format!("/api/query-schedulers/{task}/send-now/"),
            &w.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    work_all(&h).await;

    let eve = mailed_to(&h, &w, &task, "eve@example.com").await.unwrap();
    assert!(eve.contains(PARIS) && !eve.contains(MILAN), "{eve}");
    let mila = mailed_to(&h, &w, &task, "mila@example.com").await.unwrap();
    assert!(mila.contains(MILAN) && !mila.contains(PARIS), "{mila}");
    for whole in [
        "admin@example.com",
        "boss@example.com",
        "auditor@partner.example",
    ] {
        let text = mailed_to(&h, &w, &task, whole).await.unwrap();
        assert!(
            text.contains(MILAN) && text.contains(PARIS),
            "{whole}: {text}"
        );
    }
    assert!(mailed_to(&h, &w, &task, "pat@example.com").await.is_none());
    // One file per distinct reach and language: Eve's, Mila's, the whole fleet in English
    // (admin, the plain address) and in French (Boss).
    let reports = run_reports(&h, &w.admin, &task).await;
    assert_eq!(reports.len(), 4, "{reports:?}");
    let t = h
        .get(&format!("/api/query-schedulers/{task}/"), &w.admin)
        .await
        .json()["data"]
        .clone();
    assert_eq!(t["last_run"]["status"], "done", "{t}");
    let deliveries = t["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 6, "{t}");
    let of = |address: &str| {
        deliveries
            .iter()
            .find(|d| d["recipient"] == address)
            .unwrap()
            .clone()
    };
    let pat = of("pat@example.com");
    assert_eq!(pat["status"], "withheld");
    assert!(
        pat["error"].as_str().unwrap().contains("may not export"),
        "{pat}"
    );
    assert!(pat["report_id"].is_null());
    let eve_delivery = of("eve@example.com");
    assert_eq!(eve_delivery["status"], "sent");
    assert!(eve_delivery["file_name"]
        .as_str()
        .unwrap()
        .ends_with(".csv"));
    assert_ne!(
        eve_delivery["report_id"],
        of("mila@example.com")["report_id"]
    );
    assert_eq!(
        of("admin@example.com")["report_id"],
        of("auditor@partner.example")["report_id"]
    );

    // The operator closes the domain: the next run withholds the address and says why.
    allow_mail(&h, &w.admin, &[], 15).await;
    h.post(
        &format!("/api/query-schedulers/{task}/send-now/"),
        &w.admin,
        json!({}),
    )
    .await;
    work_all(&h).await;
    let t = h
        .get(&format!("/api/query-schedulers/{task}/"), &w.admin)
        .await
        .json()["data"]
        .clone();
    let auditor = t["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["recipient"] == "auditor@partner.example")
        .unwrap()
        .clone();
    assert_eq!(auditor["status"], "withheld", "{t}");
    assert!(auditor["error"].as_str().unwrap().contains("users only"));

    // The mails themselves — their chart, top rows and plain text — name only what the
    // recipient may see (the outbox is the embedded deployment's).
    if b == Backend::Sqlite {
        for eve in mails_to(&h, "eve@example.com") {
            assert!(eve.contains(PARIS) && !eve.contains(MILAN), "{eve}");
        }
        for admin in mails_to(&h, "admin@example.com") {
            assert!(admin.contains(PARIS) && admin.contains(MILAN), "{admin}");
        }
    }

    // Eve, listed as recipient, sees none of the administrator's task or its files.
    assert_eq!(
        h.get(&format!("/api/query-schedulers/{task}/"), &w.eve)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    for r in run_reports(&h, &w.admin, &task).await {
        let id = r["id"].as_str().unwrap();
        let r = h
            .get(&format!("/api/reports/generator/{id}/export/"), &w.eve)
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND);
    }

    // The audit trail shows each mail with its recipients and machines.
    let trail = h.get("/api/audit/exports/?kind=mail", &w.admin).await;
    assert_eq!(trail.status, StatusCode::OK, "{}", trail.json());
    let trail = trail.json();
    let eve_mail = trail["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["recipients"] == json!(["eve@example.com"]))
        .unwrap()
        .clone();
    assert_eq!(eve_mail["user_id"], w.admin_id.as_str());
    assert_eq!(eve_mail["reach"]["all"], false);
    assert_eq!(
        eve_mail["reach"]["machine_ids"].as_array().unwrap().len(),
        1
    );
    assert!(eve_mail["what"]
        .as_str()
        .unwrap()
        .contains("sales_overview"));
}

async fn reports_follow_their_readers_current_reach(b: Backend) {
    let h = Harness::on_store(b).await;
    let w = world(&h).await;
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &w.eve,
            template("Mine", "private", by_machine(&[])),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    work_all(&h).await;
    let export = format!("/api/reports/generator/{id}/export/");
    assert_eq!(
        h.get(&export, &w.eve).await.status,
        StatusCode::TEMPORARY_REDIRECT
    );
    // Moved to the other location, her own old file is refused with the reason.
    let r = h
        .put(
            &format!("/api/users/{}/", w.eve_id),
            &w.admin,
            json!({"name": "Eve", "email": "eve@example.com", "role_id": w.role,
                   "access_all_machines": false, "location_ids": [w.l2]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let r = h.get(&export, &w.eve).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    assert!(r.json()["message"].as_str().unwrap().contains("no longer"));
    let listed = h
        .get("/api/reports/generator/reports/", &w.eve)
        .await
        .json();
    assert_eq!(listed["data"][0]["id"], id.as_str());
    assert_eq!(listed["data"][0]["available"], false);
    assert!(listed["data"][0]["unavailable_reason"].is_string());
    // Back at her location, it is hers again.
    h.put(
        &format!("/api/users/{}/", w.eve_id),
        &w.admin,
        json!({"name": "Eve", "email": "eve@example.com", "role_id": w.role,
               "access_all_machines": false, "location_ids": [w.l1, w.l2]}),
    )
    .await;
    assert_eq!(
        h.get(&export, &w.eve).await.status,
        StatusCode::TEMPORARY_REDIRECT
    );
}

async fn schedules_follow_the_operators_rules(b: Backend) {
    let h = Harness::on_store(b).await;
    let w = world(&h).await;
    let every = |minute: &str| {
        let mut t = task_of("Often", None, json!({"user_ids": [w.admin_id]}));
        t["cron"]["minute"] = json!(minute);
        t["cron"]["hour"] = json!("*");
        t
    };
    let r = h.post("/api/query-schedulers/", &w.admin, every("*")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    let why = r.json()["errors"]["cron"][0].as_str().unwrap().to_string();
    assert!(
        why.contains("15 minutes") && why.contains("1 minute apart"),
        "{why}"
    );
    let r = h
        .post("/api/query-schedulers/", &w.admin, every("*/15"))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    allow_mail(&h, &w.admin, &[], 60).await;
    let r = h
        .post("/api/query-schedulers/", &w.admin, every("*/15"))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    let r = h.post("/api/query-schedulers/", &w.admin, every("0")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());

    // Only an all-machines administrator changes the policy; everyone reads it.
    let r = h
        .put(
            "/api/settings/operator/",
            &w.eve,
            json!({"mail_domains": ["evil.example"], "min_task_interval_minutes": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    let policy = h.get("/api/settings/operator/", &w.eve).await.json()["data"].clone();
    assert_eq!(policy["mail_domains"], json!([]));
    assert_eq!(policy["min_task_interval_minutes"], 60);
    assert_eq!(policy["editable"], false);
    let r = h
        .put(
            "/api/settings/operator/",
            &w.admin,
            json!({"mail_domains": ["not a domain"], "min_task_interval_minutes": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    for f in ["mail_domains", "min_task_interval_minutes"] {
        assert!(r.json()["errors"][f].is_array(), "{f}: {}", r.json());
    }

    // A task following a template: deleting the template pauses it, with the reason.
    let t = create(
        &h,
        &w.admin,
        "/api/reports/generator/templates/",
        template("Daily", "private", by_machine(&[])),
    )
    .await;
    let task = create(
        &h,
        &w.admin,
        "/api/query-schedulers/",
        task_of("Follows", Some(&t), json!({"user_ids": [w.admin_id]})),
    )
    .await;
    let r = h
        .delete(
            &format!("/api/reports/generator/templates/{t}/"),
            &w.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    let got = h
        .get(&format!("/api/query-schedulers/{task}/"), &w.admin)
        .await
        .json()["data"]
        .clone();
    assert_eq!(got["status"], "paused", "{got}");
    assert!(got["paused_reason"].as_str().unwrap().contains("deleted"));
    assert!(got["next_run"].is_null());
    let r = h
        .post(
            &format!("/api/query-schedulers/{task}/send-now/"),
            &w.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());
    let r = h
        .post(
            &format!("/api/query-schedulers/{task}/change-status/"),
            &w.admin,
            json!({"status": "active"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());

    // A task its owner paused runs once on "send now" and stays paused.
    let own = create(
        &h,
        &w.admin,
        "/api/query-schedulers/",
        task_of("Paused", None, json!({"user_ids": [w.admin_id]})),
    )
    .await;
    h.post(
        &format!("/api/query-schedulers/{own}/change-status/"),
        &w.admin,
        json!({"status": "paused"}),
    )
    .await;
    let r = h
        .post(
            &format!("/api/query-schedulers/{own}/send-now/"),
            &w.admin,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    assert!(r.json()["message"]
        .as_str()
        .unwrap()
        .contains("stays paused"));
    let got = h
        .get(&format!("/api/query-schedulers/{own}/"), &w.admin)
        .await
        .json()["data"]
        .clone();
    assert_eq!(got["status"], "paused");
}

async fn the_audit_trail_records_data_leaving_the_system(b: Backend) {
    let h = Harness::on_store(b).await;
    let w = world(&h).await;
    // Eve exports her sales overview and downloads a generated report.
    let r = h
        .get(
            "/api/sales-journal/detail-table/export/?period=current_month&group_by=machine&format=csv",
            &w.eve,
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&r.bytes)
    );
    let r = h
        .post(
            "/api/reports/generator/generate/",
            &w.eve,
            template("Mine", "private", by_machine(&[])),
        )
        .await;
    let report = r.json()["data"]["id"].as_str().unwrap().to_string();
    work_all(&h).await;
    let r = h
        .get(&format!("/api/reports/generator/{report}/export/"), &w.eve)
        .await;
    assert_eq!(r.status, StatusCode::TEMPORARY_REDIRECT);

    let trail = h.get("/api/audit/exports/", &w.admin).await.json();
    let entries = trail["data"].as_array().unwrap();
    assert_eq!(trail["pagination"]["count"], 2, "{trail}");
    let download = &entries[0];
    assert_eq!(download["kind"], "report_download");
    assert_eq!(download["user_id"], w.eve_id.as_str());
    assert_eq!(download["user_name"], "Eve");
    assert_eq!(download["report_id"], report.as_str());
    assert_eq!(download["reach"]["all"], false);
    let export = &entries[1];
    assert_eq!(export["kind"], "export");
    assert!(export["what"]
        .as_str()
        .unwrap()
        .starts_with("/api/sales-journal/detail-table/export/?period=current_month"));
    assert_eq!(export["reach"]["machine_ids"].as_array().unwrap().len(), 1);
    let only = h
        .get("/api/audit/exports/?kind=export", &w.admin)
        .await
        .json();
    assert_eq!(only["pagination"]["count"], 1);
    let r = h
        .get("/api/audit/exports/?kind=nope&date_from=x", &w.admin)
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    for f in ["kind", "date_from"] {
        assert!(r.json()["errors"][f].is_array(), "{f}");
    }
    // Only an all-machines administrator reads it.
    assert_eq!(
        h.get("/api/audit/exports/", &w.eve).await.status,
        StatusCode::FORBIDDEN
    );
    let admins = h
        .role(
            &w.admin,
            "Scoped admins",
            &["settings.users.edit", "settings.roles.edit"],
        )
        .await;
    create(
        &h,
        &w.admin,
        "/api/users/",
        json!({"name": "Sam", "email": "sam@example.com", "password": "password-123",
               "role_id": admins, "access_all_machines": false, "location_ids": [w.l1]}),
    )
    .await;
    let sam = h.token("sam@example.com", "password-123").await;
    assert_eq!(
        h.get("/api/audit/exports/", &sam).await.status,
        StatusCode::FORBIDDEN
    );
}

on_both_stores!(
    others_templates_are_shown_within_reach_and_only_their_author_changes_them,
    a_scoped_recipient_cannot_widen_what_is_mailed_to_them,
    each_recipient_gets_only_what_they_may_see,
    reports_follow_their_readers_current_reach,
    schedules_follow_the_operators_rules,
    the_audit_trail_records_data_leaving_the_system,
);
