//! Errors of the embedded adapters' own API (opening, migrations, background tasks).

use std::path::PathBuf;

/// Why opening or using the embedded database failed.
#[derive(Debug, thiserror::Error)]
pub enum EmbeddedError {
    /// The data directory or a file in it could not be created or read.
    #[error("data directory {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// SQLite reported an error.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A numbered migration failed; the database stays at the version before it.
    #[error("migration {version} failed: {source}")]
    Migration {
        version: i64,
        #[source]
        source: rusqlite::Error,
    },
    /// The database was written by a newer Vendfleet (more migrations than this build knows).
    #[error("database schema version {found} is newer than this build ({known})")]
    SchemaTooNew { found: i64, known: i64 },
    /// A blocking database task panicked or was cancelled.
    #[error("database task failed: {0}")]
    Task(String),
}
