//! The engine's columns: every machine's figures by day (and by product and day) at three
//! grains, built from the store, kept in step with each commit, and the log's index beside them.

use super::cells::{Cell, DayCells};
use super::hours::{DayHours, KeptHours, Zones};
use super::levels::{self, Levels};
use super::log::{Pick, SaleLog};
use super::slots::KnownSlots;
use crate::ports::sales::{Grain, RollupQuery};
use crate::ports::{SalesStore, StoreError};
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, RwLock};
use vendfleet_domain::events::VendClass;
use vendfleet_domain::sales::{Figures, VendFact};

/// The columns and the gate that keeps them in step with the store.
pub(crate) struct Engine {
    /// Commits hold it shared; a build holds it alone.
    pub(super) gate: tokio::sync::RwLock<()>,
    pub(super) columns: RwLock<Option<Columns>>,
    /// The hours of the few recent days the dashboard compares with (`hours.rs`).
    pub(super) hours: KeptHours,
    /// The slots of the shared machine lists lately asked about.
    pub(super) known: KnownSlots,
}

/// Every machine's figures by day, and by product and day.
#[derive(Default)]
pub(super) struct Columns {
    /// Machine id → its index in every day's column.
    pub(super) index: foldhash::HashMap<String, usize>,
    /// The machine ids by index.
    pub(super) machine_ids: Vec<String>,
    /// By local day, week and month: the figures of machine `i` at `i` (a column shorter than
    /// the index is zero beyond its end).
    pub(super) days: Levels<Vec<Figures>>,
    /// By local day, week and month: every machine's figures summed (a total of most of the
    /// fleet sums these, less the machines left out).
    pub(super) fleet: Levels<Figures>,
    /// Product id (empty: no known product) → its number in the cells.
    pub(super) product_index: foldhash::HashMap<String, u32>,
    pub(super) products: Vec<String>,
    /// By local day, week and month: a cell per machine and product sold, free or tested.
    pub(super) day_products: Levels<DayCells>,
    /// By local day, week and month, by product number: every machine's figures summed (a
    /// question of most of the fleet by product sums these, less the machines left out).
    pub(super) fleet_products: Levels<Vec<Figures>>,
    /// False once a figure did not fit a cell: product reports then read the store.
    pub(super) products_ok: bool,
    /// The transaction log's index (`log.rs`), once its build began.
    pub(super) log: Option<SaleLog>,
}

impl Columns {
    pub(super) fn machine(&mut self, machine_id: &str) -> usize {
        if let Some(&i) = self.index.get(machine_id) {
            return i;
        }
        let next = self.index.len();
        self.index.insert(machine_id.to_string(), next);
        self.machine_ids.push(machine_id.to_string());
        next
    }

    /// The number of `product` in the cells (numbered on first sight).
    pub(super) fn product_number(&mut self, product: &str) -> u32 {
        if let Some(&p) = self.product_index.get(product) {
            return p;
        }
        let next = self.products.len() as u32;
        self.product_index.insert(product.to_string(), next);
        self.products.push(product.to_string());
        next
    }

    pub(super) fn add(&mut self, machine_id: &str, date: NaiveDate, f: &Figures) {
        let i = self.machine(machine_id);
        self.fleet.each_mut(date, |total| total.add(f));
        self.days.each_mut(date, |column| {
            if column.len() <= i {
                column.resize(i + 1, Figures::default());
            }
            column[i].add(f);
        });
    }

    /// The number of `product` in the cells (numbered on first sight), its fleet sum of
    /// `date` grown by `f`.
    pub(super) fn product(&mut self, date: NaiveDate, product: &str, f: &Figures) -> u32 {
        let p = self.product_number(product);
        self.fleet_products.each_mut(date, |fleet| {
            if fleet.len() <= p as usize {
                fleet.resize(p as usize + 1, Figures::default());
            }
            fleet[p as usize].add(f);
        });
        p
    }

