//! Sales from EVA-DTS audits: the difference between two consecutive reads of a machine, per
//! selection, from the since-initialisation counters (`PA201` vends, `PA202` value), with the
//! reasons a difference must not be counted before a person has looked at it.
//!
//! What real machines do to counters, and what this makes of it:
//! - a counter that went down because it passed its maximum (16 or 32 bits) **wrapped**: the
//!   difference is taken across the wrap, and flagged;
//! - counters that went down otherwise were **reset** (a re-initialised board): the new read's
//!   counters are the sales since the reset, taken as the difference, and flagged;
//! - a value that went down while the count went up (or the reverse) is a **negative delta**;
//! - far more vends than the machine usually sells in that time is an **implausible jump**;
//! - reads far apart, or a read counter (`EA308`) that skipped reads, is a **gap in reads**;
//! - the first read of a machine has nothing to differ from: it sets the baseline, counts
//!   nothing.

use crate::dex::{Audit, VendCounters};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The counters of one selection in one read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionCounters {
    /// Paid vends since initialisation.
    pub vends: u64,
    /// Value of paid vends since initialisation, minor units.
    pub value_minor: u64,
}

/// What one read says, reduced to what differences need.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadCounters {
    /// By selection id (`PA101`).
    pub selections: BTreeMap<String, SelectionCounters>,
    /// `EA308`: reads since initialisation, when the machine counts them.
    pub reads_since_init: Option<u64>,
}

/// Why a difference is held back for review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    CounterReset,
    Wrap,
    NegativeDelta,
    ImplausibleJump,
    GapInReads,
}

/// One flag and its reason, in words a person checking it understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub flag: Flag,
    /// The selection it concerns, when it concerns one.
    pub selection: Option<String>,
    pub reason: String,
}

/// The sales of one selection between two reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    pub vends: u64,
    pub value_minor: u64,
}

/// The difference between two reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadDiff {
    /// Sales by selection (selections that sold nothing are left out).
    pub deltas: BTreeMap<String, Delta>,
    pub findings: Vec<Finding>,
}

impl ReadDiff {
    /// True when nothing needs a person's review.
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    /// Vends in total.
    pub fn vends(&self) -> u64 {
        self.deltas.values().map(|d| d.vends).sum()
    }
}

/// What the machine usually sells, to judge a jump.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Usual {
    /// Vends per day, over the machine's recent history (all selections).
    pub vends_per_day: f64,
}

/// Days of sales before a read that say what the machine usually sells.
pub const USUAL_DAYS: i64 = 28;

impl Usual {
    /// The vends a day over the [`USUAL_DAYS`] before `read_day` (the read's local day), from
    /// the first of them that sold: a machine younger than the window is not judged by days it
    /// did not exist. `None` when none of them sold (nothing to judge a jump by). `days` are
    /// local days and their vends, in any order; days outside the window are ignored.
    pub fn over(
        days: impl IntoIterator<Item = (chrono::NaiveDate, i64)>,
        read_day: chrono::NaiveDate,
    ) -> Option<Usual> {
        let start = read_day - chrono::Duration::days(USUAL_DAYS);
        let mut first: Option<chrono::NaiveDate> = None;
        let mut vends = 0;
        for (day, n) in days {
            if day >= start && day < read_day && n > 0 {
                vends += n;
                first = Some(first.map_or(day, |f| f.min(day)));
            }
        }
        let span = (read_day - first?).num_days().max(1);
        Some(Usual {
            vends_per_day: vends as f64 / span as f64,
        })
    }
}

/// More vends an hour than any machine can make, on average over the time between two reads
/// (one every 30 seconds, all day): a jump even when nothing says what the machine usually sells.
pub const MAX_VENDS_PER_HOUR: f64 = 120.0;

/// Reads more than this many hours apart are a gap.
pub const GAP_HOURS: f64 = 7.0 * 24.0;
/// A read holding more than this many times the usual vends for its time span is a jump.
pub const JUMP_FACTOR: f64 = 5.0;
/// ... and at least this many vends (small machines sell in bursts).
pub const JUMP_FLOOR: u64 = 100;

