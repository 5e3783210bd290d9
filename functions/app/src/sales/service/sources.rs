//! Where a report's figures come from: named sources tried in order, the first that answers
//! wins (each gives the same figures; they differ in what they read).
//!
//! 1. [`Source::Engine`]: the engine's columns in memory, where this process is the store's
//!    sole writer (`service/engine.rs`).
//! 2. [`Source::FleetLessLeftOut`]: figures by period, product or product tag that need no
//!    machine, of most of the fleet: the fleet's rollups less the machines left out.
//! 3. [`Source::Packed`]: figures of no product from the machines' rows inside the packed fleet
//!    items (DynamoDB), when those are fewer to read than the machines' own rollups
//!    (`service/packed.rs`).
//! 4. [`Source::Rollups`]: the chosen machines' rollups, summed by the store (always answers).

use super::super::ask::{add_row, Ask, Catalogue};
use super::super::query::SalesQuery;
use super::SalesService;
use crate::machines::Machine;
use crate::ports::{Grain, RollupQuery};
use crate::{AppError, AppResult};
use chrono::NaiveDate;
use std::collections::HashMap;
use vendfleet_domain::report::{Cube, Grouping};
use vendfleet_domain::sales::split_range;

/// A source of a report's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Engine,
    FleetLessLeftOut,
    Packed,
    Rollups,
}

/// The sources, in the order they are tried.
const SOURCES: [Source; 4] = [
    Source::Engine,
    Source::FleetLessLeftOut,
    Source::Packed,
    Source::Rollups,
];

/// The rollups one span reads: whole months from month rollups where the buckets are months
/// (or there are no periods), every other day from day rollups; product rollups when products
/// matter.
pub(super) type Reads = Vec<(Grain, NaiveDate, NaiveDate)>;

/// What the store's sources share of one question: the rollups each span reads, the chosen
/// machines by id, and whether products matter and machines do not.
pub(super) struct Plan<'a> {
    pub ask: Ask<'a>,
    pub reads: [Reads; 2],
    pub machines: HashMap<&'a str, &'a Machine>,
    /// Products matter (product groups, or a product filter): the product rollups.
    pub by_product: bool,
    /// Figures by period, product or product tag need no machine.
    pub machine_free: bool,
}

impl<'a> Plan<'a> {
    fn of(ask: Ask<'a>) -> Plan<'a> {
        let Ask {
            q,
            cat,
            spans,
            by_period,
            groups,
        } = ask;
        // Without groups, every product's figures are every vend's: the rollups by machine.
        let by_product = (groups && q.group_by.by_product()) || cat.products.is_some();
        let (day, month) = if by_product {
            (Grain::DayProduct, Grain::MonthProduct)
        } else {
            (Grain::Day, Grain::Month)
        };
        let reads = spans.map(|(from, to)| {
            let mut reads: Reads = Vec::new();
            if from > to {
                // A span not asked for (see `build_spans`).
            } else if q.grouping == Grouping::Month || !by_period {
                let (months, edges) = split_range(from, to);
                if let (Some(a), Some(b)) = (months.first(), months.last()) {
                    reads.push((month, a.first_day(), b.last_day()));
                }
                reads.extend(edges.into_iter().map(|(a, b)| (day, a, b)));
            } else {
                reads.push((day, from, to));
            }
            reads
        });
        Plan {
            ask,
            reads,
            machines: cat.machines.iter().map(|m| (m.id.as_str(), m)).collect(),
            by_product,
            machine_free: !groups || q.group_by.by_product(),
        }
    }

    /// The bucket of `date` in span `span` (0: the chosen span, 1: the span before).
    pub fn bucket(&self, span: usize, date: NaiveDate) -> NaiveDate {
        if self.ask.by_period {
            self.ask.q.grouping.bucket(date)
        } else {
            self.ask.spans[span].0
        }
    }
}

impl SalesService {
    /// The figures of the chosen span and the span before, from the first source that answers.
    pub(super) async fn cubes(&self, ask: Ask<'_>) -> AppResult<(Cube, Cube)> {
        if ask.cat.machines.is_empty() {
            return Ok((Cube::default(), Cube::default()));
        }
        let plan = Plan::of(ask);
        for source in SOURCES {
            if let Some(cubes) = self.answer(source, &plan).await? {
                return Ok(cubes);
            }
        }
        Err(AppError::Internal(
            "no source answered a sales question".into(),
        ))
    }

