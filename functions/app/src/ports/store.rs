//! The item store port, shaped like DynamoDB so both adapters are natural.
//!
//! Items are addressed by partition key (`pk`) and sort key (`sk`), may carry up to two
//! secondary index keys, a version for optimistic concurrency, an optional expiry time and a
//! JSON object of attributes. Attribute names are the caller's; names starting with `_` and the
//! names `PK`, `SK`, `GSI1PK`, `GSI1SK`, `GSI2PK`, `GSI2SK`, `ttl` are reserved for the adapters.

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Most writes one transaction may hold (DynamoDB's limit).
pub const MAX_TRANSACTION_WRITES: usize = 100;
/// Most keys one batch get or put may hold.
pub const MAX_BATCH: usize = 100;

/// The primary key of an item.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

impl Key {
    /// A key from its two parts.
    pub fn new(pk: impl Into<String>, sk: impl Into<String>) -> Self {
        Key {
            pk: pk.into(),
            sk: sk.into(),
        }
    }
}

/// A secondary index of the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Index {
    /// Query by the primary key.
    Primary,
    /// First secondary index (`GSI1PK`, `GSI1SK`).
    Gsi1,
    /// Second secondary index (`GSI2PK`, `GSI2SK`).
    Gsi2,
}

/// One stored item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub key: Key,
    /// Keys of the item in the first secondary index, if it is indexed there.
    pub gsi1: Option<Key>,
    /// Keys of the item in the second secondary index, if it is indexed there.
    pub gsi2: Option<Key>,
    /// Optimistic-concurrency version; a put stores it as given.
    pub version: u64,
    /// Expiry, epoch seconds. Expired items may still be returned until the store removes them.
    pub ttl: Option<i64>,
    /// The attributes: always a JSON object.
    pub attrs: Map<String, Value>,
}

impl Item {
    /// An item with no index keys, version 1 and the given attributes.
    pub fn new(key: Key, attrs: Map<String, Value>) -> Self {
        Item {
            key,
            gsi1: None,
            gsi2: None,
            version: 1,
            ttl: None,
            attrs,
        }
    }

    /// Builds an item from a serialisable value (which must serialise to a JSON object).
    pub fn from_value<T: Serialize>(key: Key, value: &T) -> Result<Self, StoreError> {
        match serde_json::to_value(value).map_err(|e| StoreError::Codec(e.to_string()))? {
            Value::Object(attrs) => Ok(Item::new(key, attrs)),
            other => Err(StoreError::Codec(format!(
                "item attributes must be an object, got {other}"
            ))),
        }
    }

    /// Deserialises the attributes into `T`.
    pub fn to_value<T: for<'de> Deserialize<'de>>(&self) -> Result<T, StoreError> {
        serde_json::from_value(Value::Object(self.attrs.clone()))
            .map_err(|e| StoreError::Codec(format!("{}/{}: {e}", self.key.pk, self.key.sk)))
    }

    /// Sets the first index keys.
    pub fn with_gsi1(mut self, pk: impl Into<String>, sk: impl Into<String>) -> Self {
        self.gsi1 = Some(Key::new(pk, sk));
        self
    }

    /// Sets the second index keys.
    pub fn with_gsi2(mut self, pk: impl Into<String>, sk: impl Into<String>) -> Self {
        self.gsi2 = Some(Key::new(pk, sk));
        self
    }

    /// Sets the version.
    pub fn with_version(mut self, version: u64) -> Self {
        self.version = version;
        self
    }

    /// Sets the expiry (epoch seconds).
    pub fn with_ttl(mut self, ttl: i64) -> Self {
        self.ttl = Some(ttl);
        self
    }
}

/// A condition on the current state of an item, checked atomically with a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// No item exists at the key.
    NotExists,
    /// An item exists at the key.
    Exists,
    /// An item exists and its version equals this one.
    VersionIs(u64),
}

/// How the sort key (of the queried index) is restricted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SortKey {
    /// Every item of the partition.
    #[default]
    All,
    /// Sort key equals.
    Eq(String),
    /// Sort key starts with.
    BeginsWith(String),
    /// Sort key between the two, both inclusive.
    Between(String, String),
    /// Sort key ≥.
    Gte(String),
    /// Sort key ≤.
    Lte(String),
}

/// A query of one partition of the table or of an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub index: Index,
    pub pk: String,
    pub sk: SortKey,
    /// Ascending sort-key order when true.
    pub forward: bool,
    /// Most items in one page (the adapter may return fewer, and a cursor).
    pub limit: Option<usize>,
    /// Where the previous page stopped; opaque.
    pub cursor: Option<String>,
}

impl Query {
    /// All items of partition `pk` of `index`, ascending.
    pub fn partition(index: Index, pk: impl Into<String>) -> Self {
        Query {
            index,
            pk: pk.into(),
            sk: SortKey::All,
            forward: true,
            limit: None,
            cursor: None,
        }
    }

