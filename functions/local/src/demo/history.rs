//! A machine's past, day by day in its location's zone, as machine events: the route fills it
//! on the first morning, then customers buy by the hour profile of the site, the weekday,
//! payday and noise; the route calls on its days and refills when the stock calls for it,
//! collects the cash when the box is full enough and reads an audit on machines that have one
//! read; the modem reports every night. Nothing lies after `now`.

use super::sim::{payday_factor, poisson, weighted, MachineSim};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use rand::Rng;
use vendfleet_domain::events::MachineEvent;

/// What happens at an instant, in the order of processing at equal instants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Action {
    Vend,
    Telemetry,
    Refill,
    TestVend,
    Collect,
    Audit,
}

/// The instant of a local date and time in the machine's zone (the earlier one when the clock
/// goes back; `None` in the hour skipped when it goes forward).
fn instant(sim: &MachineSim, day: NaiveDate, secs: u32) -> Option<DateTime<Utc>> {
    let time = NaiveTime::from_num_seconds_from_midnight_opt(secs, 0)?;
    sim.setup
        .zone
        .from_local_datetime(&day.and_time(time))
        .earliest()
        .map(|t| t.with_timezone(&Utc))
}

/// The events of the `days` local days up to and including today's (until `now`), in time order.
pub fn events(sim: &mut MachineSim, days: u32, now: DateTime<Utc>) -> Vec<MachineEvent> {
    let today = now.with_timezone(&sim.setup.zone).date_naive();
    let first = today - Duration::days(i64::from(days.max(1)) - 1);
    let mut out = Vec::new();
    let open = instant(sim, first, 6 * 3600).unwrap_or(now).min(now);
    out.extend(sim.refill(open));
    // A machine read by audits gets its first read (the baseline its sales count from) as the
    // route opens it, before its first customer.
    if sim.setup.audits {
        out.push(sim.audit(open));
    }
    let mut day = first;
    let mut actions: Vec<(DateTime<Utc>, Action)> = Vec::new();
    while day <= today {
        actions.clear();
        let expected = sim.setup.daily
            * sim.setup.site.day_factor(day, sim.setup.italian)
            * payday_factor(day)
            * (super::sim::normal(&mut sim.rng) * 0.15).exp();
        let n = poisson(&mut sim.rng, expected);
        let hours = sim.setup.site.hours();
        for _ in 0..n {
            let hour = weighted(&mut sim.rng, hours.iter().copied()).unwrap_or(12) as u32;
            let secs = hour * 3600 + sim.rng.random_range(0..3600);
            if let Some(t) = instant(sim, day, secs) {
                actions.push((t, Action::Vend));
            }
        }
        let night = 3 * 3600 + sim.rng.random_range(0..3600);
        if let Some(t) = instant(sim, day, night) {
            actions.push((t, Action::Telemetry));
        }
        if day > first && sim.setup.site.route_day(day) {
            let visit = 7 * 3600 + sim.rng.random_range(0..240) * 60;
            if let Some(t) = instant(sim, day, visit) {
                actions.push((t, Action::Refill));
                actions.push((t + Duration::minutes(1), Action::TestVend));
                actions.push((t + Duration::minutes(3), Action::Collect));
                if sim.setup.audits {
                    actions.push((t + Duration::minutes(5), Action::Audit));
                }
            }
        }
        actions.sort();
        let mut refilled = false;
        for &(t, action) in &actions {
            if t <= open || t > now {
                continue;
            }
            match action {
                Action::Vend => out.extend(sim.vend(t)),
                Action::Telemetry => out.push(sim.telemetry(t)),
                Action::Refill => {
                    refilled = false;
                    if sim.needs_refill(t) {
                        if let Some(e) = sim.refill(t) {
                            out.push(e);
                            refilled = true;
                        }
                    }
                }
                Action::TestVend => {
                    if refilled {
                        out.extend(sim.maybe_test_vend(t));
                    }
                }
                Action::Collect => {
                    if sim.needs_collection(t) {
                        out.push(sim.collect(t));
                    }
                }
                Action::Audit => out.push(sim.audit(t)),
            }
        }
        day += Duration::days(1);
    }
    // The modem's latest reading, minutes ago.
    let last = now - Duration::minutes(sim.rng.random_range(1..=15));
    if out.last().is_none_or(|e| e.at_utc() < last) {
        out.push(sim.telemetry(last));
    }
    out
}
