//! The machines whose items (stock, status) were written since a cache last looked: how the
//! dashboard's attention list keeps each machine's facts in memory and reads again only the
//! machines that changed.
//!
//! Every write of this process is marked after it is stored: the item store's
//! ([`super::SnapshotStore`] marks them) and the sales commits' item writes
//! ([`crate::sales::SalesService`] marks them). A reader takes the marks, then reads the
//! machines marked; a write that lands after the take is marked after it, so the next take
//! holds it. Only sound where this process is the store's sole writer
//! ([`crate::ports::SalesStore::sole_writer`]); elsewhere nothing is cached.

use super::keys::{is_snapshot_key, version_key};
use crate::ports::Key;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Kinds of records whose writes are counted: a cache of them holds while the count stands
/// (read the count before the store; a write moves it once stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// The catalogue's records kept as snapshots, and its version item.
    Catalogue,
    /// Users and roles: who is signed in, and what they may do.
    People,
}

impl Counted {
    fn of(key: &Key) -> Option<Counted> {
        if is_snapshot_key(key) || *key == version_key() {
            Some(Counted::Catalogue)
        } else if key.sk == "USER" || key.sk == "ROLE" {
            Some(Counted::People)
        } else {
            None
        }
    }
}

/// Machines marked beyond which a reader rereads everything instead.
const MOST: usize = 4096;

/// What changed since the last take.
#[derive(Debug, PartialEq, Eq)]
pub enum Changed {
    /// Anything may have: read everything.
    All,
    /// These machines' items.
    Machines(HashSet<String>),
}

/// The marks (see the module's documentation).
pub struct Touched {
    /// The prefix of a machine's partition (`Machine::PARTITION`, given by the wiring: records
    /// know no area's keys).
    machine_partition: &'static str,
    state: Mutex<Changed>,
    /// Writes of [`Counted::Catalogue`] and [`Counted::People`] records.
    counts: [AtomicU64; 2],
}

impl Touched {
    /// Nothing read yet: everything is changed. A machine's items are those whose partition
    /// starts with `machine_partition`.
    pub fn new(machine_partition: &'static str) -> Self {
        Touched {
            machine_partition,
            state: Mutex::new(Changed::All),
            counts: Default::default(),
        }
    }

    /// Whether a write of `key` is marked (it lies in a machine's partition, or is counted).
    pub fn marks(&self, key: &Key) -> bool {
        key.pk.starts_with(self.machine_partition) || Counted::of(key).is_some()
    }

    /// Writes of `kind` marked so far.
    pub fn count(&self, kind: Counted) -> u64 {
        self.counts[kind as usize].load(Ordering::Acquire)
    }

    /// Marks the machines whose partition holds one of `keys`, and counts the writes of counted
    /// kinds (once the write is stored).
    pub fn mark<'a>(&self, keys: impl IntoIterator<Item = &'a Key> + Clone) {
        for kind in keys.clone().into_iter().filter_map(Counted::of) {
            self.counts[kind as usize].fetch_add(1, Ordering::AcqRel);
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        for key in keys {
            let Some(machine) = key.pk.strip_prefix(self.machine_partition) else {
                continue;
            };
            match &mut *state {
                Changed::All => return,
                Changed::Machines(set) if set.len() >= MOST => {
                    *state = Changed::All;
                    return;
                }
                Changed::Machines(set) => {
                    if !set.contains(machine) {
                        set.insert(machine.to_string());
                    }
                }
            }
        }
    }

    /// What changed since the last take; nothing is marked after it.
    pub fn take(&self) -> Changed {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *state, Changed::Machines(HashSet::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machines::Machine;

    #[test]
    fn a_take_holds_the_machines_marked_since_the_last() {
        let t = Touched::new(Machine::PARTITION);
        assert_eq!(t.take(), Changed::All);
        assert_eq!(t.take(), Changed::Machines(HashSet::new()));
        t.mark(&[
            Key::new(Machine::partition("m1"), "SEL#A1"),
            Key::new(Machine::partition("m1"), "STATUS"),
            Key::new("LOCATION#l1", "LOCATION"),
        ]);
        t.mark(&[Key::new(Machine::partition("m2"), "STATUS")]);
        let both = HashSet::from(["m1".to_string(), "m2".to_string()]);
        assert_eq!(t.take(), Changed::Machines(both));
        assert_eq!(t.take(), Changed::Machines(HashSet::new()));
    }

    #[test]
    fn writes_of_users_roles_and_the_catalogue_are_counted() {
        let t = Touched::new(Machine::PARTITION);
        let (c, p) = (t.count(Counted::Catalogue), t.count(Counted::People));
        t.mark(&[Key::new(Machine::partition("m1"), "STATUS")]);
        assert_eq!(
            (t.count(Counted::Catalogue), t.count(Counted::People)),
            (c, p)
        );
        t.mark(&[Key::new("LOCATION#l1", "LOCATION")]);
        t.mark(&[version_key()]);
        assert_eq!(t.count(Counted::Catalogue), c + 2);
        t.mark(&[Key::new("USER#u1", "USER"), Key::new("ROLE#r1", "ROLE")]);
        assert_eq!(t.count(Counted::People), p + 2);
        assert!(t.marks(&Key::new("USER#u1", "USER")));
        assert!(!t.marks(&Key::new("EMAIL#a@b.c", "EMAIL")));
    }

    #[test]
    fn too_many_machines_mean_everything() {
        let t = Touched::new(Machine::PARTITION);
        t.take();
        let keys: Vec<Key> = (0..=MOST)
            .map(|i| Key::new(Machine::partition(&format!("m{i}")), "STATUS"))
            .collect();
        t.mark(&keys);
        assert_eq!(t.take(), Changed::All);
    }
}
