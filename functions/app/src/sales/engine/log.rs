//! The transaction log's index in the sales engine: every sale's instant and product, by local
//! day and machine, newest first. A page of the log is then chosen in memory — the chosen
//! machines' sales of the day merged newest first, the products asked for passed over without
//! a read — and only its own rows are read from the store, by key (a machine, a day, an
//! instant). Before, a page of many machines walked the day's time index in SQLite past every
//! other machine's vends, and a page of a few sorted their whole day.
//!
//! - **Built from the store** ([`crate::ports::SalesStore::sale_times`]) a batch of machines at
//!   a time, each batch while no commit runs (the engine's gate); a commit of a machine not yet
//!   read is left to its batch's read, which sees it in the store. The index answers only once
//!   every machine is read.
//! - **Kept in step** with each commit after that, as the engine's columns are.
//! - **Memory:** 8 bytes a sale (its instant within its day's window and its product number)
//!   and a vector per machine and day: the bench fleet's 11 million sales take about 95 MB.
//!
//! The order of sales at the same instant of the same machine (their event ids) is not kept:
//! the rows of such an instant are read together, in event id order, and the page takes the
//! n-th of them.

use chrono::{DateTime, NaiveDate, Utc};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};

/// One sale: its instant (milliseconds from its day's [`base`]) and its product number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Entry {
    pub at: u32,
    pub product: u32,
}

/// Where a day's instants are counted from: two days before its midnight UTC. A local day lies
/// between UTC−12 and UTC+14 of its date, so each of its instants is 34 to 86 hours on, well
/// within a `u32` of milliseconds (49 days).
fn base(day: NaiveDate) -> i64 {
    let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    midnight.timestamp_millis() - 2 * 86_400_000
}

/// A sale's instant as kept for its day; `None` when it lies outside the day's window.
fn offset(day: NaiveDate, at: DateTime<Utc>) -> Option<u32> {
    u32::try_from(at.timestamp_millis() - base(day)).ok()
}

/// A chosen sale of a page: the machine's slot, its instant, and which of the chosen sales of
/// that machine at that instant it is (0 for the first, in event id order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pick {
    pub slot: usize,
    pub at: DateTime<Utc>,
    pub nth: usize,
}

/// The index: by local day, by machine slot, the sales newest first.
#[derive(Debug, Default)]
pub(super) struct SaleLog {
    days: BTreeMap<NaiveDate, Vec<Vec<Entry>>>,
    /// The slots whose history is still to be read (`true`); slots past the end have none to
    /// read (machines indexed after the build began sell only through commits).
    pending: Vec<bool>,
    /// Machines still to read: the index answers when none is left.
    left: usize,
    /// False once a sale lay outside its day's window: the log then reads the store.
    ok: bool,
}

impl SaleLog {
    /// An index waiting for the histories of `slots`.
    pub fn waiting_for(slots: impl IntoIterator<Item = usize>) -> SaleLog {
        let mut log = SaleLog {
            ok: true,
            ..SaleLog::default()
        };
        for slot in slots {
            if log.pending.len() <= slot {
                log.pending.resize(slot + 1, false);
            }
            if !log.pending[slot] {
                log.pending[slot] = true;
                log.left += 1;
            }
        }
        log
    }

    /// Whether every machine's history is read (and every sale fitted).
    pub fn ready(&self) -> bool {
        self.left == 0 && self.ok
    }

    fn is_pending(&self, slot: usize) -> bool {
        self.pending.get(slot).copied().unwrap_or(false)
    }

    fn list(&mut self, day: NaiveDate, slot: usize) -> &mut Vec<Entry> {
        let machines = self.days.entry(day).or_default();
        if machines.len() <= slot {
            machines.resize_with(slot + 1, Vec::new);
        }
        &mut machines[slot]
    }

