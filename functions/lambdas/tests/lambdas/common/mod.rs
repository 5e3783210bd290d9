#![allow(dead_code)] // each test crate uses a part of it
//! Helpers shared by the Lambda tests: API Gateway HTTP API (v2) events, and a router invoked
//! in-process through `lambda_http`'s adapter as the runtime would.

use lambda_http::request::LambdaRequest;
use lambda_http::tower::{Service, ServiceExt};
use lambda_runtime::{Context, LambdaEvent};
use serde_json::{json, Value};

/// The recorded login event with another method, path, query, body and token.
pub fn event(
    method: &str,
    path: &str,
    query: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> Value {
    let mut e: Value = serde_json::from_str(include_str!("../events/login.json")).unwrap();
    e["routeKey"] = json!(format!("{method} {path}"));
    e["requestContext"]["routeKey"] = e["routeKey"].clone();
    e["rawPath"] = json!(path);
    e["rawQueryString"] = json!(query);
    e["requestContext"]["http"]["method"] = json!(method);
    e["requestContext"]["http"]["path"] = json!(path);
    match body {
        Some(b) => e["body"] = json!(b.to_string()),
        None => {
            e.as_object_mut().unwrap().remove("body");
            e["headers"].as_object_mut().unwrap().remove("content-type");
        }
    }
    e["headers"]
        .as_object_mut()
        .unwrap()
        .remove("content-length");
    if let Some(t) = token {
        e["headers"]["authorization"] = json!(format!("Bearer {t}"));
    }
    e
}

/// Invokes `router` with an API Gateway v2 event, as `lambda_http::run` does; answers the API
/// Gateway response as JSON.
pub async fn in_process(router: &axum::Router, event: Value) -> Value {
    let req: LambdaRequest = serde_json::from_value(event).expect("a valid API Gateway v2 event");
    let mut adapter = lambda_http::Adapter::from(router.clone());
    let adapter = adapter.ready().await.unwrap();
    let res = adapter
        .call(LambdaEvent::new(req, Context::default()))
        .await
        .unwrap();
    serde_json::to_value(res).unwrap()
}

/// An API Gateway event as the web distribution forwards it: its CloudFront function took the
/// trailing `/` off the path and marked the request.
pub fn through_distribution(mut e: Value) -> Value {
    let path = e["rawPath"]
        .as_str()
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    e["rawPath"] = json!(path);
    e["requestContext"]["http"]["path"] = json!(path);
    e["headers"][vendfleet_lambdas::TRAILING_SLASH_HEADER] = json!("1");
    e
}

/// A stack's resources in moto (table, exports bucket, jobs and events queues, all named after
/// `name`): the adapters' configuration, and the environment the template's Globals give the
/// functions, pointed at them (the JWT secret's variable is the caller's).
pub async fn moto_stack(
    sdk: &vendfleet_adapters_aws::aws_config::SdkConfig,
    endpoint: &str,
    name: &str,
) -> (vendfleet_adapters_aws::AwsConfig, Vec<(String, String)>) {
    use vendfleet_adapters_aws::{
        create_bucket, create_queue_with_dlq, create_table, dynamodb_client, s3_client, sqs_client,
    };
    create_table(&dynamodb_client(sdk), name).await.unwrap();
    create_bucket(&s3_client(sdk), name).await.unwrap();
    let (jobs, jobs_dlq) = create_queue_with_dlq(&sqs_client(sdk), name).await.unwrap();
    let (events, events_dlq) = create_queue_with_dlq(&sqs_client(sdk), &format!("{name}-events"))
        .await
        .unwrap();
    let env = [
        ("VENDFLEET_TABLE", name.to_string()),
        ("VENDFLEET_BUCKET", name.to_string()),
        ("VENDFLEET_QUEUE_URL", jobs.clone()),
        ("VENDFLEET_DLQ_URL", jobs_dlq.clone()),
        ("VENDFLEET_EVENTS_QUEUE_URL", events.clone()),
        ("VENDFLEET_EVENTS_DLQ_URL", events_dlq.clone()),
        ("VENDFLEET_AWS_ENDPOINT", endpoint.to_string()),
        ("VENDFLEET_TIME_ZONE", "Europe/Paris".into()),
        ("VENDFLEET_MAIL_FROM", "reports@example.com".into()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_ACCESS_KEY_ID", "testing".into()),
        ("AWS_SECRET_ACCESS_KEY", "testing".into()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    let config = vendfleet_adapters_aws::AwsConfig {
        table: name.to_string(),
        bucket: name.to_string(),
        queue_url: jobs,
        dead_letter_queue_url: jobs_dlq,
        events_queue: Some((events, events_dlq)),
        endpoint_url: Some(endpoint.to_string()),
        schedules: None,
        mail_from: "reports@example.com".into(),
        ses_configuration_set: None,
        // A table made for the test: every vend written with the packed items.
        packed_reads: true,
    };
    (config, env)
}

/// A function binary (built beside this test) as Lambda starts it: `env`, Lambda's own
/// variables and its runtime API at `runtime_api`.
pub fn lambda_process(
    binary: &str,
    runtime_api: &str,
    env: &[(String, String)],
) -> std::process::Command {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_auth"))
        .parent()
        .unwrap()
        .join(binary);
    let mut command = std::process::Command::new(bin);
    command
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("AWS_LAMBDA_RUNTIME_API", runtime_api)
        .env("AWS_LAMBDA_FUNCTION_NAME", binary)
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_LOG_GROUP_NAME", format!("/aws/lambda/{binary}"))
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "test")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null());
    command
}

/// A product "Cola" at 2.00 EUR and a machine `name` selling it in selection C1 (20 of 30).
pub async fn machine_selling_cola(
    app: &vendfleet_app::App,
    p: &vendfleet_app::auth::Principal,
    name: &str,
) -> vendfleet_app::machines::Machine {
    let product = app
        .products
        .create_product(
            p,
            vendfleet_app::products::ProductInput {
                name: "Cola".into(),
                price_minor: Some(200),
                currency: "EUR".into(),
                vat_bps: Some(2000),
                units: "pcs".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let machine = app
        .machines
        .create(
            p,
            vendfleet_app::machines::MachineInput {
                name: name.into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    app.machines
        .upsert_selection(
            p,
            &machine.id,
            vendfleet_app::machines::SelectionInput {
                selection: "C1".into(),
                product_id: product.id,
                max: 30,
                price_minor: 200,
                current: 20,
                expiry_date: None,
            },
        )
        .await
        .unwrap();
    machine
}
