//! The machines' states planning and the attention list read: kept (`planning::kept`) where
//! this process is the store's sole writer, else read each request.

use super::super::kept::MachineState;
use super::PlanningService;
use crate::error::AppResult;
use crate::records::Changed;
use std::collections::HashMap;
use std::sync::Arc;

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
