//! Each machine-day's cashless sales against what the processors settled for it.

use super::*;
use crate::sales::SalesParams;
use chrono::NaiveDate;
use std::collections::BTreeMap;

vendfleet_domain::choice! {
    /// How a machine-day's card sales and settlement compare.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum Status {
        /// Settled exactly what was sold.
        Matched,
        /// Settled less than was sold.
        Short,
        /// Settled more than was sold.
        Over,
        /// Sold by card, nothing settled (yet).
        NotSettled,
        /// Settled, but no card sales recorded.
        SettledNoSales,
    }
}

/// One machine-day: its card sales against what was settled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ReconRow {
    pub machine_id: String,
    pub machine_name: String,
    pub terminal_id: String,
    pub date: NaiveDate,
    pub currency: String,
    /// Cashless sales of the day (the sales overview's figure).
    pub sales_minor: i64,
    pub transactions: i64,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    /// Card transactions the processor counted.
    pub settled_count: i64,
    /// Settled gross − sales.
    pub difference_minor: i64,
    pub status: Status,
    pub payouts: Vec<String>,
}

/// One payout of the period.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Payout {
    pub reference: String,
    pub import_id: String,
    pub processor: String,
    pub file_name: String,
    pub lines: usize,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
}

/// The totals of the rows.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ReconTotals {
    pub sales_minor: i64,
    pub gross_minor: i64,
    pub fees_minor: i64,
    pub net_minor: i64,
    pub difference_minor: i64,
    /// Machine-days by status.
    #[cfg_attr(feature = "schema", schema(value_type = BTreeMap<String, usize>))]
    pub by_status: BTreeMap<&'static str, usize>,
}

/// The reconciliation of a period.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Reconciliation {
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    /// Machine by machine (by name), day by day; only machine-days with sales or settlement.
    pub rows: Vec<ReconRow>,
    pub totals: ReconTotals,
    pub payouts: Vec<Payout>,
}

/// What was settled for a machine-day: gross, fees, net, count and the payouts.
type Settled = (i64, i64, i64, i64, BTreeSet<String>);

/// The status of a machine-day.
pub fn status(sales: i64, settled: Option<i64>) -> Status {
    match settled {
        None => Status::NotSettled,
        Some(g) if sales == 0 && g != 0 => Status::SettledNoSales,
        Some(g) if g == sales => Status::Matched,
        Some(g) if g < sales => Status::Short,
        Some(_) => Status::Over,
    }
}

