//! The reports' service: the encashment report here; the inventory, VAT and visit-ledger
//! reports in `service/`.

mod inventory;
mod vat;
mod visits;

pub use inventory::{ComponentStock, ProductStock, SelectionStock};
pub use vat::{VatFigures, VatGroup, VatRate, VatReport, VatRow};
pub use visits::{
    Explanation, ExplanationKind, PreviousVisit, TrendGrain, TrendPoint, VisitLine, VisitParams,
    VisitStatus, VisitSum, VisitSummary,
};

use super::model::{
    counts, most_short_first, read_near, CollectionRow, EncashmentParams, EncashmentTotals,
    OverShort, Reads,
};
use crate::auth::Principal;
use crate::events::{Encashment, EventsService};
use crate::listing::{page_of, paging, ListPage};
use crate::machines::{MachinesService, RefillListParams};
use crate::products::ProductsService;
use crate::sales::{SalesParams, SalesService};
use crate::{AppResult, Calendar};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet};
use vendfleet_domain::sales::cash::{counted_since, taken_since};
use vendfleet_domain::FieldErrors;

/// The reports' service.
#[derive(Clone)]
pub struct ReportsService {
    sales: SalesService,
    events: EventsService,
    machines: MachinesService,
    products: ProductsService,
    calendar: Calendar,
}

impl ReportsService {
    pub fn new(
        sales: SalesService,
        events: EventsService,
        machines: MachinesService,
        products: ProductsService,
        calendar: Calendar,
    ) -> Self {
        ReportsService {
            sales,
            events,
            machines,
            products,
            calendar,
        }
    }

    /// The refill log's parameters with the reports' shared filters resolved: the period
    /// (`period`, `date_from`, `date_to`; when none is given, the log's own `from`/`to` and
    /// their defaults), the machines the machine filters choose in `p`'s scope, and the
    /// products the product filters choose.
    pub async fn refill_params(
        &self,
        p: &Principal,
        shared: &SalesParams,
        mut params: RefillListParams,
    ) -> AppResult<RefillListParams> {
        let q = shared.check(self.calendar.today())?;
        if shared.period.is_some() || shared.date_from.is_some() || shared.date_to.is_some() {
            params.from = Some(q.from.to_string());
            params.to = Some(q.to.to_string());
        }
        let (machines, _) = self.sales.chosen_machines(p, &q).await?;
        params.machine_ids = Some(machines.into_iter().map(|m| m.id).collect());
        params.product_ids = self.sales.chosen_products(&q).await?;
        Ok(params)
    }

    /// The period's collections of the chosen machines, newest first.
    async fn rows(&self, p: &Principal, params: &EncashmentParams) -> AppResult<Vec<Encashment>> {
        let q = params.sales.check(self.calendar.today())?;
        let mut errors = FieldErrors::new();
        let employees = crate::sales::ids(&mut errors, "employees", &params.employees);
        errors.into_result()?;
        let (machines, _) = self.sales.chosen_machines(p, &q).await?;
        let ids: BTreeSet<String> = machines.into_iter().map(|m| m.id).collect();
        let mut rows = self.events.encashments(&ids, q.from, q.to).await?;
        rows.retain(|r| {
            employees.is_empty()
                || r.employee_id
                    .as_ref()
                    .is_some_and(|e| employees.contains(e))
        });
        Ok(rows)
    }

    /// A page of the encashment report.
    pub async fn encashments(
        &self,
        p: &Principal,
        params: &EncashmentParams,
    ) -> AppResult<ListPage<CollectionRow>> {
        let mut errors = FieldErrors::new();
        let pg = paging(&params.list, &[], &mut errors);
        errors.into_result()?;
        let page = page_of(self.rows(p, params).await?, &pg);
        let reads = self.reads(&page.items).await?;
        let mut items = Vec::with_capacity(page.items.len());
        for row in page.items {
            items.push(self.compare(row, &reads).await?);
        }
        Ok(ListPage {
            items,
            count: page.count,
            page: page.page,
            page_size: page.page_size,
        })
    }