    /// Restricts the sort key.
    pub fn sk(mut self, sk: SortKey) -> Self {
        self.sk = sk;
        self
    }

    /// Descending order.
    pub fn backward(mut self) -> Self {
        self.forward = false;
        self
    }

    /// Page size.
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Continues after `cursor`.
    pub fn after(mut self, cursor: Option<String>) -> Self {
        self.cursor = cursor;
        self
    }
}

/// One page of a query.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub items: Vec<Item>,
    /// Present when more items may follow.
    pub cursor: Option<String>,
}

/// One write of a transaction.
#[derive(Debug, Clone, PartialEq)]
pub enum Write {
    /// Put an item, optionally on a condition.
    Put {
        item: Item,
        condition: Option<Condition>,
    },
    /// Delete an item, optionally on a condition. Deleting a missing item without a condition succeeds.
    Delete {
        key: Key,
        condition: Option<Condition>,
    },
    /// Check a condition without writing.
    Check { key: Key, condition: Condition },
    /// Add `delta` to the numeric attribute `attr`, creating the item (version 1, no index keys)
    /// or the attribute (from 0) when missing.
    Add { key: Key, attr: String, delta: i64 },
}

/// Why a store call failed.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum StoreError {
    /// A condition did not hold. For transactions, `index` is the first failing write.
    #[error("condition failed (write {index})")]
    ConditionFailed { index: usize },
    /// The request is malformed (too many writes, bad cursor, two writes on one key …).
    #[error("invalid store request: {0}")]
    Invalid(String),
    /// Attributes could not be (de)serialised.
    #[error("item codec: {0}")]
    Codec(String),
    /// The backend failed.
    #[error("store backend: {0}")]
    Backend(String),
}

/// The item store. `Any`, so the records layer can tell its own snapshot-keeping store from an
/// adapter without the ports knowing that layer.
#[async_trait]
pub trait ItemStore: std::any::Any + Send + Sync {
    /// Reads one item.
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError>;
    /// Writes one item, if the condition holds.
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<(), StoreError>;
    /// Deletes one item, if the condition holds.
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<(), StoreError>;
    /// Queries one partition of the table or an index.
    async fn query(&self, query: Query) -> Result<Page, StoreError>;
    /// Adds `delta` to a numeric attribute atomically and returns the new value.
    async fn add(&self, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError>;
    /// Applies all writes or none (at most [`MAX_TRANSACTION_WRITES`], each key at most once).
    async fn transact(&self, writes: Vec<Write>) -> Result<(), StoreError>;
    /// Reads many items (at most [`MAX_BATCH`] keys); missing ones are left out; order not kept.
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, StoreError>;
    /// Writes many items unconditionally (at most [`MAX_BATCH`]); not atomic as a whole.
    async fn batch_put(&self, items: Vec<Item>) -> Result<(), StoreError>;
    /// How long a secondary index may lag the table after a write (zero where an index is
    /// written with its table).
    fn index_lag(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// Reads every page of a query.
pub async fn query_all(store: &dyn ItemStore, mut query: Query) -> Result<Vec<Item>, StoreError> {
    let mut items = Vec::new();
    loop {
        let page = store.query(query.clone()).await?;
        items.extend(page.items);
        match page.cursor {
            Some(c) => query.cursor = Some(c),
            None => return Ok(items),
        }
    }
}

impl Write {
    /// The key this write touches.
    pub fn key(&self) -> &Key {
        match self {
            Write::Put { item, .. } => &item.key,
            Write::Delete { key, .. } | Write::Check { key, .. } | Write::Add { key, .. } => key,
        }
    }
}

/// Checks the shape rules every adapter enforces before running a transaction:
/// at most [`MAX_TRANSACTION_WRITES`] writes and each key at most once.
pub fn check_transaction(writes: &[Write]) -> Result<(), StoreError> {
    if writes.len() > MAX_TRANSACTION_WRITES {
        return Err(StoreError::Invalid(format!(
            "a transaction holds at most {MAX_TRANSACTION_WRITES} writes, got {}",
            writes.len()
        )));
    }
    let mut seen = std::collections::HashSet::with_capacity(writes.len());
    for w in writes {
        if !seen.insert(w.key()) {
            return Err(StoreError::Invalid(format!(
                "a transaction touches {}/{} twice",
                w.key().pk,
                w.key().sk
            )));
        }
    }
    Ok(())
}

/// Checks a batch size against [`MAX_BATCH`].
pub fn check_batch(len: usize) -> Result<(), StoreError> {
    if len > MAX_BATCH {
        Err(StoreError::Invalid(format!(
            "a batch holds at most {MAX_BATCH} items, got {len}"
        )))
    } else {
        Ok(())
    }
}
