//! A repository written once for every catalogue entity: items `KIND#<id>` / `KIND`, listed in
//! GSI1 under `KINDS`, optionally related in GSI2, optionally with a unique-name reservation.

mod keys;
mod record;
mod repository;
mod snapshot;
mod touched;
pub use keys::{version_key, SNAPSHOT_KINDS};
pub use record::{check_version, Record, Stamped, MAX_ID_BYTES};
pub use repository::Records;
pub use snapshot::{with_bump, Shared, SnapshotStore, Snapshots, MAX_CHANGE_WRITES};
pub use touched::{Changed, Counted, Touched};
