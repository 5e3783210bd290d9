//! The sales store on SQLite: typed tables in the same database file as the item store, so one
//! commit — receipts, ledger rows, the four machine rollups, the fleet's four, the machines
//! with vends and the item writes — is one transaction.

use crate::db::Database;
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate};
use rusqlite::{params, OptionalExtension};
use rustc_hash::FxHashSet;
use sql::backend;
use std::collections::{BTreeSet, HashMap};

mod read;
mod sql;
mod write;

use read::*;
use vendfleet_app::ports::sales::{
    Commit, FleetRollups, RollupQuery, RollupRow, SaleTime, SalesStore, StoredReceipt, VendInstant,
};
use vendfleet_app::ports::StoreError;
use vendfleet_domain::events::VendClass;
use vendfleet_domain::sales::{day_number, VendFact};
use write::*;

/// Machines from which the transaction log's page of a day is read through the time index
/// rather than machine by machine. On a day of the bench fleet 1,000 machines hold about
/// 30,000 vends and one machine about 30; the threshold between is a judgment, not measured.
const MACHINES_BY_KEY: usize = 64;

/// The page of a day of the transaction log for a few machines (`?2`, a JSON list) and maybe a
/// few products (`?4`). `+at`: the time index would give the order without a sort, but SQLite
/// would then visit every vend of the day to find the few machines'.
const FEW_MACHINES_PAGE: &str = "WHERE day = ?1 \
     AND machine_id IN (SELECT value FROM json_each(?2)) AND class = ?3 \
     AND (?4 IS NULL OR product_id IN (SELECT value FROM json_each(?4))) \
     ORDER BY +at DESC, machine_id, event_id LIMIT ?5 OFFSET ?6";

/// The sales store on the embedded database.
#[derive(Debug, Clone)]
pub struct SqliteSalesStore {
    db: Database,
}

impl SqliteSalesStore {
    /// A sales store on `db` (migrations already applied by [`Database::open`]).
    pub fn new(db: Database) -> Self {
        SqliteSalesStore { db }
    }

    /// [`read_rollups`] of each query on one read connection, in one hop to the blocking pool
    /// (none for no machine or an empty range).
    async fn rollups_read(
        &self,
        queries: &[RollupQuery],
        summed: bool,
    ) -> Result<Vec<Vec<RollupRow>>, StoreError> {
        let empty = |q: &RollupQuery| q.machine_ids.is_empty() || q.from > q.to;
        if queries.iter().all(empty) {
            return Ok(vec![Vec::new(); queries.len()]);
        }
        let queries = queries.to_vec();
        self.db
            .read(move |c| {
                queries
                    .iter()
                    .map(|q| {
                        if empty(q) {
                            Ok(Vec::new())
                        } else {
                            read_rollups(c, q, summed)
                        }
                    })
                    .collect()
            })
            .await
            .map_err(backend)?
    }

    /// The one answer of [`SqliteSalesStore::rollups_read`] of one query.
    async fn rollups_read_one(
        &self,
        query: &RollupQuery,
        summed: bool,
    ) -> Result<Vec<RollupRow>, StoreError> {
        let mut answers = self
            .rollups_read(std::slice::from_ref(query), summed)
            .await?;
        Ok(answers.pop().unwrap_or_default())
    }
}

#[async_trait]
impl SalesStore for SqliteSalesStore {
    fn commit_limit(&self) -> usize {
        usize::MAX
    }

    fn cost(&self, commit: &Commit) -> usize {
        commit.receipts.len() + commit.vends.len() + commit.writes.len()
    }

