//! An item store that counts the reads of each key it passes on (a test's view of how often a
//! request reads the same item).

use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use vendfleet_app::ports::{Condition, Item, ItemStore, Key, Page, Query, StoreError, Write};

/// Counts `get` and `batch_get` reads by key.
pub struct Counting {
    inner: Arc<dyn ItemStore>,
    reads: Mutex<HashMap<(String, String), usize>>,
}

impl Counting {
    pub fn new(inner: Arc<dyn ItemStore>) -> Arc<Counting> {
        Arc::new(Counting {
            inner,
            reads: Mutex::default(),
        })
    }

    /// Reads of the item `pk`/`sk` since the last [`Counting::reset`].
    pub fn reads(&self, pk: &str, sk: &str) -> usize {
        let reads = self.reads.lock().unwrap();
        reads
            .get(&(pk.to_string(), sk.to_string()))
            .copied()
            .unwrap_or(0)
    }

    pub fn reset(&self) {
        self.reads.lock().unwrap().clear();
    }

    fn count<'a>(&self, keys: impl IntoIterator<Item = &'a Key>) {
        let mut reads = self.reads.lock().unwrap();
        for k in keys {
            *reads.entry((k.pk.clone(), k.sk.clone())).or_default() += 1;
        }
    }
}

#[async_trait]
impl ItemStore for Counting {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.count([key]);
        self.inner.get(key).await
    }
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<(), StoreError> {
        self.inner.put(item, condition).await
    }
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<(), StoreError> {
        self.inner.delete(key, condition).await
    }
    async fn query(&self, query: Query) -> Result<Page, StoreError> {
        self.inner.query(query).await
    }
    async fn add(&self, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError> {
        self.inner.add(key, attr, delta).await
    }
    async fn transact(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        self.inner.transact(writes).await
    }
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, StoreError> {
        self.count(keys);
        self.inner.batch_get(keys).await
    }
    async fn batch_put(&self, items: Vec<Item>) -> Result<(), StoreError> {
        self.inner.batch_put(items).await
    }
    fn index_lag(&self) -> std::time::Duration {
        self.inner.index_lag()
    }
}
