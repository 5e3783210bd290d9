//! The data-sources service: the sources (an administrator's), their health; intake of their
//! messages and the inbox in `service/intake.rs`.

use super::model::{DataSource, DataSourceInput, Feeds, Health, SourceKind, SCHEMA};
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::events::EventsService;
use crate::machines::MachinesService;
use crate::ports::ItemStore;
use crate::products::ProductsService;
use crate::records::Records;
use std::sync::Arc;
use vendfleet_domain::nayax::Feed;
use vendfleet_domain::{validation, FieldErrors, MachineScope};

mod import;
mod import_job;
mod intake;
mod poll;

pub use import::HistoryMappingInput;

/// The service.
#[derive(Clone)]
pub struct DataSourcesService {
    pub(super) store: Arc<dyn ItemStore>,
    pub(super) sources: Records<DataSource>,
    pub(super) events: EventsService,
    pub(super) machines: MachinesService,
    pub(super) products: ProductsService,
    pub(super) calendar: crate::Calendar,
    /// History imports' files and previews.
    pub(super) blobs: Arc<dyn crate::ports::BlobStore>,
    /// The background jobs' queue (an import's preview and booking).
    pub(super) jobs: Arc<dyn crate::ports::JobQueue>,
}

/// Most characters of a queue URL.
const URL_CHARS: usize = 512;

impl DataSourcesService {
    pub fn new(
        store: Arc<dyn ItemStore>,
        events: EventsService,
        machines: MachinesService,
        products: ProductsService,
        calendar: crate::Calendar,
        blobs: Arc<dyn crate::ports::BlobStore>,
        jobs: Arc<dyn crate::ports::JobQueue>,
    ) -> Self {
        DataSourcesService {
            sources: Records::new(store.clone()),
            store,
            events,
            machines,
            products,
            calendar,
            blobs,
            jobs,
        }
    }

    /// Data sources reach every machine: only a user who sees every machine may see or change
    /// them, or their inbox.
    pub fn admit(p: &Principal) -> AppResult<()> {
        match p.machine_scope() {
            MachineScope::All => Ok(()),
            _ => Err(AppError::Forbidden(
                "Data sources are an administrator's: they feed every machine.".into(),
            )),
        }
    }

    /// Every source, by name (for the poller: the active ones' queues).
    pub async fn sources(&self) -> AppResult<Vec<DataSource>> {
        let mut all = self.sources.all().await?;
        all.sort_by_key(|a| a.name.to_lowercase());
        Ok(all)
    }

    /// The active source and feed whose queue is named `queue` (its URL's last segment): how
    /// the AWS function, triggered by a queue's ARN, knows what it reads.
    pub async fn feed_of_queue(&self, queue: &str) -> AppResult<Option<(String, Feed)>> {
        Ok(self
            .sources()
            .await?
            .into_iter()
            .filter(|s| !s.inactive)
            .find_map(|s| {
                let feed = s
                    .feeds
                    .queues()
                    .into_iter()
                    .find(|(_, url)| url.trim_end_matches('/').rsplit('/').next() == Some(queue))
                    .map(|(feed, _)| feed);
                feed.map(|feed| (s.id.clone(), feed))
            }))
    }

    /// Every source, by name, each with its health.
    pub async fn list(&self, p: &Principal) -> AppResult<Vec<(DataSource, Health)>> {
        Self::admit(p)?;
        let mut out = Vec::new();
        for s in self.sources().await? {
            let health = self.health(&s.id).await?;
            out.push((s, health));
        }
        Ok(out)
    }

    /// One source with its health.
    pub async fn get(&self, p: &Principal, id: &str) -> AppResult<(DataSource, Health)> {
        Self::admit(p)?;
        let s = self.sources.get_or_404(id).await?;
        let health = self.health(id).await?;
        Ok((s, health))
    }

    fn apply_form(input: DataSourceInput, s: &mut DataSource) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        s.name = validation::required_text(&mut errors, "name", &input.name, 150);
        if let Some(kind) = input.kind {
            s.kind = kind;
        }
        let region = input.region.trim();
        if region.is_empty()
            || region.len() > 32
            || !region
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            errors.add("region", "Give the queues' AWS region, such as eu-west-1.");
        }
        s.region = region.to_string();
        let url = |errors: &mut FieldErrors, field: &str, value: &Option<String>| {
            let value = value.as_deref().map(str::trim).filter(|v| !v.is_empty())?;
            let ok = (value.starts_with("https://") || value.starts_with("http://"))
                && value.chars().count() <= URL_CHARS
                && !value.chars().any(char::is_whitespace);
            if !ok {
                errors.add(
                    field,
                    "Give the queue's URL (https://sqs.<region>.amazonaws.com/<account>/<queue>).",
                );
            }
            Some(value.to_string())
        };
        s.feeds = Feeds {
            transactions: url(&mut errors, "feeds.transactions", &input.feeds.transactions),
            events: url(&mut errors, "feeds.events", &input.feeds.events),
            dex: url(&mut errors, "feeds.dex", &input.feeds.dex),
        };
        if s.feeds.queues().is_empty() {
            errors.add("feeds", "Give at least one feed's queue.");
        }
        s.access_key_id =
            validation::optional_text(&mut errors, "access_key_id", &input.access_key_id, 128);
        if let Some(secret) = &input.secret_access_key {
            s.secret_access_key =
                validation::optional_text(&mut errors, "secret_access_key", secret, 256);
        }
        if let Some(key) = &input.encryption_key {
            s.encryption_key = validation::optional_text(&mut errors, "encryption_key", key, 256);
        }
        match input.encryption_key_version {
            None => {}
            Some(v) if (1..=1_000_000).contains(&v) => s.encryption_key_version = Some(v as u32),
            Some(_) => errors.add("encryption_key_version", "Must be between 1 and 1000000."),
        }
        if s.encryption_key.is_empty() {
            s.encryption_key_version = None;
        } else if s.encryption_key_version.is_none() {
            errors.add(
                "encryption_key_version",
                "Give the key's version (enc_ver), as Nayax shows it.",
            );
        }
        s.inactive = input.inactive;
        errors.into_result().map_err(Into::into)
    }

    /// Creates a source.
    pub async fn create(&self, p: &Principal, input: DataSourceInput) -> AppResult<DataSource> {
        Self::admit(p)?;
        let now = self.calendar.now();
        let mut s = DataSource {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            kind: SourceKind::NayaxSqs,
            region: String::new(),
            feeds: Feeds::default(),
            access_key_id: String::new(),
            secret_access_key: String::new(),
            encryption_key: String::new(),
            encryption_key_version: None,
            inactive: false,
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        Self::apply_form(input, &mut s)?;
        self.sources.insert(&s).await?;
        Ok(s)
    }

    /// Updates a source (secrets left out of the form stay as stored).
    pub async fn update(
        &self,
        p: &Principal,
        id: &str,
        input: DataSourceInput,
    ) -> AppResult<DataSource> {
        Self::admit(p)?;
        let current = self.sources.get_or_404(id).await?;
        let expected = input.version;
        self.sources
            .update(current, expected, self.calendar.now(), async |next| {
                Self::apply_form(input, next)
            })
            .await
    }

    /// Deletes a source (its kept messages stay in the inbox).
    pub async fn delete(&self, p: &Principal, id: &str) -> AppResult<()> {
        Self::admit(p)?;
        let s = self.sources.get_or_404(id).await?;
        self.sources
            .apply(Records::<DataSource>::delete_writes(&s), &s)
            .await
    }
}