    /// A source's answer (`None`: it cannot answer this question).
    async fn answer(&self, source: Source, plan: &Plan<'_>) -> AppResult<Option<(Cube, Cube)>> {
        match source {
            Source::Engine => self.engine_cubes(plan.ask).await,
            Source::FleetLessLeftOut => self.fleet_less_left_out(plan).await,
            Source::Packed if plan.by_product => Ok(None),
            Source::Packed => self.packed_cubes(plan).await,
            Source::Rollups => Ok(Some(self.rollup_cubes(plan).await?)),
        }
    }

    /// Figures by period, product or product tag of most of the fleet: the fleet's rollups
    /// less those of the machines left out (`None` otherwise).
    async fn fleet_less_left_out(&self, plan: &Plan<'_>) -> AppResult<Option<(Cube, Cube)>> {
        let Ask { q, cat, groups, .. } = plan.ask;
        if !plan.machine_free || 2 * cat.machines.len() <= cat.fleet_size {
            return Ok(None);
        }
        let (bucket0, bucket1) = (|d| plan.bucket(0, d), |d| plan.bucket(1, d));
        Ok(
            match tokio::try_join!(
                self.fleet_cube(q, cat, &plan.reads[0], &plan.machines, groups, &bucket0),
                self.fleet_cube(q, cat, &plan.reads[1], &plan.machines, groups, &bucket1),
            )? {
                (Some(current), Some(previous)) => Some((current, previous)),
                _ => None,
            },
        )
    }

    /// The chosen machines' rollups of both spans, read together and summed by the store.
    async fn rollup_cubes(&self, plan: &Plan<'_>) -> AppResult<(Cube, Cube)> {
        let Ask { q, cat, groups, .. } = plan.ask;
        let (reads, machines, machine_free) = (&plan.reads, &plan.machines, plan.machine_free);
        let bucket = |span: usize, date: NaiveDate| plan.bucket(span, date);
        let machine_ids: Vec<String> = machines.keys().map(|s| s.to_string()).collect();
        let queries: Vec<RollupQuery> = reads
            .iter()
            .flatten()
            .map(|&(grain, from, to)| RollupQuery {
                machine_ids: machine_ids.clone(),
                from,
                to,
                grain,
            })
            .collect();
        let mut answers = self
            .sales
            .rollups_many(&queries, machine_free)
            .await?
            .into_iter();
        let mut cubes = [Cube::default(), Cube::default()];
        for (span, reads) in reads.iter().enumerate() {
            for rows in answers.by_ref().take(reads.len()) {
                for r in &rows {
                    let machine = if machine_free {
                        None
                    } else {
                        match machines.get(r.machine_id.as_str()) {
                            Some(m) => Some(*m),
                            None => continue,
                        }
                    };
                    let b = bucket(span, r.date);
                    add_row(&mut cubes[span], q, cat, machine, r, groups, b, false);
                }
            }
        }
        let [current, previous] = cubes;
        Ok((current, previous))
    }

    /// The figures of `reads` for the `chosen` machines by period, and by product or product
    /// tag when `groups`, from the fleet's rollups less those of the machines left out, when
    /// they are fewer than the chosen ones: `None` when they are not, or the store keeps no
    /// fleet rollups of the grain.
    async fn fleet_cube(
        &self,
        q: &SalesQuery,
        cat: &Catalogue,
        reads: &[(Grain, NaiveDate, NaiveDate)],
        chosen: &HashMap<&str, &Machine>,
        groups: bool,
        bucket: &impl Fn(NaiveDate) -> NaiveDate,
    ) -> AppResult<Option<Cube>> {
        let mut cube = Cube::default();
        for &(grain, from, to) in reads {
            let query = RollupQuery {
                machine_ids: Vec::new(),
                from,
                to,
                grain,
            };
            let Some(fleet) = self.sales.fleet_rollups(&query).await? else {
                return Ok(None);
            };
            let left_out: Vec<String> = fleet
                .machines
                .into_iter()
                .filter(|m| !chosen.contains_key(m.as_str()))
                .collect();
            if left_out.len() >= chosen.len() {
                return Ok(None);
            }
            for r in fleet.rows {
                add_row(&mut cube, q, cat, None, &r, groups, bucket(r.date), false);
            }
            if !left_out.is_empty() {
                let query = RollupQuery {
                    machine_ids: left_out,
                    ..query
                };
                for r in self.sales.rollups(&query).await? {
                    add_row(&mut cube, q, cat, None, &r, groups, bucket(r.date), true);
                }
            }
        }
        Ok(Some(cube))
    }
}
