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

mod packed_fleet_items {
    //! The fleet's packed items (`FLEETROLLUP#{shard}` month and day items) against the
    //! machines' own rollups, on moto: every machine's rows of a span, and the fleet's rows by
    //! product; the same after a bulk load of the same vends.
    use super::{dynamodb_client, moto, unique};
    use chrono::{Days, NaiveDate};
    use std::collections::BTreeMap;
    use vendfleet_adapters_aws::{create_table, DynamoItemStore, DynamoSalesStore};
    use vendfleet_app::ports::sales::sum_over_machines;
    use vendfleet_app::ports::{Commit, Grain, RollupQuery, RollupRow, SalesStore};
    use vendfleet_domain::events::{Payment, VendClass};
    use vendfleet_domain::sales::VendFact;

    async fn store() -> DynamoSalesStore {
        let client = dynamodb_client(&moto().await);
        let table = unique("vf-sales");
        create_table(&client, &table).await.expect("create table");
        DynamoSalesStore::new(DynamoItemStore::new(client, table))
    }

    /// 7 machines, 5 products (one the empty id), over 40 days from 27 January: cash,
    /// cashless, free and test vends.
    fn vends() -> Vec<VendFact> {
        let day0 = NaiveDate::from_ymd_opt(2026, 1, 27).unwrap();
        (0..300u64)
            .map(|n| {
                let day = day0 + Days::new((n * 7) % 40);
                VendFact {
                    machine_id: format!("01MACHINE{}", n % 7),
                    event_id: format!("e{n}"),
                    at: day.and_hms_opt(10, 0, 0).unwrap().and_utc(),
                    local_date: day,
                    location_id: None,
                    selection: "1".into(),
                    product_id: ["", "01PA", "01PB", "01PC", "01PD"][(n % 5) as usize].into(),
                    quantity: 1 + (n % 3) as u32,
                    revenue_minor: 100 + n as i64,
                    net_minor: 90 + n as i64,
                    payment: if n.is_multiple_of(2) {
                        Payment::Cash
                    } else {
                        Payment::Cashless
                    },
                    class: [
                        VendClass::Sale,
                        VendClass::Sale,
                        VendClass::Free,
                        VendClass::Test,
                    ][(n % 4) as usize],
                    vat_bps: None,
                }
            })
            .collect()
    }

    /// Commits as intake cuts them by the store's cost.
    async fn commit_all(store: &DynamoSalesStore, vends: Vec<VendFact>) {
        let mut draft = Commit::default();
        for v in vends {
            let mut trial = draft.clone();
            trial.vends.push(v.clone());
            if !draft.is_empty() && store.cost(&trial) > store.commit_limit() {
                store.commit(std::mem::take(&mut draft)).await.unwrap();
                draft.vends.push(v);
            } else {
                draft = trial;
            }
        }
        store.commit(draft).await.unwrap();
    }

    fn sorted(mut rows: Vec<RollupRow>) -> Vec<RollupRow> {
        rows.retain(|r| !r.figures.is_zero());
        rows.sort_by(|a, b| {
            (&a.machine_id, a.date, &a.product_id).cmp(&(&b.machine_id, b.date, &b.product_id))
        });
        rows
    }

    async fn check(store: &DynamoSalesStore) {
        let machines: Vec<String> = (0..7).map(|i| format!("01MACHINE{i}")).collect();
        let d = |m, d| NaiveDate::from_ymd_opt(2026, m, d).unwrap();
        for (from, to) in [(d(1, 30), d(3, 2)), (d(2, 1), d(2, 28)), (d(3, 5), d(3, 1))] {
            for grain in [Grain::Day, Grain::Month] {
                for chosen in [&machines[..], &machines[2..5], &machines[3..4]] {
                    let q = RollupQuery {
                        machine_ids: chosen.to_vec(),
                        from,
                        to,
                        grain,
                    };
                    let packed = store.machine_rollups(&q).await.unwrap().unwrap();
                    let own = store.rollups(&q).await.unwrap();
                    assert_eq!(sorted(packed), sorted(own), "{q:?}");
                }
            }
            for grain in [Grain::DayProduct, Grain::MonthProduct] {
                let q = RollupQuery {
                    machine_ids: machines.clone(),
                    from,
                    to,
                    grain,
                };
                let fleet = store.fleet_rollups(&q).await.unwrap().unwrap();
                let mut by: BTreeMap<_, RollupRow> = BTreeMap::new();
                for r in sum_over_machines(fleet.rows) {
                    by.insert((r.date, r.product_id.clone()), r);
                }
                let own = store.rollups(&q).await.unwrap();
                let with_vends: std::collections::BTreeSet<String> = own
                    .iter()
                    .filter(|r| !r.figures.is_zero())
                    .map(|r| r.machine_id.clone())
                    .collect();
                assert!(with_vends.is_subset(&fleet.machines), "{q:?}");
                let own = sorted(sum_over_machines(own));
                assert_eq!(sorted(by.into_values().collect()), own, "{q:?}");
                assert!(from > to || !own.is_empty());
            }
            let q = RollupQuery {
                machine_ids: machines.clone(),
                from,
                to,
                grain: Grain::DayProduct,
            };
            assert_eq!(store.machine_rollups(&q).await.unwrap(), None);
        }
        assert!(store.packed_items(&machines).unwrap() <= 4);
        assert_eq!(store.packed_items(&machines[..1]), Some(1));
    }

    #[tokio::test]
    async fn packed_items_equal_the_machines_rollups() {
        let committed = store().await;
        commit_all(&committed, vends()).await;
        check(&committed).await;
        let loaded = store().await;
        loaded.load(&vends()).await.unwrap();
        check(&loaded).await;
    }
}
