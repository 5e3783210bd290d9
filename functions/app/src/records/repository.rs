//! [`Records`]: the repository of one kind of record.

use super::keys::SNAPSHOT_KINDS;
use super::record::{check_version, Record, Stamped, MAX_ID_BYTES};
use super::snapshot::{Shared, SnapshotStore};
use crate::error::{AppError, AppResult};
use crate::ports::{query_all, Condition, Index, Item, ItemStore, Key, Query, StoreError, Write};
use std::marker::PhantomData;
use std::sync::Arc;
use vendfleet_domain::FieldErrors;

/// The repository of `T`.
pub struct Records<T> {
    store: Arc<dyn ItemStore>,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for Records<T> {
    fn clone(&self) -> Self {
        Records {
            store: self.store.clone(),
            _t: PhantomData,
        }
    }
}

fn unique_key(kind: &str, value: &str) -> Key {
    Key::new(format!("{kind}NAME#{}", value.to_lowercase()), "UNIQUE")
}

impl<T: Record> Records<T> {
    /// A repository on `store`.
    pub fn new(store: Arc<dyn ItemStore>) -> Self {
        Records {
            store,
            _t: PhantomData,
        }
    }

    /// The key of record `id`.
    pub fn key(id: &str) -> Key {
        Key::new(format!("{}#{id}", T::KIND), T::KIND)
    }

    fn to_item(record: &T) -> AppResult<Item> {
        let mut item = Item::from_value(Self::key(record.id()), record)?
            .with_gsi1(
                format!("{}S", T::KIND),
                format!("{}#{}", T::KIND, record.id()),
            )
            .with_version(record.version());
        if let Some((pk, sk)) = record.relation() {
            item = item.with_gsi2(pk, sk);
        }
        Ok(item)
    }

    fn from_item(item: &Item) -> AppResult<T> {
        let mut r: T = item.to_value()?;
        r.set_version(item.version);
        Ok(r)
    }

    fn unique_item(record: &T) -> Option<Item> {
        record.unique().map(|(_, v)| {
            let mut attrs = serde_json::Map::new();
            attrs.insert("id".into(), record.id().into());
            Item::new(unique_key(T::KIND, &v), attrs)
        })
    }

    fn taken(record: &T) -> AppError {
        let field = record.unique().map(|(f, _)| f).unwrap_or("name");
        AppError::Conflict {
            message: format!(
                "A {} with this {field} already exists",
                T::LABEL.to_lowercase()
            ),
            errors: FieldErrors::single(field, "This value is already in use."),
        }
    }

    /// One record. An id no record can have (longer than [`MAX_ID_BYTES`]) finds nothing
    /// without asking the store, whose keys are bounded (DynamoDB: 2,048 bytes).
    pub async fn get(&self, id: &str) -> AppResult<Option<T>> {
        if id.len() > MAX_ID_BYTES {
            return Ok(None);
        }
        match self.store.get(&Self::key(id)).await? {
            Some(item) => Ok(Some(Self::from_item(&item)?)),
            None => Ok(None),
        }
    }

    /// One record, or 404.
    pub async fn get_or_404(&self, id: &str) -> AppResult<T> {
        self.get(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("{} not found", T::LABEL)))
    }

    /// Several records by id; missing ones (and impossible ids) are left out.
    pub async fn get_many(&self, ids: &[String]) -> AppResult<Vec<T>> {
        let ids: Vec<String> = ids
            .iter()
            .filter(|id| id.len() <= MAX_ID_BYTES)
            .cloned()
            .collect();
        let ids = &ids[..];
        let mut out = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(crate::ports::MAX_BATCH) {
            let keys: Vec<Key> = chunk.iter().map(|id| Self::key(id)).collect();
            for item in self.store.batch_get(&keys).await? {
                out.push(Self::from_item(&item)?);
            }
        }
        Ok(out)
    }

    /// Every record of the kind.
    pub async fn all(&self) -> AppResult<Vec<T>> {
        Ok(self.all_shared().await?.to_vec())
    }

    /// Every record of the kind, shared: the store's snapshot of the kind when it keeps one
    /// and nothing changed since (one version read), else read whole.
    pub async fn all_shared(&self) -> AppResult<Arc<Shared<T>>> {
        let store: &dyn std::any::Any = self.store.as_ref();
        let snapshots = store.downcast_ref::<SnapshotStore>().map(|s| &s.snapshots);
        match snapshots {
            Some(s) if SNAPSHOT_KINDS.contains(&T::KIND) => {
                s.all(self.store.as_ref(), || self.load()).await
            }
            _ => Ok(Arc::new(Shared::new(self.load().await?))),
        }
    }

    async fn load(&self) -> AppResult<Vec<T>> {
        let items = query_all(
            self.store.as_ref(),
            Query::partition(Index::Gsi1, format!("{}S", T::KIND)),
        )
        .await?;
        items.iter().map(Self::from_item).collect()
    }

