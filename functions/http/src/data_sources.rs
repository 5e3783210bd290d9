//! The data-sources area (`/api/settings/data-sources/`): a telemetry provider's feeds with
//! write-only credentials and their health, and the inbox of messages kept unbooked. An
//! administrator's (every machine in reach).

use crate::kit::crud;
use crate::kit::dto::Data;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{settings_perm as perm, Authorized, Json};
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::data_sources::{
    DataSource, DataSourceInput, DataSourcesService, Feeds, Health, KeptMessage, KeptReason,
    SourceKind, Taken,
};
use vendfleet_domain::nayax::Feed;

mod history;

/// The area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(history::router())
        .routes(routes!(list_sources, create_source))
        .routes(routes!(inbox))
        .routes(routes!(retake))
        .routes(routes!(get_source, update_source, delete_source))
}

/// A data source as shown: its secrets only as whether they are set.
#[derive(Debug, Serialize, ToSchema)]
pub struct DataSourceDto {
    pub id: String,
    pub name: String,
    pub kind: SourceKind,
    pub region: String,
    pub feeds: Feeds,
    pub access_key_id: String,
    /// Whether a secret access key is stored (it is never shown).
    pub has_secret_access_key: bool,
    /// Whether a Nayax encryption key is stored (it is never shown).
    pub has_encryption_key: bool,
    pub encryption_key_version: Option<u32>,
    pub inactive: bool,
    pub health: Health,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

impl DataSourceDto {
    fn of((s, health): (DataSource, Health)) -> DataSourceDto {
        DataSourceDto {
            has_secret_access_key: !s.secret_access_key.is_empty(),
            has_encryption_key: !s.encryption_key.is_empty(),
            id: s.id,
            name: s.name,
            kind: s.kind,
            region: s.region,
            feeds: s.feeds,
            access_key_id: s.access_key_id,
            encryption_key_version: s.encryption_key_version,
            inactive: s.inactive,
            health,
            created_at: s.created_at,
            updated_at: s.updated_at,
            version: s.version,
        }
    }
}

/// The data-source form. The secrets are write-only: left out, the stored ones stay; empty,
/// they are cleared.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DataSourceForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    /// Default `nayax_sqs`.
    #[serde(default)]
    pub kind: Option<SourceKind>,
    /// The queues' AWS region, e.g. `eu-west-1`.
    #[serde(default)]
    #[schema(required = true, max_length = 32)]
    pub region: String,
    #[serde(default)]
    pub feeds: Feeds,
    #[serde(default)]
    #[schema(max_length = 128)]
    pub access_key_id: Option<String>,
    #[serde(default)]
    #[schema(max_length = 256, write_only)]
    pub secret_access_key: Option<String>,
    /// Nayax's encryption key (`enc_key`), when the deliveries are encrypted.
    #[serde(default)]
    #[schema(max_length = 256, write_only)]
    pub encryption_key: Option<String>,
    /// Its version (`enc_ver`); unchanged when absent, cleared with the key.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1000000)]
    pub encryption_key_version: Option<i64>,
    #[serde(default)]
    pub inactive: bool,
    #[serde(default)]
    pub version: Option<u64>,
}

crate::kit::fields::from_fields! {
    DataSourceForm => DataSourceInput {
        name, kind, region, feeds, secret_access_key, encryption_key, encryption_key_version,
        inactive, version;
        or_default: access_key_id
    }
}

/// Every data source with its health, by name.
#[utoipa::path(get, path = "/api/settings/data-sources/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<DataSourceDto>>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_sources(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesList>,
) -> ApiResult<axum::Json<Data<Vec<DataSourceDto>>>> {
    let all = s.app.data_sources.list(a.principal()).await?;
    Ok(axum::Json(Data {
        data: all.into_iter().map(DataSourceDto::of).collect(),
    }))
}

crud::create! {
    /// Creates a data source.
    create_source("/api/settings/data-sources/", "settings") -> DataSourceDto,
    "Data source created successfully",
    |s, a: perm::DataSourcesNew, f: DataSourceForm| {
        let created = s.app.data_sources.create(a.principal(), f.into()).await?;
        DataSourceDto::of((created, Health::default()))
    },
    responses(
        (status = 201, body = crate::kit::dto::MessageData<DataSourceDto>),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody),
    )
}

crud::get! {
    /// One data source with its health.
    get_source("/api/settings/data-sources/{id}/", "settings") -> DataSourceDto,
    |s, a: perm::DataSourcesList, id| DataSourceDto::of(s.app.data_sources.get(a.principal(), &id).await?)
}

