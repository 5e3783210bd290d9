//! The data sources' queues on Amazon SQS (its JSON protocol), signed with SigV4 by AWS's own
//! signer (`aws-sigv4`) over a hyper client with rustls on ring: the embedded server reads the
//! operator's Nayax queues without the AWS SDK. The same client sends and creates queues for
//! `vendfleet simulate --nayax` and the tests (moto).

use async_trait::async_trait;
use aws_credential_types::Credentials;
use aws_sigv4::http_request::{sign, SignableBody, SignableRequest, SigningSettings};
use aws_sigv4::sign::v4;
use aws_smithy_runtime_api::client::identity::Identity;
use chrono::{DateTime, Utc};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use serde_json::{json, Value};
use std::time::{Duration, SystemTime};
use vendfleet_app::ports::{FeedError, FeedQueues, QueueAccess, QueueMessage};

type Https = hyper_rustls::HttpsConnector<HttpConnector>;

/// Amazon SQS, or an emulator at a fixed endpoint.
#[derive(Clone)]
pub struct SqsFeeds {
    client: Client<Https, Full<Bytes>>,
    /// Every call goes here when set (an emulator); else to the queue URL's own host.
    endpoint: Option<String>,
}

/// Most seconds a long poll waits (SQS's limit).
pub const MAX_WAIT_SECS: u32 = 20;

fn error(e: impl std::fmt::Display) -> FeedError {
    FeedError(e.to_string())
}

/// `scheme://host[:port]/` of a URL.
fn origin_of(url: &str) -> Result<String, FeedError> {
    let uri: http::Uri = url
        .parse()
        .map_err(|_| error(format!("not a URL: {url}")))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some(scheme @ ("http" | "https")), Some(authority)) => {
            Ok(format!("{scheme}://{authority}/"))
        }
        _ => Err(error(format!("not an http(s) URL: {url}"))),
    }
}

impl SqsFeeds {
    /// A client of Amazon SQS (each queue at its URL's host).
    pub fn new() -> SqsFeeds {
        SqsFeeds::at(None)
    }

