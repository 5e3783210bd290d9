//! Each machine's status and selections (and the attention list's facts drawn from them), kept
//! between requests where this process is the store's sole writer and read again only for the
//! machines written since (`records::touched`: every item write and every sales commit marks
//! its machines once stored; this cache is the marks' one reader). The route-planning list,
//! map and picklists and the dashboard's attention list read them here; where the process is
//! not the sole writer (AWS), every request reads them.

use super::PlanningService;
use crate::error::AppResult;
use crate::events::MachineStatus;
use crate::machines::Selection;
use crate::records::{Changed, Touched};
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
    fn of(status: Option<MachineStatus>, mut selections: Vec<Selection>) -> MachineState {
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
    touched: Arc<Touched>,
    states: tokio::sync::Mutex<HashMap<String, Arc<MachineState>>>,
}

impl Kept {
    pub fn new(touched: Arc<Touched>) -> Kept {
        Kept {
            touched,
            states: Default::default(),
        }
    }
}

impl PlanningService {
    /// The state of each of the machines `ids`, in their order: kept, or read (those written
    /// since they were kept are read again).
    pub(crate) async fn machine_states(&self, ids: &[&str]) -> AppResult<Vec<Arc<MachineState>>> {
        let Some(kept) = &self.kept else {
            let mut read = self.read_states(ids).await?;
            return Ok(ids
                .iter()
                .map(|id| read.remove(*id).unwrap_or_default())
                .collect());
        };
        let mut states = kept.states.lock().await;
        // Taken before the read: a machine written after the take is marked again.
        match kept.touched.take() {
            Changed::All => states.clear(),
            Changed::Machines(written) => states.retain(|id, _| !written.contains(id)),
        }
        let missing: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| !states.contains_key(*id))
            .collect();
        if !missing.is_empty() {
            states.extend(self.read_states(&missing).await?);
        }
        Ok(ids
            .iter()
            .map(|id| states.get(*id).cloned().unwrap_or_default())
            .collect())
    }

    /// The states of the machines `ids` from the store: their statuses (batched) and
    /// selections (the fleet-wide index, or each machine's for a few).
    async fn read_states(&self, ids: &[&str]) -> AppResult<HashMap<String, Arc<MachineState>>> {
        let owned: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
        let (mut statuses, mut selections) = tokio::try_join!(
            self.events.statuses(&owned),
            self.machines.selections_of(&owned),
        )?;
        Ok(owned
            .into_iter()
            .map(|id| {
                let state = MachineState::of(
                    statuses.remove(&id),
                    selections.remove(&id).unwrap_or_default(),
                );
                (id, Arc::new(state))
            })
            .collect())
    }
}