crud::update! {
    /// Updates a data source (secrets left out stay as stored).
    update_source("/api/settings/data-sources/{id}/", "settings") -> DataSourceDto,
    "Data source updated successfully",
    |s, a: perm::DataSourcesEdit, id, f: DataSourceForm| {
        let updated = s.app.data_sources.update(a.principal(), &id, f.into()).await?;
        let health = s.app.data_sources.health(&updated.id).await?;
        DataSourceDto::of((updated, health))
    }
}

crud::delete! {
    /// Deletes a data source; its kept messages stay in the inbox.
    delete_source("/api/settings/data-sources/{id}/", "settings"), "Data source deleted successfully",
    |s, a: perm::DataSourcesDelete, id| s.app.data_sources.delete(a.principal(), &id).await?
}

/// Messages kept alike: of one reason, feed, Nayax machine id and product code.
#[derive(Debug, Serialize, ToSchema)]
pub struct InboxGroupDto {
    pub reason: KeptReason,
    pub feed: Feed,
    pub nayax_machine_id: Option<String>,
    pub product_code: Option<String>,
    /// Messages kept.
    pub count: usize,
    /// Deliveries of them (a message delivered again counts again).
    pub deliveries: u64,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
    /// The latest one: its id, the reason in words and its body as it came.
    pub sample_message_id: String,
    pub sample_detail: String,
    pub sample_body: String,
}

/// The inbox: messages kept unbooked, grouped by reason, feed, Nayax machine id and product
/// code, the latest seen first.
#[utoipa::path(get, path = "/api/settings/data-sources/inbox/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<InboxGroupDto>>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn inbox(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesInbox>,
) -> ApiResult<axum::Json<Data<Vec<InboxGroupDto>>>> {
    DataSourcesService::admit(a.principal())?;
    let kept = s.app.data_sources.inbox().await?;
    Ok(axum::Json(Data { data: groups(kept) }))
}

fn groups(kept: Vec<KeptMessage>) -> Vec<InboxGroupDto> {
    type GroupKey = (String, Feed, Option<String>, Option<String>);
    let mut by: BTreeMap<GroupKey, InboxGroupDto> = BTreeMap::new();
    // Latest first: the first of a group is its sample.
    for k in kept {
        let key = (
            format!("{:?}", k.reason),
            k.feed,
            k.nayax_machine_id.clone(),
            k.product_code.clone(),
        );
        let g = by.entry(key).or_insert_with(|| InboxGroupDto {
            reason: k.reason,
            feed: k.feed,
            nayax_machine_id: k.nayax_machine_id.clone(),
            product_code: k.product_code.clone(),
            count: 0,
            deliveries: 0,
            first_seen: k.first_seen,
            last_seen: k.last_seen,
            sample_message_id: k.message_id.clone(),
            sample_detail: k.detail.clone(),
            sample_body: k.body.chars().take(4096).collect(),
        });
        g.count += 1;
        g.deliveries += u64::from(k.times_seen);
        g.first_seen = g.first_seen.min(k.first_seen);
        g.last_seen = g.last_seen.max(k.last_seen);
    }
    let mut out: Vec<InboxGroupDto> = by.into_values().collect();
    out.sort_by_key(|g| std::cmp::Reverse(g.last_seen));
    out
}

/// Which kept messages to take again: those of a Nayax machine id, or all.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RetakeForm {
    #[serde(default)]
    #[schema(max_length = 64)]
    pub nayax_machine_id: Option<String>,
}

/// What became of the messages taken again.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct RetakenDto {
    pub booked: usize,
    pub ignored: usize,
    pub kept: usize,
}

/// Takes kept messages again (after a machine, product or planogram was set up): each is
/// booked exactly once, or kept again with its reason now.
#[utoipa::path(post, path = "/api/settings/data-sources/inbox/retake/", tag = "settings", security(("bearer" = [])), request_body = RetakeForm,
    responses((status = 200, body = Data<RetakenDto>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn retake(
    State(s): State<AppState>,
    a: Authorized<perm::DataSourcesInbox>,
    Json(f): Json<RetakeForm>,
) -> ApiResult<axum::Json<Data<RetakenDto>>> {
    DataSourcesService::admit(a.principal())?;
    let ds = &s.app.data_sources;
    let taken = match f.nayax_machine_id.as_deref().map(str::trim) {
        Some(id) if !id.is_empty() => ds.retake_machine(id).await?,
        _ => ds.retake(&ds.inbox().await?).await?,
    };
    let mut out = RetakenDto::default();
    for t in taken {
        match t {
            Taken::Booked { .. } => out.booked += 1,
            Taken::Ignored => out.ignored += 1,
            Taken::Kept(_) => out.kept += 1,
        }
    }
    Ok(axum::Json(Data { data: out }))
}
