//! A test harness: the real router on a fresh SQLite data directory, with a manual clock.

#![allow(dead_code)]

pub mod audits;
pub mod counting;
pub mod sellers;

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use chrono::{DateTime, Utc};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::sync::Arc;
use tower::ServiceExt;
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::config::{AuthSettings, OperatorSettings, Secret};
use vendfleet_app::ports::{Clock, ManualClock};
use vendfleet_app::{Adapters, App};
use vendfleet_http::{AppState, ClientAddr};

pub const ADMIN_EMAIL: &str = "admin@example.com";
pub const ADMIN_PASSWORD: &str = "admin-password-1";
/// The sender of scheduled reports in tests.
pub const MAIL_FROM: &str = "Vendfleet <reports@example.com>";
pub const SECRET: &str = "test-secret-test-secret-test-secret!";

/// Where the harness clock starts: `VENDFLEET_TEST_NOW` (RFC 3339) when set, else 23:30 UTC,
/// when it is already tomorrow east of Greenwich. The suite never reads the wall clock, so it
/// gives the same answers at any hour; run it at another instant with
/// `VENDFLEET_TEST_NOW=2026-11-22T10:30:00Z make rust-tests`.
pub fn test_now() -> DateTime<Utc> {
    match std::env::var("VENDFLEET_TEST_NOW") {
        Ok(v) if !v.trim().is_empty() => DateTime::parse_from_rfc3339(v.trim())
            .expect("VENDFLEET_TEST_NOW must be an RFC 3339 instant")
            .with_timezone(&Utc),
        _ => "2026-11-22T23:30:00Z".parse().unwrap(),
    }
}

/// Instants around midnight in the zones the tests use (Paris, Auckland, Los Angeles): morning
/// and late evening UTC, the last evening of a month and of a year, and daylight-saving changes
/// in Europe (2026-10-25) and New Zealand (2026-09-27).
pub const TRICKY_INSTANTS: [&str; 7] = [
    "2026-11-22T10:30:00Z",
    "2026-11-22T23:30:00Z",
    "2026-11-30T23:30:00Z",
    "2026-12-31T23:30:00Z",
    "2026-10-25T00:30:00Z",
    "2026-10-25T23:30:00Z",
    "2026-09-26T14:30:00Z",
];

/// Which item store the router runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Dynamo,
}

/// Runs each named case on SQLite and on DynamoDB in moto: `on_both_stores!(case_a, case_b);`
/// where each case is `async fn case(b: Backend)`.
#[macro_export]
macro_rules! on_both_stores {
    ($($case:ident),+ $(,)?) => {
        mod sqlite {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $case() { super::$case($crate::common::Backend::Sqlite).await } )+
        }
        mod dynamo {
            $( #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
               async fn $case() { super::$case($crate::common::Backend::Dynamo).await } )+
        }
    };
}

/// A moto server for a new harness: `infra/with-moto.sh` starts several (moto serves DynamoDB
/// one request at a time, on one core), and harnesses take them in turn.
pub fn moto_endpoint() -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let all = std::env::var("VENDFLEET_TEST_AWS_ENDPOINTS")
        .or_else(|_| std::env::var("VENDFLEET_TEST_AWS_ENDPOINT"))
        .expect(
            "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make test",
        );
    let all: Vec<&str> = all.split_whitespace().collect();
    let i = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    all[i % all.len()].to_string()
}

/// The S3 client and bucket of a harness on AWS.
type Bucket = Option<(vendfleet_adapters_aws::aws_sdk_s3::Client, String)>;

/// The DynamoDB client and table of a harness on AWS.
type Table = Option<(DynamoClient, String)>;

