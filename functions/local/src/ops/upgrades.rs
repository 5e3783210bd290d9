//! Upgrades (issue 32): a database of every released schema version, kept as an SQL dump in
//! `tests/fixtures/schema-vN.sql.gz`, all holding the same small fleet. Each is migrated to the
//! current schema as `vendfleet serve` would at start, and must then answer exactly what the
//! newest one does: the same items and jobs, receipts, and the same rollups by machine and by
//! fleet, by day and month, with and without products, read through the current sales store.
//!
//! The fixtures are written by `write_schema_fixtures` (ignored; run it by name). It writes only
//! those missing: the first time, versions 1 to 9 from a seeded demo fleet (each version's
//! tables filled as that version held them, then migrated step by step); after that, a new
//! version's fixture is the newest one migrated forward. A fixture that has shipped is never
//! rewritten.

use crate::error::BoxError;
use chrono::NaiveDate;
use rusqlite::types::ValueRef;
use rusqlite::Connection;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use vendfleet_adapters_embedded::{Database, SqliteSalesStore, MIGRATIONS};
use vendfleet_app::ports::sales::{Grain, RollupQuery};
use vendfleet_app::ports::SalesStore;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fixture(version: usize) -> PathBuf {
    fixtures().join(format!("schema-v{version}.sql.gz"))
}

/// The versions with a fixture, in order.
fn versions() -> Vec<usize> {
    (1..=MIGRATIONS.len())
        .filter(|v| fixture(*v).is_file())
        .collect()
}

/// The dump of fixture `version`.
fn read_fixture(version: usize) -> String {
    use std::io::Read;
    let file = std::fs::File::open(fixture(version)).unwrap();
    let mut sql = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut sql)
        .unwrap();
    sql
}

/// Writes the dump `sql` as fixture `version`, compressed.
fn write_fixture(version: usize, sql: &str) -> Result<(), BoxError> {
    use std::io::Write;
    let file = std::fs::File::create(fixture(version))?;
    let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    gz.write_all(sql.as_bytes())?;
    gz.finish()?;
    Ok(())
}

/// Loads the dump `sql` into `dir/vendfleet.db`.
fn load(sql: &str, dir: &Path) -> Result<(), BoxError> {
    std::fs::create_dir_all(dir)?;
    let conn = Connection::open(dir.join(vendfleet_adapters_embedded::DATABASE_FILE))?;
    conn.execute_batch(sql)?;
    Ok(())
}

/// What a database answers, read through the current code: every row of the item store, the
/// jobs and the receipts, and the sales store's rollups of each grain, by machine and by fleet.
async fn answers(dir: &Path) -> Result<Vec<String>, BoxError> {
    let db = Database::open(dir)?;
    let mut out = Vec::new();
    for sql in [
        "SELECT pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, version, ttl, attrs FROM items ORDER BY pk, sk",
        "SELECT id, payload, attempts, visible_at, dead, created_at FROM jobs ORDER BY id",
        "SELECT machine_id, event_id, kind, at, received_at FROM event_receipts ORDER BY 1, 2",
        "SELECT * FROM sales_ledger ORDER BY machine_id, day, at, event_id",
        "SELECT machine_id FROM sales_machines ORDER BY 1",
    ] {
        let rows = db
            .read(move |c| -> rusqlite::Result<Vec<String>> {
                let mut stmt = c.prepare(sql)?;
                let n = stmt.column_count();
                let rows = stmt.query_map([], |r| {
                    (0..n)
                        .map(|i| r.get_ref(i).map(literal))
                        .collect::<rusqlite::Result<Vec<_>>>()
                        .map(|v| v.join(","))
                })?;
                rows.collect()
            })
            .await??;
        out.push(format!("{sql}: {rows:?}"));
    }
    let machines: Vec<String> = db
        .read(|c| -> rusqlite::Result<Vec<String>> {
            c.prepare("SELECT DISTINCT machine_id FROM sales_ledger ORDER BY 1")?
                .query_map([], |r| r.get(0))?
                .collect()
        })
        .await??;
    let sales = SqliteSalesStore::new(db.clone());
    let (from, to) = (
        NaiveDate::from_ymd_opt(2020, 1, 1).unwrap_or_default(),
        NaiveDate::from_ymd_opt(2030, 12, 31).unwrap_or_default(),
    );
    for grain in [
        Grain::Day,
        Grain::DayProduct,
        Grain::Month,
        Grain::MonthProduct,
    ] {
        let q = RollupQuery {
            machine_ids: machines.clone(),
            from,
            to,
            grain,
        };
        out.push(format!("{grain:?} {:?}", sales.rollups(&q).await?));
        out.push(format!(
            "{grain:?} fleet {:?}",
            sales.fleet_rollups(&q).await?
        ));
    }
    Ok(out)
}

