//! The SQLite database file shared by the embedded adapters: WAL mode, numbered migrations, one
//! writer connection behind an async mutex and a small pool of read connections.
//!
//! rusqlite is blocking, so every call runs on tokio's blocking pool. Writers queue on the async
//! mutex (not on a blocking thread); readers each take their own connection, and in WAL mode
//! readers neither block nor are blocked by the writer.

use crate::error::EmbeddedError;
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// File name of the database inside the data directory.
pub const DATABASE_FILE: &str = "vendfleet.db";

/// Read connections kept open for reuse; more may be opened under load and are then closed.
const READ_POOL_SIZE: usize = 4;
/// Bytes of the database file a read connection maps: address space, not memory (the pages are
/// the OS cache's). SQLite's ceiling is raised to 1 TiB where it is built (`.cargo/config.toml`;
/// its default, 2 GiB, is where a larger ask stops).
const READ_MMAP_BYTES: i64 = 1 << 40;
/// A read connection's page cache: negative, in KiB (32 MiB).
const READ_CACHE_KIB: i64 = -32 * 1024;

const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The schema, one migration per entry; entry `i` is schema version `i + 1`. Append only: never
/// change what an entry that has shipped does (`migrations_are_as_shipped` pins their text).
pub static MIGRATIONS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(migrations);

/// The figures of every sales rollup row (see migration 3).
const FIGURES: &str = "q INTEGER NOT NULL, rev INTEGER NOT NULL, net INTEGER NOT NULL, \
    cash INTEGER NOT NULL, cashless INTEGER NOT NULL, free INTEGER NOT NULL, \
    test INTEGER NOT NULL, tx INTEGER NOT NULL";
/// The figures summed, in column order.
const SUMS: &str =
    "sum(q), sum(rev), sum(net), sum(cash), sum(cashless), sum(free), sum(test), sum(tx)";

/// A rollup table: its key columns (`name TYPE`), the figures, the key as primary key.
fn rollup(table: &str, keys: &[&str]) -> String {
    let names: Vec<&str> = keys
        .iter()
        .map(|k| k.split(' ').next().unwrap_or(k))
        .collect();
    let key = names.join(", ");
    if let [only] = keys {
        return format!("CREATE TABLE {table} ({only} PRIMARY KEY, {FIGURES}) WITHOUT ROWID;\n");
    }
    let columns: Vec<String> = keys.iter().map(|k| format!("{k} NOT NULL")).collect();
    format!(
        "CREATE TABLE {table} ({}, {FIGURES}, PRIMARY KEY ({key})) WITHOUT ROWID;\n",
        columns.join(", ")
    )
}

/// Fills the fleet rollup `table` from the machine rollup `from`, grouped by `keys`.
fn fleet_fill(table: &str, from: &str, keys: &str) -> String {
    format!("INSERT INTO {table} SELECT {keys}, {SUMS} FROM {from} GROUP BY {keys};\n")
}

/// Packs a machine's product rollups of a `period` (day or month) into one row (`packed.rs`).
fn pack(period: &str) -> String {
    format!(
        "CREATE TABLE sales_{period}_products (
        machine_id TEXT NOT NULL, {period} INTEGER NOT NULL, products BLOB NOT NULL,
        PRIMARY KEY (machine_id, {period})
    );
    INSERT INTO sales_{period}_products SELECT machine_id, {period}, unhex(group_concat(
        printf('%04x', length(CAST(product_id AS BLOB))) || hex(product_id)
        || printf('%016x%016x%016x%016x%016x%016x%016x%016x',
                  q, rev, net, cash, cashless, free, test, tx), ''))
        FROM sales_{period}_product GROUP BY machine_id, {period};
    DROP TABLE sales_{period}_product;
"
    )
}