async fn adapters_for(
    backend: Backend,
    dir: &std::path::Path,
    snapshot: Option<&Snapshot>,
) -> (
    Adapters,
    Option<vendfleet_adapters_aws::DynamoItemStore>,
    Bucket,
    Table,
) {
    match backend {
        Backend::Sqlite => {
            assert!(snapshot.is_none(), "snapshots are of DynamoDB tables");
            (
                Embedded::open(dir, b"blob-secret").unwrap().adapters(),
                None,
                None,
                None,
            )
        }
        Backend::Dynamo => {
            let endpoint = moto_endpoint();
            let sdk = vendfleet_adapters_aws::sdk_config(Some(&endpoint)).await;
            let client = vendfleet_adapters_aws::dynamodb_client(&sdk);
            let table = format!("http-{}", ulid::Ulid::new().to_string().to_lowercase());
            vendfleet_adapters_aws::create_table(&client, &table)
                .await
                .unwrap();
            if let Some(snapshot) = snapshot {
                snapshot.restore(&client, &table).await;
            }
            let store = vendfleet_adapters_aws::DynamoItemStore::new(client.clone(), table.clone());
            let s3 = vendfleet_adapters_aws::s3_client(&sdk);
            vendfleet_adapters_aws::create_bucket(&s3, &table)
                .await
                .unwrap();
            let sqs = vendfleet_adapters_aws::sqs_client(&sdk);
            let (queue, dlq) = vendfleet_adapters_aws::create_queue_with_dlq(&sqs, &table)
                .await
                .unwrap();
            let queue_arn = sqs
                .get_queue_attributes()
                .queue_url(&queue)
                .attribute_names(
                    vendfleet_adapters_aws::aws_sdk_sqs::types::QueueAttributeName::QueueArn,
                )
                .send()
                .await
                .unwrap()
                .attributes
                .and_then(|mut a| {
                    a.remove(
                        &vendfleet_adapters_aws::aws_sdk_sqs::types::QueueAttributeName::QueueArn,
                    )
                })
                .unwrap();
            // The configuration set the mailer names (as the stack's, whose event destination
            // publishes bounces).
            vendfleet_adapters_aws::ses_client(&sdk)
                .create_configuration_set()
                .configuration_set_name(&table)
                .send()
                .await
                .unwrap();
            // SES sends only from a verified identity.
            vendfleet_adapters_aws::ses_client(&sdk)
                .create_email_identity()
                .email_identity("reports@example.com")
                .send()
                .await
                .unwrap();
            let bucket = Some((s3.clone(), table.clone()));
            let adapters = Adapters {
                sales: Arc::new(vendfleet_adapters_aws::DynamoSalesStore::new(store.clone())),
                store: Arc::new(store.clone()),
                events_handoff: None,
                blobs: Arc::new(vendfleet_adapters_aws::S3BlobStore::new(s3, table.clone())),
                jobs: Arc::new(
                    vendfleet_adapters_aws::SqsJobQueue::new(sqs, queue, dlq)
                        .with_wait(std::time::Duration::from_millis(100)),
                ),
                mailer: Arc::new(
                    vendfleet_adapters_aws::SesMailer::new(
                        vendfleet_adapters_aws::ses_client(&sdk),
                        MAIL_FROM,
                    )
                    .with_configuration_set(Some(table.clone())),
                ),
                schedules: Arc::new(vendfleet_adapters_aws::EventBridgeSchedules::new(
                    vendfleet_adapters_aws::scheduler_client(&sdk),
                    "default",
                    queue_arn,
                    "arn:aws:iam::123456789012:role/vendfleet-scheduler",
                )),
            };
            (adapters, Some(store), bucket, Some((client, table)))
        }
    }
}

type DynamoClient = vendfleet_adapters_aws::aws_sdk_dynamodb::Client;
type DynamoItem = std::collections::HashMap<
    String,
    vendfleet_adapters_aws::aws_sdk_dynamodb::types::AttributeValue,
>;

/// Every item of a DynamoDB table, as [`Harness::snapshot`] took them: written into the new
/// table of [`Harness::restored`] before its application starts (a server started on that data).
#[derive(Clone)]
pub struct Snapshot(Arc<Vec<DynamoItem>>);

