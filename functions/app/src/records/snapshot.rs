//! Catalogue snapshots: the decoded records of the kinds every report reads whole (machines,
//! locations, clients, products and the two kinds of tags), kept in memory between requests.
//!
//! A snapshot is trusted only as long as one version item says nothing changed: every write
//! that touches a record of these kinds bumps `CATALOGUE/VERSION` in the same transaction. The
//! bump is not left to the services: [`SnapshotStore`] wraps the item store the application
//! runs on and adds it to every write that needs it (`put`, `delete`, `add`, `transact`,
//! `batch_put`), so no write path can forget it. A stale snapshot would be a security bug: the
//! machine scope is computed from these records.
//!
//! Listing a kind reads an index (on DynamoDB, a global secondary index, which lags the table
//! by up to about a second: [`ItemStore::index_lag`]). A snapshot is therefore only reused once
//! it was loaded that long after its version was first seen; before that every use reloads it.

use super::keys::{is_snapshot_key, version_key};
use super::record::Record;
use super::touched::{Counted, Touched};
use crate::ports::{Condition, Item, ItemStore, Key, Page, Query, StoreError, Write};
use async_trait::async_trait;
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The writes one change of the application may carry: the store's limit less the version
/// bump a change of catalogue records brings.
pub const MAX_CHANGE_WRITES: usize = crate::ports::MAX_TRANSACTION_WRITES - 1;

const VERSION_ATTR: &str = "v";

fn changes_snapshot(write: &Write) -> bool {
    !matches!(write, Write::Check { .. }) && is_snapshot_key(write.key())
}

fn bump() -> Write {
    Write::Add {
        key: version_key(),
        attr: VERSION_ATTR.into(),
        delta: 1,
    }
}

/// The writes, with the version bump when they change a catalogue record.
pub fn with_bump(mut writes: Vec<Write>) -> Vec<Write> {
    if writes.iter().any(changes_snapshot) {
        writes.push(bump());
    }
    writes
}

/// Every record of a kind, and an index by id (built once per snapshot, not per request).
#[derive(Debug)]
pub struct Shared<T> {
    records: Vec<T>,
    by_id: foldhash::HashMap<String, usize>,
}

impl<T: Record> Shared<T> {
    pub fn new(records: Vec<T>) -> Self {
        let by_id = records
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id().to_string(), i))
            .collect();
        Shared { records, by_id }
    }

    /// The record of `id`.
    pub fn get(&self, id: &str) -> Option<&T> {
        self.by_id.get(id).map(|&i| &self.records[i])
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.records
    }
}

struct Entry {
    version: u64,
    loaded: Instant,
    records: Arc<dyn Any + Send + Sync>,
    /// The count of catalogue writes ([`Counted::Catalogue`]) when the entry was last found
    /// current: while the count stands, it is current without reading the version.
    checked: Option<u64>,
}

/// The snapshots of one store, by kind.
pub struct Snapshots {
    /// Where this process is the store's sole writer: its writes, counted (see `touched.rs`).
    touched: Option<Arc<Touched>>,
    /// How long after a version is first seen its listing may still lag.
    settle: Duration,
    entries: Mutex<HashMap<&'static str, Entry>>,
    /// When this process first saw each version.
    seen: Mutex<HashMap<u64, Instant>>,
}

impl Snapshots {
    /// Every record of `T`: the snapshot when the stored version is still its own and it had
    /// settled, else `load`'s answer (kept for the next call).
    pub async fn all<T: Record, F>(
        &self,
        store: &dyn ItemStore,
        load: F,
    ) -> Result<Arc<Shared<T>>, crate::error::AppError>
    where
        F: AsyncFnOnce() -> Result<Vec<T>, crate::error::AppError>,
    {
        // Counted before the version is read: a write stored after moves the count.
        let count = self.touched.as_ref().map(|t| t.count(Counted::Catalogue));
        if count.is_some() {
            let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(e) = entries.get(T::KIND).filter(|e| e.checked == count) {
                if let Ok(records) = e.records.clone().downcast::<Shared<T>>() {
                    return Ok(records);
                }
            }
        }
        let version = match store.get(&version_key()).await? {
            Some(item) => item
                .attrs
                .get(VERSION_ATTR)
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(0),
            None => 0,
        };
        let now = Instant::now();
        let first_seen = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen.len() > 64 {
                seen.retain(|v, _| *v >= version);
            }
            *seen.entry(version).or_insert(now)
        };
        {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(e) = entries.get_mut(T::KIND) {
                if e.version == version && e.loaded >= first_seen + self.settle {
                    if let Ok(records) = e.records.clone().downcast::<Shared<T>>() {
                        e.checked = count;
                        return Ok(records);
                    }
                }
            }
        }
        let records = Arc::new(Shared::new(load().await?));
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.insert(
            T::KIND,
            Entry {
                version,
                loaded: now,
                records: records.clone(),
                // Current now only where a listing cannot lag its version.
                checked: count.filter(|_| self.settle.is_zero()),
            },
        );
        Ok(records)
    }
}

