//! The AWS path of machine events, against moto: the webhook Lambda's router hands valid events
//! to the events queue and applies nothing itself; the worker applies each SQS message exactly
//! once and reports the messages it could not apply as partial batch failures.

use aws_lambda_events::event::sqs::{SqsEvent, SqsMessage};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;
use vendfleet_adapters_aws::{
    create_queue_with_dlq, create_table, dynamodb_client, sdk_config, sqs_client, DynamoItemStore,
    DynamoSalesStore, SqsJobQueue,
};
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::ports::{JobQueue, ManualClock};
use vendfleet_app::{Adapters, App};
use vendfleet_domain::events::{sign, SIGNATURE_HEADER, TIMESTAMP_HEADER};

fn message(id: &str, body: &str) -> SqsMessage {
    let mut m = SqsMessage::default();
    m.message_id = Some(id.to_string());
    m.body = Some(body.to_string());
    m
}

fn batch(messages: Vec<SqsMessage>) -> SqsEvent {
    let mut e = SqsEvent::default();
    e.records = messages;
    e
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_queues_and_the_worker_applies_once() {
    let endpoint = std::env::var("VENDFLEET_TEST_AWS_ENDPOINT").expect(
        "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make test",
    );
    let sdk = sdk_config(Some(&endpoint)).await;
    let suffix = ulid::Ulid::new().to_string().to_lowercase();
    let table = format!("events-{suffix}");
    create_table(&dynamodb_client(&sdk), &table).await.unwrap();
    let (queue_url, dlq_url) =
        create_queue_with_dlq(&sqs_client(&sdk), &format!("events-{suffix}"))
            .await
            .unwrap();
    let queue = SqsJobQueue::new(sqs_client(&sdk), queue_url, dlq_url);
    let store = DynamoItemStore::new(dynamodb_client(&sdk), table);
    let now: chrono::DateTime<chrono::Utc> = "2026-11-22T23:30:00Z".parse().unwrap();
    let app = App::new(
        Adapters {
            sales: Arc::new(DynamoSalesStore::new(store.clone())),
            store: Arc::new(store),
            events_handoff: Some(Arc::new(queue.clone())),
            blobs: Arc::new(vendfleet_adapters_aws::S3BlobStore::new(
                vendfleet_adapters_aws::s3_client(&sdk),
                "unused",
            )),
            jobs: Arc::new(queue.clone()),
            mailer: Arc::new(vendfleet_adapters_aws::SesMailer::new(
                vendfleet_adapters_aws::ses_client(&sdk),
                "reports@example.com",
            )),
            schedules: Arc::new(vendfleet_app::ports::InProcessSchedules),
        },
        Arc::new(ManualClock::new(now)),
        AuthSettings::with_secret(Secret::new("worker-test-secret-worker-test-secret")),
        Default::default(),
    );
    app.auth
        .ensure_admin("admin@worker.test", "worker-password-1")
        .await
        .unwrap();
    let admin = app
        .users
        .directory()
        .user_by_email("admin@worker.test")
        .await
        .unwrap()
        .unwrap();
    let p = app.auth.principal(admin).await.unwrap();
    let m = crate::common::machine_selling_cola(&app, &p, "Queue").await;
    let secret = app
        .machines
        .machines()
        .get(&m.id)
        .await
        .unwrap()
        .unwrap()
        .webhook_secret;

    // The webhook function: 200, and nothing applied yet.
    let router = vendfleet_lambdas::service(vendfleet_http::Area::Events, app.clone());
    let at = "2026-11-22T22:00:00Z";
    let body = json!({"events": [
        {"id": "q1", "type": "vend", "at": at, "selection": "C1", "price_minor": 200, "quantity": 2, "payment": "cash"},
        {"id": "q2", "type": "vend", "at": at, "selection": "C1", "price_minor": 200, "payment": "cashless"},
        {"id": "q3", "type": "vend", "at": at, "selection": "C1", "price_minor": "x", "payment": "cash"},
    ]})
    .to_string();
    let ts = now.timestamp();
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("/webhooks/machines/{}/events", m.id))
        .header(TIMESTAMP_HEADER, ts.to_string())
        .header(
            SIGNATURE_HEADER,
            sign(secret.as_bytes(), ts, body.as_bytes()),
        )
        .body(Body::from(body))
        .unwrap();
    let res = router.oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let reply: Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert_eq!(reply["data"]["accepted"], 2, "{reply}");
    assert_eq!(reply["data"]["rejected"][0]["index"], 2, "{reply}");
    let day = "2026-11-22".parse().unwrap();
    let sales = app.sales.store();
    assert!(sales.ledger(&m.id, day, day).await.unwrap().is_empty());

    // The worker: one message applied; a broken one reported alone.
    let job = queue
        .claim(Duration::from_secs(30))
        .await
        .unwrap()
        .expect("the webhook queued the events");
    let out = vendfleet_lambdas::apply_events_batch(
        &app,
        batch(vec![
            message("m-good", &job.payload),
            message("m-bad", "{not a job"),
        ]),
    )
    .await;
    let failed: Vec<&str> = out
        .batch_item_failures
        .iter()
        .map(|f| f.item_identifier.as_str())
        .collect();
    assert_eq!(failed, vec!["m-bad"]);
    let ledger = sales.ledger(&m.id, day, day).await.unwrap();
    assert_eq!(ledger.len(), 2);
    // SQS delivers at least once: the same message again changes nothing.
    let out =
        vendfleet_lambdas::apply_events_batch(&app, batch(vec![message("m-again", &job.payload)]))
            .await;
    assert!(out.batch_item_failures.is_empty());
    assert_eq!(sales.ledger(&m.id, day, day).await.unwrap().len(), 2);
    let ctx = app.machines.intake_context(&m.id).await.unwrap().unwrap();
    assert_eq!(ctx.selections[0].current, 17, "20 − 2 − 1, once");
    queue.ack(&job.receipt).await.unwrap();
}
