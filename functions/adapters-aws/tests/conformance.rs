//! The port conformance suites against moto_server (started by `infra/with-moto.sh`).
//!
//! Every test provisions its own uniquely named table, bucket or queue, so the cases run in
//! parallel against one emulator.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use vendfleet_adapters_aws::aws_config::SdkConfig;
use vendfleet_adapters_aws::aws_sdk_dynamodb::config::{Credentials, SharedCredentialsProvider};
use vendfleet_adapters_aws::{
    create_bucket, create_queue_with_redrive, create_table, dynamodb_client, s3_client, sdk_config,
    sqs_client, DynamoItemStore, S3BlobStore, SqsJobQueue,
};
use vendfleet_app::ports::{BlobStore, ItemStore, JobQueue};
use vendfleet_app::{
    blob_store_conformance, item_store_conformance, job_queue_conformance, schedules_conformance,
};

const ENDPOINT_VAR: &str = "VENDFLEET_TEST_AWS_ENDPOINT";

/// The emulator's SDK configuration with dummy credentials. Fails (never skips) without one.
async fn moto() -> SdkConfig {
    let endpoint = std::env::var(ENDPOINT_VAR).ok().filter(|v| !v.is_empty());
    let Some(endpoint) = endpoint else {
        panic!(
            "{ENDPOINT_VAR} is not set: these tests need moto_server; \
             run through infra/with-moto.sh or make test \
             (infra/with-moto.sh cargo test -p vendfleet-adapters-aws)"
        );
    };
    let credentials = Credentials::new("testing", "testing", None, None, "vendfleet-tests");
    sdk_config(Some(&endpoint))
        .await
        .into_builder()
        .credentials_provider(SharedCredentialsProvider::new(credentials))
        .build()
}

/// A name no other test of this run or of a parallel run uses (S3 bucket rules: lowercase,
/// digits and hyphens, 3–63 characters).
fn unique(prefix: &str) -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    format!(
        "{prefix}-{}-{nanos}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

async fn item_store() -> Arc<dyn ItemStore> {
    let client = dynamodb_client(&moto().await);
    let table = unique("vf-items");
    create_table(&client, &table).await.expect("create table");
    Arc::new(DynamoItemStore::new(client, table))
}

async fn blob_store() -> Arc<dyn BlobStore> {
    let client = s3_client(&moto().await);
    let bucket = unique("vf-blobs");
    create_bucket(&client, &bucket)
        .await
        .expect("create bucket");
    Arc::new(S3BlobStore::new(client, bucket))
}

async fn job_queue() -> Arc<dyn JobQueue> {
    let client = sqs_client(&moto().await);
    // The shared suite dead-letters after three receives.
    let (queue_url, dlq_url) = create_queue_with_redrive(&client, &unique("vf-jobs"), 3)
        .await
        .expect("create queues");
    Arc::new(SqsJobQueue::new(client, queue_url, dlq_url))
}

item_store_conformance!(item_store());
blob_store_conformance!(blob_store());
job_queue_conformance!(job_queue());
schedules_conformance!(schedules());

async fn schedules() -> Arc<dyn vendfleet_app::ports::Schedules> {
    let client = vendfleet_adapters_aws::scheduler_client(&moto().await);
    Arc::new(vendfleet_adapters_aws::EventBridgeSchedules::new(
        client,
        "default",
        "arn:aws:sqs:us-east-1:123456789012:vf-jobs",
        "arn:aws:iam::123456789012:role/vendfleet-scheduler",
    ))
}

/// Presigned links name the file and expire (moto checks neither; the URL must carry both).
#[tokio::test]
async fn download_urls_are_presigned_with_the_file_name() {
    let blobs = blob_store().await;
    blobs
        .put("exports/a.csv", b"x".to_vec(), "text/csv")
        .await
        .unwrap();
    let url = blobs
        .download_url(
            "exports/a.csv",
            "Users é.csv",
            std::time::Duration::from_secs(300),
        )
        .await
        .unwrap();
    assert!(url.contains("X-Amz-Signature="), "{url}");
    assert!(url.contains("X-Amz-Expires=300"), "{url}");
    assert!(
        url.contains("response-content-disposition=attachment"),
        "{url}"
    );
}

/// The adapters report AWS failures as errors that carry the cause, never panic.
#[tokio::test]
async fn missing_resources_are_backend_errors_with_a_cause() {
    use vendfleet_app::ports::{BlobError, Key, StoreError};
    let sdk = moto().await;
    let store = DynamoItemStore::new(dynamodb_client(&sdk), unique("vf-none"));
    match store.get(&Key::new("P", "S")).await {
        Err(StoreError::Backend(cause)) => assert!(cause.contains("ResourceNotFound"), "{cause}"),
        other => panic!("{other:?}"),
    }
    let blobs = S3BlobStore::new(s3_client(&sdk), unique("vf-none"));
    match blobs.put("a", vec![1], "text/plain").await {
        Err(BlobError::Backend(cause)) => assert!(cause.contains("NoSuchBucket"), "{cause}"),
        other => panic!("{other:?}"),
    }
}
