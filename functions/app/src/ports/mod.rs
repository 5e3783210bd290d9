//! The ports: the traits application services talk to. Adapters implement them.

pub mod blob;
pub mod clock;
pub mod feeds;
pub mod mail;
pub mod queue;
pub mod sales;
pub mod schedules;
pub mod store;

pub use blob::{check_blob_key, Blob, BlobError, BlobStore};
pub use clock::{Clock, ManualClock, StartedClock, SystemClock};
pub use feeds::{FeedError, FeedQueues, QueueAccess, QueueMessage};
pub use mail::{Attachment, Mail, MailError, MailOutcome, Mailer};
pub use queue::{Job, JobQueue, QueueError};
pub use sales::{
    weekday_units_of, Commit, EventReceipt, FleetRollups, Grain, RollupQuery, RollupRow,
    SalesStore, WeekdayUnits,
};
pub use schedules::{InProcessSchedules, ScheduleError, ScheduleSpec, Schedules};
pub use store::{
    check_batch, check_transaction, query_all, Condition, Index, Item, ItemStore, Key, Page, Query,
    SortKey, StoreError, Write, MAX_BATCH, MAX_TRANSACTION_WRITES,
};
