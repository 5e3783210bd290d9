//! Each machine's status and selections (and the attention list's facts drawn from them), kept
//! between requests where this process is the store's sole writer and read again only for the
//! machines written since (`records::touched`: every item write and every sales commit marks
//! its machines once stored; this cache is the marks' one reader). The route-planning list,
//! map and picklists and the dashboard's attention list read them here; where the process is
//! not the sole writer (AWS), every request reads them.

use crate::events::MachineStatus;
use crate::machines::Selection;
use crate::records::Touched;
use std::collections::HashMap;
use std::sync::Arc;
use vendfleet_domain::attention::{MachineFacts, SelectionFacts};

/// What planning and the attention list know of a machine between its writes.
#[derive(Debug, Default)]
pub struct MachineState {
    /// Its latest readings (none before its first event).
    pub status: Option<MachineStatus>,
    /// Its planogram, in the selections' natural order.
    pub selections: Vec<Selection>,
    /// The attention list's facts of it (held audits aside: they are read per request).
    pub facts: MachineFacts,
}

impl MachineState {
    pub(super) fn of(
        status: Option<MachineStatus>,
        mut selections: Vec<Selection>,
    ) -> MachineState {
        selections.sort_by_key(|s| crate::machines::natural(&s.selection));
        let facts = MachineFacts {
            last_updated: status.as_ref().and_then(|s| s.last_updated),
            cash_box_minor: status.as_ref().and_then(|s| s.int("cash_box_minor")),
            selections: selections
                .iter()
                .map(|s| SelectionFacts {
                    current: s.current,
                    max: s.max,
                    expiry: s.expiry_date,
                })
                .collect(),
            held_audits: 0,
        };
        MachineState {
            status,
            selections,
            facts,
        }
    }
}

/// The kept states and the marks that say which are stale.
pub(super) struct Kept {
    pub(super) touched: Arc<Touched>,
    pub(super) states: tokio::sync::Mutex<HashMap<String, Arc<MachineState>>>,
}

impl Kept {
    pub fn new(touched: Arc<Touched>) -> Kept {
        Kept {
            touched,
            states: Default::default(),
        }
    }
}