    /// A committed sale (passed over while its machine's history is still to be read: the
    /// read will find it in the store).
    pub fn commit(&mut self, slot: usize, day: NaiveDate, at: DateTime<Utc>, product: u32) {
        if self.is_pending(slot) {
            return;
        }
        let Some(at) = offset(day, at) else {
            self.ok = false;
            return;
        };
        let list = self.list(day, slot);
        let i = list.partition_point(|e| e.at > at);
        list.insert(i, Entry { at, product });
    }

    /// The histories of a batch of machines (`slots`), read while no commit ran: `sales` as
    /// (slot, day, instant, product number), any order; those of other machines are passed
    /// over.
    pub fn read(
        &mut self,
        slots: &[usize],
        sales: impl IntoIterator<Item = (usize, NaiveDate, DateTime<Utc>, u32)>,
    ) {
        let batch: Vec<usize> = slots
            .iter()
            .copied()
            .filter(|&s| self.is_pending(s))
            .collect();
        let mut reading = vec![false; batch.iter().max().map_or(0, |m| m + 1)];
        for &slot in &batch {
            reading[slot] = true;
        }
        let mut touched: std::collections::BTreeSet<(NaiveDate, usize)> = Default::default();
        for (slot, day, at, product) in sales {
            if !reading.get(slot).copied().unwrap_or(false) {
                continue;
            }
            let Some(at) = offset(day, at) else {
                self.ok = false;
                continue;
            };
            self.list(day, slot).push(Entry { at, product });
            touched.insert((day, slot));
        }
        for (day, slot) in touched {
            let list = self.list(day, slot);
            list.sort_unstable_by_key(|e| std::cmp::Reverse(e.at));
            list.shrink_to_fit();
        }
        for slot in batch {
            self.pending[slot] = false;
            self.left -= 1;
        }
    }

    /// Bytes the entries and their vectors take (for the bench's memory figure).
    pub fn bytes(&self) -> usize {
        let vec = std::mem::size_of::<Vec<Entry>>();
        self.days
            .values()
            .map(|m| {
                m.capacity() * vec
                    + m.iter()
                        .map(|l| l.capacity() * std::mem::size_of::<Entry>())
                        .sum::<usize>()
            })
            .sum()
    }

    /// The sales of `slots` on `day` (of the products `chosen` marks by number; `None`: all)
    /// in the log's order — newest first, then by machine id (`id` gives a slot's), then by
    /// event id — `take` of them after the first `skip`.
    pub fn page<'a>(
        &self,
        day: NaiveDate,
        slots: impl Iterator<Item = usize>,
        chosen: Option<&[bool]>,
        (skip, take): (usize, usize),
        id: impl Fn(usize) -> &'a str,
    ) -> Vec<Pick> {
        let Some(machines) = self.days.get(&day) else {
            return Vec::new();
        };
        let wanted = |e: &Entry| chosen.is_none_or(|c| c.get(e.product as usize) == Some(&true));
        let next = |list: &[Entry], from: usize| (from..list.len()).find(|&i| wanted(&list[i]));
        let mut heads: BinaryHeap<Head<'a>> = slots
            .filter_map(|slot| {
                let list = machines.get(slot)?;
                let pos = next(list, 0)?;
                Some(Head {
                    at: list[pos].at,
                    id: id(slot),
                    slot,
                    pos,
                })
            })
            .collect();
        let (mut out, mut seen) = (Vec::with_capacity(take), 0usize);
        let mut last: Option<(usize, u32, usize)> = None;
        while out.len() < take {
            let Some(mut head) = heads.pop() else { break };
            let nth = match last {
                Some((slot, at, n)) if slot == head.slot && at == head.at => n + 1,
                _ => 0,
            };
            last = Some((head.slot, head.at, nth));
            if seen >= skip {
                out.push(Pick {
                    slot: head.slot,
                    at: DateTime::from_timestamp_millis(base(day) + i64::from(head.at))
                        .unwrap_or_default(),
                    nth,
                });
            }
            seen += 1;
            let list = &machines[head.slot];
            if let Some(pos) = next(list, head.pos + 1) {
                head.pos = pos;
                head.at = list[pos].at;
                heads.push(head);
            }
        }
        out
    }
}

