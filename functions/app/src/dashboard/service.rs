//! The dashboard's service.

use super::model::*;
use crate::auth::Principal;
use crate::events::EventsService;
use crate::machines::{Machine, MachinesService};
use crate::sales::{SalesParams, SalesReport, SalesService};
use crate::{AppResult, Calendar};
use chrono::{Duration, NaiveDate, Timelike};
use vendfleet_domain::attention::{findings_with, MachineFacts};
use vendfleet_domain::report::{Choice, GroupBy};
use vendfleet_domain::sales::Figures;
use vendfleet_domain::Permission;

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
        previous_from: r.previous_from,
        previous_to: r.previous_to,
        previous: r.previous.total,
    }
}

/// Every day of `from..=to` with its figures in `buckets` (zero where none).
fn days(
    buckets: &std::collections::BTreeMap<NaiveDate, Figures>,
    from: NaiveDate,
    to: NaiveDate,
) -> DaySeries {
    from.iter_days()
        .take_while(|d| *d <= to)
        .map(|d| (d, buckets.get(&d).copied().unwrap_or_default()))
        .collect()
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
            let day = self.calendar.today();
            let of = |period: &str, group_by: GroupBy, span: Option<(NaiveDate, NaiveDate)>| {
                SalesParams {
                    period: Some(period.into()),
                    date_from: span.map(|s| s.0.to_string()),
                    date_to: span.map(|s| s.1.to_string()),
                    group_by: Some(group_by.key().into()),
                    grouping_period: Some("day".into()),
                    ..SalesParams::default()
                }
            };
            let first = day - Duration::days(TREND_DAYS - 1);
            let queries = [
                of("custom", GroupBy::Machine, Some((day, day))),
                of("current_month", GroupBy::Product, None),
                of("current_month", GroupBy::Machine, None),
                of("custom", GroupBy::Machine, Some((first, day))),
            ];
            let earlier = [day - Duration::days(1), day - Duration::days(7)];
            let (today, products, machines, last_days, month, so_far) = tokio::try_join!(
                self.sales.figures(p, &queries[0]),
                self.sales.totals(p, &queries[1]),
                self.sales.totals(p, &queries[2]),
                self.sales.series(p, &queries[3]),
                self.sales.series(p, &queries[2]),
                self.sales.so_far(p, &earlier),
            )?;
            let local_now = self
                .calendar
                .now()
                .with_timezone(&self.calendar.time_zone());
            out.today = Some(Today {
                day,
                until: local_now.time().with_nanosecond(0).unwrap_or_default(),
                figures: today.current.total,
                yesterday: so_far[0],
                week_before: so_far[1],
            });
            out.trend = Some(Trend {
                last_days: days(&last_days.current.buckets, first, day),
                month: days(&month.current.buckets, month.query.from, month.query.to),
                previous_month: days(
                    &month.previous.buckets,
                    month.previous_from,
                    month.previous_to,
                ),
            });
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
    /// facts come from planning's machine states (kept in memory where this process is the sole
    /// writer, read again only for the machines written since; else in two reads whatever the
    /// fleet's size); the held audit reads from a sparse index.
    pub async fn attention(&self, p: &Principal) -> AppResult<Vec<Attention>> {
        let (now, today) = (self.calendar.now(), self.calendar.today());
        let (visible, _) = self.machines.visible_shared(p).await?;
        let machines: Vec<&Machine> = visible.iter().filter(|m| !m.inactive).collect();
        let ids: Vec<&str> = machines.iter().map(|m| m.id.as_str()).collect();
        let (facts, held, settings, locations) = tokio::try_join!(
            self.planning.machine_states(&ids),
            self.events.held_audit_counts(),
            self.planning.settings(),
            self.sales.locations().all_shared(),
        )?;
        // The operator's thresholds (route planning's settings).
        let limits = settings.thresholds();
        let mut out = Vec::new();
        for (machine, state) in machines.into_iter().zip(facts) {
            let kept = &state.facts;
            let held_audits = held.get(&machine.id).copied().unwrap_or(0);
            let found = if held_audits == 0 {
                findings_with(kept, now, today, &limits)
            } else {
                let facts = MachineFacts {
                    held_audits,
                    ..MachineFacts::clone(kept)
                };
                findings_with(&facts, now, today, &limits)
            };
            if !found.is_empty() {
                let location = machine.location_id.as_ref().and_then(|l| locations.get(l));
                out.push(Attention {
                    location_name: location.map(|l| l.name.clone()),
                    machine: machine.clone(),
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
