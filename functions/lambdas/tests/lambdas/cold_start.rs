//! Cold starts of every function (`make bench`, not `make test`: `#[ignore]`, run with
//! `--release` so the binaries are built as for Lambda, natively).
//!
//! Lambda's init duration is the time from starting the runtime process to its first
//! `GET /2018-06-01/runtime/invocation/next`. cargo-lambda's emulator does not report it, so
//! this harness is the runtime API itself: it starts each binary with `AWS_LAMBDA_RUNTIME_API`
//! pointing at a loopback server that timestamps that first request, hands over one event and
//! waits for the answer, then reads the process's peak resident memory (`VmHWM`). The
//! environment is the template's, pointed at moto, and the JWT secret is read from an SSM
//! SecureString in moto, as on AWS. Several cold starts per function; medians printed.
//!
//! ```sh
//! infra/with-moto.sh cargo test --release -p vendfleet-lambdas --test cold_start -- --ignored --nocapture
//! ```

use axum::extract::{Path as UrlPath, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use vendfleet_adapters_aws::sdk_config;

const COLD_STARTS: usize = 7;

/// What the runtime API saw of one process.
#[derive(Default)]
struct Seen {
    first_next: Option<Instant>,
    handed: Option<Instant>,
    answered: Option<(Instant, Value)>,
    event: Value,
}

#[derive(Clone)]
struct Runtime {
    seen: Arc<Mutex<Seen>>,
    done: Arc<Notify>,
}

async fn next(State(rt): State<Runtime>) -> axum::response::Response {
    let event = {
        let mut seen = rt.seen.lock().unwrap();
        let now = Instant::now();
        if seen.first_next.is_some() {
            None
        } else {
            seen.first_next = Some(now);
            seen.handed = Some(now);
            Some(seen.event.clone())
        }
    };
    match event {
        Some(event) => axum::response::Response::builder()
            .header("lambda-runtime-aws-request-id", "cold-start-1")
            .header("lambda-runtime-deadline-ms", "4102444800000")
            .header(
                "lambda-runtime-invoked-function-arn",
                "arn:aws:lambda:us-east-1:123456789012:function:bench",
            )
            .header("content-type", "application/json")
            .body(axum::body::Body::from(event.to_string()))
            .unwrap(),
        // The process asks again after answering: keep it waiting until it is stopped.
        None => {
            std::future::pending::<()>().await;
            unreachable!()
        }
    }
}

async fn respond(
    State(rt): State<Runtime>,
    UrlPath(_id): UrlPath<String>,
    _headers: HeaderMap,
    body: String,
) -> &'static str {
    let value = serde_json::from_str(&body).unwrap_or(Value::String(body));
    rt.seen.lock().unwrap().answered = Some((Instant::now(), value));
    rt.done.notify_one();
    ""
}

async fn init_error(State(rt): State<Runtime>, body: String) -> &'static str {
    rt.seen.lock().unwrap().answered = Some((Instant::now(), json!({ "init_error": body })));
    rt.done.notify_one();
    ""
}

struct Start {
    init: Duration,
    first_invoke: Duration,
    peak_kib: u64,
}

fn peak_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

async fn cold_start(binary: &str, env: &[(String, String)], event: &Value) -> Start {
    let rt = Runtime {
        seen: Arc::new(Mutex::new(Seen {
            event: event.clone(),
            ..Default::default()
        })),
        done: Arc::new(Notify::new()),
    };
    let app = Router::new()
        .route("/2018-06-01/runtime/invocation/next", get(next))
        .route(
            "/2018-06-01/runtime/invocation/{id}/response",
            post(respond),
        )
        .route("/2018-06-01/runtime/invocation/{id}/error", post(respond))
        .route("/2018-06-01/runtime/init/error", post(init_error))
        .with_state(rt.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let started = Instant::now();
    let mut child = crate::common::lambda_process(binary, &addr.to_string(), env)
        .spawn()
        .unwrap();
    tokio::time::timeout(Duration::from_secs(30), rt.done.notified())
        .await
        .unwrap_or_else(|_| panic!("{binary} did not answer"));
    let peak = peak_kib(child.id());
    let _ = child.kill();
    let _ = child.wait();
    server.abort();
    let seen = rt.seen.lock().unwrap();
    let (answered, answer) = seen.answered.clone().unwrap();
    assert!(
        answer.get("init_error").is_none(),
        "{binary} failed to start: {answer}"
    );
    let first_next = seen.first_next.unwrap();
    Start {
        init: first_next - started,
        first_invoke: answered - seen.handed.unwrap(),
        peak_kib: peak,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: make bench"]
async fn cold_starts() {
    let endpoint = std::env::var("VENDFLEET_TEST_AWS_ENDPOINT").expect(
        "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make bench",
    );
    let sdk = sdk_config(Some(&endpoint)).await;
    let name = format!("cold-{}", ulid::Ulid::new().to_string().to_lowercase());
    let (_, mut env) = crate::common::moto_stack(&sdk, &endpoint, &name).await;
    let parameter = format!("/{name}/jwt-secret");
    aws_sdk_ssm::Client::new(&sdk)
        .put_parameter()
        .name(&parameter)
        .r#type(aws_sdk_ssm::types::ParameterType::SecureString)
        .value("cold-start-secret-cold-start-secret-cold")
        .send()
        .await
        .unwrap();
    env.push(("VENDFLEET_JWT_SECRET_PARAM".into(), parameter));

    // A request each API function answers without the table (no token: 401), an empty SQS
    // batch for the workers, an event the mail feedback function ignores.
    let mut functions: Vec<(&str, Value)> = vendfleet_lambdas::API_FUNCTIONS
        .iter()
        .map(|(binary, _)| {
            (
                *binary,
                crate::common::event("GET", "/api/users/me/", "", None, None),
            )
        })
        .collect();
    functions.push(("events-worker", json!({"Records": []})));
    functions.push(("jobs-worker", json!({"Records": []})));
    functions.push(("nayax-worker", json!({"Records": []})));
    functions.push(("mail-feedback", json!({"detail-type": "Scheduled Event"})));

    println!(
        "cold starts: {COLD_STARTS} per function, medians (init = process start to the first \
         /runtime/invocation/next; peak = VmHWM after the first invocation)"
    );
    println!(
        "{:<16} {:>10} {:>14} {:>10}",
        "function", "init ms", "1st invoke ms", "peak MiB"
    );
    for (binary, event) in functions {
        let mut init = Vec::new();
        let mut invoke = Vec::new();
        let mut peak = Vec::new();
        for _ in 0..COLD_STARTS {
            let s = cold_start(binary, &env, &event).await;
            init.push(s.init.as_secs_f64() * 1e3);
            invoke.push(s.first_invoke.as_secs_f64() * 1e3);
            peak.push(s.peak_kib as f64 / 1024.0);
        }
        println!(
            "{binary:<16} {:>10.1} {:>14.1} {:>10.1}",
            median(init),
            median(invoke),
            median(peak)
        );
    }
}
