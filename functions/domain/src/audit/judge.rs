//! Judging a read against its baseline: what it books and whether it is held.

use super::split::split_payments;
use super::*;
use std::collections::BTreeSet;

/// What a read is compared with.
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    /// The baseline's counters (as [`carried`] stored them); `None` for a machine's first.
    pub baseline: Option<&'a ReadCounters>,
    /// Hours from the baseline read to this one.
    pub hours: f64,
    pub usual: Option<Usual>,
    /// `EA308` of every read that arrived between the baseline and this one, whatever became
    /// of it: read numbers in between that are not here never arrived.
    pub arrived: &'a BTreeSet<u64>,
}

/// What becomes of a read on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing to count from (a machine's first read, a meter reset, another board): it books
    /// nothing and the next reads count from it.
    Baseline,
    /// Clean: it books its difference.
    Count,
    /// Doubtful: it books nothing until a person accepts it.
    Hold,
}

/// A read judged against its baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The read starts a baseline (books nothing, even once accepted).
    pub new_baseline: bool,
    /// What it books (nothing when it starts a baseline) and every finding, doubts included.
    pub diff: ReadDiff,
}

impl Judgement {
    /// What becomes of it unless a person decides.
    pub fn verdict(&self) -> Verdict {
        match (self.diff.is_clean(), self.new_baseline) {
            (false, _) => Verdict::Hold,
            (true, true) => Verdict::Baseline,
            (true, false) => Verdict::Count,
        }
    }
}

/// Judges a read (`audit`, and its own `counters`) against what it is compared with.
pub fn judge(audit: &Audit, counters: &ReadCounters, r: Reading<'_>) -> Judgement {
    let mut findings = doubts(audit);
    let Some(base) = r.baseline else {
        return Judgement {
            new_baseline: true,
            diff: ReadDiff {
                deltas: BTreeMap::new(),
                findings,
            },
        };
    };
    if let Some(why) = new_baseline(base, counters) {
        findings.push(why);
        return Judgement {
            new_baseline: true,
            diff: ReadDiff {
                deltas: BTreeMap::new(),
                findings,
            },
        };
    }
    let mut d = diff(base, counters, r, audit.truncated);
    findings.append(&mut d.findings);
    d.findings = findings;
    Judgement {
        new_baseline: false,
        diff: d,
    }
}

/// The counters a read leaves as a baseline: its own, and its baseline's for whatever it does
/// not have (a truncated read's selections after the cut, a figure the machine left empty).
pub fn carried(baseline: Option<&ReadCounters>, next: &ReadCounters) -> ReadCounters {
    let Some(base) = baseline else {
        return next.clone();
    };
    let mut out = next.clone();
    for (id, b) in &base.selections {
        let s = out.selections.entry(id.clone()).or_insert(*b);
        s.test_vends = s.test_vends.or(b.test_vends);
        s.free_vends = s.free_vends.or(b.free_vends);
        s.cash = s.cash.or(b.cash);
        s.cashless = s.cashless.or(b.cashless);
    }
    out.reads_since_init = out.reads_since_init.or(base.reads_since_init);
    out.serial = out.serial.or_else(|| base.serial.clone());
    out.paid = out.paid.or(base.paid);
    out.cash = out.cash.or(base.cash);
    out.cashless = out.cashless.or(base.cashless);
    out
}

/// Whether a counter that went from `prev` down to `next` passed its maximum (16 or 32 bits):
/// `prev` near the maximum, `next` near zero. Returns the difference across the wrap.
pub(super) fn wrapped(prev: u64, next: u64) -> Option<u64> {
    [1u64 << 16, 1u64 << 32].into_iter().find_map(|modulus| {
        (prev < modulus && prev >= modulus - modulus / 10 && next < modulus / 10)
            .then(|| modulus - prev + next)
    })
}

/// A read that cannot be compared with its baseline at all: another board, or the whole
/// machine's counters went back.
fn new_baseline(p: &ReadCounters, n: &ReadCounters) -> Option<Finding> {
    if let (Some(a), Some(b)) = (&p.serial, &n.serial) {
        if !a.trim().eq_ignore_ascii_case(b.trim()) {
            return Some(Finding::machine(
                Flag::BoardChange,
                format!("The audit comes from another board (serial {a} before, {b} now): its counters start a new baseline; nothing is counted from this read."),
            ));
        }
    }
    let reset = |what: String| {
        Some(Finding::machine(
            Flag::MeterReset,
            format!("{what}: the machine's counters were reset. This read starts a new baseline; the sales since the previous read cannot be known and nothing is counted from it."),
        ))
    };
    if let (Some(a), Some(b)) = (p.reads_since_init, n.reads_since_init) {
        if b < a {
            return reset(format!(
                "The read counter (EA308) went back from {a} to {b}"
            ));
        }
    }
    if let (Some(a), Some(b)) = (p.paid, n.paid) {
        if b.vends < a.vends && wrapped(a.vends, b.vends).is_none() {
            return reset(format!(
                "The machine's paid vends (VA1) went back from {} to {}",
                a.vends, b.vends
            ));
        }
        return None;
    }
    // Without machine totals: every selection that had sold went back.
    let sold: Vec<(&SelectionCounters, &SelectionCounters)> = n
        .selections
        .iter()
        .filter_map(|(id, c)| p.selections.get(id).map(|b| (b, c)))
        .filter(|(b, _)| b.vends > 0)
        .collect();
    let back = |(b, c): &(&SelectionCounters, &SelectionCounters)| {
        c.vends < b.vends && wrapped(b.vends, c.vends).is_none()
    };
    if !sold.is_empty() && sold.iter().all(back) {
        return reset(format!(
            "Every selection's vends went back ({} selections)",
            sold.len()
        ));
    }
    None
}

