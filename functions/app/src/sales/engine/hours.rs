//! The hours of recent days, for "today so far" against the same hours of an earlier day: each
//! machine's sales of a day in the order of their wall-clock time where they were sold, with
//! running sums, so that the same hours of that day are a binary search per machine rather than
//! a read of the day's ledger on every dashboard. Kept by the engine (where this process is the
//! store's sole writer) for a few days; a commit that touches a day drops it, and a day read
//! with other location zones than it was built with is built again.

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};
use chrono_tz::Tz;
use std::collections::HashMap;
use std::sync::Arc;
use vendfleet_domain::sales::{Figures, VendFact};

/// Each location's zone (the operator's for a sale of no location, or of one not listed).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Zones {
    pub by_location: Arc<HashMap<String, Tz>>,
    pub operator: Tz,
}

impl Zones {
    pub fn of(&self, location: Option<&str>) -> Tz {
        location
            .and_then(|l| self.by_location.get(l))
            .copied()
            .unwrap_or(self.operator)
    }
}

/// A machine's sales of one zone: wall-clock times in order, each with the running sum of the
/// figures up to it.
type Run = (Tz, Vec<(NaiveDateTime, Figures)>);

/// One day's sales by machine and zone: wall-clock times in order, with the running sums of
/// the figures up to each; and every machine's together, by zone, so that a question about
/// most of the fleet is the fleet's sum less the machines left out.
pub(crate) struct DayHours {
    pub zones: Zones,
    runs: foldhash::HashMap<String, Vec<Run>>,
    fleet: Vec<Run>,
}

/// A run's vends pushed to the run of `zone` among `runs`.
fn run_of(runs: &mut Vec<Run>, zone: Tz) -> &mut Vec<(NaiveDateTime, Figures)> {
    let i = match runs.iter().position(|(z, _)| *z == zone) {
        Some(i) => i,
        None => {
            runs.push((zone, Vec::new()));
            runs.len() - 1
        }
    };
    &mut runs[i].1
}

/// The figures of the vends of `run` up to `cutoff` (its running sum there).
fn up_to(run: &[(NaiveDateTime, Figures)], cutoff: NaiveDateTime) -> Option<&Figures> {
    let n = run.partition_point(|(at, _)| *at <= cutoff);
    n.checked_sub(1).map(|i| &run[i].1)
}

impl DayHours {
    /// The hours of the day whose ledger rows are `vends`.
    pub fn of(vends: Vec<VendFact>, zones: Zones) -> DayHours {
        let mut runs: foldhash::HashMap<String, Vec<Run>> = Default::default();
        let mut fleet: Vec<Run> = Vec::new();
        for v in vends {
            let zone = zones.of(v.location_id.as_deref());
            let at = v.at.with_timezone(&zone).naive_local();
            let f = Figures::of(&v);
            run_of(&mut fleet, zone).push((at, f));
            run_of(runs.entry(v.machine_id).or_default(), zone).push((at, f));
        }
        for run in runs.values_mut().flatten().chain(fleet.iter_mut()) {
            run.1.sort_by_key(|(at, _)| *at);
            let mut sum = Figures::default();
            for (_, f) in run.1.iter_mut() {
                sum.add(f);
                *f = sum;
            }
        }
        DayHours { zones, runs, fleet }
    }

    /// The figures of `machines`' sales whose wall-clock time moved on by `days_back` days is
    /// not after `now`'s there (`domain::calendar::within_same_hours`).
    pub fn within(&self, machines: &[&str], days_back: i64, now: DateTime<Utc>) -> Figures {
        let mut cutoffs: Vec<(Tz, NaiveDateTime)> = Vec::new();
        let mut cutoff = |zone: Tz| match cutoffs.iter().find(|(z, _)| *z == zone) {
            Some((_, c)) => *c,
            None => {
                let c = now.with_timezone(&zone).naive_local() - Duration::days(days_back);
                cutoffs.push((zone, c));
                c
            }
        };
        let mut total = Figures::default();
        if machines.len() * 2 > self.runs.len() {
            // Most of the fleet: the fleet's sums less those of the machines left out.
            let chosen: foldhash::HashSet<&str> = machines.iter().copied().collect();
            for (zone, times) in &self.fleet {
                total.add(up_to(times, cutoff(*zone)).unwrap_or(&Figures::default()));
            }
            let left_out = self
                .runs
                .iter()
                .filter(|(m, _)| !chosen.contains(m.as_str()));
            for (zone, times) in left_out.flat_map(|(_, runs)| runs) {
                if let Some(f) = up_to(times, cutoff(*zone)) {
                    total.add(&f.negated());
                }
            }
            return total;
        }
        for (zone, times) in machines.iter().filter_map(|m| self.runs.get(*m)).flatten() {
            if let Some(f) = up_to(times, cutoff(*zone)) {
                total.add(f);
            }
        }
        total
    }
}

