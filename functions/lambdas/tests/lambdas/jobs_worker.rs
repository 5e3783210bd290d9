//! The AWS path of background jobs, against moto: a large export queued by the users function
//! (S3 input, SQS message) is run by the jobs worker from an SQS batch; a broken message is
//! reported alone as a partial batch failure.

use aws_lambda_events::event::sqs::{SqsEvent, SqsMessage};
use std::sync::Arc;
use vendfleet_adapters_aws::{
    create_bucket, create_queue_with_dlq, create_table, dynamodb_client, s3_client, sdk_config,
    sqs_client, DynamoItemStore, DynamoSalesStore, S3BlobStore, SqsJobQueue,
};
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::jobs::{JobStatus, NewJob};
use vendfleet_app::ports::{JobQueue, ManualClock};
use vendfleet_app::{Adapters, App};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jobs_worker_runs_a_queued_export() {
    let endpoint = std::env::var("VENDFLEET_TEST_AWS_ENDPOINT").expect(
        "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make test",
    );
    let sdk = sdk_config(Some(&endpoint)).await;
    let name = format!("jobs-{}", ulid::Ulid::new().to_string().to_lowercase());
    create_table(&dynamodb_client(&sdk), &name).await.unwrap();
    create_bucket(&s3_client(&sdk), &name).await.unwrap();
    let (queue_url, dlq_url) = create_queue_with_dlq(&sqs_client(&sdk), &name)
        .await
        .unwrap();
    let queue = SqsJobQueue::new(sqs_client(&sdk), queue_url, dlq_url);
    let store = DynamoItemStore::new(dynamodb_client(&sdk), name.clone());
    let app = App::new(
        Adapters {
            sales: Arc::new(DynamoSalesStore::new(store.clone())),
            store: Arc::new(store),
            events_handoff: None,
            blobs: Arc::new(S3BlobStore::new(s3_client(&sdk), name)),
            jobs: Arc::new(queue.clone()),
            mailer: Arc::new(vendfleet_adapters_aws::SesMailer::new(
                vendfleet_adapters_aws::ses_client(&sdk),
                "reports@example.com",
            )),
            schedules: Arc::new(vendfleet_app::ports::InProcessSchedules),
        },
        Arc::new(ManualClock::new("2026-11-22T23:30:00Z".parse().unwrap())),
        AuthSettings::with_secret(Secret::new("jobs-test-secret-jobs-test-secret!!")),
        Default::default(),
    );
    app.auth
        .ensure_admin("admin@jobs.test", "jobs-password-1")
        .await
        .unwrap();
    let admin = app
        .users
        .directory()
        .user_by_email("admin@jobs.test")
        .await
        .unwrap()
        .unwrap();
    let p = app.auth.principal(admin).await.unwrap();
    let table = vendfleet_http::kit::export::ExportJob {
        table: vendfleet_http::kit::export::Table {
            sheet: "Users".into(),
            header: vec!["Name".into(), "Visits".into()],
            rows: (0..3)
                .map(|i| vec![format!("User {i}").into(), (i as i64).into()])
                .collect(),
        },
        format: vendfleet_http::kit::export::Format::Csv,
        lang: vendfleet_domain::Language::Fr,
    };
    let job = app
        .jobs
        .submit(
            &p,
            NewJob {
                kind: "export".into(),
                file_name: "users.csv".into(),
                content_type: vendfleet_http::kit::export::CSV_TYPE.into(),
                total: 3,
                input: serde_json::to_vec(&table).unwrap(),
            },
        )
        .await
        .unwrap();

    // What the SQS event source would hand the function.
    let delivery = queue
        .claim(std::time::Duration::from_secs(30))
        .await
        .unwrap()
        .expect("the job was queued");
    let mut good = SqsMessage::default();
    good.message_id = Some("m-1".into());
    good.receipt_handle = Some(delivery.receipt.clone());
    good.body = Some(delivery.payload.clone());
    let mut bad = SqsMessage::default();
    bad.message_id = Some("m-2".into());
    bad.body = Some("not a job".into());
    let mut event = SqsEvent::default();
    event.records = vec![good, bad];
    let out = vendfleet_lambdas::apply_jobs_batch(&app, event).await;
    let failed: Vec<&str> = out
        .batch_item_failures
        .iter()
        .map(|f| f.item_identifier.as_str())
        .collect();
    assert_eq!(failed, vec!["m-2"]);
    let (record, link) = app.jobs.get(&p, &job.id).await.unwrap();
    assert_eq!(record.status, JobStatus::Done);
    assert!(link.unwrap().starts_with("http"), "a presigned URL");
    let file = app.jobs.file(&p, &job.id).await.unwrap().unwrap();
    let text = String::from_utf8(file.bytes).unwrap();
    assert!(text.starts_with('\u{feff}'));
    assert_eq!(text.lines().nth(2), Some("User 1;1"), "French CSV: {text}");
}