impl Snapshot {
    /// The items of `table`, every page of a scan.
    async fn take(client: &DynamoClient, table: &str) -> Snapshot {
        let mut items = Vec::new();
        let mut start = None;
        loop {
            let page = client
                .scan()
                .table_name(table)
                .set_exclusive_start_key(start)
                .send()
                .await
                .unwrap();
            items.extend(page.items.unwrap_or_default());
            start = page.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        Snapshot(Arc::new(items))
    }

    /// Writes the items into `table` (empty), in batches of 25.
    async fn restore(&self, client: &DynamoClient, table: &str) {
        use vendfleet_adapters_aws::aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
        for chunk in self.0.chunks(25) {
            let mut writes: Vec<WriteRequest> = chunk
                .iter()
                .map(|item| {
                    let put = PutRequest::builder()
                        .set_item(Some(item.clone()))
                        .build()
                        .unwrap();
                    WriteRequest::builder().put_request(put).build()
                })
                .collect();
            while !writes.is_empty() {
                let out = client
                    .batch_write_item()
                    .request_items(table, writes)
                    .send()
                    .await
                    .unwrap();
                writes = out
                    .unprocessed_items
                    .and_then(|mut left| left.remove(table))
                    .unwrap_or_default();
            }
        }
    }
}

/// A fixture that several cases read: on DynamoDB seeded once per test binary (the first case
/// to ask seeds it through the application, as a case would, and takes a [`Snapshot`]), each
/// case then getting its own table holding a copy of it, so that the cases may still write;
/// on SQLite, where seeding is cheap, seeded anew for each case. `T` is what the seeding
/// answers (the ids and facts the cases check against), handed to each case.
///
/// moto applies a sales commit's `ADD` updates slowly (hundreds of milliseconds a
/// transaction); a copy is written by plain batches of puts. Only the table is copied: a seed
/// that leaves files in the bucket, messages in the queue or schedules is not one for this.
/// The first case to ask seeds it; the cases that ask meanwhile wait for it.
pub struct Seeded<T> {
    once: tokio::sync::OnceCell<(DateTime<Utc>, Snapshot, T)>,
}

impl<T: Clone> Seeded<T> {
    pub const fn new() -> Self {
        Seeded {
            once: tokio::sync::OnceCell::const_new(),
        }
    }

    /// A harness on `backend` holding the fixture `seed` writes (seeded with the clock at
    /// [`test_now`]), and what `seed` answered.
    pub async fn harness(
        &self,
        backend: Backend,
        seed: impl AsyncFnOnce(&Harness) -> T,
    ) -> (Harness, T) {
        let now = test_now();
        match backend {
            Backend::Sqlite => {
                let h = Harness::at(backend, now, |_| {}).await;
                let facts = seed(&h).await;
                (h, facts)
            }
            Backend::Dynamo => {
                let (seeded_at, snapshot, facts) = self
                    .once
                    .get_or_init(async || {
                        let h = Harness::at(backend, now, |_| {}).await;
                        let facts = seed(&h).await;
                        (h.clock.now(), h.snapshot().await, facts)
                    })
                    .await;
                // The cases start where the seeding left the clock, as on SQLite.
                let h = Harness::restored(*seeded_at, snapshot).await;
                (h, facts.clone())
            }
        }
    }
}

pub struct Harness {
    pub router: Router,
    pub clock: Arc<ManualClock>,
    pub app: App,
    pub client: String,
    /// The DynamoDB store (its items-read counter), on DynamoDB.
    pub dynamo: Option<vendfleet_adapters_aws::DynamoItemStore>,
    bucket: Bucket,
    table: Table,
    adapters: Adapters,
    settings: AuthSettings,
    operator: OperatorSettings,
    _dir: Arc<tempfile::TempDir>,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub bytes: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
}

impl Harness {
    pub async fn new() -> Self {
        Self::with(|_| {}).await
    }

    pub async fn with(configure: impl FnOnce(&mut AuthSettings)) -> Self {
        Self::on(Backend::Sqlite, configure).await
    }

    pub async fn on_store(backend: Backend) -> Self {
        Self::on(backend, |_| {}).await
    }

    pub async fn on(backend: Backend, configure: impl FnOnce(&mut AuthSettings)) -> Self {
        Self::at(backend, test_now(), configure).await
    }

    /// A harness whose clock stands at `now`.
    pub async fn at(
        backend: Backend,
        now: DateTime<Utc>,
        configure: impl FnOnce(&mut AuthSettings),
    ) -> Self {
        Self::build(backend, now, configure, None).await
    }