/// The item store the application runs on: the adapter's, with the catalogue version bumped by
/// every write that changes a catalogue record, and the snapshots that version guards.
pub struct SnapshotStore {
    inner: Arc<dyn ItemStore>,
    pub(super) snapshots: Snapshots,
    /// Marks the machines each write touches (see `touched.rs`), where anyone reads the marks.
    touched: Option<Arc<Touched>>,
}

impl SnapshotStore {
    pub fn new(inner: Arc<dyn ItemStore>, touched: Option<Arc<Touched>>) -> Self {
        let snapshots = Snapshots {
            touched: touched.clone(),
            settle: inner.index_lag(),
            entries: Mutex::default(),
            seen: Mutex::default(),
        };
        SnapshotStore {
            inner,
            snapshots,
            touched,
        }
    }

    /// This process's writes, marked and counted, where it is the store's sole writer.
    pub fn touched(&self) -> Option<&Arc<Touched>> {
        self.touched.as_ref()
    }

    /// Applies writes with their bump; a condition failure keeps the index the caller gave.
    async fn bumped(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let keys: Vec<Key> = writes.iter().map(|w| w.key().clone()).collect();
        let inner = self.inner.clone();
        self.marked(keys, async move { inner.transact(with_bump(writes)).await })
            .await
    }

    /// Runs a write that touches `keys`, then marks their machines, in a task of its own: a
    /// caller that goes away cannot leave a stored write unmarked.
    async fn marked<T: Send + 'static>(
        &self,
        keys: Vec<Key>,
        write: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let Some(touched) = self
            .touched
            .clone()
            .filter(|touched| keys.iter().any(|key| touched.marks(key)))
        else {
            return write.await;
        };
        tokio::spawn(async move {
            let out = write.await;
            touched.mark(&keys);
            out
        })
        .await
        .map_err(|e| StoreError::Backend(format!("a write's task failed: {e}")))?
    }
}

#[async_trait]
impl ItemStore for SnapshotStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.inner.get(key).await
    }

    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<(), StoreError> {
        if is_snapshot_key(&item.key) {
            return self.bumped(vec![Write::Put { item, condition }]).await;
        }
        let inner = self.inner.clone();
        let keys = vec![item.key.clone()];
        self.marked(keys, async move { inner.put(item, condition).await })
            .await
    }

    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<(), StoreError> {
        if is_snapshot_key(key) {
            let key = key.clone();
            return self.bumped(vec![Write::Delete { key, condition }]).await;
        }
        let (inner, key) = (self.inner.clone(), key.clone());
        self.marked(vec![key.clone()], async move {
            inner.delete(&key, condition).await
        })
        .await
    }

    async fn query(&self, query: Query) -> Result<Page, StoreError> {
        self.inner.query(query).await
    }

    async fn add(&self, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError> {
        if !is_snapshot_key(key) {
            let (inner, key, attr) = (self.inner.clone(), key.clone(), attr.to_string());
            return self
                .marked(vec![key.clone()], async move {
                    inner.add(&key, &attr, delta).await
                })
                .await;
        }
        let add = Write::Add {
            key: key.clone(),
            attr: attr.into(),
            delta,
        };
        self.bumped(vec![add]).await?;
        let item = self.inner.get(key).await?;
        Ok(item
            .and_then(|i| i.attrs.get(attr).and_then(serde_json::Value::as_i64))
            .unwrap_or(delta))
    }

    async fn transact(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        self.bumped(writes).await
    }

    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, StoreError> {
        self.inner.batch_get(keys).await
    }

    async fn batch_put(&self, items: Vec<Item>) -> Result<(), StoreError> {
        let (catalogue, rest): (Vec<Item>, Vec<Item>) =
            items.into_iter().partition(|i| is_snapshot_key(&i.key));
        if !rest.is_empty() {
            let keys = rest.iter().map(|i| i.key.clone()).collect();
            let inner = self.inner.clone();
            self.marked(keys, async move { inner.batch_put(rest).await })
                .await?;
        }
        let puts: Vec<Write> = catalogue
            .into_iter()
            .map(|item| Write::Put {
                item,
                condition: None,
            })
            .collect();
        for chunk in puts.chunks(MAX_CHANGE_WRITES) {
            self.bumped(chunk.to_vec()).await?;
        }
        Ok(())
    }

    fn index_lag(&self) -> Duration {
        self.inner.index_lag()
    }
}