fn migrations() -> Vec<String> {
    use vendfleet_app::events::AuditRead;
    use vendfleet_app::machines::{Machine, Selection};
    let (machine, sel, audit) = (Machine::PARTITION, Selection::PREFIX, AuditRead::PREFIX);
    // substr() is 1-based: what follows a prefix starts one past its length.
    let (after_machine, after_sel) = (machine.len() + 1, sel.len() + 1);
    let day = "day INTEGER";
    let month = "month INTEGER";
    let machine_id = "machine_id TEXT";
    let product_id = "product_id TEXT";
    vec![
        // 1: the item store (DynamoDB-shaped single table).
        r#"
    CREATE TABLE items (
        pk      TEXT NOT NULL,
        sk      TEXT NOT NULL,
        gsi1pk  TEXT,
        gsi1sk  TEXT,
        gsi2pk  TEXT,
        gsi2sk  TEXT,
        version INTEGER NOT NULL,
        ttl     INTEGER,
        attrs   TEXT NOT NULL,
        PRIMARY KEY (pk, sk)
    ) WITHOUT ROWID;
    CREATE INDEX items_gsi1 ON items (gsi1pk, gsi1sk, pk, sk) WHERE gsi1pk IS NOT NULL;
    CREATE INDEX items_gsi2 ON items (gsi2pk, gsi2sk, pk, sk) WHERE gsi2pk IS NOT NULL;
    CREATE INDEX items_ttl ON items (ttl) WHERE ttl IS NOT NULL;
        "#
        .to_string(),
        // 2: the durable job queue.
        r#"
    CREATE TABLE jobs (
        id         TEXT PRIMARY KEY,
        payload    TEXT NOT NULL,
        attempts   INTEGER NOT NULL DEFAULT 0,
        visible_at INTEGER NOT NULL,
        receipt    TEXT UNIQUE,
        dead       INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX jobs_ready ON jobs (dead, created_at);
        "#
        .to_string(),
        // 3: the sales store: machine-event receipts, the vend ledger and its rollups. Days are
        // yyyymmdd and months yyyymm integers (operator-local), instants epoch milliseconds, money
        // integer minor units. Figures: q, rev, net, cash, cashless, free, test, tx.
        r#"
    CREATE TABLE event_receipts (
        machine_id  TEXT NOT NULL,
        event_id    TEXT NOT NULL,
        kind        TEXT NOT NULL,
        at          INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (machine_id, event_id)
    ) WITHOUT ROWID;
    CREATE TABLE sales_ledger (
        machine_id  TEXT NOT NULL,
        day         INTEGER NOT NULL,
        at          INTEGER NOT NULL,
        event_id    TEXT NOT NULL,
        location_id TEXT,
        selection   TEXT NOT NULL,
        product_id  TEXT NOT NULL,
        quantity    INTEGER NOT NULL,
        revenue     INTEGER NOT NULL,
        net         INTEGER NOT NULL,
        payment     INTEGER NOT NULL,
        class       INTEGER NOT NULL,
        PRIMARY KEY (machine_id, day, at, event_id)
    ) WITHOUT ROWID;
    CREATE INDEX sales_ledger_by_day ON sales_ledger (day, machine_id, at);
        "#
        .to_string()
            + &rollup("sales_day", &[machine_id, day])
            + &rollup("sales_day_product", &[machine_id, day, product_id])
            + &rollup("sales_month", &[machine_id, month])
            + &rollup("sales_month_product", &[machine_id, month, product_id]),
        // 4: selections fleet-wide in GSI1, held audit reads in a sparse GSI2 (as the app now
        // writes them), for the dashboard's attention list.
        format!(
            "UPDATE items SET gsi1pk = 'SELECTIONS', \
                gsi1sk = substr(pk, {after_machine}) || '#' || substr(sk, {after_sel})
                WHERE pk LIKE '{machine}%' AND sk LIKE '{sel}%' AND gsi1pk IS NULL;
            UPDATE items SET gsi2pk = 'AUDITS#HELD', gsi2sk = substr(pk, {after_machine}) || '#' || sk
                WHERE pk LIKE '{machine}%' AND sk LIKE '{audit}%' \
                AND json_extract(attrs, '$.state') = 'held';"
        ),
        // 5: the whole fleet's rollups by day and month, and by product (every machine's vends
        // together), and the machines with any vend, filled from the machine rollups.
        rollup("sales_fleet_day", &[day])
            + &rollup("sales_fleet_month", &[month])
            + &rollup("sales_fleet_day_product", &[day, product_id])
            + &rollup("sales_fleet_month_product", &[month, product_id])
            + "CREATE TABLE sales_machines (machine_id TEXT PRIMARY KEY) WITHOUT ROWID;\n"
            + &fleet_fill("sales_fleet_day", "sales_day", "day")
            + &fleet_fill("sales_fleet_month", "sales_month", "month")
            + &fleet_fill("sales_fleet_day_product", "sales_day_product", "day, product_id")
            + &fleet_fill("sales_fleet_month_product", "sales_month_product", "month, product_id")
            + "INSERT INTO sales_machines SELECT DISTINCT machine_id FROM sales_month;\n",
        // 6: a machine's product rollups of a day or a month in one row, the products packed side
        // by side (`packed.rs`): reports read a row per machine and period, not per product.
        // Rowid tables, not WITHOUT ROWID: a packed row is often over the ~1,000 bytes an index
        // b-tree cell holds before it overflows, and a seek through overflowing cells reads their
        // overflow pages from the file at every step (the key lookup stays in the small
        // primary-key index here).
        pack("day") + &pack("month"),
        // 7: each receipt keeps its event's content fingerprint and, when small, the event itself,
        // so that an id reused with other content is told from a retry (NULL on older receipts).
        r#"
    ALTER TABLE event_receipts ADD COLUMN fingerprint TEXT;
    ALTER TABLE event_receipts ADD COLUMN payload TEXT;
        "#
        .to_string(),
        // 8: a day's vends in time order, so that the transaction log's page of many machines
        // reads its rows from the newest on and stops, instead of every chosen machine's day.
        "CREATE INDEX sales_ledger_by_time ON sales_ledger (day, at, machine_id, event_id);"
            .to_string(),
        // 9: the time index also holds each vend's class and product, so that the log's page of
        // a few products passes over the other vends without reading their rows.
        "CREATE INDEX sales_ledger_log ON sales_ledger \
            (day, at DESC, machine_id, event_id, class, product_id); \
         DROP INDEX sales_ledger_by_time;"
            .to_string(),
        // 10: each vend keeps its product's VAT rate at the sale (NULL on older vends).
        "ALTER TABLE sales_ledger ADD COLUMN vat_bps INTEGER;".to_string(),
    ]
}

/// The embedded database; cheap to clone (all clones share the connections).
#[derive(Clone)]
pub struct Database {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: Arc<tokio::sync::Mutex<Connection>>,
    readers: Mutex<Vec<Connection>>,
}

impl Inner {
    fn with_reader<T>(&self, f: impl FnOnce(&Connection) -> T) -> Result<T, EmbeddedError> {
        let pooled = self.readers.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match pooled {
            Some(c) => c,
            None => open_reader(&self.path)?,
        };
        let out = f(&conn);
        let mut pool = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < READ_POOL_SIZE && conn.is_autocommit() {
            pool.push(conn);
        }
        Ok(out)
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("path", &self.inner.path)
            .finish_non_exhaustive()
    }
}

impl Database {
    /// Opens (creating when missing) `dir/vendfleet.db` and applies pending migrations.
    /// Blocking: call it at start-up (or from `spawn_blocking`).
    pub fn open(dir: &Path) -> Result<Database, EmbeddedError> {
        std::fs::create_dir_all(dir).map_err(|source| EmbeddedError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join(DATABASE_FILE);
        let mut writer = Connection::open(&path)?;
        // journal_mode answers with the resulting mode, so it is read, not just set.
        let mode: String = writer.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            tracing::warn!(%mode, "SQLite did not switch to WAL mode");
        }
        configure(&writer)?;
        migrate(&mut writer)?;
        Ok(Database {
            inner: Arc::new(Inner {
                path,
                writer: Arc::new(tokio::sync::Mutex::new(writer)),
                readers: Mutex::new(Vec::new()),
            }),
        })
    }

    /// Path of the database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// The schema version (number of applied migrations).
    pub async fn schema_version(&self) -> Result<i64, EmbeddedError> {
        self.read(current_version).await?.map_err(Into::into)
    }

    /// Runs `f` on the single writer connection, on the blocking pool. Start transactions with
    /// `TransactionBehavior::Immediate` so that reads made to check a condition and the write
    /// that follows are one atomic step.
    pub async fn write<T, F>(&self, f: F) -> Result<T, EmbeddedError>
    where
        F: FnOnce(&mut Connection) -> T + Send + 'static,
        T: Send + 'static,
    {
        let mut conn = self.inner.writer.clone().lock_owned().await;
        tokio::task::spawn_blocking(move || f(&mut conn))
            .await
            .map_err(|e| EmbeddedError::Task(e.to_string()))
    }

    /// Runs `f` on a read connection (query only), on the blocking pool.
    pub async fn read<T, F>(&self, f: F) -> Result<T, EmbeddedError>
    where
        F: FnOnce(&Connection) -> T + Send + 'static,
        T: Send + 'static,
    {
        let inner = self.inner.clone();
        tokio::task::spawn_blocking(move || inner.with_reader(f))
            .await
            .map_err(|e| EmbeddedError::Task(e.to_string()))?
    }

    /// Runs `f` on a read connection on the calling thread, without the hop to the blocking
    /// pool: only for reads of a few rows by key (tens of microseconds; the hop costs as much).
    /// In WAL mode a reader does not wait for the writer.
    pub fn read_now<T>(&self, f: impl FnOnce(&Connection) -> T) -> Result<T, EmbeddedError> {
        self.inner.with_reader(f)
    }
}

fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(())
}