const NOT_SET_32: u64 = 4_294_967_295;
const NOT_SET_16: u64 = 65_535;

fn set(v: Option<u64>) -> Option<u64> {
    v.filter(|v| *v != NOT_SET_32 && *v != NOT_SET_16)
}

fn since_init(c: &VendCounters) -> Option<SelectionCounters> {
    match (set(c.vends_since_init), set(c.value_since_init_minor)) {
        (None, None) => None,
        (vends, value) => Some(SelectionCounters {
            vends: vends.unwrap_or(0),
            value_minor: value.unwrap_or(0),
        }),
    }
}

/// The counters of an audit; selections without since-init paid-vend counters are left out.
pub fn counters(audit: &Audit) -> ReadCounters {
    let selections = audit
        .selections
        .iter()
        .filter_map(|s| {
            let c = s.sales.as_ref().and_then(since_init)?;
            Some((s.id.clone(), c))
        })
        .collect();
    ReadCounters {
        selections,
        reads_since_init: audit.reads.as_ref().and_then(|r| set(r.reads_since_init)),
    }
}

/// Whether a counter that went from `prev` down to `next` passed its maximum (16 or 32 bits):
/// `prev` near the maximum, `next` near zero. Returns the difference across the wrap.
fn wrapped(prev: u64, next: u64) -> Option<u64> {
    [1u64 << 16, 1u64 << 32].into_iter().find_map(|modulus| {
        (prev < modulus && prev >= modulus - modulus / 10 && next < modulus / 10)
            .then(|| modulus - prev + next)
    })
}

/// How the two counters of a selection moved.
enum Move {
    /// Both rose (or stayed): the differences.
    Rise(u64, u64),
    /// At least one passed its maximum and the other rose or wrapped too.
    Wrap(u64, u64),
    /// Both went back: the board was reset; the new counters are the sales since.
    Reset(u64, u64),
    /// One went back alone.
    Negative,
}

fn moved(p: SelectionCounters, n: SelectionCounters) -> Move {
    let step = |a: u64, b: u64| -> Result<u64, Option<u64>> {
        if b >= a {
            Ok(b - a)
        } else {
            Err(wrapped(a, b))
        }
    };
    match (step(p.vends, n.vends), step(p.value_minor, n.value_minor)) {
        (Ok(v), Ok(m)) => Move::Rise(v, m),
        (Err(Some(v)), Ok(m)) | (Ok(v), Err(Some(m))) => Move::Wrap(v, m),
        (Err(Some(v)), Err(Some(m))) => Move::Wrap(v, m),
        (Err(_), Err(_)) => Move::Reset(n.vends, n.value_minor),
        (Err(None), Ok(_)) | (Ok(_), Err(None)) => Move::Negative,
    }
}

