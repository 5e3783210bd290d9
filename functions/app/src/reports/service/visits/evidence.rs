//! What the visit ledger's lines are computed from, read once a request: each machine's audit
//! reads, and the cash sales of the lines' spans.

use super::super::ReportsService;
use crate::events::AuditRead;
use crate::ports::{Grain, RollupQuery};
use crate::sales::SalesService;
use crate::AppResult;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use vendfleet_domain::events::{Payment, VendClass};

/// What lines are computed from, per machine, fetched once a request when needed.
#[derive(Default)]
pub(super) struct Evidence {
    pub(super) reads: BTreeMap<String, Vec<AuditRead>>,
    pub(super) cash: CashBook,
}

/// The cash sales of the lines' machines: their day rollups over the request's span, read at
/// once, and the ledger of the days a line starts or ends on, each read once — what
/// [`crate::sales::SalesService::cash_sales`] reads for each line.
#[derive(Default)]
pub(super) struct CashBook {
    /// The days the rollups cover.
    span: Option<(NaiveDate, NaiveDate)>,
    /// Machine → cash sales by local day.
    days: HashMap<String, BTreeMap<NaiveDate, i64>>,
    /// (machine, day) → its cash sales.
    edges: HashMap<(String, NaiveDate), Vec<CashSale>>,
}

/// A cash sale's instant and revenue.
type CashSale = (DateTime<Utc>, i64);

impl CashBook {
    pub(super) async fn load(
        sales: &SalesService,
        machine_ids: Vec<String>,
        span: (NaiveDate, NaiveDate),
    ) -> AppResult<CashBook> {
        let mut days: HashMap<String, BTreeMap<NaiveDate, i64>> = HashMap::new();
        if !machine_ids.is_empty() {
            let rows = sales
                .rollups(&RollupQuery {
                    machine_ids,
                    from: span.0,
                    to: span.1,
                    grain: Grain::Day,
                })
                .await?;
            for r in rows {
                *days
                    .entry(r.machine_id)
                    .or_default()
                    .entry(r.date)
                    .or_default() += r.figures.cash_minor;
            }
        }
        Ok(CashBook {
            span: Some(span),
            days,
            edges: HashMap::new(),
        })
    }

    /// Cash sales of a machine after `span.from` up to `span.to`: the ledger on the two edge
    /// days, the rollups of the days between.
    pub(super) async fn cash_sales(
        &mut self,
        sales: &SalesService,
        machine_id: &str,
        span: Interval,
    ) -> AppResult<i64> {
        let covered = self
            .span
            .is_some_and(|(a, b)| a <= span.from.1 && span.to.1 <= b);
        if !covered {
            return sales.cash_sales(machine_id, span.from, span.to).await;
        }
        let mut total = 0;
        let edges: BTreeSet<NaiveDate> = [span.from.1, span.to.1].into();
        for day in edges {
            let key = (machine_id.to_string(), day);
            if !self.edges.contains_key(&key) {
                let cash = sales
                    .ledger(machine_id, day, day)
                    .await?
                    .into_iter()
                    .filter(|v| v.class == VendClass::Sale && v.payment == Payment::Cash)
                    .map(|v| (v.at, v.revenue_minor))
                    .collect();
                self.edges.insert(key.clone(), cash);
            }
            total += self.edges[&key]
                .iter()
                .filter(|(at, _)| span.holds(*at))
                .map(|(_, r)| r)
                .sum::<i64>();
        }
        let (a, b) = (
            span.from.1 + Duration::days(1),
            span.to.1 - Duration::days(1),
        );
        if a <= b {
            if let Some(days) = self.days.get(machine_id) {
                total += days.range(a..=b).map(|(_, c)| c).sum::<i64>();
            }
        }
        Ok(total)
    }
}

impl Evidence {
    pub(super) async fn reads(
        &mut self,
        r: &ReportsService,
        machine_id: &str,
    ) -> AppResult<&[AuditRead]> {
        if !self.reads.contains_key(machine_id) {
            let reads = r.events.audit_reads(machine_id).await?;
            self.reads.insert(machine_id.to_string(), reads);
        }
        Ok(&self.reads[machine_id])
    }
}

/// The span a line's cash sales are counted over: after one instant, up to another (each with
/// its local day).
#[derive(Debug, Clone, Copy)]
pub(super) struct Interval {
    pub(super) from: (DateTime<Utc>, NaiveDate),
    pub(super) to: (DateTime<Utc>, NaiveDate),
}

impl Interval {
    pub(super) fn holds(&self, at: DateTime<Utc>) -> bool {
        at > self.from.0 && at <= self.to.0
    }

    /// The local days to read for it (at most a year back).
    pub(super) fn days(&self) -> (NaiveDate, NaiveDate) {
        let (a, b) = (self.from.1.min(self.to.1), self.from.1.max(self.to.1));
        (a.max(b - Duration::days(366)), b)
    }
}
