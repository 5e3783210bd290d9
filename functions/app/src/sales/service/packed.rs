//! Reports from a store's packed fleet items where there is no engine (DynamoDB, issue #28):
//! figures by machine, location, client or machine tag (no product) from the machines' rows
//! inside the packed items of their shards, whenever those are fewer items to read than the
//! machines' own rollups; the transaction log's counts from the fleet's rollups less the
//! machines left out, or from the packed items.

use super::super::ask::{add_row, Ask, Catalogue};
use super::sources::Plan;
use super::SalesService;
use crate::ports::{Grain, RollupQuery, RollupRow};
use crate::AppResult;
use chrono::NaiveDate;
use std::collections::{BTreeMap, HashSet};
use vendfleet_domain::report::Cube;

impl SalesService {
    /// Whether the packed items of `ids`' shards are fewer to read than their own rollups.
    fn packed_is_cheaper(&self, ids: &[String]) -> bool {
        self.sales
            .packed_items(ids)
            .is_some_and(|items| items < ids.len())
    }

    /// The machines' rows of every read (no product grain), from the packed items; `None`
    /// where the store keeps none.
    async fn packed_rows(
        &self,
        ids: &[String],
        reads: &[(Grain, NaiveDate, NaiveDate)],
    ) -> AppResult<Option<Vec<Vec<RollupRow>>>> {
        let answers = futures_util::future::try_join_all(reads.iter().map(|&(grain, from, to)| {
            let query = RollupQuery {
                machine_ids: ids.to_vec(),
                from,
                to,
                grain,
            };
            async move { self.sales.machine_rollups(&query).await }
        }))
        .await?;
        Ok(answers.into_iter().collect())
    }

    /// Both spans' cubes of a query without products (`reads` at `Day`/`Month` grains) from
    /// the packed items, when they are fewer to read than the chosen machines' rollups: `None`
    /// when they are not, or the store keeps none.
    pub(super) async fn packed_cubes(&self, plan: &Plan<'_>) -> AppResult<Option<(Cube, Cube)>> {
        let Ask {
            q: query,
            cat,
            groups,
            ..
        } = plan.ask;
        let (reads, machines) = (&plan.reads, &plan.machines);
        let bucket = |span: usize, date: NaiveDate| plan.bucket(span, date);
        let ids: Vec<String> = machines.keys().map(|s| s.to_string()).collect();
        if !self.packed_is_cheaper(&ids) {
            return Ok(None);
        }
        let all: Vec<_> = reads.iter().flatten().copied().collect();
        let Some(answers) = self.packed_rows(&ids, &all).await? else {
            return Ok(None);
        };
        let mut answers = answers.into_iter();
        let mut cubes = [Cube::default(), Cube::default()];
        for (span, reads) in reads.iter().enumerate() {
            for rows in answers.by_ref().take(reads.len()) {
                for r in &rows {
                    let Some(m) = machines.get(r.machine_id.as_str()) else {
                        continue;
                    };
                    let machine = groups.then_some(*m);
                    let b = bucket(span, r.date);
                    add_row(&mut cubes[span], query, cat, machine, r, groups, b, false);
                }
            }
        }
        let [current, previous] = cubes;
        Ok(Some((current, previous)))
    }

    /// Sales by rollup date of the chosen machines and products over a read, where there is
    /// no engine: the fleet's rollups less the machines left out when the chosen machines are
    /// most of the fleet, else (no product filter) the packed items when they are fewer to
    /// read; `None` when neither applies.
    pub(super) async fn store_counts(
        &self,
        cat: &Catalogue,
        grain: Grain,
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Option<BTreeMap<NaiveDate, i64>>> {
        if from > to || cat.machines.is_empty() {
            return Ok(None);
        }
        let ids: Vec<String> = cat.machines.iter().map(|m| m.id.clone()).collect();
        let wants = |r: &RollupRow| {
            let product = r.product_id.as_deref().unwrap_or_default();
            cat.products
                .as_ref()
                .is_none_or(|set| set.contains(product))
        };
        let query = RollupQuery {
            machine_ids: Vec::new(),
            from,
            to,
            grain,
        };
        let mut out = BTreeMap::new();
        if 2 * ids.len() > cat.fleet_size {
            if let Some(fleet) = self.sales.fleet_rollups(&query).await? {
                let chosen: HashSet<&str> = ids.iter().map(String::as_str).collect();
                let left_out: Vec<String> = fleet
                    .machines
                    .into_iter()
                    .filter(|m| !chosen.contains(m.as_str()))
                    .collect();
                if left_out.len() < ids.len() {
                    for r in fleet.rows.iter().filter(|r| wants(r)) {
                        *out.entry(r.date).or_insert(0) += r.figures.transactions;
                    }
                    if !left_out.is_empty() {
                        let query = RollupQuery {
                            machine_ids: left_out,
                            ..query
                        };
                        for r in self
                            .sales
                            .rollups(&query)
                            .await?
                            .iter()
                            .filter(|r| wants(r))
                        {
                            *out.entry(r.date).or_insert(0) -= r.figures.transactions;
                        }
                    }
                    return Ok(Some(out));
                }
            }
        }
        let no_product = matches!(grain, Grain::Day | Grain::Month) && cat.products.is_none();
        if no_product && self.packed_is_cheaper(&ids) {
            if let Some(mut answers) = self.packed_rows(&ids, &[(grain, from, to)]).await? {
                for r in answers.pop().unwrap_or_default() {
                    *out.entry(r.date).or_insert(0) += r.figures.transactions;
                }
                return Ok(Some(out));
            }
        }
        Ok(None)
    }
}
