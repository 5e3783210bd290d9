//! The sales service's way to the sales engine (`sales::engine`): reports' cubes and sums by
//! bucket answered from the engine's columns, each asked as one [`EngineAsk`].

use super::super::ask::{group_keys, Ask, Catalogue, ChosenMachines};
use super::super::engine::{By, Engine, EngineAsk, Products, Rows, Sums};
use super::super::model::{bucket_starts, NO_GROUP};
use super::super::query::SalesQuery;
use super::SalesService;
use crate::AppResult;
use chrono::NaiveDate;
use std::collections::BTreeMap;
use vendfleet_domain::report::{Cube, GroupBy};
use vendfleet_domain::sales::Figures;

/// The sales service's way to the engine.
impl SalesService {
    /// Builds the engine's columns now rather than on the first report (a server's start),
    /// then the transaction log's index (until it is built, the log reads the store).
    pub async fn warm(&self) -> AppResult<()> {
        if let Some(engine) = self.engine().await? {
            engine.build_log(self.sales.as_ref()).await?;
        }
        Ok(())
    }

    /// Bytes the transaction log's index takes, once built (the bench's memory figure).
    pub fn log_index_bytes(&self) -> Option<usize> {
        self.engine.as_ref()?.log_bytes()
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
        // Each group's cells by bucket only where the answer shows them (a report by period
        // and group: the detail table, the settlements).
        let with_cells = ask.by_period && groups;
        // Products matter where the answer has product groups or a product filter; an answer
        // without groups (the line chart, the totals) of every product is every vend's, from
        // the columns by machine (a row a machine and day, not one a product too).
        let by_product = (groups && q.group_by.by_product()) || cat.products.is_some();
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
            // Products matter: the product columns, of the chosen products or each apart;
            // else every vend's figures, from the columns by machine.
            let products = match &cat.products {
                Some(set) => Products::Chosen(set),
                None if by_product => Products::Each,
                None => Products::Every,
            };
            // By location, client or machine tag: machines in the same groups are summed into
            // one row by the engine (a row a group list, not a row a machine).
            let rows = (groups && by_machine && q.group_by != GroupBy::Machine)
                .then(|| GroupRows::of(q, cat));
            let by = match (&rows, groups, by_machine) {
                (_, false, _) => By::Total,
                (Some(rows), true, _) => By::Rows(&rows.rows),
                (None, true, true) => By::Machine,
                (None, true, false) => By::Product,
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
            if matches!(by, By::Total) {
                merged.add(&sums.figures, Vec::new);
            } else if let Some(rows) = &rows {
                for (keys, by_bucket) in rows.keys.iter().zip(sums.figures.chunks(n)) {
                    merged.add(by_bucket, || keys.clone());
                }
            } else if by_machine {
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
            *cube = merged.cube(&starts, with_cells);
        }
        let [current, previous] = cubes;
        Ok(Some((current, previous)))
    }

    /// The chosen machines' figures over `span` by bucket, from the engine: of `products`,
    /// summed `by` machine, group row, product or in all. `starts` are the buckets' first days
    /// in order, `bucket` gives a day's; `figures[row * starts.len() + b]`. `None` where there
    /// is no engine, or products matter and it holds no product figures.
    pub(super) async fn engine_sums(
        &self,
        machines: &ChosenMachines,
        products: Products<'_>,
        by: By<'_>,
        span: (NaiveDate, NaiveDate),
        starts: &[NaiveDate],
        bucket: impl Fn(NaiveDate) -> NaiveDate + Sync,
    ) -> AppResult<Option<Sums>> {
        let Some(engine) = self.engine().await? else {
            return Ok(None);
        };
        let slots = machines.slots(engine);
        Ok(engine.sums(&EngineAsk {
            machines: &slots,
            products,
            by,
            span,
            buckets: starts.len(),
            bucket: |d: NaiveDate| starts.partition_point(|s| *s <= bucket(d)) - 1,
        }))
    }
}

/// The chosen machines' rows by the list of groups they count in (their location, client or
/// tags): the engine sums each machine into its list's row.
struct GroupRows<'a> {
    rows: Rows,
    /// Each row's group list.
    keys: Vec<Vec<&'a str>>,
}

impl<'a> GroupRows<'a> {
    fn of(q: &SalesQuery, cat: &'a Catalogue) -> GroupRows<'a> {
        let mut index: foldhash::HashMap<Vec<&'a str>, u32> = Default::default();
        let mut keys = Vec::new();
        let of = cat
            .machines
            .iter()
            .map(|m| {
                let list = group_keys(q, cat, Some(m), NO_GROUP);
                let next = keys.len() as u32;
                *index.entry(list).or_insert_with_key(|list| {
                    keys.push(list.clone());
                    next
                })
            })
            .collect();
        GroupRows {
            rows: Rows {
                of,
                count: keys.len(),
            },
            keys,
        }
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
    /// its maps built from sorted keys (not looked up a row at a time); without the groups'
    /// cells unless `with_cells`.
    fn cube(&self, starts: &[NaiveDate], with_cells: bool) -> Cube {
        let mut cube = Cube::default();
        let zero = Figures::default();
        // The buckets' sums by position first, their map made once in order.
        let mut buckets: Vec<Option<Figures>> = vec![None; self.buckets];
        let mut groups: foldhash::HashMap<&str, Figures> = Default::default();
        let mut by_group: foldhash::HashMap<&str, Vec<Option<Figures>>> = Default::default();
        for (keys, &slot) in &self.slots {
            let by_bucket = &self.figures[slot * self.buckets..(slot + 1) * self.buckets];
            for (b, f) in by_bucket.iter().enumerate().filter(|(_, f)| **f != zero) {
                cube.total.add(f);
                buckets[b].get_or_insert_with(Figures::default).add(f);
                for key in keys {
                    if with_cells {
                        let cells = by_group
                            .entry(key)
                            .or_insert_with(|| vec![None; self.buckets]);
                        cells[b].get_or_insert_with(Figures::default).add(f);
                    } else {
                        groups.entry(key).or_default().add(f);
                    }
                }
            }
        }
        cube.buckets = (starts.iter().zip(buckets))
            .filter_map(|(start, f)| Some((*start, f?)))
            .collect();
        if !with_cells {
            let mut groups: Vec<_> = groups.into_iter().collect();
            groups.sort_unstable_by_key(|(key, _)| *key);
            cube.groups = groups
                .into_iter()
                .map(|(key, f)| (key.to_string(), f))
                .collect();
            return cube;
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
