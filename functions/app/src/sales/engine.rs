//! The sales engine: every machine's figures by day, and by product and day, held as columns in
//! memory, so that a report costs what its answer covers (the chosen machines × the span's days)
//! instead of a read and decode of the store's rollups.
//!
//! - **Built lazily** from the store's day rollups on first use (or at start-up:
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
//! Memory: by machine, one [`Figures`] (64 bytes) per machine and day with a vend (a year of
//! 1,000 machines: 23 MB); by product, one [`Cell`] (32 bytes) per machine, day and product
//! sold (the 1,000-machine bench fleet sells about 9.5 products a machine a day: about 110 MB a
//! year). A product figure too large for a cell (over 2^31 minor units a machine and day), or
//! a rollup whose revenue is not its cash plus cashless, turns the product columns off: such
//! reports read the store.

use super::cells::{Cell, DayCells, Picked};
use super::hours::{DayHours, KeptHours, Zones};
use super::{bucket_starts, group_keys, Ask, NO_GROUP};
use crate::ports::sales::{Grain, RollupQuery, WeekdayUnits};
use crate::ports::{SalesStore, StoreError};
use crate::AppResult;
use chrono::{Datelike, NaiveDate};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, RwLock};
use vendfleet_domain::report::Cube;
use vendfleet_domain::sales::{Figures, VendFact};

/// The columns and the gate that keeps them in step with the store.
pub(crate) struct Engine {
    /// Commits hold it shared; a build holds it alone.
    gate: tokio::sync::RwLock<()>,
    columns: RwLock<Option<Columns>>,
    /// The hours of the few recent days the dashboard compares with (`hours.rs`).
    hours: KeptHours,
}

/// Every machine's figures by day, and by product and day.
#[derive(Default)]
struct Columns {
    /// Machine id → its index in every day's column.
    index: foldhash::HashMap<String, usize>,
    /// By local day: the figures of machine `i` at `i` (a column shorter than the index is
    /// zero beyond its end).
    days: BTreeMap<NaiveDate, Vec<Figures>>,
    /// Product id (empty: no known product) → its number in the cells.
    product_index: foldhash::HashMap<String, u32>,
    products: Vec<String>,
    /// By local day: a cell per machine and product sold, free or tested.
    day_products: BTreeMap<NaiveDate, DayCells>,
    /// By local day, by product number: every machine's figures summed (a question of most
    /// of the fleet by product sums these, less the machines left out).
    fleet_products: BTreeMap<NaiveDate, Vec<Figures>>,
    /// False once a figure did not fit a cell: product reports then read the store.
    products_ok: bool,
}

impl Columns {
    fn machine(&mut self, machine_id: &str) -> usize {
        let next = self.index.len();
        *self.index.entry(machine_id.to_string()).or_insert(next)
    }

    fn add(&mut self, machine_id: &str, date: NaiveDate, f: &Figures) {
        let i = self.machine(machine_id);
        let column = self.days.entry(date).or_default();
        if column.len() <= i {
            column.resize(i + 1, Figures::default());
        }
        column[i].add(f);
    }

    /// The number of `product` in the cells (numbered on first sight), its fleet sum of
    /// `date` grown by `f`.
    fn product(&mut self, date: NaiveDate, product: &str, f: &Figures) -> u32 {
        let next = self.products.len() as u32;
        let p = *self
            .product_index
            .entry(product.to_string())
            .or_insert(next);
        if p == next {
            self.products.push(product.to_string());
        }
        let fleet = self.fleet_products.entry(date).or_default();
        if fleet.len() <= p as usize {
            fleet.resize(p as usize + 1, Figures::default());
        }
        fleet[p as usize].add(f);
        p
    }

    fn add_product(&mut self, machine_id: &str, date: NaiveDate, product: &str, f: &Figures) {
        let machine = self.machine(machine_id);
        let p = self.product(date, product, f);
        let cell = self
            .day_products
            .entry(date)
            .or_default()
            .cell_mut(machine, p);
        match cell.plus(f) {
            Some(sum) => *cell = sum,
            None => self.products_ok = false,
        }
    }
}

