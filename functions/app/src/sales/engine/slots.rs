//! Where the machines of a shared list stand in the engine's columns, found once per list: a
//! report of a scope's machines looks them up by position instead of hashing every machine's id
//! on each request.

use std::any::Any;
use std::sync::{Arc, Mutex, Weak};

/// Lists kept at most (a list lives while its scope's catalogue snapshot is current).
const KEPT: usize = 16;

/// One list's slots in the columns.
struct Known {
    /// The list (while it lives, no other list can take its address).
    list: Weak<dyn Any + Send + Sync>,
    /// How many machines the columns had indexed when the slots were found: a machine indexed
    /// since (its first sale) may be in the list, so the slots are found again.
    indexed: usize,
    slots: Arc<Vec<Option<usize>>>,
}

/// The slots of the lists lately asked about.
#[derive(Default)]
pub(super) struct KnownSlots(Mutex<Vec<Known>>);

impl KnownSlots {
    /// The slot of each machine of `list` in columns of `indexed` machines, found with `slot`
    /// unless known.
    pub fn of<M: Send + Sync + 'static>(
        &self,
        list: &Arc<Vec<M>>,
        id: impl Fn(&M) -> &str,
        indexed: usize,
        slot: impl Fn(&str) -> Option<usize>,
    ) -> Arc<Vec<Option<usize>>> {
        let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let same = |k: &Known| std::ptr::addr_eq(k.list.as_ptr(), Arc::as_ptr(list));
        if let Some(k) = known.iter().find(|k| same(k) && k.indexed == indexed) {
            return k.slots.clone();
        }
        let slots = Arc::new(list.iter().map(|m| slot(id(m))).collect::<Vec<_>>());
        known.retain(|k| k.list.strong_count() > 0 && !same(k));
        if known.len() >= KEPT {
            known.remove(0);
        }
        let list: Arc<dyn Any + Send + Sync> = list.clone();
        known.push(Known {
            list: Arc::downgrade(&list),
            indexed,
            slots: slots.clone(),
        });
        slots
    }
}
