//! Vendfleet's AWS adapters: the item store on DynamoDB, blobs on S3 and the job queue on SQS,
//! plus the configuration that builds them and provisioning helpers for tests and emulators.

mod dynamo;
mod error;
mod mail;
pub mod provision;
mod s3;
mod sales;
mod schedules;
mod sqs;

pub use dynamo::{DynamoItemStore, GSI1, GSI2};
pub use mail::SesMailer;
pub use provision::{
    create_bucket, create_queue_with_dlq, create_queue_with_redrive, create_table, ProvisionError,
};
pub use s3::{content_disposition, S3BlobStore};
pub use sales::DynamoSalesStore;
pub use schedules::EventBridgeSchedules;
pub use sqs::{SqsJobQueue, MAX_RECEIVE_COUNT};

use aws_config::environment::EnvironmentVariableRegionProvider;
use aws_config::meta::region::RegionProviderChain;
use aws_config::{BehaviorVersion, Region, SdkConfig};

pub use aws_config;
pub use aws_sdk_dynamodb;
pub use aws_sdk_s3;
pub use aws_sdk_scheduler;
pub use aws_sdk_sesv2;
pub use aws_sdk_sqs;

/// Region used when the environment names none.
pub const DEFAULT_REGION: &str = "us-east-1";

/// Where the AWS resources of one deployment are, read from `VENDFLEET_*` variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsConfig {
    /// DynamoDB table (`VENDFLEET_TABLE`).
    pub table: String,
    /// S3 bucket for exports and report files (`VENDFLEET_BUCKET`).
    pub bucket: String,
    /// SQS jobs queue URL (`VENDFLEET_QUEUE_URL`).
    pub queue_url: String,
    /// SQS dead-letter queue URL (`VENDFLEET_DLQ_URL`).
    pub dead_letter_queue_url: String,
    /// SQS queue of machine events and its dead-letter queue (`VENDFLEET_EVENTS_QUEUE_URL`,
    /// `VENDFLEET_EVENTS_DLQ_URL`, optional): when set, the webhook hands valid events to the
    /// events worker; else it applies them itself.
    pub events_queue: Option<(String, String)>,
    /// Endpoint override for an emulator such as moto (`VENDFLEET_AWS_ENDPOINT`, optional).
    pub endpoint_url: Option<String>,
    /// Where scheduled tasks become EventBridge schedules: the schedule group, the jobs queue's
    /// ARN and the scheduler's role (`VENDFLEET_SCHEDULE_GROUP`, `VENDFLEET_JOBS_QUEUE_ARN`,
    /// `VENDFLEET_SCHEDULER_ROLE_ARN`; all three, or the scheduler is off).
    pub schedules: Option<(String, String, String)>,
    /// The SES identity scheduled reports are sent from (`VENDFLEET_MAIL_FROM`).
    pub mail_from: String,
    /// The SES configuration set whose event destination publishes bounces and complaints
    /// (`VENDFLEET_SES_CONFIGURATION_SET`, optional).
    pub ses_configuration_set: Option<String>,
    /// Whether reports read the packed fleet items (`VENDFLEET_PACKED_READS=true`; off by
    /// default). They are written by every commit either way, but only a table whose every
    /// vend was written by a version that writes them holds them whole: turn it on for a new
    /// table, never for one with sales written before (their spans would be undercounted).
    pub packed_reads: bool,
}

/// A required configuration variable is missing or empty.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("environment variable {0} is not set")]
pub struct ConfigError(pub &'static str);

impl AwsConfig {
    /// Reads the configuration from the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// Reads the configuration through `var` (the environment, or a map in tests).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let required = |name: &'static str| get(name).ok_or(ConfigError(name));
        Ok(AwsConfig {
            table: required("VENDFLEET_TABLE")?,
            bucket: required("VENDFLEET_BUCKET")?,
            queue_url: required("VENDFLEET_QUEUE_URL")?,
            dead_letter_queue_url: required("VENDFLEET_DLQ_URL")?,
            events_queue: get("VENDFLEET_EVENTS_QUEUE_URL").zip(get("VENDFLEET_EVENTS_DLQ_URL")),
            endpoint_url: get("VENDFLEET_AWS_ENDPOINT"),
            schedules: match (
                get("VENDFLEET_SCHEDULE_GROUP"),
                get("VENDFLEET_JOBS_QUEUE_ARN"),
                get("VENDFLEET_SCHEDULER_ROLE_ARN"),
            ) {
                (Some(g), Some(q), Some(r)) => Some((g, q, r)),
                _ => None,
            },
            mail_from: get("VENDFLEET_MAIL_FROM")
                .unwrap_or_else(|| "Vendfleet <reports@vendfleet.invalid>".into()),
            ses_configuration_set: get("VENDFLEET_SES_CONFIGURATION_SET"),
            packed_reads: get("VENDFLEET_PACKED_READS")
                .is_some_and(|v| matches!(v.trim(), "true" | "1" | "yes")),
        })
    }
}

/// The shared SDK configuration: region from `AWS_REGION` / `AWS_DEFAULT_REGION` (else
/// us-east-1), the default credentials chain, and an endpoint override for an emulator.
pub async fn sdk_config(endpoint_url: Option<&str>) -> SdkConfig {
    // Only the environment: asking the instance metadata service for a region stalls for
    // seconds off EC2, and Lambda always sets AWS_REGION.
    let region = RegionProviderChain::first_try(EnvironmentVariableRegionProvider::new())
        .or_else(Region::from_static(DEFAULT_REGION));
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).region(region);
    if let Some(url) = endpoint_url {
        loader = loader.endpoint_url(url);
    }
    loader.load().await
}

