//! Sales from EVA-DTS audits: what a read books against its baseline, and whether it may book
//! it before a person has looked.
//!
//! The **baseline** of a read is the machine's last complete read that was counted or accepted
//! (or that started a baseline): never a held, rejected or truncated one. A read books the
//! difference of the since-initialisation counters between its baseline and itself, per
//! selection: paid vends and their value (`PA2`), split into cash and cashless by the
//! selection's own payment-device counters (`PA7`) or else by the machine's (`CA2` against
//! `DA2`/`DB2`/`TA2`), and the free (`PA4`) and test (`PA3`) vends that take stock too.
//!
//! A read is **held** (books nothing until a person accepts or rejects it) when it is doubtful:
//! - its `G85` checksum does not match ([`Flag::BadChecksum`]) or it was cut off
//!   ([`Flag::Truncated`]): its figures cannot be trusted as written;
//! - a selection's counters went back: both ([`Flag::CounterReset`]: the new counters are what
//!   accepting books), one alone or a selection missing ([`Flag::NegativeDelta`]), or across a
//!   16/32-bit maximum ([`Flag::Wrap`]: the difference is taken across it);
//! - it is outside physical bounds or far from the usual ([`Flag::ImplausibleJump`]).
//!
//! A read whose whole machine went back (the read counter `EA308` or the paid-vend total
//! `VA1`, or every figure when those are absent: a **meter reset**) or that comes from another
//! board (`ID101` changed: a **board change**) starts a new baseline: it books nothing, shown as
//! such ([`Flag::MeterReset`], [`Flag::BoardChange`]). Informational too, never held: reads far
//! apart or reads that never arrived ([`Flag::GapInReads`]: since-init differences are exact
//! across them) and a selection new since the baseline ([`Flag::NewSelection`]: its counters
//! become its baseline).

mod judge;
mod split;
#[cfg(test)]
mod tests;

pub use judge::{carried, diff, judge, Judgement, Reading, Verdict};

use crate::dex::{Audit, Checksum, VendCounters};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A count and a value, since initialisation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub vends: u64,
    pub value_minor: u64,
}

/// The counters of one selection in one read (since initialisation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionCounters {
    /// Paid vends (`PA201`).
    pub vends: u64,
    /// Value of paid vends (`PA202`), minor units.
    pub value_minor: u64,
    /// Test vends (`PA301`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_vends: Option<u64>,
    /// Free vends (`PA401`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_vends: Option<u64>,
    /// Paid in cash (`PA7` device `CA`, all price lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cash: Option<Tally>,
    /// Paid cashless (`PA7` devices `DA`, `DB` and tokens `TA`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cashless: Option<Tally>,
}

/// What one read says, reduced to what differences need.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadCounters {
    /// By selection id (`PA101`).
    pub selections: BTreeMap<String, SelectionCounters>,
    /// `EA308`: reads since initialisation, when the machine counts them.
    pub reads_since_init: Option<u64>,
    /// `ID101`: the board's serial number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serial: Option<String>,
    /// `VA1`: paid vends of the whole machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid: Option<Tally>,
    /// `CA2`: cash sales of the whole machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cash: Option<Tally>,
    /// `DA2` + `DB2` + `TA2`: cashless (and token) sales of the whole machine, when any is there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cashless: Option<Tally>,
}

/// Why a read is held, or what it says about the baseline, as stored and shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// A selection's counters both went back (not the whole machine): held.
    CounterReset,
    /// A counter passed its 16/32-bit maximum: held.
    Wrap,
    /// One counter went back alone, count and value disagree, or a selection is missing: held.
    NegativeDelta,
    /// More vends than a machine can make, or far more than it usually sells: held.
    ImplausibleJump,
    /// Reads far apart or reads that never arrived: shown, not held.
    GapInReads,
    /// `G85` does not match the audit: held.
    BadChecksum,
    /// The audit was cut off: held.
    Truncated,
    /// The whole machine's counters went back: a new baseline, nothing booked.
    MeterReset,
    /// Another board (`ID101`): a new baseline, nothing booked.
    BoardChange,
    /// A selection the baseline does not have: its counters are its baseline.
    NewSelection,
}

impl Flag {
    /// Whether it holds the read for a person's review.
    pub fn holds(self) -> bool {
        matches!(
            self,
            Flag::CounterReset
                | Flag::Wrap
                | Flag::NegativeDelta
                | Flag::ImplausibleJump
                | Flag::BadChecksum
                | Flag::Truncated
        )
    }
}

/// One flag and its reason, in words a person checking it understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub flag: Flag,
    /// The selection it concerns, when it concerns one.
    pub selection: Option<String>,
    pub reason: String,
}

impl Finding {
    fn machine(flag: Flag, reason: String) -> Self {
        Finding {
            flag,
            selection: None,
            reason,
        }
    }

    fn selection(flag: Flag, id: &str, reason: String) -> Self {
        Finding {
            flag,
            selection: Some(id.to_string()),
            reason,
        }
    }
}

/// What one selection books between a read and its baseline. Paid vends and value split into
/// cash and cashless (`cash_* + cashless_* = vends / value_minor`); free and test vends take
/// stock but earn nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    pub vends: u64,
    pub value_minor: u64,
    #[serde(default)]
    pub cash_vends: u64,
    #[serde(default)]
    pub cash_minor: u64,
    #[serde(default)]
    pub cashless_vends: u64,
    #[serde(default)]
    pub cashless_minor: u64,
    #[serde(default)]
    pub free_vends: u64,
    #[serde(default)]
    pub test_vends: u64,
}

impl Delta {
    /// Units that left the selection: paid, free and test.
    pub fn units(&self) -> u64 {
        self.vends
            .saturating_add(self.free_vends)
            .saturating_add(self.test_vends)
    }

