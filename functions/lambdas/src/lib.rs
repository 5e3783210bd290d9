//! Vendfleet on AWS Lambda: each binary serves one API area's router under `lambda_http`,
//! with adapters built once per cold start from environment variables.

use aws_lambda_events::event::sqs::{BatchItemFailure, SqsBatchResponse, SqsEvent};
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;
use lambda_http::request::RequestContext;
use lambda_http::RequestExt;
use std::sync::Arc;
use vendfleet_adapters_aws::{AwsAdapters, AwsConfig};
use vendfleet_app::config::{AuthSettings, OperatorSettings, Secret};
use vendfleet_app::ports::SystemClock;
use vendfleet_app::App;
use vendfleet_http::{AppState, Area, ClientAddr, Served};

/// Errors of start-up.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Reads the JWT secret: `VENDFLEET_JWT_SECRET` when set (tests, local emulation), else the
/// SecureString parameter named by `VENDFLEET_JWT_SECRET_PARAM`.
pub async fn jwt_secret(
    sdk: &vendfleet_adapters_aws::aws_config::SdkConfig,
) -> Result<Secret, BoxError> {
    if let Ok(v) = std::env::var("VENDFLEET_JWT_SECRET") {
        return check_secret(v);
    }
    let name = std::env::var("VENDFLEET_JWT_SECRET_PARAM")
        .map_err(|_| "set VENDFLEET_JWT_SECRET_PARAM (or VENDFLEET_JWT_SECRET)")?;
    let out = aws_sdk_ssm::Client::new(sdk)
        .get_parameter()
        .name(&name)
        .with_decryption(true)
        .send()
        .await
        .map_err(|e| {
            format!(
                "reading parameter {name}: {}",
                aws_sdk_ssm::error::DisplayErrorContext(&e)
            )
        })?;
    let value = out
        .parameter
        .and_then(|p| p.value)
        .ok_or_else(|| format!("parameter {name} has no value"))?;
    check_secret(value)
}

fn check_secret(v: String) -> Result<Secret, BoxError> {
    if v.len() < 32 {
        return Err("the JWT secret must be at least 32 characters".into());
    }
    Ok(Secret::new(v.into_bytes()))
}

/// The application on AWS adapters; `VENDFLEET_TIME_ZONE` names the operator's zone.
pub fn app(adapters: &AwsAdapters, secret: Secret) -> Result<App, BoxError> {
    let settings = AuthSettings::with_secret(secret).apply_env();
    Ok(App::new(
        vendfleet_app::Adapters {
            store: Arc::new(adapters.store.clone()),
            sales: Arc::new(adapters.sales.clone()),
            events_handoff: adapters.events.clone().map(|q| {
                let q: Arc<dyn vendfleet_app::ports::JobQueue> = Arc::new(q);
                q
            }),
            blobs: Arc::new(adapters.blobs.clone()),
            jobs: Arc::new(adapters.jobs.clone()),
            mailer: Arc::new(adapters.mailer.clone()),
            schedules: match &adapters.schedules {
                Some(s) => Arc::new(s.clone()),
                None => Arc::new(vendfleet_app::ports::InProcessSchedules),
            },
        },
        Arc::new(SystemClock),
        settings,
        OperatorSettings::from_env()?,
    ))
}

/// Copies API Gateway's `sourceIp` into the request as the client address (rate limits).
/// Also names the request by API Gateway's request id (`x-request-id`, unless the caller sent one),
/// so the function's JSON logs and the API's access log share it.
async fn client_addr(mut req: Request, next: Next) -> Response {
    let (ip, request_id) = match req.request_context_ref() {
        Some(RequestContext::ApiGatewayV2(ctx)) => {
            (ctx.http.source_ip.clone(), ctx.request_id.clone())
        }
        _ => (None, None),
    };
    if let Some(id) = request_id.and_then(|id| axum::http::HeaderValue::from_str(&id).ok()) {
        req.headers_mut().entry("x-request-id").or_insert(id);
    }
    req.extensions_mut()
        .insert(ClientAddr(ip.unwrap_or_else(|| "unknown".into())));
    next.run(req).await
}

