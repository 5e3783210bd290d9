//! The ports: the traits application services talk to. Adapters implement them.

pub mod blob;
pub mod clock;
pub mod queue;
pub mod sales;
pub mod store;

pub use blob::{check_blob_key, Blob, BlobError, BlobStore};
pub use clock::{Clock, ManualClock, SystemClock};
pub use queue::{Job, JobQueue, QueueError};
pub use sales::{Commit, EventReceipt, FleetRollups, Grain, RollupQuery, RollupRow, SalesStore};
pub use store::{
    check_batch, check_transaction, query_all, Condition, Index, Item, ItemStore, Key, Page, Query,
    SortKey, StoreError, Write, MAX_BATCH, MAX_TRANSACTION_WRITES,
};