/// A value as an SQL literal.
fn literal(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".into(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => format!("{f:?}"),
        ValueRef::Text(t) => format!("'{}'", String::from_utf8_lossy(t).replace('\'', "''")),
        ValueRef::Blob(b) => {
            let mut s = String::with_capacity(b.len() * 2 + 3);
            s.push_str("X'");
            for byte in b {
                let _ = write!(s, "{byte:02x}");
            }
            s.push('\'');
            s
        }
    }
}

#[tokio::test]
async fn every_released_schema_migrates_to_the_same_answers() {
    let all = versions();
    assert_eq!(
        all,
        (1..=MIGRATIONS.len()).collect::<Vec<_>>(),
        "a schema version has no fixture: run `cargo test -p vendfleet-local -- --ignored \
         write_schema_fixtures` and commit tests/fixtures/"
    );
    let tmp = tempfile::tempdir().unwrap();
    let newest = *all.last().unwrap();
    let mut expected = None;
    for version in all.iter().rev() {
        let dir = tmp.path().join(format!("v{version}"));
        load(&read_fixture(*version), &dir).unwrap();
        let before = vendfleet_adapters_embedded::inspect_copy(
            &dir.join(vendfleet_adapters_embedded::DATABASE_FILE),
        )
        .unwrap();
        assert_eq!(before.schema_version, *version as i64);
        let got = answers(&dir).await.unwrap();
        let after = vendfleet_adapters_embedded::inspect_copy(
            &dir.join(vendfleet_adapters_embedded::DATABASE_FILE),
        )
        .unwrap();
        assert_eq!(after.schema_version, MIGRATIONS.len() as i64);
        assert_eq!(after.integrity, "ok");
        match &expected {
            None => {
                assert!(
                    got.iter().any(|a| a.len() > 200),
                    "the fixtures hold no fleet"
                );
                expected = Some(got);
            }
            Some(want) => {
                // Versions 1 and 2 had no sales store (nor 1 a job queue): what they held.
                let held = match version {
                    1 => 1,
                    2 => 2,
                    _ => want.len(),
                };
                for (g, w) in got.iter().zip(want).take(held) {
                    if g != w {
                        let at = g.bytes().zip(w.bytes()).take_while(|(a, b)| a == b).count();
                        panic!(
                            "schema v{version} migrated differs from v{newest}: {} … against {} …",
                            g.get(at.saturating_sub(80)..(at + 120).min(g.len()))
                                .unwrap_or(g),
                            w.get(at.saturating_sub(80)..(at + 120).min(w.len()))
                                .unwrap_or(w)
                        );
                    }
                }
            }
        }
    }
}

/// A database of a newer build than this one is refused, not opened.
#[tokio::test]
async fn a_newer_schema_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let db = Database::open(tmp.path()).unwrap();
    drop(db);
    let conn =
        Connection::open(tmp.path().join(vendfleet_adapters_embedded::DATABASE_FILE)).unwrap();
    conn.execute(
        "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, 'later')",
        [MIGRATIONS.len() as i64 + 1],
    )
    .unwrap();
    drop(conn);
    let err = Database::open(tmp.path()).unwrap_err().to_string();
    assert!(err.contains("newer than this build"), "{err}");
}

