//! The sales engine: every machine's figures by day held as columns in memory, so that a report
//! costs what its answer covers (the chosen machines × the span's days) instead of a read and
//! decode of the store's rollups.
//!
//! - **Built lazily** from the store's machine × day rollups on first use (or at start-up:
//!   [`super::SalesService::warm`]); the store stays the truth, and a restart rebuilds it.
//! - **Kept up to date in the commit's step:** a commit through the sales service takes the
//!   commit gate shared, writes the store, then adds its vends to the columns; a build takes the
//!   gate alone, so no commit is counted twice or lost between the store read and the columns.
//!   The commit runs in a task of its own, so a caller that goes away (a closed connection)
//!   cannot stop it between the store and the columns.
//! - **Only where this process is the store's sole writer** ([`SalesStore::sole_writer`]: the
//!   embedded SQLite store, written only by its server). On AWS each Lambda would see only its
//!   own commits, so reports there read the store's rollups as before.
//!
//! Memory: one [`Figures`] (64 bytes) per machine and day with a sale, free or test vend: a
//! year of 1,000 machines is about 23 MB (10,000 machines: 234 MB).

use crate::ports::sales::{Grain, RollupQuery};
use crate::ports::{SalesStore, StoreError};
use chrono::NaiveDate;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, RwLock};
use vendfleet_domain::sales::{Figures, VendFact};

/// The columns and the gate that keeps them in step with the store.
pub(crate) struct Engine {
    /// Commits hold it shared; a build holds it alone.
    gate: tokio::sync::RwLock<()>,
    columns: RwLock<Option<Columns>>,
}

/// Every machine's figures by day.
#[derive(Default)]
struct Columns {
    /// Machine id → its index in every day's column.
    index: HashMap<String, usize>,
    /// By local day: the figures of machine `i` at `i` (a column shorter than the index is
    /// zero beyond its end).
    days: BTreeMap<NaiveDate, Vec<Figures>>,
}

impl Columns {
    fn add(&mut self, machine_id: &str, date: NaiveDate, f: &Figures) {
        let next = self.index.len();
        let i = *self.index.entry(machine_id.to_string()).or_insert(next);
        let column = self.days.entry(date).or_default();
        if column.len() <= i {
            column.resize(i + 1, Figures::default());
        }
        column[i].add(f);
    }
}

/// A commit's vends summed by machine and day: what the columns add.
pub(crate) struct Delta(Vec<(String, NaiveDate, Figures)>);

impl Delta {
    pub fn of(vends: &[VendFact]) -> Delta {
        let mut by: BTreeMap<(&str, NaiveDate), Figures> = BTreeMap::new();
        for v in vends {
            by.entry((v.machine_id.as_str(), v.local_date))
                .or_default()
                .add(&Figures::of(v));
        }
        Delta(
            by.into_iter()
                .map(|((m, d), f)| (m.to_string(), d, f))
                .collect(),
        )
    }
}

/// Days far enough apart to hold any stored rollup.
const FIRST_DAY: NaiveDate = NaiveDate::from_ymd_opt(1970, 1, 1).expect("a date");
const LAST_DAY: NaiveDate = NaiveDate::from_ymd_opt(9999, 12, 31).expect("a date");

impl Engine {
    pub fn new() -> Engine {
        Engine {
            gate: tokio::sync::RwLock::new(()),
            columns: RwLock::new(None),
        }
    }

    /// Holds the gate shared while `write` stores a commit, then adds `delta` to the columns
    /// (when built: a build after this reads the commit from the store).
    pub async fn commit<F>(self: &Arc<Self>, delta: Delta, write: F) -> Result<(), StoreError>
    where
        F: std::future::Future<Output = Result<(), StoreError>> + Send + 'static,
    {
        let engine = self.clone();
        tokio::spawn(async move {
            let _shared = engine.gate.read().await;
            write.await?;
            if let Some(columns) = engine.write_columns().as_mut() {
                for (machine, date, f) in &delta.0 {
                    columns.add(machine, *date, f);
                }
            }
            Ok(())
        })
        .await
        .map_err(|e| StoreError::Backend(format!("a commit's task failed: {e}")))?
    }

    /// Builds the columns from the store's day rollups of `machine_ids` unless built (a
    /// machine with no rollups yet joins them with its first commit).
    pub async fn build(
        &self,
        store: &dyn SalesStore,
        machine_ids: Vec<String>,
    ) -> Result<(), StoreError> {
        if self.read_columns().is_some() {
            return Ok(());
        }
        let _alone = self.gate.write().await;
        if self.read_columns().is_some() {
            return Ok(());
        }
        let rows = store
            .rollups(&RollupQuery {
                machine_ids,
                from: FIRST_DAY,
                to: LAST_DAY,
                grain: Grain::Day,
            })
            .await?;
        let mut columns = Columns::default();
        for r in &rows {
            columns.add(&r.machine_id, r.date, &r.figures);
        }
        *self.write_columns() = Some(columns);
        Ok(())
    }

    /// Whether the columns are built.
    pub fn is_built(&self) -> bool {
        self.read_columns().is_some()
    }

    /// For each of `machines` (in order), its figures over the days `from..=to` summed into
    /// `buckets` buckets, `bucket` giving each day's: `out[m * buckets + b]`. `None` when the
    /// columns are not built.
    pub fn sums(
        &self,
        machines: &[&str],
        from: NaiveDate,
        to: NaiveDate,
        buckets: usize,
        bucket: impl Fn(NaiveDate) -> usize,
    ) -> Option<Vec<Figures>> {
        let guard = self.read_columns();
        let columns = guard.as_ref()?;
        let mut out = vec![Figures::default(); machines.len() * buckets];
        if from > to {
            return Some(out);
        }
        let slots: Vec<Option<usize>> = machines
            .iter()
            .map(|m| columns.index.get(*m).copied())
            .collect();
        for (date, column) in columns.days.range(from..=to) {
            let b = bucket(*date);
            for (k, slot) in slots.iter().enumerate() {
                if let Some(f) = slot.and_then(|i| column.get(i)) {
                    out[k * buckets + b].add(f);
                }
            }
        }
        Some(out)
    }

    fn read_columns(&self) -> std::sync::RwLockReadGuard<'_, Option<Columns>> {
        self.columns.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_columns(&self) -> std::sync::RwLockWriteGuard<'_, Option<Columns>> {
        self.columns.write().unwrap_or_else(|e| e.into_inner())
    }
}
