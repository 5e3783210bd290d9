//! The AWS path of Nayax Core's feeds, against moto: the worker takes each SQS message of the
//! stack's queues (the feed from the queue's ARN: a data source's queue, else the stack's own),
//! books it exactly once or keeps it in the inbox, and fails only what could not be stored.

use aws_lambda_events::event::sqs::{SqsEvent, SqsMessage};
use std::sync::Arc;
use vendfleet_adapters_aws::{
    create_queue_with_dlq, create_table, dynamodb_client, sdk_config, sqs_client, DynamoItemStore,
    DynamoSalesStore, SqsJobQueue,
};
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::data_sources::KeptReason;
use vendfleet_app::ports::ManualClock;
use vendfleet_app::{Adapters, App};

const MULTI: &str =
    include_str!("../../../domain/tests/fixtures/nayax/transaction_multi_products.json");

fn message(id: &str, queue: &str, body: &str) -> SqsMessage {
    let mut m = SqsMessage::default();
    m.message_id = Some(id.to_string());
    m.body = Some(body.to_string());
    m.event_source_arn = Some(format!("arn:aws:sqs:us-east-1:123456789012:{queue}"));
    m.attributes
        .insert("SentTimestamp".into(), "1587380751903".into());
    m
}

fn batch(messages: Vec<SqsMessage>) -> SqsEvent {
    let mut e = SqsEvent::default();
    e.records = messages;
    e
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_books_nayax_messages_once_and_fails_none_for_bad_input() {
    let endpoint = std::env::var("VENDFLEET_TEST_AWS_ENDPOINT").expect(
        "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make test",
    );
    let sdk = sdk_config(Some(&endpoint)).await;
    let table = format!("nayax-{}", ulid::Ulid::new().to_string().to_lowercase());
    create_table(&dynamodb_client(&sdk), &table).await.unwrap();
    let (queue_url, dlq_url) = create_queue_with_dlq(&sqs_client(&sdk), &table)
        .await
        .unwrap();
    let jobs = SqsJobQueue::new(sqs_client(&sdk), queue_url, dlq_url);
    let store = DynamoItemStore::new(dynamodb_client(&sdk), table);
    let now: chrono::DateTime<chrono::Utc> = "2026-11-22T23:30:00Z".parse().unwrap();
    let app = App::new(
        Adapters {
            sales: Arc::new(DynamoSalesStore::new(store.clone())),
            store: Arc::new(store),
            events_handoff: None,
            blobs: Arc::new(vendfleet_adapters_aws::S3BlobStore::new(
                vendfleet_adapters_aws::s3_client(&sdk),
                "unused",
            )),
            jobs: Arc::new(jobs),
            mailer: Arc::new(vendfleet_adapters_aws::SesMailer::new(
                vendfleet_adapters_aws::ses_client(&sdk),
                "reports@example.com",
            )),
            schedules: Arc::new(vendfleet_app::ports::InProcessSchedules),
        },
        Arc::new(ManualClock::new(now)),
        AuthSettings::with_secret(Secret::new("nayax-test-secret-nayax-test-secret")),
        Default::default(),
    );
    app.auth
        .ensure_admin("admin@nayax.test", "nayax-password-1")
        .await
        .unwrap();
    let admin = app
        .users
        .directory()
        .user_by_email("admin@nayax.test")
        .await
        .unwrap()
        .unwrap();
    let p = app.auth.principal(admin).await.unwrap();
    let m = crate::common::machine_selling_cola(&app, &p, "Nayax").await;
    let mut input = vendfleet_app::machines::MachineInput {
        name: "Nayax".into(),
        nayax_machine_id: Some("54265".into()),
        ..Default::default()
    };
    input.version = None;
    app.machines.update(&p, &m.id, input).await.unwrap();
    // Every line sells from C1.
    let mut v: serde_json::Value = serde_json::from_str(MULTI).unwrap();
    for line in v["Data"]["Products"].as_array_mut().unwrap() {
        line["Product Code in Map"] = "C1".into();
        line["Product Catalog Number"] = "".into();
    }
    let sale = v.to_string();
    std::env::set_var(
        "VENDFLEET_NAYAX_QUEUES",
        "transactions=stack-tx,events=stack-events,dex=stack-dex",
    );
    let out = vendfleet_lambdas::take_nayax_batch(
        &app,
        batch(vec![
            message("n-1", "stack-tx", &sale),
            message("n-2", "stack-tx", "{not json"),
            message("n-3", "stack-tx", &sale),
            message("n-4", "somebody-elses-queue", &sale),
        ]),
    )
    .await;
    let failed: Vec<&str> = out
        .batch_item_failures
        .iter()
        .map(|f| f.item_identifier.as_str())
        .collect();
    // A message of an unknown queue fails (it goes to the dead-letter queue); an unreadable one
    // is kept, not failed; the same sale twice is booked once.
    assert_eq!(failed, ["n-4"]);
    let day = "2020-04-20".parse().unwrap();
    let ledger = app.sales.store().ledger(&m.id, day, day).await.unwrap();
    assert_eq!(ledger.len(), 3);
    assert_eq!(ledger.iter().map(|f| f.revenue_minor).sum::<i64>(), 470);
    let inbox = app.data_sources.inbox().await.unwrap();
    assert_eq!(inbox.len(), 1);
    assert_eq!(inbox[0].reason, KeptReason::Unreadable);
    assert_eq!(inbox[0].message_id, "n-2");
    let ctx = app.machines.intake_context(&m.id).await.unwrap().unwrap();
    assert_eq!(ctx.selections[0].current, 17, "three sold from 20, once");
}
