//! Creates the resources the adapters expect, the way `template.yaml` declares them: for tests
//! and local emulation (moto). Deployments get theirs from CloudFormation.

use crate::dynamo::{GSI1, GSI2};
use crate::error::cause;
use crate::sqs::MAX_RECEIVE_COUNT;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType, TableStatus, TimeToLiveSpecification,
};
use aws_sdk_s3::types::{BucketLocationConstraint, CreateBucketConfiguration};
use aws_sdk_sqs::types::QueueAttributeName;
use std::time::Duration;

/// A resource could not be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("provisioning {what}: {cause}")]
pub struct ProvisionError {
    pub what: String,
    pub cause: String,
}

fn failed(what: impl Into<String>, err: &(dyn std::error::Error + 'static)) -> ProvisionError {
    ProvisionError {
        what: what.into(),
        cause: cause(err),
    }
}

fn key(name: &str, key_type: KeyType) -> Result<KeySchemaElement, ProvisionError> {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(key_type)
        .build()
        .map_err(|e| failed("key schema", &e))
}

fn gsi(name: &str, pk: &str, sk: &str) -> Result<GlobalSecondaryIndex, ProvisionError> {
    GlobalSecondaryIndex::builder()
        .index_name(name)
        .key_schema(key(pk, KeyType::Hash)?)
        .key_schema(key(sk, KeyType::Range)?)
        .projection(
            Projection::builder()
                .projection_type(ProjectionType::All)
                .build(),
        )
        .build()
        .map_err(|e| failed("index", &e))
}

/// Creates the single table: `PK`/`SK` strings, `GSI1` on `GSI1PK`/`GSI1SK` and `GSI2` on
/// `GSI2PK`/`GSI2SK` (projection ALL), on-demand billing, TTL on `ttl`. Waits until it is active.
pub async fn create_table(
    client: &aws_sdk_dynamodb::Client,
    name: &str,
) -> Result<(), ProvisionError> {
    let what = format!("table {name}");
    let mut request = client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .key_schema(key("PK", KeyType::Hash)?)
        .key_schema(key("SK", KeyType::Range)?)
        .global_secondary_indexes(gsi(GSI1, "GSI1PK", "GSI1SK")?)
        .global_secondary_indexes(gsi(GSI2, "GSI2PK", "GSI2SK")?);
    for attr in ["PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"] {
        request = request.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(attr)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .map_err(|e| failed(what.clone(), &e))?,
        );
    }
    request.send().await.map_err(|e| failed(what.clone(), &e))?;

    let mut waited = Duration::ZERO;
    loop {
        let out = client
            .describe_table()
            .table_name(name)
            .send()
            .await
            .map_err(|e| failed(what.clone(), &e))?;
        let status = out.table.and_then(|t| t.table_status);
        if status == Some(TableStatus::Active) {
            break;
        }
        if waited > Duration::from_secs(120) {
            return Err(ProvisionError {
                what,
                cause: format!("still {status:?} after two minutes"),
            });
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        waited += Duration::from_millis(500);
    }

    let ttl = TimeToLiveSpecification::builder()
        .attribute_name("ttl")
        .enabled(true)
        .build()
        .map_err(|e| failed(what.clone(), &e))?;
    client
        .update_time_to_live()
        .table_name(name)
        .time_to_live_specification(ttl)
        .send()
        .await
        .map_err(|e| failed(what, &e))?;
    Ok(())
}

/// Creates a bucket in the client's region.
pub async fn create_bucket(client: &aws_sdk_s3::Client, name: &str) -> Result<(), ProvisionError> {
    let mut request = client.create_bucket().bucket(name);
    // us-east-1 is the one region that refuses an explicit location constraint.
    if let Some(region) = client.config().region().map(|r| r.as_ref().to_string()) {
        if region != "us-east-1" {
            request = request.create_bucket_configuration(
                CreateBucketConfiguration::builder()
                    .location_constraint(BucketLocationConstraint::from(region.as_str()))
                    .build(),
            );
        }
    }
    request
        .send()
        .await
        .map_err(|e| failed(format!("bucket {name}"), &e))?;
    Ok(())
}

/// Creates the queue `name` and its dead-letter queue `name-dlq`, with a redrive policy that
/// moves a message there after [`MAX_RECEIVE_COUNT`] receives. Returns both URLs.
pub async fn create_queue_with_dlq(
    client: &aws_sdk_sqs::Client,
    name: &str,
) -> Result<(String, String), ProvisionError> {
    create_queue_with_redrive(client, name, MAX_RECEIVE_COUNT).await
}

/// [`create_queue_with_dlq`] with another receive count before the dead-letter queue.
pub async fn create_queue_with_redrive(
    client: &aws_sdk_sqs::Client,
    name: &str,
    max_receives: u32,
) -> Result<(String, String), ProvisionError> {
    let dlq_name = format!("{name}-dlq");
    let dlq_url = client
        .create_queue()
        .queue_name(&dlq_name)
        .send()
        .await
        .map_err(|e| failed(format!("queue {dlq_name}"), &e))?
        .queue_url
        .ok_or_else(|| ProvisionError {
            what: format!("queue {dlq_name}"),
            cause: "CreateQueue returned no URL".into(),
        })?;
    let dlq_arn = client
        .get_queue_attributes()
        .queue_url(&dlq_url)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await
        .map_err(|e| failed(format!("queue {dlq_name}"), &e))?
        .attributes
        .and_then(|mut a| a.remove(&QueueAttributeName::QueueArn))
        .ok_or_else(|| ProvisionError {
            what: format!("queue {dlq_name}"),
            cause: "no QueueArn attribute".into(),
        })?;
    let redrive = serde_json::json!({
        "deadLetterTargetArn": dlq_arn,
        "maxReceiveCount": max_receives.to_string(),
    });
    let queue_url = client
        .create_queue()
        .queue_name(name)
        .attributes(QueueAttributeName::RedrivePolicy, redrive.to_string())
        .send()
        .await
        .map_err(|e| failed(format!("queue {name}"), &e))?
        .queue_url
        .ok_or_else(|| ProvisionError {
            what: format!("queue {name}"),
            cause: "CreateQueue returned no URL".into(),
        })?;
    Ok((queue_url, dlq_url))
}