    pub(super) fn add_product(
        &mut self,
        machine_id: &str,
        date: NaiveDate,
        product: &str,
        f: &Figures,
    ) {
        let machine = self.machine(machine_id);
        let p = self.product(date, product, f);
        let mut ok = true;
        self.day_products.each_mut(date, |cells| {
            let cell = cells.cell_mut(machine, p);
            match cell.plus(f) {
                Some(sum) => *cell = sum,
                None => ok = false,
            }
        });
        self.products_ok &= ok;
    }
}

/// Columns being built: each day's product cells gathered in any order, put in order once.
#[derive(Default)]
pub(super) struct Gathered {
    pub(super) columns: Columns,
    pub(super) day_products: BTreeMap<NaiveDate, Vec<(u32, Cell)>>,
}

impl Gathered {
    /// A machine's figures of one product and day (each met once in a build).
    pub(super) fn add_product(
        &mut self,
        machine_id: &str,
        date: NaiveDate,
        product: &str,
        f: &Figures,
    ) {
        let columns = &mut self.columns;
        let machine = columns.machine(machine_id) as u32;
        let p = columns.product(date, product, f);
        let Some(cell) = (Cell {
            product: p,
            ..Cell::default()
        })
        .plus(f) else {
            columns.products_ok = false;
            return;
        };
        self.day_products
            .entry(date)
            .or_default()
            .push((machine, cell));
    }

    pub(super) fn finish(self) -> Columns {
        let mut columns = self.columns;
        let days = self
            .day_products
            .into_iter()
            .map(|(date, pairs)| (date, DayCells::from_unordered(pairs)))
            .collect();
        match Levels::from_days(days, levels::sum_cells) {
            Some(cells) => columns.day_products = cells,
            None => columns.products_ok = false,
        }
        columns
    }
}

/// A commit's vends summed by machine and day, and by machine, day and product: what the
/// columns add.
pub(crate) struct Delta {
    pub(super) days: Vec<(String, NaiveDate, Figures)>,
    pub(super) products: Vec<(String, NaiveDate, String, Figures)>,
    /// The sales (class sale), for the log's index: machine, day, instant, product.
    pub(super) sales: Vec<(String, NaiveDate, DateTime<Utc>, String)>,
}

impl Delta {
    pub fn of(vends: &[VendFact]) -> Delta {
        let mut days: BTreeMap<(&str, NaiveDate), Figures> = BTreeMap::new();
        let mut products: BTreeMap<(&str, NaiveDate, &str), Figures> = BTreeMap::new();
        for v in vends {
            let f = Figures::of(v);
            days.entry((&v.machine_id, v.local_date))
                .or_default()
                .add(&f);
            products
                .entry((&v.machine_id, v.local_date, &v.product_id))
                .or_default()
                .add(&f);
        }
        let sales = vends
            .iter()
            .filter(|v| v.class == VendClass::Sale)
            .map(|v| {
                let (m, p) = (v.machine_id.clone(), v.product_id.clone());
                (m, v.local_date, v.at, p)
            })
            .collect();
        Delta {
            sales,
            days: days
                .into_iter()
                .map(|((m, d), f)| (m.to_string(), d, f))
                .collect(),
            products: products
                .into_iter()
                .map(|((m, d, p), f)| (m.to_string(), d, p.to_string(), f))
                .collect(),
        }
    }
}

/// Days far enough apart to hold any stored rollup.
const FIRST_DAY: NaiveDate = NaiveDate::from_ymd_opt(1970, 1, 1).expect("a date");
const LAST_DAY: NaiveDate = NaiveDate::from_ymd_opt(9999, 12, 31).expect("a date");

/// Machines whose product rollups a build reads at once (its memory: their rows as rows).
const BUILD_BATCH: usize = 50;

/// Machines whose sales the log index's build reads at once, commits waiting meanwhile (on the
/// bench fleet about 275,000 sales, a few tenths of a second).
pub(super) const LOG_BATCH: usize = 25;

