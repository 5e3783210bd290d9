//! Intake anomalies: events whose id the machine had used before with other content. Nothing of
//! them is booked; each is kept with both payloads, for a person to see what the machine did
//! (a restarted id counter loses real sales unless someone notices).

use super::super::model::IntakeAnomaly;
use super::EventsService;
use crate::auth::Principal;
use crate::error::AppResult;
use crate::ports::{query_all, Condition, Index, Item, Query, SortKey, StoreError};

impl EventsService {
    /// Keeps the anomalies; one already kept (the same refused event again) stays as it is.
    pub(super) async fn record_anomalies(&self, anomalies: &[IntakeAnomaly]) -> AppResult<()> {
        for a in anomalies {
            let item = Item::from_value(a.key(), a)?;
            match self.store.put(item, Some(Condition::NotExists)).await {
                Ok(()) | Err(StoreError::ConditionFailed { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// A machine's intake anomalies the user may see, the latest refused first.
    pub async fn intake_anomalies(
        &self,
        p: &Principal,
        machine_id: &str,
    ) -> AppResult<Vec<IntakeAnomaly>> {
        self.machines.machine_for(p, machine_id).await?;
        let q = Query::partition(
            Index::Primary,
            crate::machines::Machine::partition(machine_id),
        )
        .sk(SortKey::BeginsWith(IntakeAnomaly::PREFIX.into()));
        let mut out: Vec<IntakeAnomaly> = query_all(self.store.as_ref(), q)
            .await?
            .iter()
            .map(|i| i.to_value())
            .collect::<Result<_, _>>()?;
        out.sort_by(|a, b| {
            b.second
                .received_at
                .cmp(&a.second.received_at)
                .then_with(|| a.event_id.cmp(&b.event_id))
        });
        Ok(out)
    }
}