/// The header the web distribution's CloudFront function sets when it takes the trailing `/` off
/// an API path: API Gateway cannot route `GET /api/clients/` to the settings function (a route
/// may not end in `/` and a greedy variable does not match an empty remainder), but it can
/// route `GET /api/clients`. The function puts the `/` back before routing (docs/deployment.md).
pub const TRAILING_SLASH_HEADER: &str = "x-vendfleet-trailing-slash";

/// The path the router sees: `path` with its trailing `/` put back when the request is `marked`
/// by the CloudFront function (and left as it is otherwise).
pub fn restored_path(path: &str, marked: bool) -> std::borrow::Cow<'_, str> {
    if marked && !path.ends_with('/') {
        format!("{path}/").into()
    } else {
        path.into()
    }
}

/// Puts back the trailing `/` the CloudFront function took off (see [`TRAILING_SLASH_HEADER`]).
fn restore_trailing_slash(mut req: Request) -> Request {
    if let Some(marked) = req.headers_mut().remove(TRAILING_SLASH_HEADER) {
        let path = req.uri().path();
        let restored = restored_path(path, marked.as_bytes() == b"1");
        if restored != path {
            let uri = match req.uri().query() {
                Some(q) => format!("{restored}?{q}"),
                None => restored.into_owned(),
            };
            if let Ok(uri) = uri.parse() {
                *req.uri_mut() = uri;
            }
        }
    }
    req
}

/// Every API function of `template.yaml`: its binary (`BuildProperties.Binary`) and the area
/// it serves. The binaries look themselves up here, and the routing proof checks the template's
/// routes against it (tests/routing.rs).
pub const API_FUNCTIONS: &[(&str, Area)] = &[
    ("auth", Area::Auth),
    ("users", Area::Users),
    ("settings", Area::Settings),
    ("filters", Area::Filters),
    ("machines", Area::Machines),
    ("products", Area::Products),
    ("sales", Area::Sales),
    ("reports", Area::Reports),
    ("planning", Area::Planning),
    ("events", Area::Events),
];

/// The area an API binary serves.
pub fn area_of(binary: &str) -> Option<Area> {
    API_FUNCTIONS
        .iter()
        .find(|(name, _)| *name == binary)
        .map(|(_, area)| *area)
}

/// The router one Lambda serves (by its area: tests; a binary names its [`Served`]).
pub fn service(area: Area, app: App) -> Router {
    lambda_router(vendfleet_http::area(area, AppState::new(app)))
}

/// An area's router with the client address and the trailing `/` put back.
fn lambda_router(router: Router) -> Router {
    let router = router.layer(middleware::from_fn(client_addr));
    // The path is restored before the area's router matches it (a layer on that router would
    // run after routing).
    Router::new().fallback_service(tower::util::MapRequest::new(
        router,
        restore_trailing_slash as fn(Request) -> Request,
    ))
}

fn init_logs() {
    tracing_subscriber::fmt()
        .json()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_current_span(false)
        .without_time()
        .init();
}

/// The body of every API Lambda binary: logs, adapters from the environment, then serve the
/// binary's area, `served` (`vendfleet_http::served::AUTH` …), which must be the one
/// [`API_FUNCTIONS`] gives the binary (`env!("CARGO_BIN_NAME")`). Naming its area links the
/// binary with that area's handlers only.
pub async fn run(binary: &str, served: Served) -> Result<(), lambda_http::Error> {
    let area = area_of(binary).ok_or_else(|| format!("{binary} is not an API function"))?;
    if area != served.area {
        return Err(format!("{binary} serves {area:?}, not {:?}", served.area).into());
    }
    init_logs();
    let config = AwsConfig::from_env()?;
    let sdk = vendfleet_adapters_aws::sdk_config(config.endpoint_url.as_deref()).await;
    let adapters = AwsAdapters::new(&config, &sdk);
    let secret = jwt_secret(&sdk).await?;
    let state = AppState::new(app(&adapters, secret)?);
    lambda_http::run(lambda_router(vendfleet_http::serve(served, state))).await
}