    /// Every collection of the report, compared.
    pub async fn all_encashments(
        &self,
        p: &Principal,
        params: &EncashmentParams,
    ) -> AppResult<Vec<CollectionRow>> {
        let rows = self.rows(p, params).await?;
        let reads = self.reads(&rows).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(self.compare(row, &reads).await?);
        }
        Ok(out)
    }

    /// The totals of the report, and its overs and shorts by employee and by machine (most
    /// short first).
    pub async fn encashment_totals(
        &self,
        p: &Principal,
        params: &EncashmentParams,
    ) -> AppResult<EncashmentTotals> {
        let rows = self.all_encashments(p, params).await?;
        let mut all = OverShort::default();
        let mut by_employee: BTreeMap<String, OverShort> = BTreeMap::new();
        let mut by_machine: BTreeMap<String, OverShort> = BTreeMap::new();
        for r in &rows {
            let employee = r.row.employee_id.clone().unwrap_or_default();
            let employee_name = r.row.employee_name.clone().unwrap_or_default();
            for (sum, id, name) in [
                (&mut all, None, None),
                (
                    by_employee.entry(employee.clone()).or_default(),
                    Some(&employee),
                    Some(&employee_name),
                ),
                (
                    by_machine
                        .entry(r.row.stamp.machine_id.clone())
                        .or_default(),
                    Some(&r.row.stamp.machine_id),
                    Some(&r.row.stamp.machine_name),
                ),
            ] {
                if let (Some(id), Some(name)) = (id, name) {
                    sum.id = id.clone();
                    sum.name = name.clone();
                }
                sum.collections += 1;
                sum.collected_minor += r.row.collected_minor;
                if let (Some(e), Some(os)) = (r.expected_minor, r.over_short_minor) {
                    sum.compared += 1;
                    sum.expected_minor += e;
                    sum.over_short_minor += os;
                    sum.shorts += usize::from(os < 0);
                }
            }
        }
        let ranked = |m| most_short_first(m, |s: &OverShort| (s.over_short_minor, &s.name));
        Ok(EncashmentTotals {
            all,
            by_employee: ranked(by_employee),
            by_machine: ranked(by_machine),
        })
    }

    /// The audit reads of the rows' machines.
    async fn reads(&self, rows: &[Encashment]) -> AppResult<Reads> {
        let mut out = Reads::new();
        for row in rows {
            if !out.contains_key(&row.stamp.machine_id) {
                let reads = self.events.audit_reads(&row.stamp.machine_id).await?;
                out.insert(row.stamp.machine_id.clone(), reads);
            }
        }
        Ok(out)
    }

    /// The audit read nearest a collection, within the window.
    fn read_at<'a>(
        reads: &'a Reads,
        machine_id: &str,
        at: DateTime<Utc>,
    ) -> Option<&'a vendfleet_domain::dex::Audit> {
        read_near(reads.get(machine_id)?, at).map(|r| &r.audit)
    }

    /// A collection beside the previous one of its machine, the cash sales in between and,
    /// where audits were read at both, the machine's own cash counters.
    async fn compare(&self, row: Encashment, reads: &Reads) -> AppResult<CollectionRow> {
        let Some(prev) = self.events.previous_encashment(&row).await? else {
            return Ok(CollectionRow {
                row,
                previous_at: None,
                taken_minor: None,
                expected_minor: None,
                over_short_minor: None,
                counted_minor: None,
                counted_over_short_minor: None,
            });
        };
        let taken = taken_since(&counts(&prev), &counts(&row));
        let expected = self
            .sales
            .cash_sales(
                &row.stamp.machine_id,
                (prev.at, prev.local_date),
                (row.at, row.local_date),
            )
            .await?;
        let counted = Self::read_at(reads, &row.stamp.machine_id, prev.at)
            .zip(Self::read_at(reads, &row.stamp.machine_id, row.at))
            .filter(|(a, b)| a != b)
            .and_then(|(a, b)| counted_since(a, b));
        Ok(CollectionRow {
            previous_at: Some(prev.at),
            taken_minor: Some(taken),
            expected_minor: Some(expected),
            over_short_minor: Some(taken - expected),
            counted_minor: counted,
            counted_over_short_minor: counted.map(|c| taken - c),
            row,
        })
    }
}
