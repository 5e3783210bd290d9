//! The visit ledger: every cash collection as one line of the chain — the machine's previous
//! collection, the cash sales since, what the tubes held before and after, what the collector
//! counted, the variance — with the records that explain a variance where there are any: a stock
//! typed in by hand, a counter reset or board change, a held audit read, coins put into the tubes
//! by hand, cash sales that arrived after the collection was booked. Summed by employee and by
//! machine with a trend, so a pattern stands out and a one-off does not alarm.

mod evidence;
mod explain;

use super::ReportsService;
use crate::auth::Principal;
use crate::events::Encashment;
use crate::fleet::SalesSource;
use crate::listing::{page_of, paging, ListPage, ListParams};
use crate::reports::model::{counts, most_short_first, read_near};
use crate::sales::SalesParams;
use crate::AppResult;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use evidence::{CashBook, Evidence, Interval};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use vendfleet_domain::FieldErrors;

/// The visit ledger's query: the sales filters' period and machines, employees (comma-separated
/// ids), statuses (comma-separated) and the list's paging.
#[derive(Debug, Clone, Default)]
pub struct VisitParams {
    pub sales: SalesParams,
    pub employees: Option<String>,
    pub status: Option<String>,
    pub list: ListParams,
}

/// How a line stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum VisitStatus {
    /// The machine's first collection: nothing to compare with.
    First,
    /// Counted what the sales say, to the cent.
    Matched,
    /// A variance some record explains.
    Explained,
    /// A variance no record explains.
    Unexplained,
}

impl VisitStatus {
    const ALL: [(VisitStatus, &'static str); 4] = [
        (VisitStatus::First, "first"),
        (VisitStatus::Matched, "matched"),
        (VisitStatus::Explained, "explained"),
        (VisitStatus::Unexplained, "unexplained"),
    ];
}

/// What kind of record explains a variance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExplanationKind {
    /// Stock typed in by hand (a refill-log line of source `manual`) between the collections.
    ManualStockEntry,
    /// An audit read between the collections found the counters reset (the whole machine's, or
    /// a selection's): sales across it were not counted (audit machines).
    CounterReset,
    /// An audit read between the collections came from another board (audit machines).
    BoardChange,
    /// An audit read between the collections is held for review (or was superseded by a new
    /// baseline while held) and no counted read follows it up to the collection: its sales are
    /// not in the figures (audit machines).
    HeldRead,
    /// The audit reads at the two collections show coins put into the tubes by hand (`CA1002`
    /// rose) beyond what the collections between them reported refilling.
    TubeRefill,
    /// Cash sales of the interval whose events arrived after the collection was booked.
    LateEvent,
}

/// One explanation and the records it cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Explanation {
    pub kind: ExplanationKind,
    /// When the (first) cited record happened.
    pub at: DateTime<Utc>,
    /// The money it accounts for, where the records give one.
    pub amount_minor: Option<i64>,
    /// Units (stock typed in: net units; late events: cash sales), where that is the measure.
    pub units: Option<i64>,
    /// The cited records' ids: refill-log lines, audit reads, vend events.
    pub refs: Vec<String>,
}

/// The collection before a line's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct PreviousVisit {
    pub id: String,
    pub at: DateTime<Utc>,
    pub bag_no: String,
    pub employee_name: Option<String>,
}

/// One line of the visit ledger: a collection (its figures as booked: `tubes_minor` is what the
/// tubes held when the collector came) and the chain behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VisitLine {
    #[serde(flatten)]
    pub collection: Encashment,
    pub previous: Option<PreviousVisit>,
    /// Where the machine's sales come from: its vend events, or its audit counters.
    #[cfg_attr(feature = "schema", schema(value_type = String, example = "events"))]
    pub sales_source: SalesSource,
    /// Cash sales since the previous collection (the expected); null for a first collection.
    pub cash_sales_minor: Option<i64>,
    /// What the tubes held when the previous collector left them.
    pub tubes_before_minor: Option<i64>,
    /// What the tubes held when the collector left (found − ejected + refilled).
    pub tubes_after_minor: i64,
    /// The cash customers paid since the previous collection by the count: the bag (less the
    /// coins ejected from the tubes into it) + what the tubes gained since the previous
    /// collector left them. A bag counted short at the depot is a variance.
    pub counted_minor: Option<i64>,
    /// `counted − cash_sales`: over when positive, short when negative.
    pub variance_minor: Option<i64>,
    pub status: VisitStatus,
    /// The records that explain the variance (only lines with a variance carry any).
    pub explanations: Vec<Explanation>,
}

/// One period of a trend.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TrendPoint {
    /// The period's first day (a Monday for weeks, the 1st for months).
    pub start: NaiveDate,
    pub visits: usize,
    pub variance_minor: i64,
    pub unexplained: usize,
}