    /// A client sending every call to `endpoint` (an emulator such as moto), or to each queue
    /// URL's host when `None`.
    pub fn at(endpoint: Option<String>) -> SqsFeeds {
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(provider)
            .expect("ring supports TLS 1.2 and 1.3")
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(hyper_util::rt::TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build(https);
        SqsFeeds { client, endpoint }
    }

    /// One call of the SQS JSON API (`AmazonSQS.<action>`), signed for the access's region.
    async fn call(
        &self,
        access: &QueueAccess,
        url: &str,
        action: &str,
        body: Value,
        timeout: Duration,
    ) -> Result<Value, FeedError> {
        if access.access_key_id.is_empty() || access.secret_access_key.is_empty() {
            return Err(error(
                "no access key: give the source's access key id and secret",
            ));
        }
        let endpoint = match &self.endpoint {
            Some(e) => e.clone(),
            None => origin_of(url)?,
        };
        let host = endpoint
            .parse::<http::Uri>()
            .ok()
            .and_then(|u| u.authority().map(|a| a.to_string()))
            .ok_or_else(|| error(format!("not a URL: {endpoint}")))?;
        let body = serde_json::to_vec(&body).map_err(error)?;
        let target = format!("AmazonSQS.{action}");
        let headers = [
            ("host", host.as_str()),
            ("content-type", "application/x-amz-json-1.0"),
            ("x-amz-target", target.as_str()),
        ];
        let mut request = http::Request::builder().method("POST").uri(&endpoint);
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let mut request = request
            .body(Full::new(Bytes::from(body.clone())))
            .map_err(error)?;
        let identity: Identity = Credentials::new(
            &access.access_key_id,
            &access.secret_access_key,
            None,
            None,
            "vendfleet-data-source",
        )
        .into();
        let params = v4::SigningParams::builder()
            .identity(&identity)
            .region(&access.region)
            .name("sqs")
            .time(SystemTime::now())
            .settings(SigningSettings::default())
            .build()
            .map_err(error)?
            .into();
        let signable = SignableRequest::new(
            "POST",
            &endpoint,
            headers.into_iter(),
            SignableBody::Bytes(&body),
        )
        .map_err(error)?;
        let (instructions, _) = sign(signable, &params).map_err(error)?.into_parts();
        instructions.apply_to_request_http1x(&mut request);
        let response = tokio::time::timeout(timeout, self.client.request(request))
            .await
            .map_err(|_| error(format!("{action}: no answer within {}s", timeout.as_secs())))?
            .map_err(error)?;
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(error)?
            .to_bytes();
        let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if !status.is_success() {
            let kind = value["__type"]
                .as_str()
                .unwrap_or("")
                .rsplit('#')
                .next()
                .unwrap_or("");
            let message = value["message"]
                .as_str()
                .or(value["Message"].as_str())
                .unwrap_or("");
            return Err(error(
                format!("{action}: {status} {kind} {message}")
                    .trim()
                    .to_string(),
            ));
        }
        Ok(value)
    }

    /// Sends a message (the simulator, the tests); answers its id.
    pub async fn send(
        &self,
        access: &QueueAccess,
        url: &str,
        body: &str,
    ) -> Result<String, FeedError> {
        let reply = self
            .call(
                access,
                url,
                "SendMessage",
                json!({"QueueUrl": url, "MessageBody": body}),
                Duration::from_secs(30),
            )
            .await?;
        Ok(reply["MessageId"].as_str().unwrap_or("").to_string())
    }

    /// Creates a queue (an emulator's: the endpoint must be set) with its attributes (e.g.
    /// `{"VisibilityTimeout": "1"}`); answers its URL.
    pub async fn create_queue(
        &self,
        access: &QueueAccess,
        name: &str,
        attributes: Value,
    ) -> Result<String, FeedError> {
        let endpoint = self
            .endpoint
            .clone()
            .ok_or_else(|| error("creating a queue needs an endpoint"))?;
        let reply = self
            .call(
                access,
                &endpoint,
                "CreateQueue",
                json!({"QueueName": name, "Attributes": attributes}),
                Duration::from_secs(30),
            )
            .await?;
        reply["QueueUrl"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| error("CreateQueue: no QueueUrl"))
    }
}

impl Default for SqsFeeds {
    fn default() -> Self {
        SqsFeeds::new()
    }
}

#[async_trait]
impl FeedQueues for SqsFeeds {
    async fn receive(
        &self,
        access: &QueueAccess,
        url: &str,
        wait_secs: u32,
    ) -> Result<Vec<QueueMessage>, FeedError> {
        let wait = wait_secs.min(MAX_WAIT_SECS);
        let body = json!({
            "QueueUrl": url,
            "MaxNumberOfMessages": 10,
            "WaitTimeSeconds": wait,
            "AttributeNames": ["SentTimestamp"],
        });
        let timeout = Duration::from_secs(u64::from(wait) + 15);
        let reply = self
            .call(access, url, "ReceiveMessage", body, timeout)
            .await?;
        let messages = reply["Messages"].as_array().cloned().unwrap_or_default();
        Ok(messages
            .iter()
            .filter_map(|m| {
                let sent_at = m["Attributes"]["SentTimestamp"]
                    .as_str()
                    .and_then(|t| t.parse::<i64>().ok())
                    .and_then(DateTime::<Utc>::from_timestamp_millis);
                Some(QueueMessage {
                    message_id: m["MessageId"].as_str()?.to_string(),
                    receipt_handle: m["ReceiptHandle"].as_str()?.to_string(),
                    body: m["Body"].as_str().unwrap_or("").to_string(),
                    sent_at,
                })
            })
            .collect())
    }

    async fn delete(
        &self,
        access: &QueueAccess,
        url: &str,
        receipt_handles: &[String],
    ) -> Result<(), FeedError> {
        for chunk in receipt_handles.chunks(10) {
            let entries: Vec<Value> = chunk
                .iter()
                .enumerate()
                .map(|(i, r)| json!({"Id": i.to_string(), "ReceiptHandle": r}))
                .collect();
            let body = json!({"QueueUrl": url, "Entries": entries});
            let reply = self
                .call(
                    access,
                    url,
                    "DeleteMessageBatch",
                    body,
                    Duration::from_secs(30),
                )
                .await?;
            if let Some(failed) = reply["Failed"].as_array().filter(|f| !f.is_empty()) {
                return Err(error(format!(
                    "DeleteMessageBatch: {} failed: {}",
                    failed.len(),
                    Value::Array(failed.clone())
                )));
            }
        }
        Ok(())
    }
}
