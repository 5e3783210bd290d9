//! A message from a source's feed, what became of it, and the messages kept unbooked.

use crate::ports::Key;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use vendfleet_domain::nayax::Feed;

/// One message as a feed delivered it.
#[derive(Debug, Clone, Copy)]
pub struct Incoming<'a> {
    /// The data source it came from.
    pub source_id: &'a str,
    pub feed: Feed,
    /// The queue's message id (SQS `MessageId`): names a kept message and an alert.
    pub message_id: &'a str,
    pub body: &'a str,
    /// When the provider sent it (SQS `SentTimestamp`).
    pub sent_at: DateTime<Utc>,
}

/// One feed's queue of a source, as read: the queue port, the source, the feed, the queue's URL
/// and the long poll's wait.
#[derive(Clone, Copy)]
pub struct FeedReader<'a> {
    pub queues: &'a dyn crate::ports::FeedQueues,
    pub source: &'a DataSource,
    pub feed: Feed,
    pub url: &'a str,
    /// 0–20 seconds.
    pub wait_secs: u32,
}

/// Why a message is kept instead of booked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum KeptReason {
    /// No active machine has the message's Nayax machine id (booked once one is linked).
    UnknownMachine,
    /// A product line names neither a product (by catalogue number) nor a selection of the
    /// machine's planogram (booked when the message is taken again).
    UnknownProduct,
    /// A void or refund: kept for review (reversals of booked sales are not booked yet).
    Reversal,
    /// It cannot be read (bad JSON, missing or malformed fields, an unreadable audit file).
    Unreadable,
}

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken {
    /// Its events were booked (`stored`) or had been already (`already`: a redelivery).
    Booked { stored: usize, already: usize },
    /// A cancelled or declined transaction: it never counts.
    Ignored,
    /// Kept in the inbox.
    Kept(KeptReason),
}

/// A message kept unbooked, with why and what it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptMessage {
    pub source_id: String,
    pub feed: Feed,
    pub message_id: String,
    pub reason: KeptReason,
    /// The reason in words (the unreadable field, the unknown product code …).
    pub detail: String,
    /// The Nayax machine id it names, when it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nayax_machine_id: Option<String>,
    /// The product code (catalogue number, else selection) it could not match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_code: Option<String>,
    pub body: String,
    pub sent_at: DateTime<Utc>,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
    /// How many times it was delivered or taken again.
    pub times_seen: u32,
}

impl KeptMessage {
    /// The inbox's partition.
    pub const INBOX: &'static str = "DSKEPT";

    /// Its key: one per message id.
    pub fn key_of(message_id: &str) -> Key {
        Key::new(Self::INBOX, message_id)
    }

    /// GSI1 partition of the kept messages of a Nayax machine id.
    pub fn machine_partition(nayax_machine_id: &str) -> String {
        format!("DSKEPTMACHINE#{nayax_machine_id}")
    }
}

/// Version of the stored shape of data sources.
pub const SCHEMA: u32 = 1;

/// Which provider's feeds a source reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// Nayax Core's deliveries to Amazon SQS queues (transactions, events, DEX audits).
    #[default]
    NayaxSqs,
}

/// A source's queues, one a feed (their URLs); a feed without a queue is not read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Feeds {
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(max_length = 512))]
    pub transactions: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(max_length = 512))]
    pub events: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(max_length = 512))]
    pub dex: Option<String>,
}

impl Feeds {
    /// The feeds with a queue, and its URL.
    pub fn queues(&self) -> Vec<(Feed, &str)> {
        [
            (Feed::Transactions, &self.transactions),
            (Feed::Events, &self.events),
            (Feed::Dex, &self.dex),
        ]
        .into_iter()
        .filter_map(|(f, url)| url.as_deref().map(|u| (f, u)))
        .collect()
    }
}

crate::entity! {
    /// A telemetry provider's feeds of the operator's machines, and the credentials to read them.
    /// The secrets (`secret_access_key`, `encryption_key`) never leave the server.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct DataSource {
        pub kind: SourceKind,
        /// The queues' AWS region (e.g. `eu-west-1`).
        pub region: String,
        #[serde(default)]
        pub feeds: Feeds,
        /// The access key the embedded server reads the queues with (none on AWS: the queues
        /// are the stack's own and trigger its function).
        #[serde(default)]
        pub access_key_id: String,
        #[serde(default)]
        pub secret_access_key: String,
        /// Nayax's message encryption key (`enc_key`), when encryption is on.
        #[serde(default)]
        pub encryption_key: String,
        /// Its version (`enc_ver`).
        #[serde(default)]
        pub encryption_key_version: Option<u32>,
        /// Not read while inactive.
        #[serde(default)]
        pub inactive: bool,
    }
    record "DATASOURCE", "Data source";
}

/// The data-source form. Secrets are write-only: absent keeps the stored one, empty clears it
/// (and the encryption key's version with the key); an absent version is unchanged.
#[derive(Debug, Clone, Default)]
pub struct DataSourceInput {
    pub name: String,
    pub kind: Option<SourceKind>,
    pub region: String,
    pub feeds: Feeds,
    pub access_key_id: String,
    pub secret_access_key: Option<String>,
    pub encryption_key: Option<String>,
    pub encryption_key_version: Option<i64>,
    pub inactive: bool,
    pub version: Option<u64>,
}

/// How a source fares: its last message and error, today's counts, its oldest kept message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = DataSourceHealth))]
pub struct Health {
    pub last_message_at: Option<DateTime<Utc>>,
    /// Messages booked today (the operator's day), redeliveries included.
    pub booked_today: i64,
    /// Messages kept in the inbox today.
    pub kept_today: i64,
    /// Cancelled and declined transactions today (never counted).
    pub ignored_today: i64,
    /// Reads or bookings that failed today (the message stays on its queue).
    pub failed_today: i64,
    /// When the oldest message still kept unbooked was sent.
    pub oldest_unbooked: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
    pub last_error_at: Option<DateTime<Utc>>,
}

impl Health {
    /// The partition of a source's health: its `STATE` and one counter item a day.
    pub fn partition(source_id: &str) -> String {
        format!("DSHEALTH#{source_id}")
    }

    pub fn state_key(source_id: &str) -> Key {
        Key::new(Self::partition(source_id), "STATE")
    }

    pub fn day_key(source_id: &str, day: chrono::NaiveDate) -> Key {
        Key::new(Self::partition(source_id), format!("DAY#{day}"))
    }
}