/// The lines of one employee or machine (or all) over the period.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VisitSum {
    /// The employee or machine (empty for the total and for collections of no known employee).
    pub id: String,
    pub name: String,
    pub visits: usize,
    /// Lines with a previous collection to compare with.
    pub compared: usize,
    pub collected_minor: i64,
    pub cash_sales_minor: i64,
    pub counted_minor: i64,
    pub variance_minor: i64,
    pub shorts: usize,
    pub overs: usize,
    pub explained: usize,
    pub unexplained: usize,
    /// The variance of the unexplained lines.
    pub unexplained_minor: i64,
    pub trend: Vec<TrendPoint>,
}

/// How the trend is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum TrendGrain {
    Week,
    Month,
}

/// The visit ledger's totals: all, by employee and by machine (most short first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VisitSummary {
    pub total: VisitSum,
    pub by_employee: Vec<VisitSum>,
    pub by_machine: Vec<VisitSum>,
    /// Weeks for a period of up to 92 days, months beyond.
    pub trend_grain: TrendGrain,
}

impl TrendGrain {
    fn start(self, day: NaiveDate) -> NaiveDate {
        match self {
            TrendGrain::Week => {
                day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
            }
            TrendGrain::Month => day.with_day(1).unwrap_or(day),
        }
    }
}

impl VisitSum {
    fn add(&mut self, l: &VisitLine, grain: TrendGrain) {
        self.visits += 1;
        self.collected_minor += l.collection.collected_minor;
        let start = grain.start(l.collection.local_date);
        let point = match self.trend.iter().position(|t| t.start == start) {
            Some(i) => &mut self.trend[i],
            None => {
                self.trend.push(TrendPoint {
                    start,
                    ..TrendPoint::default()
                });
                self.trend.last_mut().expect("just pushed")
            }
        };
        point.visits += 1;
        let (Some(sales), Some(counted), Some(v)) =
            (l.cash_sales_minor, l.counted_minor, l.variance_minor)
        else {
            return;
        };
        point.variance_minor += v;
        self.compared += 1;
        self.cash_sales_minor += sales;
        self.counted_minor += counted;
        self.variance_minor += v;
        self.shorts += usize::from(v < 0);
        self.overs += usize::from(v > 0);
        match l.status {
            VisitStatus::Explained => self.explained += 1,
            VisitStatus::Unexplained => {
                self.unexplained += 1;
                self.unexplained_minor += v;
                point.unexplained += 1;
            }
            VisitStatus::First | VisitStatus::Matched => {}
        }
    }
}

impl ReportsService {
    /// Every line of the ledger for the query, newest first.
    pub async fn visit_lines(
        &self,
        p: &Principal,
        params: &VisitParams,
    ) -> AppResult<Vec<VisitLine>> {
        p.require(vendfleet_domain::Permission::VisitLedgerList)?;
        let q = params.sales.check(self.calendar.today())?;
        let mut errors = FieldErrors::new();
        let employees = crate::sales::ids(&mut errors, "employees", &params.employees);
        let statuses = statuses(&mut errors, &params.status);
        errors.into_result()?;
        let (machines, _) = self.sales.chosen_machines(p, &q).await?;
        let sources: BTreeMap<String, SalesSource> = machines
            .iter()
            .map(|m| (m.id.clone(), m.sales_source))
            .collect();
        let ids: BTreeSet<String> = sources.keys().cloned().collect();
        // Every collection of the period (the chain needs the other employees' too), oldest
        // first by machine.
        let mut by_machine: BTreeMap<String, Vec<Encashment>> = BTreeMap::new();
        for row in self.events.encashments(&ids, q.from, q.to).await? {
            by_machine
                .entry(row.stamp.machine_id.clone())
                .or_default()
                .push(row);
        }
        let mut chains = Vec::with_capacity(by_machine.len());
        for (machine_id, mut rows) in by_machine {
            rows.sort_by(|a, b| a.at.cmp(&b.at).then_with(|| a.id.cmp(&b.id)));
            let previous = self.events.previous_encashment(&rows[0]).await?;
            chains.push((machine_id, previous, rows));
        }
        // The day rollups of every chain's span, read at once (a day either side: an audit
        // machine's reads may fall on the next or the previous local day).
        let first = chains
            .iter()
            .filter_map(|(_, prev, rows)| prev.as_ref().or(rows.first()))
            .map(|e| e.local_date)
            .min()
            .unwrap_or(q.from);
        let span = (
            first.max(q.from - Duration::days(366)) - Duration::days(1),
            q.to + Duration::days(1),
        );
        let ids: Vec<String> = chains.iter().map(|(m, _, _)| m.clone()).collect();
        let mut evidence = Evidence {
            cash: CashBook::load(&self.sales, ids, span).await?,
            ..Evidence::default()
        };
        let mut out = Vec::new();
        for (machine_id, mut previous, rows) in chains {
            let source = sources.get(&machine_id).copied().unwrap_or_default();
            for row in rows {
                let line = self
                    .visit_line(p, &row, previous.as_ref(), source, &mut evidence)
                    .await?;
                previous = Some(row);
                let wanted = (employees.is_empty()
                    || line
                        .collection
                        .employee_id
                        .as_ref()
                        .is_some_and(|e| employees.contains(e)))
                    && (statuses.is_empty() || statuses.contains(&line.status));
                if wanted {
                    out.push(line);
                }
            }
        }
        out.sort_by(|a, b| {
            let (a, b) = (&a.collection, &b.collection);
            b.at.cmp(&a.at).then_with(|| b.id.cmp(&a.id))
        });
        Ok(out)
    }