/// The difference between two consecutive reads `hours` apart.
pub fn diff(
    prev: &ReadCounters,
    next: &ReadCounters,
    hours: f64,
    usual: Option<Usual>,
) -> ReadDiff {
    let mut out = ReadDiff::default();
    for (id, n) in &next.selections {
        let p = prev.selections.get(id).copied().unwrap_or_default();
        let mut note = |flag: Flag, reason: String| {
            out.findings.push(Finding {
                flag,
                selection: Some(id.clone()),
                reason,
            })
        };
        let (vends, value) = match moved(p, *n) {
            Move::Rise(v, m) => {
                if (v == 0) != (m == 0) {
                    note(
                        Flag::NegativeDelta,
                        format!("Selection {id}: {v} vends for a value of {m}: count and value disagree."),
                    );
                }
                (v, m)
            }
            Move::Wrap(v, m) => {
                note(
                    Flag::Wrap,
                    format!(
                        "Selection {id}: a counter passed its maximum ({} → {} vends, {} → {} value); the difference is taken across it.",
                        p.vends, n.vends, p.value_minor, n.value_minor
                    ),
                );
                (v, m)
            }
            Move::Reset(v, m) => {
                note(
                    Flag::CounterReset,
                    format!(
                        "Selection {id}: the counters went back ({} → {} vends): the machine was reset; its new counters are taken as the sales since.",
                        p.vends, n.vends
                    ),
                );
                (v, m)
            }
            Move::Negative => {
                note(
                    Flag::NegativeDelta,
                    format!(
                        "Selection {id}: vends went {} → {} but value {} → {}: one counter went back alone.",
                        p.vends, n.vends, p.value_minor, n.value_minor
                    ),
                );
                (0, 0)
            }
        };
        if vends > 0 || value > 0 {
            out.deltas.insert(
                id.clone(),
                Delta {
                    vends,
                    value_minor: value,
                },
            );
        }
    }
    for id in prev.selections.keys() {
        if !next.selections.contains_key(id) {
            out.findings.push(Finding {
                flag: Flag::NegativeDelta,
                selection: Some(id.clone()),
                reason: format!(
                    "Selection {id} was in the previous read and is missing from this one."
                ),
            });
        }
    }
    if hours > GAP_HOURS {
        out.findings.push(Finding {
            flag: Flag::GapInReads,
            selection: None,
            reason: format!(
                "{:.0} days since the previous read: sales of the days between land on this read's day.",
                hours / 24.0
            ),
        });
    }
    if let (Some(a), Some(b)) = (prev.reads_since_init, next.reads_since_init) {
        if b > a.saturating_add(1) {
            out.findings.push(Finding {
                flag: Flag::GapInReads,
                selection: None,
                reason: format!(
                    "{} reads were taken in between that never arrived.",
                    b - a - 1
                ),
            });
        }
    }
    let total = out.vends();
    let span = hours.max(1.0);
    let reason = if total <= JUMP_FLOOR {
        None
    } else if total as f64 > MAX_VENDS_PER_HOUR * span {
        Some(format!(
            "{total} vends in {span:.0} hours: more than a machine can vend (about {MAX_VENDS_PER_HOUR:.0} an hour)."
        ))
    } else {
        usual
            .map(|u| u.vends_per_day * span / 24.0)
            .filter(|&expected| total as f64 > JUMP_FACTOR * expected)
            .map(|expected| {
                format!(
                    "{total} vends where the machine usually sells about {expected:.0} in that time."
                )
            })
    };
    if let Some(reason) = reason {
        out.findings.push(Finding {
            flag: Flag::ImplausibleJump,
            selection: None,
            reason,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_usual_is_taken_over_the_days_before_the_read_from_the_first_that_sold() {
        let d = |n: u32| chrono::NaiveDate::from_ymd_opt(2026, 3, n).unwrap();
        // Sold on the 10th and 12th (a read every other day); read on the 14th.
        let u = Usual::over([(d(12), 60), (d(10), 40), (d(14), 500), (d(9), 0)], d(14));
        assert_eq!(u.map(|u| u.vends_per_day), Some(25.0));
        // The read's own day and later days are not history; nothing sold before: no judgment.
        assert_eq!(Usual::over([(d(14), 500), (d(20), 9)], d(14)), None);
        assert_eq!(Usual::over([], d(14)), None);
        // Only the 28 days before the read count.
        let u = Usual::over([(d(1), 1000), (d(30), 28)], d(31)).unwrap();
        assert_eq!(u.vends_per_day, 28.0);
        let old = chrono::NaiveDate::from_ymd_opt(2026, 2, 1).unwrap();
        assert_eq!(Usual::over([(old, 1000)], d(31)), None);
        // Sold yesterday only: a day.
        assert_eq!(Usual::over([(d(30), 7)], d(31)).unwrap().vends_per_day, 7.0);
    }

    fn read(sel: &[(&str, u64, u64)], reads: Option<u64>) -> ReadCounters {
        ReadCounters {
            selections: sel
                .iter()
                .map(|(id, v, m)| {
                    (
                        id.to_string(),
                        SelectionCounters {
                            vends: *v,
                            value_minor: *m,
                        },
                    )
                })
                .collect(),
            reads_since_init: reads,
        }
    }

    fn flags(d: &ReadDiff) -> Vec<Flag> {
        d.findings.iter().map(|f| f.flag).collect()
    }

    #[test]
    fn a_clean_difference_counts_each_selection() {
        let a = read(&[("10", 100, 15000), ("11", 5, 600)], Some(40));
        let b = read(
            &[("10", 112, 16800), ("11", 5, 600), ("12", 3, 360)],
            Some(41),
        );
        let d = diff(
            &a,
            &b,
            24.0,
            Some(Usual {
                vends_per_day: 20.0,
            }),
        );
        assert!(d.is_clean(), "{:?}", d.findings);
        assert_eq!(
            d.deltas["10"],
            Delta {
                vends: 12,
                value_minor: 1800
            }
        );
        assert!(!d.deltas.contains_key("11"));
        assert_eq!(
            d.deltas["12"],
            Delta {
                vends: 3,
                value_minor: 360
            }
        );
    }

    #[test]
    fn wraps_resets_and_disagreements_are_flagged() {
        let a = read(&[("10", 65_530, 4_294_967_000)], None);
        let b = read(&[("10", 4, 200)], None);
        let d = diff(&a, &b, 24.0, None);
        assert_eq!(flags(&d), vec![Flag::Wrap]);
        assert_eq!(d.deltas["10"].vends, 10);
        assert_eq!(d.deltas["10"].value_minor, 496);

        let reset = diff(
            &read(&[("10", 500, 60000)], None),
            &read(&[("10", 7, 840)], None),
            24.0,
            None,
        );
        assert_eq!(flags(&reset), vec![Flag::CounterReset]);
        assert_eq!(
            reset.deltas["10"],
            Delta {
                vends: 7,
                value_minor: 840
            }
        );

        let neg = diff(
            &read(&[("10", 500, 60000)], None),
            &read(&[("10", 502, 59000)], None),
            24.0,
            None,
        );
        assert_eq!(flags(&neg), vec![Flag::NegativeDelta]);
    }

    #[test]
    fn gaps_and_jumps_are_flagged() {
        let a = read(&[("10", 100, 100)], Some(10));
        let b = read(&[("10", 110, 110)], Some(13));
        assert_eq!(flags(&diff(&a, &b, 24.0, None)), vec![Flag::GapInReads]);
        assert_eq!(
            flags(&diff(&a, &read(&[("10", 110, 110)], Some(11)), 200.0, None)),
            vec![Flag::GapInReads]
        );
        let jump = diff(
            &a,
            &read(&[("10", 900, 900)], Some(11)),
            24.0,
            Some(Usual {
                vends_per_day: 30.0,
            }),
        );
        assert_eq!(flags(&jump), vec![Flag::ImplausibleJump]);
        let busy = diff(
            &a,
            &read(&[("10", 220, 220)], Some(11)),
            24.0,
            Some(Usual {
                vends_per_day: 100.0,
            }),
        );
        assert!(busy.is_clean());
        // Without a usual (a new machine), only what no machine can vend is a jump.
        let new = |vends: u64| {
            let b = read(&[("10", 100 + vends, 100 + vends)], Some(11));
            diff(&a, &b, 24.0, None)
        };
        assert!(new(2000).is_clean());
        assert_eq!(flags(&new(3000)), vec![Flag::ImplausibleJump]);
        assert!(new(3000).findings[0]
            .reason
            .contains("more than a machine can vend"));
    }

    proptest! {
        /// Counters that only go up give exactly their differences, clean, in any amount.
        #[test]
        fn rising_counters_difference_exactly(start in 0u64..1_000_000, sold in 0u64..500, price in 1u64..500) {
            let a = read(&[("1", start, start * price)], None);
            let b = read(&[("1", start + sold, (start + sold) * price)], None);
            let d = diff(&a, &b, 24.0, None);
            prop_assert!(d.is_clean());
            prop_assert_eq!(d.vends(), sold);
        }

        /// Any pair of reads gives an answer and never panics.
        #[test]
        fn any_counters_give_an_answer(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), e in any::<u64>(), h in 0.0f64..1e6) {
            let _ = diff(&read(&[("1", a, b)], Some(a)), &read(&[("1", c, e)], Some(c)), h, Some(Usual { vends_per_day: 1.0 }));
        }
    }
}