    /// A harness on DynamoDB whose new table holds the items of `snapshot` (written before the
    /// application starts), its clock at `now`.
    pub async fn restored(now: DateTime<Utc>, snapshot: &Snapshot) -> Self {
        Self::build(Backend::Dynamo, now, |_| {}, Some(snapshot)).await
    }

    /// Every item of the harness's table (DynamoDB only).
    pub async fn snapshot(&self) -> Snapshot {
        let (client, table) = self.table.as_ref().expect("a snapshot of a DynamoDB table");
        Snapshot::take(client, table).await
    }

    async fn build(
        backend: Backend,
        now: DateTime<Utc>,
        configure: impl FnOnce(&mut AuthSettings),
        snapshot: Option<&Snapshot>,
    ) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let (adapters, dynamo, bucket, table) = adapters_for(backend, dir.path(), snapshot).await;
        let clock = Arc::new(ManualClock::new(now));
        let mut settings = AuthSettings::with_secret(Secret::new(SECRET));
        configure(&mut settings);
        // The operator works in Paris; test locations name their own zones.
        let operator = OperatorSettings::in_zone("Europe/Paris").unwrap();
        let app = App::new(
            adapters.clone(),
            clock.clone(),
            settings.clone(),
            operator.clone(),
        );
        app.auth
            .ensure_admin(ADMIN_EMAIL, ADMIN_PASSWORD)
            .await
            .unwrap();
        let router = vendfleet_http::router(AppState::new(app.clone()));
        Harness {
            router,
            clock,
            app,
            client: "10.0.0.1".into(),
            dynamo,
            bucket,
            table,
            adapters,
            settings,
            operator,
            _dir: Arc::new(dir),
        }
    }

    /// Where the embedded mailer files its messages (SQLite harnesses).
    pub fn outbox(&self) -> std::path::PathBuf {
        self._dir
            .path()
            .join(vendfleet_adapters_embedded::OUTBOX_DIR)
    }

    /// The timing service of scheduled tasks.
    pub fn schedules(&self) -> Arc<dyn vendfleet_app::ports::Schedules> {
        self.adapters.schedules.clone()
    }

    /// The item store the application runs on.
    pub fn item_store(&self) -> Arc<dyn vendfleet_app::ports::ItemStore> {
        self.adapters.store.clone()
    }

    /// The sales store the application runs on.
    pub fn sales_store(&self) -> Arc<dyn vendfleet_app::ports::SalesStore> {
        self.adapters.sales.clone()
    }

    /// Another process over the same stores (as a second Lambda is): its own application, with
    /// its own caches, and the same clock.
    pub fn twin(&self) -> Harness {
        self.twin_with_sales(self.adapters.sales.clone())
    }

    /// [`Harness::twin`] with another sales store (over the same data: another reading of it).
    pub fn twin_with_sales(&self, sales: Arc<dyn vendfleet_app::ports::SalesStore>) -> Harness {
        let mut adapters = self.adapters.clone();
        adapters.sales = sales;
        let app = App::new(
            adapters.clone(),
            self.clock.clone(),
            self.settings.clone(),
            self.operator.clone(),
        );
        Harness {
            router: vendfleet_http::router(AppState::new(app.clone())),
            clock: self.clock.clone(),
            app,
            client: self.client.clone(),
            dynamo: self.dynamo.clone(),
            bucket: self.bucket.clone(),
            table: self.table.clone(),
            adapters,
            settings: self.settings.clone(),
            operator: self.operator.clone(),
            _dir: self._dir.clone(),
        }
    }

    /// [`Harness::twin`] over another item store (a wrapper of this one's, to watch its calls).
    pub fn twin_with_store(&self, store: Arc<dyn vendfleet_app::ports::ItemStore>) -> Harness {
        let mut twin = self.twin();
        twin.adapters.store = store;
        let app = App::new(
            twin.adapters.clone(),
            self.clock.clone(),
            self.settings.clone(),
            self.operator.clone(),
        );
        twin.router = vendfleet_http::router(AppState::new(app.clone()));
        twin.app = app;
        twin
    }