    async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        if commit.is_empty() {
            return Ok(());
        }
        self.db
            .write(move |c| write_commit(c, &commit))
            .await
            .map_err(backend)?
    }

    async fn receipts(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashMap<String, StoredReceipt>, StoreError> {
        if event_ids.is_empty() {
            return Ok(HashMap::new());
        }
        let machine_id = machine_id.to_string();
        let ids = event_ids.to_vec();
        self.db
            .read(move |c| {
                let mut stmt = c
                    .prepare_cached(
                        "SELECT fingerprint, payload, received_at FROM event_receipts \
                         WHERE machine_id = ?1 AND event_id = ?2",
                    )
                    .map_err(backend)?;
                let mut found = HashMap::new();
                for id in ids {
                    let row = stmt
                        .query_row(params![machine_id, id], |r| {
                            Ok((
                                r.get::<_, Option<String>>(0)?,
                                r.get::<_, Option<String>>(1)?,
                                r.get::<_, i64>(2)?,
                            ))
                        })
                        .optional()
                        .map_err(backend)?;
                    if let Some((fingerprint, payload, received_at)) = row {
                        found.insert(
                            id,
                            StoredReceipt {
                                fingerprint,
                                payload,
                                received_at: DateTime::from_timestamp_millis(received_at)
                                    .unwrap_or_default(),
                            },
                        );
                    }
                }
                Ok(found)
            })
            .await
            .map_err(backend)?
    }

    async fn ledger(
        &self,
        machine_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        self.ledger_of(&[machine_id.to_string()], from, to).await
    }

    async fn ledger_of(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        if machine_ids.is_empty() || from > to {
            return Ok(Vec::new());
        }
        let machines = serde_json::to_string(machine_ids).map_err(backend)?;
        let (from, to) = (day_number(from), day_number(to));
        self.db
            .read(move |c| read_ledger(c, &machines, from, to))
            .await
            .map_err(backend)?
    }

    /// Few machines: one query, each machine's day from the day index, the sales of the
    /// products asked, ordered and sliced by SQLite. Many: the day's keys newest first from the time index (it holds them: no row is
    /// read for a vend of a machine not chosen), each chosen machine's vend then read by its
    /// key, until the page is full.
    async fn sales_page(
        &self,
        machine_ids: &[String],
        day: NaiveDate,
        products: Option<&BTreeSet<String>>,
        skip: usize,
        take: usize,
    ) -> Result<Vec<VendFact>, StoreError> {
        if machine_ids.is_empty() || take == 0 {
            return Ok(Vec::new());
        }
        let day = day_number(day);
        let sale = class_code(VendClass::Sale);
        if machine_ids.len() >= MACHINES_BY_KEY {
            let machines: FxHashSet<String> = machine_ids.iter().cloned().collect();
            let products = products.cloned();
            return self
                .db
                .read(move |c| {
                    let chosen = (sale, products.as_ref());
                    page_by_time(c, day, &machines, chosen, skip, take)
                })
                .await
                .map_err(backend)?;
        }
        let machines = serde_json::to_string(machine_ids).map_err(backend)?;
        let products = products
            .map(serde_json::to_string)
            .transpose()
            .map_err(backend)?;
        let (take, skip) = (
            i64::try_from(take).unwrap_or(i64::MAX),
            i64::try_from(skip).unwrap_or(i64::MAX),
        );
        self.db
            .read(move |c| {
                read_vends(
                    c,
                    FEW_MACHINES_PAGE,
                    params![day, machines, sale, products, take, skip],
                )
            })
            .await
            .map_err(backend)?
    }

    /// Each machine's sales, read along its part of the primary key.
    async fn sale_times(&self, machine_ids: &[String]) -> Result<Vec<SaleTime>, StoreError> {
        if machine_ids.is_empty() {
            return Ok(Vec::new());
        }
        let machines = serde_json::to_string(machine_ids).map_err(backend)?;
        let sale = class_code(VendClass::Sale);
        self.db
            .read(move |c| read_sale_times(c, &machines, sale))
            .await
            .map_err(backend)?
    }

    /// Each key by the primary key's prefix, in one statement on the calling thread (a page's
    /// few rows).
    async fn vends_at(&self, keys: &[VendInstant]) -> Result<Vec<VendFact>, StoreError> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<(&str, i64, i64)> = keys
            .iter()
            .map(|(m, day, at)| (m.as_str(), day_number(*day), at.timestamp_millis()))
            .collect();
        let keys = serde_json::to_string(&keys).map_err(backend)?;
        self.db
            .read_now(|c| read_vends_of(c, VENDS_AT, params![keys]))
            .map_err(backend)?
    }

    async fn rollups(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        self.rollups_read_one(query, false).await
    }

    /// The server owns its data directory: no other process writes the database.
    fn sole_writer(&self) -> bool {
        true
    }

    async fn rollups_summed(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        self.rollups_read_one(query, true).await
    }

    async fn rollups_many(
        &self,
        queries: &[RollupQuery],
        summed: bool,
    ) -> Result<Vec<Vec<RollupRow>>, StoreError> {
        self.rollups_read(queries, summed).await
    }

    async fn fleet_rollups(&self, query: &RollupQuery) -> Result<Option<FleetRollups>, StoreError> {
        if query.from > query.to {
            return Ok(Some(FleetRollups::default()));
        }
        let query = query.clone();
        self.db
            .read(move |c| read_fleet(c, &query))
            .await
            .map_err(backend)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::StatementStatus;
    use vendfleet_domain::sales::day_from_number;

    /// The log's page statements are prepared once a connection: a new page's parameters do
    /// not make SQLite compile the statement again (it would, were its plan chosen from their
    /// values: the reader connections turn that off).
    #[test]
    fn the_page_statements_are_not_compiled_again_for_new_parameters() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(dir.path()).unwrap();
        let recompiled = db
            .read_now(|c| {
                let products: [Option<&str>; 3] = [None, Some(r#"["p-1"]"#), None];
                for (day, p) in (20_000i64..).zip(products) {
                    let args = params![day, r#"["m-1","m-2"]"#, 0, p, 25, day % 3];
                    read_vends(c, FEW_MACHINES_PAGE, args).unwrap();
                    read_vends(c, VEND_BY_KEY, params!["m-1", day, day * 7, "e-1"]).unwrap();
                }
                let status = |tail: &str| {
                    let stmt = c.prepare_cached(&format!("{VENDS}{tail}")).unwrap();
                    stmt.get_status(StatementStatus::RePrepare)
                };
                (status(FEW_MACHINES_PAGE), status(VEND_BY_KEY))
            })
            .unwrap();
        assert_eq!(recompiled, (0, 0));
    }

    /// A reader maps the whole file, not SQLite's default ceiling of 2 GiB: the build raises
    /// it (`.cargo/config.toml`); without that, a year's ledger of a large fleet is read by
    /// read calls past its first 2 GiB.
    #[test]
    fn readers_map_more_than_the_default_ceiling() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(dir.path()).unwrap();
        let mapped: i64 = db
            .read_now(|c| c.query_row("PRAGMA mmap_size", [], |r| r.get(0)))
            .unwrap()
            .unwrap();
        assert!(mapped > 1 << 31, "{mapped}");
    }

    /// The vends of a page's keys come key after key, each key's by event id, with the
    /// vends of other instants, machines and days left out.
    #[test]
    fn vends_at_reads_each_key_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(dir.path()).unwrap();
        db.read_now(|_| ()).unwrap();
        let insert = |m: &str, day: i64, at: i64, e: &str| {
            format!(
                "INSERT INTO sales_ledger (machine_id, day, at, event_id, location_id, selection, \
                 product_id, quantity, revenue, net, payment, class) \
                 VALUES ('{m}', {day}, {at}, '{e}', NULL, 'A1', 'p', 1, 100, 90, 0, 0);"
            )
        };
        let rows = [
            insert("m-1", 20_261_130, 5, "e-b"),
            insert("m-1", 20_261_130, 5, "e-a"),
            insert("m-1", 20_261_130, 6, "e-c"),
            insert("m-2", 20_261_130, 5, "e-d"),
            insert("m-1", 20_261_201, 5, "e-e"),
        ]
        .concat();
        let path = dir.path().join(crate::db::DATABASE_FILE);
        rusqlite::Connection::open(path)
            .unwrap()
            .execute_batch(&rows)
            .unwrap();
        let store = SqliteSalesStore::new(db);
        let day = day_from_number(20_261_130).unwrap();
        let at = |ms| DateTime::from_timestamp_millis(ms).unwrap();
        let keys = vec![
            ("m-2".to_string(), day, at(5)),
            ("m-1".to_string(), day, at(5)),
            ("m-3".to_string(), day, at(5)),
        ];
        let got = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(store.vends_at(&keys))
            .unwrap();
        let ids: Vec<&str> = got.iter().map(|v| v.event_id.as_str()).collect();
        assert_eq!(ids, ["e-d", "e-a", "e-b"]);
    }
}