/// Columns being built: each day's product cells gathered in any order, put in order once.
#[derive(Default)]
struct Gathered {
    columns: Columns,
    day_products: BTreeMap<NaiveDate, Vec<(u32, Cell)>>,
}

impl Gathered {
    /// A machine's figures of one product and day (each met once in a build).
    fn add_product(&mut self, machine_id: &str, date: NaiveDate, product: &str, f: &Figures) {
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

    fn finish(self) -> Columns {
        let mut columns = self.columns;
        columns.day_products = self
            .day_products
            .into_iter()
            .map(|(date, pairs)| (date, DayCells::from_unordered(pairs)))
            .collect();
        columns
    }
}

/// A commit's vends summed by machine and day, and by machine, day and product: what the
/// columns add.
pub(crate) struct Delta {
    days: Vec<(String, NaiveDate, Figures)>,
    products: Vec<(String, NaiveDate, String, Figures)>,
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
        Delta {
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

/// What product sums are summed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum By {
    /// `out[machine * buckets + bucket]`, over the chosen products.
    Machine,
    /// `out[product * buckets + bucket]`, over the chosen machines; the products are numbered
    /// as [`ProductSums::products`] lists them.
    Product,
}

/// Sums: the figures, and the products they are numbered by (summed [`By::Product`]; empty
/// otherwise).
pub(crate) struct ProductSums {
    pub products: Vec<String>,
    pub figures: Vec<Figures>,
}

/// Days far enough apart to hold any stored rollup.
const FIRST_DAY: NaiveDate = NaiveDate::from_ymd_opt(1970, 1, 1).expect("a date");
const LAST_DAY: NaiveDate = NaiveDate::from_ymd_opt(9999, 12, 31).expect("a date");

/// Machines whose product rollups a build reads at once (its memory: their rows as rows).
const BUILD_BATCH: usize = 50;

impl Engine {
    pub fn new() -> Engine {
        Engine {
            gate: tokio::sync::RwLock::new(()),
            columns: RwLock::new(None),
            hours: KeptHours::default(),
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
        self.hours.get_or_build(&self.gate, day, zones, read).await
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
        (from, to): (NaiveDate, NaiveDate),
        buckets: usize,
        bucket: impl Fn(NaiveDate) -> usize,
    ) -> Option<Vec<Figures>> {
        let guard = self.read_columns();
        let columns = guard.as_ref()?;
        let mut out = vec![Figures::default(); machines.len() * buckets];
        let slots = slots(columns, machines);
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

    /// The figures of `machines` over the days `from..=to` of the chosen `products` (`None`:
    /// all), by machine or by product and by bucket as [`Engine::sums`]. `None` when the
    /// columns are not built or hold no product figures.
    pub fn product_sums(
        &self,
        machines: &[&str],
        products: Option<&BTreeSet<String>>,
        (from, to): (NaiveDate, NaiveDate),
        buckets: usize,
        bucket: impl Fn(NaiveDate) -> usize,
        by: By,
    ) -> Option<ProductSums> {
        let guard = self.read_columns();
        let columns = guard.as_ref().filter(|c| c.products_ok)?;
        let chosen: Vec<bool> = columns
            .products
            .iter()
            .map(|p| products.is_none_or(|set| set.contains(p)))
            .collect();
        let rows = match by {
            By::Machine => machines.len(),
            By::Product => columns.products.len(),
        };
        let mut out = vec![Figures::default(); rows * buckets];
        let picked = Picked::new(&columns.index, machines);
        if by == By::Product {
            // Most of the fleet: the fleet's sums less the machines left out.
            let left_out = columns.index.len() - picked.slots.len();
            if left_out < picked.slots.len() {
                for (date, fleet) in columns.fleet_products.range(from..=to) {
                    let b = bucket(*date);
                    for (p, f) in fleet.iter().enumerate().filter(|(p, _)| chosen[*p]) {
                        out[p * buckets + b].add(f);
                    }
                }
                for (date, day) in columns
                    .day_products
                    .range(from..=to)
                    .filter(|_| left_out > 0)
                {
                    let b = bucket(*date);
                    for (_, cells) in day.machines().filter(|(i, _)| !picked.has(*i)) {
                        for c in cells.iter().filter(|c| chosen[c.product as usize]) {
                            out[c.product as usize * buckets + b].add(&c.figures().negated());
                        }
                    }
                }
                return Some(ProductSums {
                    products: columns.products.clone(),
                    figures: out,
                });
            }
        }
        for (date, day) in columns.day_products.range(from..=to) {
            let b = bucket(*date);
            let mut add = |k: u32, c: &Cell| {
                let row = if by == By::Machine { k } else { c.product };
                c.add_to(&mut out[row as usize * buckets + b]);
            };
            if products.is_some() {
                // Some products: their cells found by the products' column.
                picked.each_index(day, |k, i| {
                    day.chosen_of_machine(i, &chosen).for_each(|c| add(k, c))
                });
            } else {
                picked.each(day, |k, cells| cells.iter().for_each(|c| add(k, c)));
            }
        }
        Some(ProductSums {
            products: match by {
                By::Machine => Vec::new(),
                By::Product => columns.products.clone(),
            },
            figures: out,
        })
    }

    /// Those of `machines` with a sale on `day` (of one of `products`; `None`: any). `None`
    /// when the columns are not built, or products matter and they hold no product figures.
    pub fn selling<'a>(
        &self,
        machines: impl Iterator<Item = &'a str>,
        products: Option<&BTreeSet<String>>,
        day: NaiveDate,
    ) -> Option<Vec<&'a str>> {
        let guard = self.read_columns();
        let columns = guard.as_ref()?;
        let slot = |m: &str| columns.index.get(m).copied();
        Some(match products {
            None => {
                let column = columns.days.get(&day);
                let sold = |i: usize| column.and_then(|c| c.get(i)).map(|f| f.transactions > 0);
                machines
                    .filter(|m| slot(m).and_then(sold).unwrap_or(false))
                    .collect()
            }
            Some(chosen) => {
                if !columns.products_ok {
                    return None;
                }
                let day = columns.day_products.get(&day);
                let sold = |i: usize| {
                    day.map(|d| d.of_machine(i))
                        .unwrap_or_default()
                        .iter()
                        .any(|c| {
                            c.transactions > 0
                                && chosen.contains(&columns.products[c.product as usize])
                        })
                };
                machines.filter(|m| slot(m).is_some_and(sold)).collect()
            }
        })
    }