/// A machine's next sale in a page's merge: the greatest is the newest, then the smallest id.
struct Head<'a> {
    at: u32,
    id: &'a str,
    slot: usize,
    pos: usize,
}

impl Ord for Head<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.at
            .cmp(&other.at)
            .then_with(|| other.id.cmp(self.id))
            .then_with(|| other.slot.cmp(&self.slot))
    }
}

impl PartialOrd for Head<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Head<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Against a sort of every sale: random machines, products and instants (many shared),
    /// some machines read late with commits before and after, any skip and take.
    #[test]
    fn pages_equal_the_sorted_sales() {
        let mut rng = StdRng::seed_from_u64(3);
        let day: NaiveDate = "2026-03-29".parse().unwrap();
        let ids: Vec<String> = (0..9).map(|i| format!("m{}", (i * 7) % 9)).collect();
        let start = day.and_hms_opt(0, 0, 0).unwrap().and_utc() - chrono::Duration::hours(13);
        // (slot, instant, product, event id): the truth.
        let mut all: Vec<(usize, DateTime<Utc>, u32, u32)> = Vec::new();
        let mut log = SaleLog::waiting_for(0..6);
        let mut stored: Vec<(usize, NaiveDate, DateTime<Utc>, u32)> = Vec::new();
        for event in 0..400u32 {
            let slot = rng.random_range(0..9);
            let at = start + chrono::Duration::minutes(rng.random_range(0..60 * 48) / 20 * 20);
            let product = rng.random_range(0..5);
            all.push((slot, at, product, event));
            stored.push((slot, day, at, product));
            // Committed: passed over for a machine still to be read.
            log.commit(slot, day, at, product);
            if event == 200 {
                log.read(&[0, 1, 2], stored.clone());
                assert!(!log.ready());
            }
        }
        log.read(&[3, 4, 5], stored.clone());
        assert!(log.ready());
        for _ in 0..300 {
            let slots: Vec<usize> = (0..9).filter(|_| rng.random_bool(0.6)).collect();
            let chosen: Option<Vec<bool>> = rng
                .random_bool(0.5)
                .then(|| (0..5).map(|_| rng.random_bool(0.5)).collect());
            let mut want: Vec<&(usize, DateTime<Utc>, u32, u32)> = all
                .iter()
                .filter(|s| slots.contains(&s.0))
                .filter(|s| chosen.as_ref().is_none_or(|c| c[s.2 as usize]))
                .collect();
            want.sort_by(|a, b| {
                b.1.cmp(&a.1)
                    .then_with(|| ids[a.0].cmp(&ids[b.0]))
                    .then_with(|| a.3.cmp(&b.3))
            });
            let (skip, take) = (rng.random_range(0..60), rng.random_range(1..40));
            let got = log.page(
                day,
                slots.iter().copied(),
                chosen.as_deref(),
                (skip, take),
                |s| ids[s].as_str(),
            );
            let expected: Vec<Pick> = want
                .iter()
                .enumerate()
                .skip(skip)
                .take(take)
                .map(|(i, s)| Pick {
                    slot: s.0,
                    at: s.1,
                    nth: want[..i]
                        .iter()
                        .filter(|o| o.0 == s.0 && o.1 == s.1)
                        .count(),
                })
                .collect();
            assert_eq!(got, expected, "{slots:?} {chosen:?} {skip} {take}");
        }
    }

    #[test]
    fn a_sale_outside_its_days_window_turns_the_index_off() {
        let day: NaiveDate = "2026-03-29".parse().unwrap();
        let mut log = SaleLog::waiting_for([]);
        assert!(log.ready());
        log.commit(0, day, day.and_hms_opt(0, 0, 0).unwrap().and_utc(), 0);
        assert!(log.ready());
        let far = day.and_hms_opt(0, 0, 0).unwrap().and_utc() - chrono::Duration::days(3);
        log.commit(0, day, far, 0);
        assert!(!log.ready());
    }
}