fn open_reader(path: &Path) -> Result<Connection, EmbeddedError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    configure(&conn)?;
    conn.pragma_update(None, "query_only", "ON")?;
    // The query planner's stability guarantee: a statement's plan is never chosen from its
    // parameters' values, so a cached statement run with new ones is not compiled again (the
    // transaction log's page was, on every run: about 15% of a small request).
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    // Reports read thousands of rollup pages a request: map the file (no read call and copy a
    // page; the pages are the OS cache's, shared by every connection) and keep more of them.
    conn.pragma_update(None, "mmap_size", READ_MMAP_BYTES)?;
    conn.pragma_update(None, "cache_size", READ_CACHE_KIB)?;
    Ok(conn)
}

fn current_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT coalesce(max(version), 0) FROM schema_migrations",
        [],
        |r| r.get(0),
    )
}

/// Applies every migration not yet recorded in `schema_migrations`, each in its own immediate
/// transaction so that two processes opening the same file cannot apply one twice.
fn migrate(conn: &mut Connection) -> Result<(), EmbeddedError> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY,
            applied_at TEXT NOT NULL
        )",
    )?;
    let known = MIGRATIONS.len() as i64;
    let found = current_version(conn)?;
    if found > known {
        return Err(EmbeddedError::SchemaTooNew { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let version = i as i64 + 1;
        let apply = |conn: &mut Connection| -> rusqlite::Result<()> {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let done = tx
                .query_row(
                    "SELECT 1 FROM schema_migrations WHERE version = ?1",
                    [version],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if !done {
                tx.execute_batch(sql)?;
                tx.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, ?2)",
                    rusqlite::params![version, chrono::Utc::now().to_rfc3339()],
                )?;
                tracing::info!(version, "applied SQLite migration");
            }
            tx.commit()
        };
        apply(conn).map_err(|source| EmbeddedError::Migration { version, source })?;
    }
    Ok(())
}