/// A DynamoDB client.
pub fn dynamodb_client(sdk: &SdkConfig) -> aws_sdk_dynamodb::Client {
    aws_sdk_dynamodb::Client::new(sdk)
}

/// An S3 client; path-style addressing when the SDK config points at an emulator, which
/// cannot serve `bucket.host` names.
pub fn s3_client(sdk: &SdkConfig) -> aws_sdk_s3::Client {
    let config = aws_sdk_s3::config::Builder::from(sdk)
        .force_path_style(sdk.endpoint_url().is_some())
        .build();
    aws_sdk_s3::Client::from_conf(config)
}

/// An EventBridge Scheduler client.
pub fn scheduler_client(sdk: &SdkConfig) -> aws_sdk_scheduler::Client {
    aws_sdk_scheduler::Client::new(sdk)
}

/// An SES (v2) client.
pub fn ses_client(sdk: &SdkConfig) -> aws_sdk_sesv2::Client {
    aws_sdk_sesv2::Client::new(sdk)
}

/// An SQS client.
pub fn sqs_client(sdk: &SdkConfig) -> aws_sdk_sqs::Client {
    aws_sdk_sqs::Client::new(sdk)
}

/// The three adapters of one deployment.
#[derive(Debug, Clone)]
pub struct AwsAdapters {
    pub store: DynamoItemStore,
    pub sales: DynamoSalesStore,
    pub blobs: S3BlobStore,
    pub jobs: SqsJobQueue,
    /// The machine-events queue, when configured.
    pub events: Option<SqsJobQueue>,
    /// Scheduled reports' e-mails.
    pub mailer: SesMailer,
    /// Scheduled tasks' schedules, when configured.
    pub schedules: Option<EventBridgeSchedules>,
}

impl AwsAdapters {
    /// Builds the adapters from `config` and an SDK configuration (see [`sdk_config`]).
    pub fn new(config: &AwsConfig, sdk: &SdkConfig) -> Self {
        let store = DynamoItemStore::new(dynamodb_client(sdk), &config.table);
        AwsAdapters {
            sales: match config.packed_reads {
                true => DynamoSalesStore::new(store.clone()),
                false => DynamoSalesStore::new(store.clone()).without_packed_reads(),
            },
            store,
            blobs: S3BlobStore::new(s3_client(sdk), &config.bucket),
            jobs: SqsJobQueue::new(
                sqs_client(sdk),
                &config.queue_url,
                &config.dead_letter_queue_url,
            ),
            events: config
                .events_queue
                .as_ref()
                .map(|(queue, dlq)| SqsJobQueue::new(sqs_client(sdk), queue, dlq)),
            mailer: SesMailer::new(ses_client(sdk), &config.mail_from)
                .with_configuration_set(config.ses_configuration_set.clone()),
            schedules: config.schedules.as_ref().map(|(group, queue, role)| {
                EventBridgeSchedules::new(scheduler_client(sdk), group, queue, role)
            }),
        }
    }

    /// Loads the SDK configuration (with `config.endpoint_url`) and builds the adapters.
    pub async fn connect(config: &AwsConfig) -> Self {
        let sdk = sdk_config(config.endpoint_url.as_deref()).await;
        Self::new(config, &sdk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn config_comes_from_vendfleet_variables() {
        let mut vars = HashMap::from([
            ("VENDFLEET_TABLE", "t"),
            ("VENDFLEET_BUCKET", "b"),
            ("VENDFLEET_QUEUE_URL", "q"),
            ("VENDFLEET_DLQ_URL", "d"),
        ]);
        let read = |vars: &HashMap<&str, &str>| {
            AwsConfig::from_vars(|n| vars.get(n).map(|v| v.to_string()))
        };
        assert_eq!(
            read(&vars),
            Ok(AwsConfig {
                table: "t".into(),
                bucket: "b".into(),
                queue_url: "q".into(),
                dead_letter_queue_url: "d".into(),
                events_queue: None,
                endpoint_url: None,
                schedules: None,
                mail_from: "Vendfleet <reports@vendfleet.invalid>".into(),
                ses_configuration_set: None,
                packed_reads: false,
            })
        );
        vars.insert("VENDFLEET_PACKED_READS", "true");
        assert!(read(&vars).unwrap().packed_reads);
        vars.insert("VENDFLEET_PACKED_READS", "no");
        assert!(!read(&vars).unwrap().packed_reads);
        vars.insert("VENDFLEET_SCHEDULE_GROUP", "g");
        vars.insert("VENDFLEET_JOBS_QUEUE_ARN", "arn:q");
        assert_eq!(read(&vars).unwrap().schedules, None, "all three or none");
        vars.insert("VENDFLEET_SCHEDULER_ROLE_ARN", "arn:r");
        assert_eq!(
            read(&vars).unwrap().schedules,
            Some(("g".into(), "arn:q".into(), "arn:r".into()))
        );
        vars.insert("VENDFLEET_AWS_ENDPOINT", "http://127.0.0.1:5000");
        assert_eq!(
            read(&vars).unwrap().endpoint_url.as_deref(),
            Some("http://127.0.0.1:5000")
        );
        vars.insert("VENDFLEET_BUCKET", " ");
        assert_eq!(read(&vars), Err(ConfigError("VENDFLEET_BUCKET")));
    }
}