/// Writes the missing fixtures (see the module's comment).
#[tokio::test]
#[ignore = "writes tests/fixtures/: run by name when a migration is added"]
async fn write_schema_fixtures() {
    std::fs::create_dir_all(fixtures()).unwrap();
    let have = versions();
    let tmp = tempfile::tempdir().unwrap();
    match have.last() {
        None => first_fixtures(tmp.path()).await.unwrap(),
        Some(&newest) => {
            let dir = tmp.path().join("forward");
            load(&read_fixture(newest), &dir).unwrap();
            drop(Database::open(&dir).unwrap());
            let conn =
                Connection::open(dir.join(vendfleet_adapters_embedded::DATABASE_FILE)).unwrap();
            for version in newest + 1..=MIGRATIONS.len() {
                // The migration of each version in one step would be the same rows: the newest
                // schema holds them all.
                assert_eq!(
                    version,
                    MIGRATIONS.len(),
                    "fixtures of versions between are missing"
                );
                write_fixture(version, &dump(&conn).unwrap()).unwrap();
            }
        }
    }
}

/// Versions 1 to 9 from a seeded fleet: a control database at the current schema, then each
/// version's tables filled from it as that version held them, and the migrations applied one by
/// one up to that version.
async fn first_fixtures(tmp: &Path) -> Result<(), BoxError> {
    use chrono::{DateTime, Utc};
    use std::sync::Arc;
    use vendfleet_app::config::{AuthSettings, Secret};
    use vendfleet_app::ports::{JobQueue as _, ManualClock};
    let control = tmp.join("control");
    let now: DateTime<Utc> = "2026-03-30T21:30:00Z".parse()?;
    let embedded = vendfleet_adapters_embedded::Embedded::open(&control, b"fixtures")?;
    let app = vendfleet_app::App::new(
        embedded.adapters(),
        Arc::new(ManualClock::new(now)),
        AuthSettings::with_secret(Secret::new("x".repeat(32))),
        Default::default(),
    );
    app.auth
        .ensure_admin("admin@fixtures.test", "fixtures-password-1")
        .await?;
    let user = app
        .users
        .directory()
        .user_by_email("admin@fixtures.test")
        .await?
        .ok_or("no admin")?;
    let admin = app.auth.principal(user).await?;
    let opts = crate::demo::Options {
        machines: 3,
        days: 2,
        seed: 32,
    };
    crate::demo::seed(&app, &admin, opts).await?;
    embedded.queue.enqueue(r#"{"kind":"fixture"}"#).await?;
    let sales = SqliteSalesStore::new(embedded.database.clone());
    let machines: Vec<String> = embedded
        .database
        .read(|c| -> rusqlite::Result<Vec<String>> {
            c.prepare("SELECT DISTINCT machine_id FROM sales_ledger ORDER BY 1")?
                .query_map([], |r| r.get(0))?
                .collect()
        })
        .await??;
    let product_rows = |grain| {
        let q = RollupQuery {
            machine_ids: machines.clone(),
            from: NaiveDate::from_ymd_opt(2020, 1, 1).unwrap_or_default(),
            to: NaiveDate::from_ymd_opt(2030, 12, 31).unwrap_or_default(),
            grain,
        };
        let sales = sales.clone();
        async move { sales.rollups(&q).await }
    };
    let day_products = product_rows(Grain::DayProduct).await?;
    let month_products = product_rows(Grain::MonthProduct).await?;
    drop(app);
    for version in 1..=MIGRATIONS.len() {
        let path = tmp.join(format!("v{version}.db"));
        let conn = Connection::open(&path)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
        )?;
        conn.execute(
            "ATTACH DATABASE ?1 AS control",
            [control
                .join(vendfleet_adapters_embedded::DATABASE_FILE)
                .to_string_lossy()],
        )?;
        for step in 1..=version {
            conn.execute_batch(&MIGRATIONS[step - 1])?;
            conn.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES (?1, '2026-03-30T21:30:00+00:00')",
                [step as i64],
            )?;
            // Each table filled once it exists, as the version that made it wrote it.
            match step {
                1 => {
                    conn.execute_batch("INSERT INTO items SELECT * FROM control.items")?;
                    if version < 4 {
                        // Before 4 the app wrote no selection or held-read index entries.
                        conn.execute_batch(
                            "UPDATE items SET gsi1pk = NULL, gsi1sk = NULL WHERE gsi1pk = 'SELECTIONS';
                             UPDATE items SET gsi2pk = NULL, gsi2sk = NULL WHERE gsi2pk = 'AUDITS#HELD';",
                        )?;
                    }
                }
                2 => conn.execute_batch("INSERT INTO jobs SELECT * FROM control.jobs")?,
                3 => {
                    conn.execute_batch(
                        "INSERT INTO event_receipts SELECT machine_id, event_id, kind, at, received_at FROM control.event_receipts;
                         INSERT INTO sales_ledger SELECT * FROM control.sales_ledger;
                         INSERT INTO sales_day SELECT * FROM control.sales_day;
                         INSERT INTO sales_month SELECT * FROM control.sales_month;",
                    )?;
                    for (table, rows, month) in [
                        ("sales_day_product", &day_products, false),
                        ("sales_month_product", &month_products, true),
                    ] {
                        let mut insert = conn.prepare(&format!(
                            "INSERT INTO {table} VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
                        ))?;
                        for r in rows.iter() {
                            let period = if month {
                                r.date.format("%Y%m").to_string()
                            } else {
                                r.date.format("%Y%m%d").to_string()
                            }
                            .parse::<i64>()?;
                            let f = &r.figures;
                            insert.execute(rusqlite::params![
                                r.machine_id,
                                period,
                                r.product_id.clone().unwrap_or_default(),
                                f.quantity,
                                f.sales_minor,
                                f.sales_excl_tax_minor,
                                f.cash_minor,
                                f.cashless_minor,
                                f.free_quantity,
                                f.test_quantity,
                                f.transactions,
                            ])?;
                        }
                    }
                }
                7 => conn.execute_batch(
                    "UPDATE event_receipts SET fingerprint = c.fingerprint, payload = c.payload
                     FROM control.event_receipts AS c
                     WHERE c.machine_id = event_receipts.machine_id AND c.event_id = event_receipts.event_id",
                )?,
                _ => {}
            }
        }
        conn.execute_batch("DETACH DATABASE control")?;
        write_fixture(version, &dump(&conn)?)?;
    }
    Ok(())
}

