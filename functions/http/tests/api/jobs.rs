//! Large exports as background jobs: above the inline limit an export answers 202 with a job;
//! the worker renders the same table (list, filters, scope, columns) into a file; the job's
//! owner follows its progress and downloads it; nobody else sees it.

use crate::common::{Backend, Harness};
use axum::http::StatusCode;
use calamine::Reader;
use serde_json::json;

async fn large_exports_become_jobs_with_progress_and_a_file(b: Backend) {
    let h = Harness::on_store(b).await.with_inline_exports(3);
    let admin = h.admin().await;
    for i in 0..5 {
        h.user(&admin, &format!("staff{i}@example.com"), None).await;
    }
    // Small enough: the file at once.
    let r = h
        .get("/api/users/export/?format=csv&search=staff1", &admin)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&r.bytes).contains("staff1@example.com"));

    // Six users: a job.
    let r = h.get("/api/users/export/?format=xlsx", &admin).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let job = r.json()["data"].clone();
    assert_eq!(job["status"], "queued");
    assert_eq!(job["progress"], 0);
    assert_eq!(job["file_name"], "users.xlsx");
    assert_eq!(job["total"], 6);
    assert!(job["download_url"].is_null());
    let id = job["id"].as_str().unwrap().to_string();
    let path = format!("/api/jobs/{id}/");
    assert_eq!(
        h.get(&path, &admin).await.json()["data"]["status"],
        "queued"
    );

    // Somebody else's job is not found, even for another administrator.
    let role = h.role(&admin, "Clerk", &["settings.users.list"]).await;
    h.user(&admin, "clerk@example.com", Some(&role)).await;
    let clerk = h.token("clerk@example.com", "password-123").await;
    assert_eq!(h.get(&path, &clerk).await.status, StatusCode::NOT_FOUND);
    assert_eq!(
        h.get("/api/jobs/01JUNKNOWNJOB/", &admin).await.status,
        StatusCode::NOT_FOUND
    );

    // The worker runs it.
    assert!(vendfleet_http::jobs::work_once(&h.app).await.unwrap());
    let done = h.get(&path, &admin).await.json()["data"].clone();
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["progress"], 100);
    assert!(
        done["download_url"].as_str().is_some_and(|u| !u.is_empty()),
        "{done}"
    );
    // Nothing else is queued.
    assert!(!vendfleet_http::jobs::work_once(&h.app).await.unwrap());

    // The file is the list's: a header and the six users, typed cells.
    let me = h.get("/api/users/me/", &admin).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let user = h.app.users.directory().user(&me).await.unwrap().unwrap();
    let principal = h.app.auth.principal(user).await.unwrap();
    let blob = h.app.jobs.file(&principal, &id).await.unwrap().unwrap();
    assert!(blob.content_type.contains("spreadsheetml"));
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(blob.bytes)).unwrap();
    let sheet = book.worksheet_range_at(0).unwrap().unwrap();
    assert_eq!(sheet.height(), 7);
    let emails: Vec<String> = sheet
        .rows()
        .skip(1)
        .flat_map(|r| r.iter().map(|c| c.to_string()))
        .filter(|c| c.contains("@example.com"))
        .collect();
    assert_eq!(emails.len(), 6, "{emails:?}");

    // The list's filters apply to the job's file too.
    let r = h
        .get("/api/users/export/?format=csv&search=staff", &admin)
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED);
    assert_eq!(r.json()["data"]["total"], 5);
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    assert!(vendfleet_http::jobs::work_once(&h.app).await.unwrap());
    let blob = h.app.jobs.file(&principal, &id).await.unwrap().unwrap();
    let text = String::from_utf8(blob.bytes).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(!text.contains("admin@example.com"));
    let _ = json!({});
}

/// The embedded worker runs what is queued and stops when told, after the job under way.
async fn the_worker_runs_queued_jobs_and_stops_when_told(b: Backend) {
    let h = Harness::on_store(b).await.with_inline_exports(1);
    let admin = h.admin().await;
    h.user(&admin, "one@example.com", None).await;
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let worker = tokio::spawn(vendfleet_http::jobs::worker(
        std::sync::Arc::new(h.app.clone()),
        stopped,
    ));
    let r = h.get("/api/users/export/?format=csv", &admin).await;
    assert_eq!(r.status, StatusCode::ACCEPTED);
    let path = format!("/api/jobs/{}/", r.json()["data"]["id"].as_str().unwrap());
    let mut status = String::new();
    for _ in 0..100 {
        status = h.get(&path, &admin).await.json()["data"]["status"]
            .as_str()
            .unwrap()
            .to_string();
        if status == "done" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(status, "done");
    stop.send(true).unwrap();
    tokio::time::timeout(std::time::Duration::from_secs(10), worker)
        .await
        .expect("the worker stops when told")
        .unwrap();
}

on_both_stores!(
    large_exports_become_jobs_with_progress_and_a_file,
    the_worker_runs_queued_jobs_and_stops_when_told,
);
