//! The keys the records' caches watch: the snapshot kinds, their records' keys and the
//! catalogue's version item (read by the snapshots and by the write marks alike).

use crate::ports::Key;

/// The kinds kept as snapshots.
pub const SNAPSHOT_KINDS: &[&str] = &[
    "MACHINE",
    "LOCATION",
    "CLIENT",
    "MTAG",
    "PRODUCT",
    "PRODUCTTAG",
];

/// The key of the catalogue's version item.
pub fn version_key() -> Key {
    Key::new("CATALOGUE", "VERSION")
}

/// True for the key of a record of a snapshot kind (`KIND#<id>` / `KIND`).
pub fn is_snapshot_key(key: &Key) -> bool {
    SNAPSHOT_KINDS.contains(&key.sk.as_str())
        && key
            .pk
            .strip_prefix(key.sk.as_str())
            .is_some_and(|rest| rest.starts_with('#'))
}