    /// Units out of each of `machines`' products (sold, free and test) by weekday over the days
    /// `from..=to`, ordered by machine and product, those with none left out (as
    /// [`crate::ports::sales::weekday_units_of`] sums them from the rollups). `None` when the
    /// columns are not built or hold no product figures.
    pub fn weekday_units(
        &self,
        machines: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Option<Vec<WeekdayUnits>> {
        let guard = self.read_columns();
        let columns = guard.as_ref().filter(|c| c.products_ok)?;
        let ids: Vec<&str> = machines.iter().map(String::as_str).collect();
        let picked = Picked::new(&columns.index, &ids);
        let mut by: HashMap<(u32, u32), [i64; 7]> = HashMap::new();
        for (date, day) in columns.day_products.range(from..=to) {
            let weekday = date.weekday().num_days_from_monday() as usize;
            picked.each(day, |k, cells| {
                for c in cells {
                    let units = i64::from(c.quantity) + i64::from(c.free) + i64::from(c.test);
                    if units != 0 {
                        by.entry((k, c.product)).or_default()[weekday] += units;
                    }
                }
            });
        }
        let mut out: Vec<WeekdayUnits> = by
            .into_iter()
            .map(|((k, p), units)| WeekdayUnits {
                machine_id: machines[k as usize].clone(),
                product_id: columns.products[p as usize].clone(),
                units,
            })
            .collect();
        out.sort_by(|a, b| (&a.machine_id, &a.product_id).cmp(&(&b.machine_id, &b.product_id)));
        Some(out)
    }

    fn read_columns(&self) -> std::sync::RwLockReadGuard<'_, Option<Columns>> {
        self.columns.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_columns(&self) -> std::sync::RwLockWriteGuard<'_, Option<Columns>> {
        self.columns.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// Each machine's index in the columns (`None`: no figures yet).
fn slots(columns: &Columns, machines: &[&str]) -> Vec<Option<usize>> {
    machines
        .iter()
        .map(|m| columns.index.get(*m).copied())
        .collect()
}

/// The sales service's way to the engine.
impl super::SalesService {
    /// Builds the engine's columns now rather than on the first report (a server's start).
    pub async fn warm(&self) -> AppResult<()> {
        self.engine().await.map(|_| ())
    }

    /// The engine, built; `None` where there is none.
    pub(super) async fn engine(&self) -> AppResult<Option<&Engine>> {
        let Some(engine) = &self.engine else {
            return Ok(None);
        };
        if !engine.is_built() {
            let ids = self.machines.machines().all().await?;
            let ids = ids.into_iter().map(|m| m.id).collect();
            engine.build(self.sales.as_ref(), ids).await?;
        }
        Ok(Some(engine.as_ref()))
    }

    /// The figures of both spans from the engine, summed by machine or by product and bucket
    /// in memory, then added to the cube once per machine (or product) and bucket. `None`
    /// where there is no engine, or it holds no product figures and products matter.
    pub(super) async fn engine_cubes(&self, ask: Ask<'_>) -> AppResult<Option<(Cube, Cube)>> {
        let Ask { q, cat, groups, .. } = ask;
        let by_product = q.group_by.by_product() || cat.products.is_some();
        let by_machine = !(groups && q.group_by.by_product());
        let mut cubes = [Cube::default(), Cube::default()];
        for (cube, (from, to)) in cubes.iter_mut().zip(ask.spans) {
            if from > to {
                continue;
            }
            let bucket = |d: NaiveDate| {
                if ask.by_period {
                    q.grouping.bucket(d)
                } else {
                    from
                }
            };
            let starts = bucket_starts(from, to, bucket);
            let n = starts.len();
            let (products, by) = if by_machine {
                (by_product.then_some(cat.products.as_ref()), By::Machine)
            } else {
                (Some(cat.products.as_ref()), By::Product)
            };
            let sums = self
                .engine_sums(&cat.machines, products, by, (from, to), &starts, bucket)
                .await?;
            let Some(sums) = sums else {
                return Ok(None);
            };
            // Rows (machines or products) in the same groups are summed first, then added to
            // the cube once per group list and bucket.
            let mut merged = Merged::new(n);
            if by_machine {
                for (m, by_bucket) in cat.machines.iter().zip(sums.figures.chunks(n)) {
                    merged.add(by_bucket, || match groups {
                        true => group_keys(q, cat, Some(m), NO_GROUP),
                        false => Vec::new(),
                    });
                }
            } else {
                for (product, by_bucket) in sums.products.iter().zip(sums.figures.chunks(n)) {
                    merged.add(by_bucket, || group_keys(q, cat, None, product));
                }
            }
            *cube = merged.cube(&starts);
        }
        let [current, previous] = cubes;
        Ok(Some((current, previous)))
    }

    /// The chosen machines' figures over `span` by bucket, from the engine: of every vend
    /// (`products` `None`), or of the chosen products (`Some(None)`: all of them, from the
    /// product columns), summed by machine or by product. `starts` are the buckets' first
    /// days in order, `bucket` gives a day's; `figures[row * starts.len() + b]`. `None` where
    /// there is no engine, or products matter and it holds no product figures.
    pub(super) async fn engine_sums(
        &self,
        machines: &super::ChosenMachines,
        products: Option<Option<&BTreeSet<String>>>,
        by: By,
        span: (NaiveDate, NaiveDate),
        starts: &[NaiveDate],
        bucket: impl Fn(NaiveDate) -> NaiveDate,
    ) -> AppResult<Option<ProductSums>> {
        let Some(engine) = self.engine().await? else {
            return Ok(None);
        };
        let ids: Vec<&str> = machines.iter().map(|m| m.id.as_str()).collect();
        let index = |d: NaiveDate| starts.partition_point(|s| *s <= bucket(d)) - 1;
        let n = starts.len();
        Ok(match products {
            None => engine
                .sums(&ids, span, n, index)
                .map(|figures| ProductSums {
                    products: Vec::new(),
                    figures,
                }),
            Some(chosen) => engine.product_sums(&ids, chosen, span, n, index, by),
        })
    }
}

/// Rows' figures by bucket, summed by the list of groups they count in.
struct Merged<'a> {
    buckets: usize,
    slots: foldhash::HashMap<Vec<&'a str>, usize>,
    figures: Vec<Figures>,
}

impl<'a> Merged<'a> {
    fn new(buckets: usize) -> Self {
        Merged {
            buckets,
            slots: foldhash::HashMap::default(),
            figures: Vec::new(),
        }
    }

