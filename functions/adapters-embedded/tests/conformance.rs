//! The ports' conformance suites on the embedded adapters, each case on a fresh data directory.

use async_trait::async_trait;
use std::sync::Arc;
use std::time::Duration;
use tempfile::TempDir;
use vendfleet_adapters_embedded::{Database, FsBlobStore, SqliteItemStore, SqliteJobQueue};
use vendfleet_app::ports::{
    Blob, BlobError, BlobStore, Condition, Item, ItemStore, Job, JobQueue, Key, Page, Query,
    QueueError, StoreError, Write,
};

/// An adapter together with the temporary directory it lives in, removed when the case ends.
struct InTempDir<T> {
    adapter: T,
    _dir: TempDir,
}

fn temp_dir() -> TempDir {
    tempfile::tempdir().expect("temp dir")
}

async fn item_store() -> Arc<dyn ItemStore> {
    let dir = temp_dir();
    let db = Database::open(dir.path()).expect("open database");
    Arc::new(InTempDir {
        adapter: SqliteItemStore::new(db),
        _dir: dir,
    })
}

async fn blob_store() -> Arc<dyn BlobStore> {
    let dir = temp_dir();
    let adapter = FsBlobStore::new(dir.path().join("blobs"), b"conformance secret");
    Arc::new(InTempDir { adapter, _dir: dir })
}

async fn job_queue() -> Arc<dyn JobQueue> {
    let dir = temp_dir();
    let db = Database::open(dir.path()).expect("open database");
    Arc::new(InTempDir {
        adapter: SqliteJobQueue::new(db, 3),
        _dir: dir,
    })
}

vendfleet_app::item_store_conformance!(crate::item_store());
vendfleet_app::blob_store_conformance!(crate::blob_store());
vendfleet_app::job_queue_conformance!(crate::job_queue());

#[async_trait]
impl ItemStore for InTempDir<SqliteItemStore> {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        self.adapter.get(key).await
    }
    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<(), StoreError> {
        self.adapter.put(item, condition).await
    }
    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<(), StoreError> {
        self.adapter.delete(key, condition).await
    }
    async fn query(&self, query: Query) -> Result<Page, StoreError> {
        self.adapter.query(query).await
    }
    async fn add(&self, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError> {
        self.adapter.add(key, attr, delta).await
    }
    async fn transact(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        self.adapter.transact(writes).await
    }
    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, StoreError> {
        self.adapter.batch_get(keys).await
    }
    async fn batch_put(&self, items: Vec<Item>) -> Result<(), StoreError> {
        self.adapter.batch_put(items).await
    }
}

#[async_trait]
impl BlobStore for InTempDir<FsBlobStore> {
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError> {
        self.adapter.put(key, bytes, content_type).await
    }
    async fn get(&self, key: &str) -> Result<Option<Blob>, BlobError> {
        self.adapter.get(key).await
    }
    async fn download_url(
        &self,
        key: &str,
        file_name: &str,
        expires_in: Duration,
    ) -> Result<String, BlobError> {
        self.adapter.download_url(key, file_name, expires_in).await
    }
    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        self.adapter.delete(key).await
    }
}

#[async_trait]
impl JobQueue for InTempDir<SqliteJobQueue> {
    async fn enqueue(&self, payload: &str) -> Result<String, QueueError> {
        self.adapter.enqueue(payload).await
    }
    async fn claim(&self, visibility: Duration) -> Result<Option<Job>, QueueError> {
        self.adapter.claim(visibility).await
    }
    async fn ack(&self, receipt: &str) -> Result<(), QueueError> {
        self.adapter.ack(receipt).await
    }
    async fn retry(&self, receipt: &str, delay: Duration) -> Result<(), QueueError> {
        self.adapter.retry(receipt, delay).await
    }
    async fn bury(&self, job: &Job) -> Result<(), QueueError> {
        self.adapter.bury(job).await
    }
    async fn dead_letters(&self) -> Result<Vec<String>, QueueError> {
        self.adapter.dead_letters().await
    }
}