/// Applies one SQS batch of queued machine events; answers the ids of the messages that failed
/// (`ReportBatchItemFailures`), so SQS redelivers only those.
pub async fn apply_events_batch(app: &App, event: SqsEvent) -> SqsBatchResponse {
    let mut failures = Vec::new();
    for message in event.records {
        let id = message.message_id.clone().unwrap_or_default();
        let outcome = match message.body.as_deref() {
            Some(body) => app.events.run_job(body).await.map_err(|e| e.to_string()),
            None => Err("message without body".to_string()),
        };
        match outcome {
            Ok(applied) => tracing::info!(
                message_id = %id,
                stored = applied.stored,
                already = applied.already,
                "applied machine events"
            ),
            Err(error) => {
                tracing::error!(message_id = %id, %error, "machine events failed");
                failures.push(id);
            }
        }
    }
    batch_response(failures)
}

/// The feed a queue of the stack is, from the environment (`VENDFLEET_NAYAX_QUEUES`:
/// `transactions=<queue name>,events=<queue name>,dex=<queue name>`, set by the template), for a
/// queue no data source names.
fn stack_feed(queue: &str) -> Option<vendfleet_domain::nayax::Feed> {
    let names = std::env::var("VENDFLEET_NAYAX_QUEUES").unwrap_or_default();
    names.split(',').find_map(|pair| {
        let (feed, name) = pair.split_once('=')?;
        (name.trim() == queue).then_some(())?;
        vendfleet_domain::nayax::Feed::ALL
            .into_iter()
            .find(|f| f.key() == feed.trim())
    })
}

/// Takes one SQS batch of Nayax Core's messages (the data sources' queues on AWS): each is
/// booked exactly once or kept in the inbox (a message that cannot be read is kept, not failed);
/// only a store failure fails a message, which SQS then delivers again (and after three
/// receives keeps in the queue's dead-letter queue).
pub async fn take_nayax_batch(app: &App, event: SqsEvent) -> SqsBatchResponse {
    let mut failures = Vec::new();
    for message in event.records {
        let id = message.message_id.clone().unwrap_or_default();
        let queue = message
            .event_source_arn
            .as_deref()
            .and_then(|arn| arn.rsplit(':').next())
            .unwrap_or_default()
            .to_string();
        let sent_at = message
            .attributes
            .get("SentTimestamp")
            .and_then(|t| t.parse::<i64>().ok())
            .and_then(chrono::DateTime::<chrono::Utc>::from_timestamp_millis)
            .unwrap_or_else(|| app.calendar.now());
        let outcome = async {
            let (source, feed) = match app.data_sources.feed_of_queue(&queue).await? {
                Some(found) => found,
                None => match stack_feed(&queue) {
                    Some(feed) => ("stack".to_string(), feed),
                    None => {
                        return Err(vendfleet_app::AppError::Internal(format!(
                            "no data source reads the queue {queue:?}"
                        )))
                    }
                },
            };
            let body = message.body.as_deref().unwrap_or_default();
            app.data_sources
                .take(vendfleet_app::data_sources::Incoming {
                    source_id: &source,
                    feed,
                    message_id: &id,
                    body,
                    sent_at,
                })
                .await
        };
        match outcome.await {
            Ok(taken) => tracing::info!(message_id = %id, ?taken, "nayax message taken"),
            Err(error) => {
                tracing::error!(message_id = %id, %error, "nayax message not taken");
                failures.push(id);
            }
        }
    }
    batch_response(failures)
}

/// The body of the Nayax feeds' worker binary.
pub async fn run_nayax_worker() -> Result<(), lambda_runtime::Error> {
    run_sqs_worker(|app, event| async move { take_nayax_batch(&app, event).await }).await
}