/// The database as SQL: each table's statement and rows, then the indexes.
fn dump(conn: &Connection) -> Result<String, BoxError> {
    let mut out = String::from("-- A Vendfleet database (see src/ops/upgrades.rs).\nBEGIN;\n");
    let objects: Vec<(String, String, String)> = conn
        .prepare(
            "SELECT type, name, sql FROM sqlite_schema
             WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (kind, name, sql) in &objects {
        writeln!(out, "{sql};")?;
        if kind != "table" {
            continue;
        }
        // In key order (WITHOUT ROWID tables) or rowid order: the same dump for the same rows.
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{name}\""))?;
        let n = stmt.column_count();
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let values = (0..n)
                .map(|i| r.get_ref(i).map(literal))
                .collect::<rusqlite::Result<Vec<_>>>()?;
            writeln!(out, "INSERT INTO \"{name}\" VALUES ({});", values.join(","))?;
        }
    }
    out.push_str("COMMIT;\n");
    Ok(out)
}

/// A backup made by an older release restores migrated, answering what the newest schema does.
#[tokio::test]
async fn a_backup_of_an_older_schema_restores_migrated_forward() {
    let tmp = tempfile::tempdir().unwrap();
    let old = tmp.path().join("old");
    load(&read_fixture(5), &old).unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("secrets.json"), b"{}").unwrap();
    let copy = old.join(vendfleet_adapters_embedded::DATABASE_FILE);
    let made = crate::backup::archive(
        &copy,
        &data,
        &tmp.path().join("backups"),
        chrono::Utc::now(),
    )
    .unwrap();
    assert_eq!(made.manifest.schema_version, 5);
    let restored = tmp.path().join("restored");
    let r = crate::backup::restore(&made.path, &restored, false, chrono::Utc::now()).unwrap();
    assert_eq!(r.schema_version, MIGRATIONS.len() as i64);
    assert!(restored.join("secrets.json").is_file());
    let newest = tmp.path().join("newest");
    load(&read_fixture(MIGRATIONS.len()), &newest).unwrap();
    assert_eq!(
        answers(&restored).await.unwrap(),
        answers(&newest).await.unwrap()
    );
}
