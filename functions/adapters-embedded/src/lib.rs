//! Vendfleet's embedded adapters: the item store, sales store and job queue on one SQLite file (WAL mode) and
//! blobs on the filesystem, for the single-process deployment (`vendfleet serve`).

mod blob;
mod db;
mod error;
mod mail;
mod ops;
mod packed;
mod queue;
mod sales;
mod sqs;
mod store;

pub use blob::FsBlobStore;
pub use db::{Database, DATABASE_FILE, MIGRATIONS};
pub use error::EmbeddedError;
pub use mail::{EmbeddedMailer, OUTBOX_DIR};
pub use ops::{inspect_copy, live_database_files, Backlog, CopyContents, SchemaState};
pub use queue::SqliteJobQueue;
pub use sales::SqliteSalesStore;
pub use sqs::{SqsFeeds, MAX_WAIT_SECS};
pub use store::SqliteItemStore;

use std::path::Path;
use std::sync::Arc;

/// Deliveries of a job before the embedded queue dead-letters it.
pub const MAX_DELIVERIES: u32 = 5;

/// The sender of scheduled reports unless `VENDFLEET_MAIL_FROM` says otherwise.
pub const DEFAULT_FROM: &str = "Vendfleet <reports@vendfleet.localhost>";

/// Directory under the data directory holding the blobs.
pub const BLOBS_DIR: &str = "blobs";

/// The three embedded adapters on one data directory, sharing one database.
#[derive(Debug, Clone)]
pub struct Embedded {
    pub database: Database,
    pub store: Arc<SqliteItemStore>,
    pub blobs: Arc<FsBlobStore>,
    pub queue: Arc<SqliteJobQueue>,
    pub sales: Arc<SqliteSalesStore>,
    /// Scheduled reports' e-mails: `.eml` files in `data_dir/outbox/` unless SMTP is set.
    pub mailer: Arc<EmbeddedMailer>,
}

impl Embedded {
    /// Opens `data_dir/vendfleet.db` (migrating it) and `data_dir/blobs/`; download links are
    /// signed with `blob_secret`. Blocking: call it at start-up.
    pub fn open(data_dir: &Path, blob_secret: &[u8]) -> Result<Embedded, EmbeddedError> {
        let database = Database::open(data_dir)?;
        let blobs_dir = data_dir.join(BLOBS_DIR);
        std::fs::create_dir_all(&blobs_dir).map_err(|source| EmbeddedError::Io {
            path: blobs_dir.clone(),
            source,
        })?;
        Ok(Embedded {
            store: Arc::new(SqliteItemStore::new(database.clone())),
            blobs: Arc::new(FsBlobStore::new(blobs_dir, blob_secret)),
            queue: Arc::new(SqliteJobQueue::new(database.clone(), MAX_DELIVERIES)),
            sales: Arc::new(SqliteSalesStore::new(database.clone())),
            mailer: Arc::new(EmbeddedMailer::outbox(
                data_dir.join(OUTBOX_DIR),
                DEFAULT_FROM,
            )),
            database,
        })
    }

    /// The adapters the application runs on: events are applied as they arrive.
    pub fn adapters(&self) -> vendfleet_app::Adapters {
        vendfleet_app::Adapters {
            store: self.store.clone(),
            sales: self.sales.clone(),
            events_handoff: None,
            blobs: self.blobs.clone(),
            jobs: self.queue.clone(),
            mailer: self.mailer.clone(),
            schedules: Arc::new(vendfleet_app::ports::InProcessSchedules),
        }
    }
}