/// A worker's start: logs, then the application on AWS adapters from the environment.
async fn worker_app() -> Result<Arc<App>, lambda_runtime::Error> {
    init_logs();
    let config = AwsConfig::from_env()?;
    let sdk = vendfleet_adapters_aws::sdk_config(config.endpoint_url.as_deref()).await;
    let adapters = AwsAdapters::new(&config, &sdk);
    let secret = jwt_secret(&sdk).await?;
    Ok(Arc::new(app(&adapters, secret)?))
}

/// The body of an SQS worker binary: the application on AWS adapters, then each batch through
/// `handle`.
async fn run_sqs_worker<F, Fut>(handle: F) -> Result<(), lambda_runtime::Error>
where
    F: Fn(Arc<App>, SqsEvent) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = SqsBatchResponse> + Send,
{
    let app = worker_app().await?;
    let handle = Arc::new(handle);
    lambda_runtime::run(lambda_runtime::service_fn(
        move |event: lambda_runtime::LambdaEvent<SqsEvent>| {
            let (app, handle) = (app.clone(), handle.clone());
            async move { Ok::<_, lambda_runtime::Error>(handle(app, event.payload).await) }
        },
    ))
    .await
}

/// The body of the events worker binary.
pub async fn run_events_worker() -> Result<(), lambda_runtime::Error> {
    run_sqs_worker(|app, event| async move { apply_events_batch(&app, event).await }).await
}

/// Runs one SQS batch of background jobs (large exports, generated reports); answers the messages that failed so
/// SQS delivers only those again (after three receives the queue's DLQ keeps them, and the job
/// is marked failed on its third attempt).
pub async fn apply_jobs_batch(app: &App, event: SqsEvent) -> SqsBatchResponse {
    let mut failures = Vec::new();
    for message in event.records {
        let id = message.message_id.clone().unwrap_or_default();
        let attempts = message
            .attributes
            .get("ApproximateReceiveCount")
            .and_then(|v| v.parse().ok())
            .unwrap_or(1);
        let delivery = vendfleet_app::ports::Job {
            id: id.clone(),
            receipt: message.receipt_handle.clone().unwrap_or_default(),
            payload: message.body.clone().unwrap_or_default(),
            attempts,
        };
        let outcome = vendfleet_http::jobs::handle(app, delivery).await;
        if let Err(error) = outcome {
            tracing::error!(message_id = %id, %error, "job failed");
            failures.push(id);
        }
    }
    batch_response(failures)
}

/// The answer to SQS naming the messages that failed (partial batch failures).
fn batch_response(failed_ids: Vec<String>) -> SqsBatchResponse {
    let mut response = SqsBatchResponse::default();
    response.batch_item_failures = failed_ids
        .into_iter()
        .map(|id| {
            let mut failure = BatchItemFailure::default();
            failure.item_identifier = id;
            failure
        })
        .collect();
    response
}

/// The body of the jobs worker binary.
pub async fn run_jobs_worker() -> Result<(), lambda_runtime::Error> {
    run_sqs_worker(|app, event| async move { apply_jobs_batch(&app, event).await }).await
}

/// The body of the mail feedback binary: SES sending events (bounces, complaints, rejections)
/// from an EventBridge rule, each recorded on the task its message was sent for. An error
/// (the store unreachable) fails the invocation, so EventBridge's asynchronous invocation
/// retries it.
pub async fn run_mail_feedback() -> Result<(), lambda_runtime::Error> {
    let app = worker_app().await?;
    lambda_runtime::run(lambda_runtime::service_fn(
        move |event: lambda_runtime::LambdaEvent<serde_json::Value>| {
            let app = app.clone();
            async move {
                let n = vendfleet_http::mail_feedback::record(&app, &event.payload)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok::<_, lambda_runtime::Error>(serde_json::json!({ "recorded": n }))
            }
        },
    ))
    .await
}
