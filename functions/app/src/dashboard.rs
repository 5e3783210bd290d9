//! The dashboard: today and this month against the span before, the top products and machines
//! of the month, and the machines that need attention — all within the user's machine scope,
//! each part only for a user who may see the report behind it.

use crate::auth::Principal;
use crate::events::EventsService;
use crate::machines::{Machine, MachinesService};
use crate::sales::{SalesParams, SalesReport, SalesService};
use crate::{AppResult, Calendar};
use chrono::NaiveDate;
use vendfleet_domain::attention::{findings_with, Finding, MachineFacts, SelectionFacts};
use vendfleet_domain::report::{Choice, GroupBy};
use vendfleet_domain::sales::Figures;
use vendfleet_domain::Permission;

/// Groups listed in the dashboard's top lists.
pub const TOP: usize = 5;

/// A span's figures and those of the span of as many days just before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanFigures {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub figures: Figures,
    pub previous: Figures,
}

/// One entry of a top list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Top {
    pub id: String,
    pub name: String,
    pub figures: Figures,
}

/// A machine that needs attention, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    pub machine: Machine,
    pub findings: Vec<Finding>,
}

/// What the dashboard shows; `None` where the user may not see the report behind it.
#[derive(Debug, Clone, Default)]
pub struct Dashboard {
    pub today: Option<SpanFigures>,
    pub month: Option<SpanFigures>,
    pub top_products: Option<Vec<Top>>,
    pub top_machines: Option<Vec<Top>>,
    pub attention: Option<Vec<Attention>>,
}

/// The dashboard's service.
#[derive(Clone)]
pub struct DashboardService {
    sales: SalesService,
    machines: MachinesService,
    events: EventsService,
    planning: crate::planning::PlanningService,
    calendar: Calendar,
}

fn span(r: &SalesReport) -> SpanFigures {
    SpanFigures {
        from: r.query.from,
        to: r.query.to,
        figures: r.current.total,
        previous: r.previous.total,
    }
}

fn top(r: &SalesReport) -> Vec<Top> {
    r.ranked_groups()
        .into_iter()
        .take(TOP)
        .map(|k| Top {
            id: k.clone(),
            name: r.name(k).to_string(),
            figures: r.current.groups[k],
        })
        .collect()
}

impl DashboardService {
    pub fn new(
        sales: SalesService,
        machines: MachinesService,
        events: EventsService,
        planning: crate::planning::PlanningService,
        calendar: Calendar,
    ) -> Self {
        DashboardService {
            sales,
            machines,
            events,
            planning,
            calendar,
        }
    }

    /// The dashboard of `p`.
    pub async fn dashboard(&self, p: &Principal) -> AppResult<Dashboard> {
        let mut out = Dashboard::default();
        let sees_sales = [
            Permission::SalesOverviewGraph,
            Permission::SalesOverviewList,
            Permission::SalesOverviewTotalList,
            Permission::SalesOverviewFullAccess,
        ]
        .into_iter()
        .any(|k| p.can(k));
        if sees_sales {
            let today = self.calendar.today().to_string();
            let of = |period: &str, group_by: GroupBy, day: Option<&str>| SalesParams {
                period: Some(period.into()),
                date_from: day.map(String::from),
                date_to: day.map(String::from),
                group_by: Some(group_by.key().into()),
                ..SalesParams::default()
            };
            let queries = [
                of("custom", GroupBy::Machine, Some(&today)),
                of("current_month", GroupBy::Product, None),
                of("current_month", GroupBy::Machine, None),
            ];
            let (day, products, machines) = tokio::try_join!(
                self.sales.figures(p, &queries[0]),
                self.sales.totals(p, &queries[1]),
                self.sales.totals(p, &queries[2]),
            )?;
            out.today = Some(span(&day));
            out.month = Some(span(&machines));
            out.top_products = Some(top(&products));
            out.top_machines = Some(top(&machines));
        }
        if p.can(Permission::MachinesList) {
            out.attention = Some(self.attention(p).await?);
        }
        Ok(out)
    }

    /// The machines `p` sees that need attention, most findings first, then by name. Their
    /// facts come in three reads whatever the fleet's size: the statuses (batched), the
    /// selections (the fleet-wide index) and the held audit reads (a sparse index).
    pub async fn attention(&self, p: &Principal) -> AppResult<Vec<Attention>> {
        let (now, today) = (self.calendar.now(), self.calendar.today());
        let machines: Vec<Machine> = self.machines.active_visible(p).await?;
        let ids: Vec<String> = machines.iter().map(|m| m.id.clone()).collect();
        let (mut statuses, mut selections, held, settings) = tokio::try_join!(
            self.events.statuses(&ids),
            self.machines.selections_of(&ids),
            self.events.held_audit_counts(),
            self.planning.settings(),
        )?;
        // The operator's thresholds (route planning's settings).
        let limits = settings.thresholds();
        let mut out = Vec::new();
        for machine in machines {
            let status = statuses.remove(&machine.id);
            let facts = MachineFacts {
                last_updated: status.as_ref().and_then(|s| s.last_updated),
                cash_box_minor: status.as_ref().and_then(|s| s.int("cash_box_minor")),
                selections: selections
                    .remove(&machine.id)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|s| SelectionFacts {
                        current: s.current,
                        max: s.max,
                        expiry: s.expiry_date,
                    })
                    .collect(),
                held_audits: held.get(&machine.id).copied().unwrap_or(0),
            };
            let found = findings_with(&facts, now, today, &limits);
            if !found.is_empty() {
                out.push(Attention {
                    machine,
                    findings: found,
                });
            }
        }
        out.sort_by(|a, b| {
            b.findings
                .len()
                .cmp(&a.findings.len())
                .then_with(|| a.machine.name.cmp(&b.machine.name))
        });
        Ok(out)
    }
}
