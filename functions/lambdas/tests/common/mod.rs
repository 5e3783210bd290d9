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