    /// A page of the ledger.
    pub async fn visit_ledger(
        &self,
        p: &Principal,
        params: &VisitParams,
    ) -> AppResult<ListPage<VisitLine>> {
        let mut errors = FieldErrors::new();
        let pg = paging(&params.list, &[], &mut errors);
        errors.into_result()?;
        Ok(page_of(self.visit_lines(p, params).await?, &pg))
    }

    /// The ledger's totals by employee and by machine, with their trends.
    pub async fn visit_summary(
        &self,
        p: &Principal,
        params: &VisitParams,
    ) -> AppResult<VisitSummary> {
        let q = params.sales.check(self.calendar.today())?;
        let grain = if (q.to - q.from).num_days() < 92 {
            TrendGrain::Week
        } else {
            TrendGrain::Month
        };
        let lines = self.visit_lines(p, params).await?;
        let mut total = VisitSum::default();
        let mut by_employee: BTreeMap<String, VisitSum> = BTreeMap::new();
        let mut by_machine: BTreeMap<String, VisitSum> = BTreeMap::new();
        for l in lines.iter().rev() {
            total.add(l, grain);
            let employee = l.collection.employee_id.clone().unwrap_or_default();
            let e = by_employee.entry(employee.clone()).or_default();
            e.id = employee;
            e.name = l.collection.employee_name.clone().unwrap_or_default();
            e.add(l, grain);
            let m = by_machine
                .entry(l.collection.stamp.machine_id.clone())
                .or_default();
            m.id = l.collection.stamp.machine_id.clone();
            m.name = l.collection.stamp.machine_name.clone();
            m.add(l, grain);
        }
        let ranked = |m| most_short_first(m, |s: &VisitSum| (s.variance_minor, &s.name));
        Ok(VisitSummary {
            total,
            by_employee: ranked(by_employee),
            by_machine: ranked(by_machine),
            trend_grain: grain,
        })
    }

    /// One collection beside the previous one of its machine.
    async fn visit_line(
        &self,
        p: &Principal,
        row: &Encashment,
        previous: Option<&Encashment>,
        source: SalesSource,
        evidence: &mut Evidence,
    ) -> AppResult<VisitLine> {
        let now = counts(row);
        let mut line = VisitLine {
            collection: row.clone(),
            previous: previous.map(|v| PreviousVisit {
                id: v.id.clone(),
                at: v.at,
                bag_no: v.bag_no.clone(),
                employee_name: v.employee_name.clone(),
            }),
            sales_source: source,
            cash_sales_minor: None,
            tubes_before_minor: previous.map(|v| counts(v).tubes_left_minor()),
            tubes_after_minor: now.tubes_left_minor(),
            counted_minor: None,
            variance_minor: None,
            status: VisitStatus::First,
            explanations: Vec::new(),
        };
        let Some(prev) = previous else {
            return Ok(line);
        };
        // The bag (less the coins ejected from the tubes into it) and what the tubes gained.
        let counted = row.collected_minor - row.ejected_minor + row.tubes_minor
            - counts(prev).tubes_left_minor();
        // An audit machine's sales are booked when its audit is read: between the reads taken
        // at the two collections when there are such reads.
        let mut span = Interval {
            from: (prev.at, prev.local_date),
            to: (row.at, row.local_date),
        };
        if source == SalesSource::Audit {
            let reads = evidence.reads(self, &row.stamp.machine_id).await?;
            if let (Some(a), Some(b)) = (read_near(reads, prev.at), read_near(reads, row.at)) {
                if a.order() < b.order() {
                    span = Interval {
                        from: (a.at, a.local_date),
                        to: (b.at, b.local_date),
                    };
                }
            }
        }
        let sales = evidence
            .cash
            .cash_sales(&self.sales, &row.stamp.machine_id, span)
            .await?;
        let variance = counted - sales;
        line.cash_sales_minor = Some(sales);
        line.counted_minor = Some(counted);
        line.variance_minor = Some(variance);
        if variance == 0 {
            line.status = VisitStatus::Matched;
            return Ok(line);
        }
        line.explanations = self
            .explanations(p, (prev, row), span, source, evidence)
            .await?;
        line.status = if line.explanations.is_empty() {
            VisitStatus::Unexplained
        } else {
            VisitStatus::Explained
        };
        Ok(line)
    }
}

/// The `status` filter: statuses, comma-separated.
fn statuses(errors: &mut FieldErrors, v: &Option<String>) -> BTreeSet<VisitStatus> {
    let mut out = BTreeSet::new();
    for s in v.as_deref().unwrap_or("").split(',').map(str::trim) {
        if s.is_empty() {
            continue;
        }
        match VisitStatus::ALL.iter().find(|(_, k)| *k == s) {
            Some((status, _)) => {
                out.insert(*status);
            }
            None => errors.add("status", "Choose first, matched, explained or unexplained."),
        }
    }
    out
}