/// Days whose hours are kept at once (the dashboard compares with two).
const KEPT: usize = 4;

/// The hours kept, by day.
#[derive(Default)]
pub(crate) struct KeptHours(std::sync::Mutex<HashMap<NaiveDate, Arc<DayHours>>>);

impl KeptHours {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<NaiveDate, Arc<DayHours>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets `days` (a commit touched them).
    pub fn drop_days(&self, days: impl Iterator<Item = NaiveDate>) {
        let mut kept = self.lock();
        for day in days {
            kept.remove(&day);
        }
    }

    /// The hours of `day` kept for `zones`.
    pub fn get(&self, day: NaiveDate, zones: &Zones) -> Option<Arc<DayHours>> {
        self.lock().get(&day).filter(|h| h.zones == *zones).cloned()
    }

    /// Keeps the hours of `day` (the oldest day kept goes when [`KEPT`] are).
    pub fn keep(&self, day: NaiveDate, built: Arc<DayHours>) {
        let mut hours = self.lock();
        if hours.len() >= KEPT {
            if let Some(oldest) = hours.keys().min().copied() {
                hours.remove(&oldest);
            }
        }
        hours.insert(day, built);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vendfleet_domain::calendar::within_same_hours;
    use vendfleet_domain::events::{Payment, VendClass};

    /// Against the rule itself: sales every 7 minutes over a day in three zones (one across
    /// Paris's autumn clock change, where 02:00–03:00 happens twice), asked at every quarter
    /// hour of the following days.
    #[test]
    fn same_hours_as_the_rule() {
        let paris: Tz = "Europe/Paris".parse().unwrap();
        let zones = Zones {
            by_location: Arc::new(HashMap::from([
                ("P".to_string(), paris),
                ("N".to_string(), "America/New_York".parse().unwrap()),
                ("A".to_string(), "Pacific/Auckland".parse().unwrap()),
            ])),
            operator: paris,
        };
        let start: DateTime<Utc> = "2026-10-24T20:00:00Z".parse().unwrap();
        let vends: Vec<VendFact> = (0..300)
            .map(|k| {
                let location = ["P", "N", "A", "X"][k % 4];
                VendFact {
                    machine_id: format!("m{}", k % 3),
                    event_id: format!("e{k}"),
                    at: start + Duration::minutes(7 * k as i64),
                    local_date: "2026-10-25".parse().unwrap(),
                    location_id: (location != "X").then(|| location.to_string()),
                    selection: "S0".into(),
                    product_id: "p".into(),
                    quantity: 1 + (k % 2) as u32,
                    revenue_minor: 100 + k as i64,
                    net_minor: 90 + k as i64,
                    payment: if k % 5 == 0 {
                        Payment::Cashless
                    } else {
                        Payment::Cash
                    },
                    class: if k % 11 == 0 {
                        VendClass::Free
                    } else {
                        VendClass::Sale
                    },
                    vat_bps: Some(1000),
                }
            })
            .collect();
        let hours = DayHours::of(vends.clone(), zones.clone());
        // A few machines (read one by one), and most of them (the fleet less those left out).
        for machines in [vec!["m1"], vec!["m0", "m2", "absent"]] {
            for days_back in [1, 7] {
                for q in 0..(4 * 24 * 2) {
                    let now = start + Duration::days(days_back) + Duration::minutes(15 * q);
                    let mut want = Figures::default();
                    for v in vends
                        .iter()
                        .filter(|v| machines.contains(&v.machine_id.as_str()))
                    {
                        let zone = zones.of(v.location_id.as_deref());
                        if within_same_hours(v.at, days_back, now, zone) {
                            want.add(&Figures::of(v));
                        }
                    }
                    assert_eq!(
                        hours.within(&machines, days_back, now),
                        want,
                        "{now} {days_back} {machines:?}"
                    );
                }
            }
        }
    }
}
