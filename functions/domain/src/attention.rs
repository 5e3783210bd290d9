//! Why a machine needs a visit or a look: the dashboard's "needs attention" rules. Pure: the
//! application gathers the facts (the machine's status, planogram and held audits).

use crate::thresholds::Thresholds;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

pub use crate::thresholds::{
    CASH_BOX_FULL_MINOR, EXPIRY_DAYS, LOW_SHARE, LOW_SHARE_PCT, STALE_HOURS,
};

/// One selection, as far as attention goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelectionFacts {
    pub current: i64,
    pub max: i64,
    pub expiry: Option<NaiveDate>,
}

/// What is known of a machine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MachineFacts {
    /// Its latest event of any kind.
    pub last_updated: Option<DateTime<Utc>>,
    /// The cash box by its latest reading.
    pub cash_box_minor: Option<i64>,
    pub selections: Vec<SelectionFacts>,
    /// Audit reads held for review.
    pub held_audits: usize,
}

/// Why a machine needs attention (the dashboard).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AttentionReason))]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No event for [`STALE_HOURS`] (or never).
    Offline,
    SoldOut,
    Low,
    Expiring,
    CashBoxFull,
    HeldAudits,
}

impl Reason {
    /// Every reason, in the order the dashboard shows them.
    pub const ALL: [Reason; 6] = [
        Reason::Offline,
        Reason::SoldOut,
        Reason::Low,
        Reason::Expiring,
        Reason::CashBoxFull,
        Reason::HeldAudits,
    ];
}

/// One reason and how much of it: selections sold out, low or expiring; the cash in the box;
/// held reads; hours since the last event for `Offline` (`None` when it never reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finding {
    pub reason: Reason,
    pub amount: Option<i64>,
}

/// The findings for a machine at `now`, the operator's day being `today`, by the default
/// thresholds.
pub fn findings(m: &MachineFacts, now: DateTime<Utc>, today: NaiveDate) -> Vec<Finding> {
    findings_with(m, now, today, &Thresholds::default())
}

/// The findings for a machine by the operator's thresholds (route planning's settings).
pub fn findings_with(
    m: &MachineFacts,
    now: DateTime<Utc>,
    today: NaiveDate,
    limits: &Thresholds,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut push = |reason, amount| out.push(Finding { reason, amount });
    match m.last_updated {
        None => push(Reason::Offline, None),
        Some(t) if now - t >= Duration::hours(limits.stale_hours) => {
            push(Reason::Offline, Some((now - t).num_hours()))
        }
        Some(_) => {}
    }
    let count = |f: &dyn Fn(&SelectionFacts) -> bool| m.selections.iter().filter(|s| f(s)).count();
    let sold_out = count(&|s| s.max > 0 && s.current <= 0);
    let low = count(&|s| s.current > 0 && (s.current as f64) < limits.low_level(s.max));
    let expiring = count(&|s| {
        s.current > 0
            && s.expiry
                .is_some_and(|d| d <= today + Duration::days(limits.expiry_days))
    });
    for (reason, n) in [
        (Reason::SoldOut, sold_out),
        (Reason::Low, low),
        (Reason::Expiring, expiring),
    ] {
        if n > 0 {
            push(reason, Some(n as i64));
        }
    }
    if let Some(cash) = m
        .cash_box_minor
        .filter(|c| limits.auto_collect_minor > 0 && *c >= limits.auto_collect_minor)
    {
        push(Reason::CashBoxFull, Some(cash));
    }
    if m.held_audits > 0 {
        push(Reason::HeldAudits, Some(m.held_audits as i64));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_finds_its_reason_and_a_healthy_machine_none() {
        let now: DateTime<Utc> = "2026-11-22T23:30:00Z".parse().unwrap();
        let today = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        let sel = |current, max, expiry| SelectionFacts {
            current,
            max,
            expiry,
        };
        let healthy = MachineFacts {
            last_updated: Some(now - Duration::hours(2)),
            cash_box_minor: Some(CASH_BOX_FULL_MINOR - 1),
            selections: vec![sel(8, 10, Some(today + Duration::days(EXPIRY_DAYS + 1)))],
            held_audits: 0,
        };
        assert_eq!(findings(&healthy, now, today), vec![]);
        let sick = MachineFacts {
            last_updated: Some(now - Duration::hours(30)),
            cash_box_minor: Some(CASH_BOX_FULL_MINOR),
            selections: vec![
                sel(0, 10, None),
                sel(-2, 10, None),
                sel(2, 10, None),
                sel(5, 10, Some(today)),
                sel(0, 10, Some(today)),
            ],
            held_audits: 2,
        };
        let got: Vec<(Reason, Option<i64>)> = findings(&sick, now, today)
            .into_iter()
            .map(|f| (f.reason, f.amount))
            .collect();
        assert_eq!(
            got,
            vec![
                (Reason::Offline, Some(30)),
                (Reason::SoldOut, Some(3)),
                (Reason::Low, Some(1)),
                (Reason::Expiring, Some(1)),
                (Reason::CashBoxFull, Some(CASH_BOX_FULL_MINOR)),
                (Reason::HeldAudits, Some(2)),
            ]
        );
        let never = MachineFacts {
            last_updated: None,
            ..healthy
        };
        assert_eq!(
            findings(&never, now, today),
            vec![Finding {
                reason: Reason::Offline,
                amount: None
            }]
        );
    }
}
