//! Audit reads between intake and review: a machine's baseline and the reads after it, judging
//! a read against that baseline, and the held reads a later baseline supersedes.
//!
//! The baseline is the machine's latest read that later reads count from
//! ([`AuditRead::is_baseline`]): counted, accepted or starting a baseline, never a held,
//! rejected or truncated one. It only moves forward in time: a read older than it is late and
//! computes nothing, and when a read becomes the baseline every held read older than it is
//! superseded (that read's difference holds their sales). So the held reads of a machine are
//! always among the reads after its baseline.

use super::model::{AuditRead, AuditState};
use chrono::{DateTime, Utc};
use std::collections::BTreeSet;
use vendfleet_domain::audit::{self, Judgement, Reading, Usual};
use vendfleet_domain::dex::Audit;

/// A machine's baseline read and the reads after it, oldest first.
#[derive(Debug, Clone, Default)]
pub(crate) struct AuditLine {
    pub baseline: Option<AuditRead>,
    pub after: Vec<AuditRead>,
}

impl AuditLine {
    /// The line from a machine's reads newest first, read until its baseline.
    pub fn from_newest(reads: impl IntoIterator<Item = AuditRead>) -> Self {
        let mut line = AuditLine::default();
        for r in reads {
            if r.is_baseline() {
                line.baseline = Some(r);
                break;
            }
            line.after.push(r);
        }
        line.after.reverse();
        line
    }

    /// True when a read at `order` is older than the baseline (or is it).
    pub fn is_late(&self, order: (DateTime<Utc>, &str)) -> bool {
        self.baseline.as_ref().is_some_and(|b| order <= b.order())
    }

    /// Judges a read (its audit and own counters) against the baseline; `None` when it is late.
    pub fn judge(
        &self,
        order: (DateTime<Utc>, &str),
        audit: &Audit,
        counters: &audit::ReadCounters,
        usual: Option<Usual>,
    ) -> Option<Judgement> {
        if self.is_late(order) {
            return None;
        }
        // Read numbers that arrived between the baseline and this read, whatever became of them.
        let arrived: BTreeSet<u64> = self
            .after
            .iter()
            .filter(|r| r.order() < order)
            .filter_map(|r| r.audit.reads.as_ref().and_then(|x| x.reads_since_init))
            .collect();
        let hours = self
            .baseline
            .as_ref()
            .map_or(0.0, |b| (order.0 - b.at).num_seconds() as f64 / 3600.0);
        Some(audit::judge(
            audit,
            counters,
            Reading {
                baseline: self.baseline.as_ref().map(|b| &b.counters),
                hours,
                usual,
                arrived: &arrived,
            },
        ))
    }

    /// Makes `read` the baseline, and answers the held reads older than it, now superseded
    /// (state changed, version not yet moved). Its counters are its own, and with `carry` the
    /// old baseline's where it has none (not for a read that starts a new baseline: a meter
    /// reset, another board, whose old counters mean nothing any more).
    pub fn advance(&mut self, mut read: AuditRead, carry: bool) -> Vec<AuditRead> {
        let own = audit::counters(&read.audit);
        let base = self.baseline.as_ref().filter(|_| carry);
        read.counters = audit::carried(base.map(|b| &b.counters), &own);
        let order = (read.at, read.id.clone());
        let (older, newer): (Vec<AuditRead>, Vec<AuditRead>) = std::mem::take(&mut self.after)
            .into_iter()
            .filter(|r| r.id != read.id)
            .partition(|r| (r.at, r.id.clone()) < order);
        self.after = newer;
        self.baseline = Some(read);
        older
            .into_iter()
            .filter(|r| r.state == AuditState::Held)
            .map(|mut r| {
                r.state = AuditState::Superseded;
                r
            })
            .collect()
    }

    /// Adds a read that is not the baseline (held, late, reconciling, rejected).
    pub fn add(&mut self, read: AuditRead) {
        if self.is_late(read.order()) {
            return;
        }
        self.after.retain(|r| r.id != read.id);
        let at = self.after.partition_point(|r| r.order() < read.order());
        self.after.insert(at, read);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(id: &str, hour: u32, state: AuditState) -> AuditRead {
        AuditRead {
            id: id.into(),
            machine_id: "m".into(),
            at: format!("2026-11-20T{hour:02}:00:00Z").parse().unwrap(),
            local_date: "2026-11-20".parse().unwrap(),
            audit: Audit::default(),
            counters: Default::default(),
            previous_id: None,
            diff: None,
            state,
            reviewed_by: None,
            reviewed_at: None,
            version: 1,
        }
    }

    #[test]
    fn the_line_runs_from_the_baseline_and_a_new_baseline_supersedes_older_held_reads() {
        let newest = vec![
            read("d", 9, AuditState::Held),
            read("c", 8, AuditState::Rejected),
            read("b", 7, AuditState::Held),
            read("a", 6, AuditState::Counted),
            read("z", 5, AuditState::Baseline),
        ];
        let mut line = AuditLine::from_newest(newest);
        assert_eq!(line.baseline.as_ref().unwrap().id, "a");
        let ids: Vec<&str> = line.after.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["b", "c", "d"]);
        assert!(line.is_late((read("y", 5, AuditState::Late).at, "y")));
        // A read between b and c becomes the baseline: b is superseded, d stays held.
        let gone = line.advance(read("bb", 7, AuditState::Counted), true);
        let gone: Vec<(&str, AuditState)> = gone.iter().map(|r| (r.id.as_str(), r.state)).collect();
        assert_eq!(gone, [("b", AuditState::Superseded)]);
        let ids: Vec<&str> = line.after.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["c", "d"]);
        line.add(read("e", 10, AuditState::Held));
        line.add(read("old", 1, AuditState::Late));
        assert_eq!(line.after.len(), 3);
    }
}