    /// Makes storing report files fail from now on, as a broken disk or bucket would: on
    /// SQLite a file stands where the reports' directory goes; on S3 the bucket is deleted.
    pub async fn break_report_files(&self) {
        match &self.bucket {
            None => {
                let dir = self
                    ._dir
                    .path()
                    .join(vendfleet_adapters_embedded::BLOBS_DIR);
                std::fs::create_dir_all(&dir).unwrap();
                let _ = std::fs::remove_dir_all(dir.join("reports"));
                std::fs::write(dir.join("reports"), b"not a directory").unwrap();
            }
            Some((client, name)) => {
                client.delete_bucket().bucket(name).send().await.unwrap();
            }
        }
    }

    /// The same harness whose exports of more than `rows` rows become background jobs.
    pub fn with_inline_exports(mut self, rows: usize) -> Self {
        self.router =
            vendfleet_http::router(AppState::new(self.app.clone()).with_inline_export_rows(rows));
        self
    }

    pub async fn send(&self, req: Request<Body>) -> Reply {
        let mut req = req;
        req.extensions_mut().insert(ClientAddr(self.client.clone()));
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
        Reply {
            status,
            headers,
            bytes,
        }
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let mut b = Request::builder().method(method).uri(path);
        if let Some(t) = token {
            b = b.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        let req = match body {
            Some(v) => b
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(v.to_string()))
                .unwrap(),
            None => b.body(Body::empty()).unwrap(),
        };
        self.send(req).await
    }

    pub async fn get(&self, path: &str, token: &str) -> Reply {
        self.call(Method::GET, path, Some(token), None).await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Reply {
        self.call(Method::POST, path, Some(token), Some(body)).await
    }

    pub async fn put(&self, path: &str, token: &str, body: Value) -> Reply {
        self.call(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn delete(&self, path: &str, token: &str, body: Value) -> Reply {
        self.call(Method::DELETE, path, Some(token), Some(body))
            .await
    }

    pub async fn login(&self, email: &str, password: &str) -> Reply {
        self.call(
            Method::POST,
            "/auth/token/",
            None,
            Some(json!({"email": email, "password": password})),
        )
        .await
    }

    /// Signs in and returns the access token (panics on failure).
    pub async fn token(&self, email: &str, password: &str) -> String {
        let r = self.login(email, password).await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "login {email}: {}",
            String::from_utf8_lossy(&r.bytes)
        );
        r.json()["data"]["token"]["access"]
            .as_str()
            .unwrap()
            .to_string()
    }

    pub async fn admin(&self) -> String {
        self.token(ADMIN_EMAIL, ADMIN_PASSWORD).await
    }

    /// Creates a role with `modules` and returns its id.
    pub async fn role(&self, admin: &str, name: &str, modules: &[&str]) -> String {
        let r = self
            .post(
                "/api/users/roles/",
                admin,
                json!({"name": name, "modules": modules}),
            )
            .await;
        assert_eq!(
            r.status,
            StatusCode::CREATED,
            "{}",
            String::from_utf8_lossy(&r.bytes)
        );
        r.json()["data"]["id"].as_str().unwrap().to_string()
    }

    /// Creates a user with a role and returns its id.
    pub async fn user(&self, admin: &str, email: &str, role_id: Option<&str>) -> String {
        let r = self
            .post("/api/users/", admin, json!({"name": "Test User", "email": email, "password": "password-123", "role_id": role_id}))
            .await;
        assert_eq!(
            r.status,
            StatusCode::CREATED,
            "{}",
            String::from_utf8_lossy(&r.bytes)
        );
        r.json()["data"]["id"].as_str().unwrap().to_string()
    }
}

/// Creates a resource (`POST path`, expecting 201) and answers its id.
pub async fn create(h: &Harness, token: &str, path: &str, body: Value) -> String {
    created(h, token, path, body).await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Creates a resource (`POST path`, expecting 201) and answers it (the reply's `data`).
pub async fn created(h: &Harness, token: &str, path: &str, body: Value) -> Value {
    let r = h.post(path, token, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{path}: {}", r.json());
    r.json()["data"].clone()
}