    /// The records related to `partition` in GSI2.
    pub async fn related(&self, partition: &str) -> AppResult<Vec<T>> {
        let items = query_all(
            self.store.as_ref(),
            Query::partition(Index::Gsi2, partition),
        )
        .await?;
        items.iter().map(Self::from_item).collect()
    }

    /// The writes that store a new record (and reserve its unique value).
    pub fn insert_writes(record: &T) -> AppResult<Vec<Write>> {
        let mut writes = Vec::new();
        if let Some(item) = Self::unique_item(record) {
            writes.push(Write::Put {
                item,
                condition: Some(Condition::NotExists),
            });
        }
        writes.push(Write::Put {
            item: Self::to_item(record)?,
            condition: Some(Condition::NotExists),
        });
        Ok(writes)
    }

    /// The writes that replace `previous` (at its version) with `next`.
    pub fn replace_writes(previous: &T, next: &T) -> AppResult<Vec<Write>> {
        let mut writes = vec![Write::Put {
            item: Self::to_item(next)?,
            condition: Some(Condition::VersionIs(previous.version())),
        }];
        let (old, new) = (
            previous.unique().map(|u| u.1.to_lowercase()),
            next.unique().map(|u| u.1.to_lowercase()),
        );
        if old != new {
            if let Some(item) = Self::unique_item(next) {
                writes.push(Write::Put {
                    item,
                    condition: Some(Condition::NotExists),
                });
            }
            if let Some(v) = old {
                writes.push(Write::Delete {
                    key: unique_key(T::KIND, &v),
                    condition: None,
                });
            }
        }
        Ok(writes)
    }

    /// The writes that delete `record` (at its version) and its reservation.
    pub fn delete_writes(record: &T) -> Vec<Write> {
        let mut writes = vec![Write::Delete {
            key: Self::key(record.id()),
            condition: Some(Condition::VersionIs(record.version())),
        }];
        if let Some((_, v)) = record.unique() {
            writes.push(Write::Delete {
                key: unique_key(T::KIND, &v),
                condition: None,
            });
        }
        writes
    }

    /// Runs writes built by this repository, mapping condition failures to 409s: a failing
    /// version check is a stale record, a failing reservation a taken unique value.
    pub async fn apply(&self, writes: Vec<Write>, subject: &T) -> AppResult<()> {
        let reservation = writes.iter().position(|w| {
            matches!(w.key().sk.as_str(), "UNIQUE") && matches!(w, Write::Put { .. })
        });
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { index }) if Some(index) == reservation => {
                Err(Self::taken(subject))
            }
            Err(StoreError::ConditionFailed { .. }) => Err(AppError::stale()),
            other => Ok(other?),
        }
    }

    /// Stores a new record.
    pub async fn insert(&self, record: &T) -> AppResult<()> {
        self.apply(Self::insert_writes(record)?, record).await
    }

    /// Replaces `previous` with `next` (whose version must already be the new one).
    pub async fn replace(&self, previous: &T, next: &T) -> AppResult<()> {
        self.apply(Self::replace_writes(previous, next)?, next)
            .await
    }
}

impl<T: Record + Stamped + PartialEq> Records<T> {
    /// The update every entity shares: the caller's `expected` version (when given) must be the
    /// stored one (409 otherwise); `change` edits a copy (its errors pass through, nothing is
    /// written); an unchanged record is answered as it is; otherwise `updated_at` and `version`
    /// move on and the record replaces `current` on the condition that nobody changed it since.
    pub async fn update(
        &self,
        current: T,
        expected: Option<u64>,
        now: chrono::DateTime<chrono::Utc>,
        change: impl AsyncFnOnce(&mut T) -> AppResult<()>,
    ) -> AppResult<T> {
        check_version(expected, &current)?;
        let mut next = current.clone();
        change(&mut next).await?;
        if next == current {
            return Ok(current);
        }
        next.stamp(now);
        next.set_version(current.version() + 1);
        self.replace(&current, &next).await?;
        Ok(next)
    }

    /// The writes of one all-or-nothing change of several records: `change` edits a copy of
    /// each; a copy that differs gets a new `updated_at` and `version` and a replace on the
    /// condition that nobody changed the record since. Answers the writes (run them with
    /// [`Records::apply`], alone or with more) and every record as it will be.
    pub fn bulk_writes(
        records: Vec<T>,
        now: chrono::DateTime<chrono::Utc>,
        mut change: impl FnMut(&mut T),
    ) -> AppResult<(Vec<Write>, Vec<T>)> {
        let mut writes = Vec::new();
        let mut out = Vec::with_capacity(records.len());
        for current in records {
            let mut next = current.clone();
            change(&mut next);
            if next != current {
                next.stamp(now);
                next.set_version(current.version() + 1);
                writes.extend(Self::replace_writes(&current, &next)?);
            }
            out.push(next);
        }
        Ok((writes, out))
    }
}