    /// True when it moves nothing.
    pub fn is_zero(&self) -> bool {
        self.units() == 0 && self.value_minor == 0
    }
}

/// The difference between a read and its baseline.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadDiff {
    /// What each selection books (selections that moved nothing are left out).
    pub deltas: BTreeMap<String, Delta>,
    pub findings: Vec<Finding>,
}

impl ReadDiff {
    /// True when nothing holds it for a person's review.
    pub fn is_clean(&self) -> bool {
        !self.findings.iter().any(|f| f.flag.holds())
    }

    /// The flags that hold it, each once, in order.
    pub fn held_for(&self) -> Vec<Flag> {
        let mut flags: Vec<Flag> = self
            .findings
            .iter()
            .map(|f| f.flag)
            .filter(|f| f.holds())
            .collect();
        flags.sort();
        flags.dedup();
        flags
    }

    /// Paid vends in total.
    pub fn vends(&self) -> u64 {
        self.total().vends
    }

    /// The sum of every selection's delta.
    pub fn total(&self) -> Delta {
        let mut t = Delta::default();
        for d in self.deltas.values() {
            for (sum, part) in [
                (&mut t.vends, d.vends),
                (&mut t.value_minor, d.value_minor),
                (&mut t.cash_vends, d.cash_vends),
                (&mut t.cash_minor, d.cash_minor),
                (&mut t.cashless_vends, d.cashless_vends),
                (&mut t.cashless_minor, d.cashless_minor),
                (&mut t.free_vends, d.free_vends),
                (&mut t.test_vends, d.test_vends),
            ] {
                *sum = sum.saturating_add(part);
            }
        }
        t
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

/// Reads more than this many hours apart are a gap (shown, not held).
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

fn since_init(c: &VendCounters) -> Option<Tally> {
    match (set(c.vends_since_init), set(c.value_since_init_minor)) {
        (None, None) => None,
        (vends, value) => Some(Tally {
            vends: vends.unwrap_or(0),
            value_minor: value.unwrap_or(0),
        }),
    }
}

/// The sum of tallies, `None` when there are none or one lacks its since-init figures.
fn sum_tallies<'a>(parts: impl Iterator<Item = (Option<u64>, Option<u64>)> + 'a) -> Option<Tally> {
    let mut out: Option<Tally> = None;
    for (vends, value) in parts {
        let (Some(vends), Some(value)) = (set(vends), set(value)) else {
            return None;
        };
        let t = out.get_or_insert_with(Tally::default);
        t.vends += vends;
        t.value_minor += value;
    }
    out
}

fn device_tally(s: &crate::dex::Selection, cash: bool) -> Option<Tally> {
    sum_tallies(
        s.by_payment_device
            .iter()
            .filter(|d| (d.device.as_deref() == Some("CA")) == cash)
            .map(|d| (d.vends_since_init, d.value_since_init_minor)),
    )
}

/// The counters of an audit; selections without since-init paid-vend counters are left out,
/// and so is the last selection of a truncated audit (its line may be cut inside a figure).
pub fn counters(audit: &Audit) -> ReadCounters {
    let mut read: Vec<&crate::dex::Selection> = audit.selections.iter().collect();
    if audit.truncated {
        read.pop();
    }
    let selections = read
        .into_iter()
        .filter_map(|s| {
            let paid = s.sales.as_ref().and_then(since_init)?;
            let pa7 = !s.by_payment_device.is_empty();
            Some((
                s.id.clone(),
                SelectionCounters {
                    vends: paid.vends,
                    value_minor: paid.value_minor,
                    test_vends: s.test_vends.as_ref().and_then(|t| set(t.vends_since_init)),
                    free_vends: s.free_vends.as_ref().and_then(|t| set(t.vends_since_init)),
                    cash: pa7.then(|| device_tally(s, true)).flatten(),
                    cashless: pa7.then(|| device_tally(s, false)).flatten(),
                },
            ))
        })
        .collect();
    let machine = |c: &Option<VendCounters>| c.as_ref().and_then(since_init);
    let cashless = [&audit.cashless1, &audit.cashless2, &audit.tokens]
        .into_iter()
        .filter_map(machine)
        .reduce(|a, b| Tally {
            vends: a.vends + b.vends,
            value_minor: a.value_minor + b.value_minor,
        });
    ReadCounters {
        selections,
        reads_since_init: audit.reads.as_ref().and_then(|r| set(r.reads_since_init)),
        serial: audit.machine.as_ref().and_then(|m| m.serial.clone()),
        paid: machine(&audit.paid_vends),
        cash: machine(&audit.cash_sales),
        cashless,
    }
}

/// What makes the read itself doubtful, whatever its baseline: a bad checksum, a cut-off file.
pub fn doubts(audit: &Audit) -> Vec<Finding> {
    let mut out = Vec::new();
    if audit.checksum == Checksum::Bad {
        let why = audit
            .warnings
            .iter()
            .find(|w| w.contains("G85"))
            .cloned()
            .unwrap_or_else(|| "G85 does not match the audit".into());
        out.push(Finding::machine(
            Flag::BadChecksum,
            format!("The audit's checksum does not match its figures ({why}): they may have been changed or damaged after the machine wrote them."),
        ));
    }
    if audit.truncated {
        let last = audit
            .selections
            .last()
            .map(|s| format!("; selection {} was the last one read", s.id))
            .unwrap_or_default();
        out.push(Finding::machine(
            Flag::Truncated,
            format!("The audit was cut off (no DXE){last}: the selections after the cut are not in it, and the last one read may be cut inside its figures."),
        ));
    }
    out
}