impl SettlementsService {
    /// The period's machine-days (of the machines with a terminal id that the user sees and
    /// the filters choose) with their cashless sales and what was settled for them.
    pub async fn reconcile(
        &self,
        p: &Principal,
        params: &SalesParams,
    ) -> AppResult<Reconciliation> {
        p.require(Permission::SettlementsList)?;
        let mut params = params.clone();
        params.group_by = Some("machine".into());
        params.grouping_period = Some("day".into());
        params.value = None;
        params.products = None;
        params.product_tags = None;
        let report = self.sales.report(p, &params).await?;
        let q = &report.query;
        let (machines, _) = self.sales.chosen_machines(p, q).await?;
        let settled_machines: HashMap<&str, &Machine> = machines
            .iter()
            .filter(|m| {
                m.terminal_id
                    .as_deref()
                    .is_some_and(|t| !t.trim().is_empty())
            })
            .map(|m| (m.id.as_str(), m))
            .collect();
        // The lines that count: within the period, of those machines, not superseded.
        let mut settled: BTreeMap<(String, NaiveDate), Settled> = BTreeMap::new();
        let mut payouts: BTreeMap<(String, String), Payout> = BTreeMap::new();
        for import in self.imports.all().await? {
            if import.date_to < q.from || import.date_from > q.to {
                continue;
            }
            if import
                .payouts
                .iter()
                .all(|r| import.superseded.contains_key(r))
            {
                continue;
            }
            for l in self.lines_of(&import).await? {
                if l.date < q.from
                    || l.date > q.to
                    || import.superseded.contains_key(&l.payout_reference)
                    || !settled_machines.contains_key(l.machine_id.as_str())
                {
                    continue;
                }
                let e = settled.entry((l.machine_id.clone(), l.date)).or_insert((
                    0,
                    0,
                    0,
                    0,
                    BTreeSet::new(),
                ));
                e.0 += l.gross_minor;
                e.1 += l.fees_minor;
                e.2 += l.net_minor;
                e.3 += l.count;
                e.4.insert(l.payout_reference.clone());
                let pay = payouts
                    .entry((l.payout_reference.clone(), import.id.clone()))
                    .or_insert_with(|| Payout {
                        reference: l.payout_reference.clone(),
                        import_id: import.id.clone(),
                        processor: import.processor.clone(),
                        file_name: import.file_name.clone(),
                        lines: 0,
                        gross_minor: 0,
                        fees_minor: 0,
                        net_minor: 0,
                    });
                pay.lines += 1;
                pay.gross_minor += l.gross_minor;
                pay.fees_minor += l.fees_minor;
                pay.net_minor += l.net_minor;
            }
        }
        let mut rows = Vec::new();
        let mut days: BTreeSet<(String, NaiveDate)> = settled.keys().cloned().collect();
        for (machine, by_day) in &report.current.cells {
            if !settled_machines.contains_key(machine.as_str()) {
                continue;
            }
            for (day, f) in by_day {
                if f.cashless_minor != 0 {
                    days.insert((machine.clone(), *day));
                }
            }
        }
        let mut totals = ReconTotals::default();
        for (machine_id, date) in days {
            let m = settled_machines[machine_id.as_str()];
            let figures = report
                .current
                .cells
                .get(&machine_id)
                .and_then(|d| d.get(&date))
                .cloned()
                .unwrap_or_default();
            let sales = figures.cashless_minor;
            let s = settled.remove(&(machine_id.clone(), date));
            let gross = s.as_ref().map(|s| s.0);
            let row = ReconRow {
                machine_name: m.name.clone(),
                terminal_id: m.terminal_id.clone().unwrap_or_default(),
                date,
                currency: m.currency.clone(),
                sales_minor: sales,
                transactions: figures.transactions,
                gross_minor: gross.unwrap_or(0),
                fees_minor: s.as_ref().map_or(0, |s| s.1),
                net_minor: s.as_ref().map_or(0, |s| s.2),
                settled_count: s.as_ref().map_or(0, |s| s.3),
                difference_minor: gross.unwrap_or(0) - sales,
                status: status(sales, gross),
                payouts: s.map(|s| s.4.into_iter().collect()).unwrap_or_default(),
                machine_id,
            };
            totals.sales_minor += row.sales_minor;
            totals.gross_minor += row.gross_minor;
            totals.fees_minor += row.fees_minor;
            totals.net_minor += row.net_minor;
            totals.difference_minor += row.difference_minor;
            *totals
                .by_status
                .entry(vendfleet_domain::report::Choice::key(row.status))
                .or_insert(0) += 1;
            rows.push(row);
        }
        rows.sort_by(|a, b| {
            a.machine_name
                .to_lowercase()
                .cmp(&b.machine_name.to_lowercase())
                .then_with(|| a.machine_id.cmp(&b.machine_id))
                .then_with(|| a.date.cmp(&b.date))
        });
        Ok(Reconciliation {
            date_from: q.from,
            date_to: q.to,
            rows,
            totals,
            payouts: payouts.into_values().collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_machine_days_status() {
        assert_eq!(status(500, Some(500)), Status::Matched);
        assert_eq!(status(500, Some(450)), Status::Short);
        assert_eq!(status(500, Some(650)), Status::Over);
        assert_eq!(status(500, None), Status::NotSettled);
        assert_eq!(status(0, Some(120)), Status::SettledNoSales);
        assert_eq!(status(0, Some(0)), Status::Matched);
    }
}
