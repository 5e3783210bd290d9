//! The query scheduler: tasks, their next runs in their zone (daylight saving included), the
//! in-process clock firing due tasks once (a missed run once at the next start), schedules on
//! EventBridge Scheduler (moto), and the report mailed in the recipient's language.

use crate::common::{create, Backend, Harness};
use axum::http::StatusCode;
use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Value};
use vendfleet_domain::events::MachineEvent;

fn at(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

/// A machine with a sale on each of the ten days before `now`.
async fn one_machine(h: &Harness, admin: &str) {
    let product = create(
        h,
        admin,
        "/api/products/",
        json!({"name": "Café", "price_minor": 150, "vat_bps": 550, "units": "pcs"}),
    )
    .await;
    let l = create(
        h,
        admin,
        "/api/locations/",
        json!({"name": "Gare", "time_zone": "Europe/Paris"}),
    )
    .await;
    let m = create(
        h,
        admin,
        "/api/machines/",
        json!({"name": "M1", "location_id": l}),
    )
    .await;
    let r = h
        .post(
            "/api/machines/products/",
            admin,
            json!({"machine_id": m, "selection": "S0", "product_id": product, "max": 50,
                   "price_minor": 150, "current": 50}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    let events: Vec<MachineEvent> = (1..=10)
        .map(|d| {
            serde_json::from_value(json!({"id": format!("v{d}"), "type": "vend",
                "at": (now - Duration::days(d)).to_rfc3339(), "selection": "S0",
                "price_minor": 150, "quantity": 1, "payment": "cash"}))
            .unwrap()
        })
        .collect();
    h.app.events.apply(&m, &events).await.unwrap();
}

/// The operator lets scheduled reports go to plain addresses at `domains`.
pub async fn allow_mail(h: &Harness, admin: &str, domains: &[&str]) {
    let r = h
        .put(
            "/api/settings/operator/",
            admin,
            json!({"mail_domains": domains, "min_task_interval_minutes": 15}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
}

/// "Send now" on a task: 202 and the report queued.
async fn send_now(h: &Harness, token: &str, id: &str) -> Value {
    let r = h
        .post(
            &format!("/api/query-schedulers/{id}/send-now/"),
            token,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    r.json()["data"].clone()
}

fn task(name: &str, minute: &str, hour: &str, recipients: Value) -> Value {
    json!({
        "name": name,
        "module": "sales_overview",
        "params": {"period": "previous_week", "group_by": "machine", "grouping_period": "day"},
        "format": "xlsx",
        "graph": "bar",
        "cron": {"minute": minute, "hour": hour, "day_of_month": "*", "month": "*", "day_of_week": "*"},
        "time_zone": "Europe/Paris",
        "recipients": recipients,
    })
}

async fn tasks_are_checked_listed_and_owned(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    allow_mail(&h, &admin, &["example.com"]).await;

    // The next runs of a schedule, and its fields' errors.
    let r = h
        .get(
            "/api/query-schedulers/next-runs/?minute=0&hour=7&day_of_month=*&month=*&day_of_week=MON-FRI&time_zone=Europe/Rome",
            &admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["runs"].as_array().unwrap().len(), 5);
    assert_eq!(r.json()["data"]["eventbridge"], "cron(0 7 ? * MON-FRI *)");
    let r = h
        .get(
            "/api/query-schedulers/next-runs/?minute=61&hour=7&day_of_month=1&month=*&day_of_week=1&time_zone=Mars/Base",
            &admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    for f in ["minute", "day_of_week", "time_zone"] {
        assert!(r.json()["errors"][f].is_array(), "{f}: {}", r.json());
    }

    // A task's form errors name their fields.
    let mut bad = task("", "99", "7", json!({"emails": ["not-an-address"]}));
    bad["module"] = json!("nope");
    let r = h.post("/api/query-schedulers/", &admin, bad).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    for f in ["name", "cron.minute", "recipients.emails", "module"] {
        assert!(r.json()["errors"][f].is_array(), "{f}: {}", r.json());
    }

    let me = h.get("/api/users/me/", &admin).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = h
        .post(
            "/api/query-schedulers/",
            &admin,
            task(
                "Morning sales",
                "30",
                "6",
                json!({"user_ids": [me], "emails": ["Boss@Example.com"]}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let t = r.json()["data"].clone();
    let id = t["id"].as_str().unwrap().to_string();
    assert_eq!(t["status"], "active");
    assert_eq!(t["recipients"]["emails"], json!(["boss@example.com"]));
    let next: DateTime<Utc> = t["next_run"].as_str().unwrap().parse().unwrap();
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    assert!(next > now && next - now <= Duration::days(1), "{next}");
    assert_eq!(
        next.with_timezone(&chrono_tz::Europe::Paris)
            .format("%H:%M")
            .to_string(),
        "06:30"
    );

    // Paused: no next run; resumed: one again.
    let path = format!("/api/query-schedulers/{id}/change-status/");
    let r = h.post(&path, &admin, json!({"status": "paused"})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert!(r.json()["data"]["next_run"].is_null());
    let r = h.post(&path, &admin, json!({"status": "nope"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = h.post(&path, &admin, json!({"status": "active"})).await;
    assert!(r.json()["data"]["next_run"].is_string());

    // Another user: not theirs to see, change or send; without the permission, 403.
    let role = h
        .role(
            &admin,
            "Schedulers",
            &[
                "settings.query_scheduler.list",
                "settings.query_scheduler.new",
                "settings.query_scheduler.edit",
                "settings.query_scheduler.delete",
            ],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "Eve", "email": "eve@example.com", "password": "password-123",
                   "role_id": role, "access_all_machines": false}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let eve = h.token("eve@example.com", "password-123").await;
    let list = h.get("/api/query-schedulers/", &eve).await.json();
    assert_eq!(list["pagination"]["count"], 0);
    for (m, p) in [
        ("GET", format!("/api/query-schedulers/{id}/")),
        ("POST", format!("/api/query-schedulers/{id}/send-now/")),
        ("DELETE", format!("/api/query-schedulers/{id}/")),
    ] {
        let r = match m {
            "GET" => h.get(&p, &eve).await,
            "POST" => h.post(&p, &eve, json!({})).await,
            _ => h.delete(&p, &eve, json!({})).await,
        };
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{m} {p}");
    }
    // Eve may not schedule what she may not export.
    let r = h
        .post(
            "/api/query-schedulers/",
            &eve,
            task("Mine", "0", "7", json!({"emails": ["eve@example.com"]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
    h.user(&admin, "nobody@example.com", None).await;
    let nobody = h.token("nobody@example.com", "password-123").await;
    assert_eq!(
        h.get("/api/query-schedulers/", &nobody).await.status,
        StatusCode::FORBIDDEN
    );

    // Stale versions are refused; the owner changes the task; deletion removes it.
    let mut form = task(
        "Renamed",
        "45",
        "6",
        json!({"emails": ["boss@example.com"]}),
    );
    form["version"] = json!(1);
    let r = h
        .put(
            &format!("/api/query-schedulers/{id}/"),
            &admin,
            form.clone(),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());
    form["version"] = json!(3);
    let r = h
        .put(&format!("/api/query-schedulers/{id}/"), &admin, form)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["name"], "Renamed");

    // On AWS the task is an EventBridge schedule: its cron, zone and state follow the task.
    let schedules = h.schedules();
    if schedules.external() {
        let s = schedules.get(&id).await.unwrap().expect("a schedule");
        assert_eq!(s.expression, "cron(45 6 * * ? *)");
        assert_eq!(s.time_zone, "Europe/Paris");
        assert!(s.enabled);
        assert_eq!(s.payload, json!({"task_id": id}).to_string());
        h.post(&path, &admin, json!({"status": "paused"})).await;
        assert!(!schedules.get(&id).await.unwrap().unwrap().enabled);
    }
    let r = h
        .delete(&format!("/api/query-schedulers/{id}/"), &admin, json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    assert!(schedules.get(&id).await.unwrap().is_none());
    assert_eq!(
        h.get(&format!("/api/query-schedulers/{id}/"), &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

/// The in-process clock: a 02:30 task runs at 03:00 on the spring-forward day, once; a run
/// missed for days runs once; the report is mailed to each recipient in their language, its
/// file attached, its figures compared with the period before.
async fn due_tasks_run_once_and_are_mailed(b: Backend) {
    // Saturday 28 March 2026, noon in Paris; clocks go forward that night.
    let h = Harness::at(b, at("2026-03-28T11:00:00Z"), |_| {}).await;
    let admin = h.admin().await;
    allow_mail(&h, &admin, &["example.com"]).await;
    one_machine(&h, &admin).await;
    let role = h
        .role(&admin, "Readers", &["reports.sales_overview.export"])
        .await;
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "Lucie", "email": "lucie@example.com", "password": "password-123",
                   "role_id": role, "language": "fr", "access_all_machines": true}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let lucie = r.json()["data"]["id"].as_str().unwrap().to_string();
    let id = create(
        &h,
        &admin,
        "/api/query-schedulers/",
        task(
            "Ventes",
            "30",
            "2",
            json!({"user_ids": [lucie], "emails": ["boss@example.com"]}),
        ),
    )
    .await;
    let t = h
        .get(&format!("/api/query-schedulers/{id}/"), &admin)
        .await
        .json();
    assert_eq!(t["data"]["next_run"], "2026-03-29T01:00:00Z", "03:00 CEST");

    h.clock.set(at("2026-03-29T00:59:00Z"));
    assert!(h.app.scheduler.tick().await.unwrap().is_empty());
    h.clock.set(at("2026-03-29T01:00:30Z"));
    let queued = h.app.scheduler.tick().await.unwrap();
    // One file per language of the recipients (both see the whole fleet).
    assert_eq!(queued.len(), 2);
    assert!(h.app.scheduler.tick().await.unwrap().is_empty(), "once");
    assert!(vendfleet_http::jobs::work_once(&h.app).await.unwrap());
    assert!(vendfleet_http::jobs::work_once(&h.app).await.unwrap());

    // (The clock moved on: a fresh token.)
    let admin = h.admin().await;
    let t = h
        .get(&format!("/api/query-schedulers/{id}/"), &admin)
        .await
        .json()["data"]
        .clone();
    assert_eq!(t["last_run"]["status"], "done", "{t}");
    assert_eq!(t["next_run"], "2026-03-30T00:30:00Z");
    let deliveries = t["deliveries"].as_array().unwrap();
    assert_eq!(deliveries.len(), 2, "{t}");
    assert!(deliveries.iter().all(|d| d["status"] == "sent"), "{t}");
    // The report made is the owner's, private, and named after the task.
    let reports = h
        .get("/api/reports/generator/reports/", &admin)
        .await
        .json();
    assert_eq!(reports["data"][0]["name"], "Ventes");
    assert_eq!(reports["data"][0]["task_id"], id.as_str());

    if b == Backend::Sqlite {
        let mut mails: Vec<String> = std::fs::read_dir(h.outbox())
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        mails.sort();
        assert_eq!(mails.len(), 2);
        let french = mails
            .iter()
            .find(|m| m.contains("To: lucie@example.com"))
            .unwrap();
        assert!(french.contains("Voici votre rapport planifi"), "{french}");
        assert!(french.contains("Ventes"));
        assert!(french.contains("filename=\"ventes.xlsx\""), "{french}");
        let english = mails
            .iter()
            .find(|m| m.contains("To: boss@example.com"))
            .unwrap();
        assert!(
            english.contains("Here is your scheduled report"),
            "{english}"
        );
        // It ran on Sunday 29 March: the previous week (Mon 16 – Sun 22 March) had the sales of
        // 18–22 March, five of 1.50; the week before, none.
        assert!(english.contains("7.50 EUR | 0.00 EUR"), "{english}");
    }

    // Down for three days: the missed runs come once at the next start, not three times.
    h.clock.set(at("2026-04-02T08:00:00Z"));
    let admin = h.admin().await;
    assert_eq!(h.app.scheduler.tick().await.unwrap().len(), 2);
    assert!(h.app.scheduler.tick().await.unwrap().is_empty());
    let t = h
        .get(&format!("/api/query-schedulers/{id}/"), &admin)
        .await
        .json();
    assert_eq!(t["data"]["next_run"], "2026-04-03T00:30:00Z");

    // An EventBridge schedule's message fires the task through the jobs worker.
    let queue = h.app.generator.queue().clone();
    let before = h
        .get("/api/reports/generator/reports/", &admin)
        .await
        .json()["pagination"]["count"]
        .as_u64()
        .unwrap();
    while vendfleet_http::jobs::work_once(&h.app).await.unwrap() {}
    queue
        .enqueue(&json!({"task_id": id}).to_string())
        .await
        .unwrap();
    assert!(vendfleet_http::jobs::work_once(&h.app).await.unwrap());
    let after = h
        .get("/api/reports/generator/reports/", &admin)
        .await
        .json()["pagination"]["count"]
        .as_u64()
        .unwrap();
    assert_eq!(after, before + 2);

    // Send now: a report at once.
    let report = send_now(&h, &admin, &id).await;
    assert_eq!(report["task_id"], id.as_str());
}

/// SES's later word on a report's messages (EventBridge events tagged with the task): a bounce,
/// a complaint and a rejection each land first on the task's deliveries with the reason; events
/// of messages sent for no task, or for a task since deleted, change nothing.
async fn bounces_and_complaints_are_recorded_on_their_task(b: Backend) {
    let h = Harness::at(b, at("2026-11-23T08:00:00Z"), |_| {}).await;
    let admin = h.admin().await;
    allow_mail(&h, &admin, &["example.com"]).await;
    one_machine(&h, &admin).await;
    let id = create(
        &h,
        &admin,
        "/api/query-schedulers/",
        task(
            "Weekly",
            "0",
            "7",
            json!({"emails": ["boss@example.com", "gone@example.com"]}),
        ),
    )
    .await;
    send_now(&h, &admin, &id).await;
    while vendfleet_http::jobs::work_once(&h.app).await.unwrap() {}
    let deliveries = |t: &Value| t["data"]["deliveries"].as_array().unwrap().clone();
    let t = h
        .get(&format!("/api/query-schedulers/{id}/"), &admin)
        .await
        .json();
    assert_eq!(deliveries(&t).len(), 2, "{t}");
    assert!(deliveries(&t).iter().all(|d| d["status"] == "sent"), "{t}");

    let event = |kind: &str, task: &str, detail: Value| {
        let mut detail = detail;
        detail["eventType"] = json!(kind);
        detail["mail"] = json!({"messageId": "0100-x", "destination": ["gone@example.com"],
            "tags": {"vendfleet-task": [task], "ses:configuration-set": ["vendfleet-reports"]}});
        json!({"detail-type": format!("Email {kind}"), "source": "aws.ses", "detail": detail})
    };
    let bounce = json!({"bounce": {"bounceType": "Permanent", "bounceSubType": "NoEmail",
        "bouncedRecipients": [{"emailAddress": "gone@example.com",
                               "diagnosticCode": "smtp; 550 5.1.1 user unknown"}]}});
    let n = vendfleet_http::mail_feedback::record(&h.app, &event("Bounce", &id, bounce.clone()))
        .await
        .unwrap();
    assert_eq!(n, 1);
    let complaint = json!({"complaint": {"complaintFeedbackType": "abuse",
        "complainedRecipients": [{"emailAddress": "boss@example.com"}]}});
    vendfleet_http::mail_feedback::record(&h.app, &event("Complaint", &id, complaint))
        .await
        .unwrap();
    let reject = json!({"reject": {"reason": "Bad content"}});
    vendfleet_http::mail_feedback::record(&h.app, &event("Reject", &id, reject))
        .await
        .unwrap();
    let t = h
        .get(&format!("/api/query-schedulers/{id}/"), &admin)
        .await
        .json();
    let d = deliveries(&t);
    assert_eq!(d.len(), 5, "{t}");
    assert_eq!(
        (d[0]["recipient"].as_str(), d[0]["status"].as_str()),
        (Some("gone@example.com"), Some("refused"))
    );
    assert_eq!(d[0]["error"], "Bad content");
    assert_eq!(
        (d[1]["recipient"].as_str(), d[1]["status"].as_str()),
        (Some("boss@example.com"), Some("complained"))
    );
    assert_eq!(
        (d[2]["recipient"].as_str(), d[2]["status"].as_str()),
        (Some("gone@example.com"), Some("bounced"))
    );
    assert!(
        d[2]["error"]
            .as_str()
            .unwrap()
            .contains("550 5.1.1 user unknown"),
        "{t}"
    );
    // The last run is the send's, untouched by what came later.
    assert_eq!(t["data"]["last_run"]["status"], "done", "{t}");

    // Another task's id (or none, or a deleted task's) changes nothing here.
    let mut untagged = event("Bounce", &id, bounce.clone());
    untagged["detail"]["mail"]["tags"] = json!({});
    assert_eq!(
        vendfleet_http::mail_feedback::record(&h.app, &untagged)
            .await
            .unwrap(),
        0
    );
    vendfleet_http::mail_feedback::record(&h.app, &event("Bounce", "01UNKNOWN", bounce.clone()))
        .await
        .unwrap();
    let again = h
        .get(&format!("/api/query-schedulers/{id}/"), &admin)
        .await
        .json();
    assert_eq!(deliveries(&again), d);
    let r = h
        .delete(&format!("/api/query-schedulers/{id}/"), &admin, json!({}))
        .await;
    assert_eq!(r.status, StatusCode::NO_CONTENT);
    vendfleet_http::mail_feedback::record(&h.app, &event("Bounce", &id, bounce))
        .await
        .unwrap();
}

on_both_stores!(
    tasks_are_checked_listed_and_owned,
    due_tasks_run_once_and_are_mailed,
    bounces_and_complaints_are_recorded_on_their_task
);
