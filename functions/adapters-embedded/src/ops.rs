//! What running the embedded deployment needs of the database beside serving: a consistent copy
//! while it serves (backups), a write probe and the migration state (readiness), and the figures
//! an operator watches (the job queue's backlog, held audit reads, the file's size).

use crate::db::{Database, DATABASE_FILE, MIGRATIONS};
use crate::error::EmbeddedError;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The job queue's backlog at an instant (epoch milliseconds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backlog {
    /// Jobs waiting or under way (not dead-lettered).
    pub queued: u64,
    /// Jobs dead-lettered after their last delivery failed.
    pub dead: u64,
    /// Age of the oldest job not dead-lettered, in milliseconds (0 when there is none).
    pub oldest_ms: i64,
    /// How long the most overdue job has been due without being taken (due: not under way,
    /// or its worker's time ran out; not waiting out a back-off), in milliseconds. A worker
    /// takes a due job within seconds: a figure that grows means the queue is stuck.
    pub overdue_ms: i64,
}

/// Where the schema stands: the migrations applied against those this build knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaState {
    pub applied: i64,
    pub known: i64,
}

impl SchemaState {
    pub fn current(&self) -> bool {
        self.applied == self.known
    }
}

impl Database {
    /// Writes a consistent copy of the database to `to` (which must not exist) while the server
    /// goes on reading and writing: `VACUUM INTO` reads one snapshot of the file in a read
    /// transaction (in WAL mode the writer is not blocked) and writes it compacted, without its
    /// WAL. Never a file copy of the live database.
    pub async fn snapshot_into(&self, to: &Path) -> Result<(), EmbeddedError> {
        let from = self.path().to_path_buf();
        let to = to.to_path_buf();
        tokio::task::spawn_blocking(move || -> Result<(), EmbeddedError> {
            let conn = Connection::open_with_flags(
                &from,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            conn.busy_timeout(Duration::from_secs(30))?;
            let target = to.to_str().ok_or_else(|| EmbeddedError::Io {
                path: to.clone(),
                source: std::io::Error::other("the backup path is not UTF-8"),
            })?;
            conn.execute("VACUUM INTO ?1", [target])?;
            Ok(())
        })
        .await
        .map_err(|e| EmbeddedError::Task(e.to_string()))?
    }

    /// Whether the database takes a write now: a connection of its own (so that the check does
    /// not queue behind the server's writes) takes the write lock within `wait` and rewrites
    /// the header's user version with its own value, a real write to the file.
    pub async fn probe_write(&self, wait: Duration) -> Result<(), EmbeddedError> {
        let path = self.path().to_path_buf();
        tokio::task::spawn_blocking(move || -> Result<(), EmbeddedError> {
            let mut conn = Connection::open_with_flags(
                &path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )?;
            conn.busy_timeout(wait)?;
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let v: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
            tx.pragma_update(None, "user_version", v)?;
            tx.commit()?;
            Ok(())
        })
        .await
        .map_err(|e| EmbeddedError::Task(e.to_string()))?
    }

    /// The migrations applied against those this build knows.
    pub async fn schema_state(&self) -> Result<SchemaState, EmbeddedError> {
        Ok(SchemaState {
            applied: self.schema_version().await?,
            known: MIGRATIONS.len() as i64,
        })
    }

    /// The job queue's backlog at `now_ms`.
    pub async fn backlog(&self, now_ms: i64) -> Result<Backlog, EmbeddedError> {
        self.read(move |c| {
            c.query_row(
                "SELECT count(*) FILTER (WHERE dead = 0), count(*) FILTER (WHERE dead = 1),
                        min(created_at) FILTER (WHERE dead = 0),
                        min(visible_at) FILTER (WHERE dead = 0 AND visible_at <= ?1)
                 FROM jobs",
                [now_ms],
                |r| {
                    let since = |t: Option<i64>| t.map_or(0, |t| (now_ms - t).max(0));
                    Ok(Backlog {
                        queued: r.get::<_, i64>(0)?.max(0) as u64,
                        dead: r.get::<_, i64>(1)?.max(0) as u64,
                        oldest_ms: since(r.get(2)?),
                        overdue_ms: since(r.get(3)?),
                    })
                },
            )
        })
        .await?
        .map_err(Into::into)
    }

    /// Audit reads held for review, fleet-wide (the sparse index the dashboard reads).
    pub async fn held_audit_reads(&self) -> Result<u64, EmbeddedError> {
        self.read(|c| {
            c.query_row(
                "SELECT count(*) FROM items WHERE gsi2pk = 'AUDITS#HELD'",
                [],
                |r| r.get::<_, i64>(0),
            )
        })
        .await?
        .map(|n| n.max(0) as u64)
        .map_err(Into::into)
    }

    /// Bytes on disk: the database file and its write-ahead log.
    pub fn size_on_disk(&self) -> u64 {
        let wal = wal_path(self.path());
        [self.path().to_path_buf(), wal]
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }
}

fn wal_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// The files of the live database in a data directory (the file, its WAL and shared memory):
/// a backup copies the database through [`Database::snapshot_into`], never these.
pub fn live_database_files() -> [String; 3] {
    [
        DATABASE_FILE.to_string(),
        format!("{DATABASE_FILE}-wal"),
        format!("{DATABASE_FILE}-shm"),
    ]
}

/// What a copy of the database holds, read from the copy itself (a file no server has open):
/// the schema version, `PRAGMA integrity_check`'s verdict and the rows of every table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyContents {
    pub schema_version: i64,
    pub integrity: String,
    pub rows: BTreeMap<String, u64>,
}

/// Reads [`CopyContents`] of the database file at `path`, without changing it.
pub fn inspect_copy(path: &Path) -> Result<CopyContents, EmbeddedError> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let integrity: String = conn.query_row("PRAGMA integrity_check(1)", [], |r| r.get(0))?;
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut rows = BTreeMap::new();
    for table in tables {
        let n: i64 = conn.query_row(&format!("SELECT count(*) FROM \"{table}\""), [], |r| {
            r.get(0)
        })?;
        rows.insert(table, n.max(0) as u64);
    }
    let schema_version = rows
        .contains_key("schema_migrations")
        .then(|| {
            conn.query_row(
                "SELECT coalesce(max(version), 0) FROM schema_migrations",
                [],
                |r| r.get(0),
            )
        })
        .transpose()?
        .unwrap_or(0);
    Ok(CopyContents {
        schema_version,
        integrity,
        rows,
    })
}