impl Engine {
    pub fn new() -> Engine {
        Engine {
            gate: tokio::sync::RwLock::new(()),
            columns: RwLock::new(None),
            hours: KeptHours::default(),
            known: KnownSlots::default(),
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
            engine
                .hours
                .drop_days(delta.days.iter().map(|(_, date, _)| *date));
            if let Some(columns) = engine.write_columns().as_mut() {
                for (machine, date, f) in &delta.days {
                    columns.add(machine, *date, f);
                }
                for (machine, date, product, f) in &delta.products {
                    columns.add_product(machine, *date, product, f);
                }
                if columns.log.is_some() {
                    for (machine, date, at, product) in &delta.sales {
                        let (slot, p) = (columns.machine(machine), columns.product_number(product));
                        if let Some(log) = columns.log.as_mut() {
                            log.commit(slot, *date, *at, p);
                        }
                    }
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
        if self.is_built() {
            return Ok(());
        }
        let _alone = self.gate.write().await;
        if self.is_built() {
            return Ok(());
        }
        let mut gathered = Gathered {
            columns: Columns {
                products_ok: true,
                ..Columns::default()
            },
            ..Gathered::default()
        };
        for batch in machine_ids.chunks(BUILD_BATCH) {
            for grain in [Grain::Day, Grain::DayProduct] {
                let query = RollupQuery {
                    machine_ids: batch.to_vec(),
                    from: FIRST_DAY,
                    to: LAST_DAY,
                    grain,
                };
                for r in store.rollups(&query).await? {
                    if grain == Grain::Day {
                        gathered.columns.add(&r.machine_id, r.date, &r.figures);
                    } else {
                        let product = r.product_id.as_deref().unwrap_or_default();
                        gathered.add_product(&r.machine_id, r.date, product, &r.figures);
                    }
                }
            }
        }
        *self.write_columns() = Some(gathered.finish());
        Ok(())
    }

    /// The hours of `day` for `zones`: those kept, else built from `read` (the day's ledger)
    /// while no commit runs, so that none is missed.
    pub async fn hours<F>(
        &self,
        day: NaiveDate,
        zones: &Zones,
        read: F,
    ) -> Result<Arc<DayHours>, StoreError>
    where
        F: std::future::Future<Output = Result<Vec<VendFact>, StoreError>>,
    {
        if let Some(h) = self.hours.get(day, zones) {
            return Ok(h);
        }
        // Built holding the gate alone (commits hold it shared): no commit falls between the
        // read and the keeping.
        let _alone = self.gate.write().await;
        if let Some(h) = self.hours.get(day, zones) {
            return Ok(h);
        }
        let built = Arc::new(DayHours::of(read.await?, zones.clone()));
        self.hours.keep(day, built.clone());
        Ok(built)
    }

    /// Builds the transaction log's index (`log.rs`) unless its build began: every machine
    /// indexed now, [`LOG_BATCH`] at a time, each batch while no commit runs. Nothing when the
    /// columns are not built. A failed read drops the index (a later call builds it again).
    pub async fn build_log(&self, store: &dyn SalesStore) -> Result<(), StoreError> {
        let machines = {
            let mut guard = self.write_columns();
            let Some(columns) = guard.as_mut().filter(|c| c.log.is_none()) else {
                return Ok(());
            };
            columns.log = Some(SaleLog::waiting_for(0..columns.machine_ids.len()));
            columns.machine_ids.clone()
        };
        for (n, batch) in machines.chunks(LOG_BATCH).enumerate() {
            let _alone = self.gate.write().await;
            let sales = match store.sale_times(batch).await {
                Ok(sales) => sales,
                Err(e) => {
                    if let Some(columns) = self.write_columns().as_mut() {
                        columns.log = None;
                    }
                    return Err(e);
                }
            };
            let mut guard = self.write_columns();
            let Some(columns) = guard.as_mut() else {
                return Ok(());
            };
            let read: Vec<_> = sales
                .iter()
                .map(|s| {
                    let slot = columns.machine(&s.machine_id);
                    (
                        slot,
                        s.local_date,
                        s.at,
                        columns.product_number(&s.product_id),
                    )
                })
                .collect();
            let slots: Vec<usize> = (n * LOG_BATCH..n * LOG_BATCH + batch.len()).collect();
            if let Some(log) = columns.log.as_mut() {
                log.read(&slots, read);
            }
        }
        Ok(())
    }

    /// Whether the log's index answers (built, every sale fitted).
    pub fn log_ready(&self) -> bool {
        let guard = self.read_columns();
        guard
            .as_ref()
            .and_then(|c| c.log.as_ref())
            .is_some_and(SaleLog::ready)
    }

    /// Bytes the log's index takes, when it is built.
    pub fn log_bytes(&self) -> Option<usize> {
        let guard = self.read_columns();
        guard.as_ref()?.log.as_ref().map(SaleLog::bytes)
    }

    /// The sales of the machines at `slots` on `day` (of `products`; `None`: all) in the log's order, `take`
    /// after the first `skip`, from the log's index: each as its machine's id, its instant and
    /// which of the chosen sales of that machine at that instant it is. `None` when the index
    /// does not answer.
    pub fn log_page(
        &self,
        slots: &[Option<usize>],
        products: Option<&BTreeSet<String>>,
        day: NaiveDate,
        (skip, take): (usize, usize),
    ) -> Option<Vec<(String, DateTime<Utc>, usize)>> {
        let guard = self.read_columns();
        let columns = guard.as_ref()?;
        let log = columns.log.as_ref().filter(|l| l.ready())?;
        let chosen: Option<Vec<bool>> =
            products.map(|set| columns.products.iter().map(|p| set.contains(p)).collect());
        let ids = &columns.machine_ids;
        // Some products: only the machines whose cells of the day hold a sale of one of them
        // (a rare product's page looks through a few machines' sales, not the fleet's).
        let cells = chosen
            .as_ref()
            .filter(|_| columns.products_ok)
            .map(|wanted| (wanted, columns.day_products.days().get(&day)));
        let sold = |slot: &usize| match cells {
            None => true,
            Some((_, None)) => false,
            Some((wanted, Some(day))) => {
                let mut any = false;
                day.each_chosen_of_machine(*slot, wanted, |c| any |= c.transactions > 0);
                any
            }
        };
        let picks = log.page(
            day,
            slots.iter().flatten().copied().filter(sold),
            chosen.as_deref(),
            (skip, take),
            |slot| ids[slot].as_str(),
        );
        Some(
            picks
                .into_iter()
                .map(|Pick { slot, at, nth }| (ids[slot].clone(), at, nth))
                .collect(),
        )
    }

    /// Whether the columns are built.
    pub fn is_built(&self) -> bool {
        self.read_columns().is_some()
    }

    /// The index in the columns of each machine of `list` at the positions `picked` (`None`:
    /// no figures yet, or no columns); `id` gives a list element's machine id. The slots of a
    /// shared list (the same `Arc`) are found once.
    pub fn slots<M: Send + Sync + 'static>(
        &self,
        list: &Arc<Vec<M>>,
        id: impl Fn(&M) -> &str,
        picked: &[u32],
    ) -> Vec<Option<usize>> {
        let guard = self.read_columns();
        let Some(columns) = guard.as_ref() else {
            return vec![None; picked.len()];
        };
        let all = self.known.of(list, id, columns.index.len(), |id| {
            columns.index.get(id).copied()
        });
        picked
            .iter()
            .map(|&i| all.get(i as usize).copied().flatten())
            .collect()
    }

    pub(super) fn read_columns(&self) -> std::sync::RwLockReadGuard<'_, Option<Columns>> {
        self.columns.read().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn write_columns(&self) -> std::sync::RwLockWriteGuard<'_, Option<Columns>> {
        self.columns.write().unwrap_or_else(|e| e.into_inner())
    }
}