    /// Adds a row's figures by bucket in the groups `keys` gives (asked only for a row with
    /// figures).
    fn add(&mut self, by_bucket: &[Figures], keys: impl FnOnce() -> Vec<&'a str>) {
        if by_bucket.iter().all(|f| *f == Figures::default()) {
            return;
        }
        let next = self.slots.len();
        let slot = *self.slots.entry(keys()).or_insert(next);
        if slot == next {
            self.figures
                .resize((next + 1) * self.buckets, Figures::default());
        }
        let sums = &mut self.figures[slot * self.buckets..(slot + 1) * self.buckets];
        for (sum, f) in sums.iter_mut().zip(by_bucket) {
            sum.add(f);
        }
    }

    /// The cube of the rows added, buckets starting at `starts`: as adding each row's
    /// non-zero buckets to the cube would make it, but each group's cells summed first and
    /// its maps built from sorted keys (not looked up a row at a time).
    fn cube(&self, starts: &[NaiveDate]) -> Cube {
        let mut cube = Cube::default();
        let zero = Figures::default();
        let mut by_group: foldhash::HashMap<&str, Vec<Option<Figures>>> = Default::default();
        for (keys, &slot) in &self.slots {
            let by_bucket = &self.figures[slot * self.buckets..(slot + 1) * self.buckets];
            for (b, f) in by_bucket.iter().enumerate().filter(|(_, f)| **f != zero) {
                cube.total.add(f);
                cube.buckets.entry(starts[b]).or_default().add(f);
                for key in keys {
                    let cells = by_group
                        .entry(key)
                        .or_insert_with(|| vec![None; self.buckets]);
                    cells[b].get_or_insert_with(Figures::default).add(f);
                }
            }
        }
        let mut by_group: Vec<_> = by_group.into_iter().collect();
        by_group.sort_unstable_by_key(|(key, _)| *key);
        let mut groups = Vec::with_capacity(by_group.len());
        let mut cells = Vec::with_capacity(by_group.len());
        for (key, by_bucket) in by_group {
            let mut sum = Figures::default();
            let row: BTreeMap<NaiveDate, Figures> = (starts.iter().zip(by_bucket))
                .filter_map(|(start, f)| Some((*start, f?)))
                .inspect(|(_, f)| sum.add(f))
                .collect();
            groups.push((key.to_string(), sum));
            cells.push((key.to_string(), row));
        }
        cube.groups = groups.into_iter().collect();
        cube.cells = cells.into_iter().collect();
        cube
    }
}