/// How the two paid counters of a selection moved.
enum Move {
    /// Both rose (or stayed): the differences.
    Rise(u64, u64),
    /// At least one passed its maximum and the other rose or wrapped too.
    Wrap(u64, u64),
    /// Both went back: the selection was reset; its new counters are the sales since.
    Reset(u64, u64),
    /// One went back alone.
    Negative,
}

fn moved(p: &SelectionCounters, n: &SelectionCounters) -> Move {
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

/// Free or test vends of a selection since its baseline: `Err` when the counter went back.
fn unpaid(prev: Option<u64>, next: Option<u64>, reset: bool) -> Result<u64, (u64, u64)> {
    match (prev, next) {
        (_, Some(n)) if reset => Ok(n),
        (Some(p), Some(n)) if n >= p => Ok(n - p),
        (Some(p), Some(n)) => Err((p, n)),
        // No figure to count from: this read's becomes the baseline's.
        _ => Ok(0),
    }
}

/// The difference between a read and its baseline (the same machine, board and meters).
pub fn diff(prev: &ReadCounters, next: &ReadCounters, r: Reading<'_>, truncated: bool) -> ReadDiff {
    let mut out = ReadDiff::default();
    let mut reset_selections = BTreeSet::new();
    for (id, n) in &next.selections {
        let Some(p) = prev.selections.get(id) else {
            out.findings.push(Finding::selection(
                Flag::NewSelection,
                id,
                format!("Selection {id} is new since the baseline: its counters ({} vends) are its baseline, nothing is counted for it from this read.", n.vends),
            ));
            continue;
        };
        let mut note = |flag: Flag, reason: String| {
            out.findings.push(Finding::selection(flag, id, reason));
        };
        let (vends, value) = match moved(p, n) {
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
                reset_selections.insert(id.clone());
                note(
                    Flag::CounterReset,
                    format!(
                        "Selection {id}: the counters went back ({} → {} vends) while the machine's did not: accepting counts its new counters as the sales since.",
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
        let reset = reset_selections.contains(id);
        let mut side = |what: &str, prev: Option<u64>, next: Option<u64>| -> u64 {
            unpaid(prev, next, reset).unwrap_or_else(|(a, b)| {
                out.findings.push(Finding::selection(
                    Flag::NegativeDelta,
                    id,
                    format!("Selection {id}: {what} vends went back ({a} → {b})."),
                ));
                0
            })
        };
        let test = side("test", p.test_vends, n.test_vends);
        let free = side("free", p.free_vends, n.free_vends);
        let delta = Delta {
            vends,
            value_minor: value,
            free_vends: free,
            test_vends: test,
            ..Delta::default()
        };
        if !delta.is_zero() {
            out.deltas.insert(id.clone(), delta);
        }
    }
    if !truncated {
        for id in prev.selections.keys() {
            if !next.selections.contains_key(id) {
                out.findings.push(Finding::selection(
                    Flag::NegativeDelta,
                    id,
                    format!(
                        "Selection {id} was in the baseline read and is missing from this one."
                    ),
                ));
            }
        }
    }
    split_payments(prev, next, &reset_selections, &mut out.deltas);
    gaps(prev, next, r, &mut out.findings);
    if let Some(reason) = jump(&out, r) {
        out.findings
            .push(Finding::machine(Flag::ImplausibleJump, reason));
    }
    out
}

/// Reads far apart, or read numbers (`EA308`) between the baseline and this read that never
/// arrived: since-init differences are exact across them, so they are shown, not held.
fn gaps(prev: &ReadCounters, next: &ReadCounters, r: Reading<'_>, out: &mut Vec<Finding>) {
    if r.hours > GAP_HOURS {
        out.push(Finding::machine(
            Flag::GapInReads,
            format!(
                "{:.0} days since the baseline read: sales of the days between land on this read's day.",
                r.hours / 24.0
            ),
        ));
    }
    if let (Some(a), Some(b)) = (prev.reads_since_init, next.reads_since_init) {
        let missing = (a.saturating_add(1)..b)
            .take(10_000)
            .filter(|n| !r.arrived.contains(n))
            .count();
        if missing > 0 {
            out.push(Finding::machine(
                Flag::GapInReads,
                format!("{missing} reads were taken between the baseline and this one that never arrived; the difference covers them."),
            ));
        }
    }
}

/// More than a machine can vend in the time, or far more than it usually sells.
fn jump(d: &ReadDiff, r: Reading<'_>) -> Option<String> {
    let total = d.total();
    let paid = total.vends;
    let units = total.units();
    let span = r.hours.max(1.0);
    if units > JUMP_FLOOR && units as f64 > MAX_VENDS_PER_HOUR * span {
        return Some(format!(
            "{units} vends in {span:.0} hours: more than a machine can vend (about {MAX_VENDS_PER_HOUR:.0} an hour)."
        ));
    }
    if paid <= JUMP_FLOOR {
        return None;
    }
    r.usual
        .map(|u| u.vends_per_day * span / 24.0)
        .filter(|&expected| paid as f64 > JUMP_FACTOR * expected)
        .map(|expected| {
            format!(
                "{paid} vends where the machine usually sells about {expected:.0} in that time."
            )
        })
}
