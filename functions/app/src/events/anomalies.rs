//! Intake anomalies: events whose id the machine had used before with other content. Nothing of
//! them is booked; each is kept with both payloads, for a person to see what the machine did
//! (a restarted id counter loses real sales unless someone notices).

use super::service::EventsService;
use crate::auth::Principal;
use crate::error::AppResult;
use crate::ports::sales::StoredReceipt;
use crate::ports::{query_all, Condition, Index, Item, Key, Query, SortKey, StoreError};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use vendfleet_domain::events::reuse::{fingerprint, kept_payload};
use vendfleet_domain::events::MachineEvent;

/// One side of a reused id: when it arrived, its fingerprint and, when kept, the event.
// The API's `SeenEventDto` as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = SeenEventDto)]
pub struct SeenEvent {
    /// When it was received (null: stored before receipts kept it).
    pub received_at: Option<DateTime<Utc>>,
    /// Its content fingerprint (64 bits of SHA-256, hex).
    pub fingerprint: Option<String>,
    /// The event's JSON as the machine sent it; null when larger than 16 KiB or stored before
    /// receipts kept it.
    pub payload: Option<String>,
}

/// An event whose id the machine had used before with other content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IntakeAnomaly {
    pub machine_id: String,
    pub event_id: String,
    /// What went wrong: `reused_id`.
    pub kind: String,
    /// The event stored under the id (booked).
    pub first: SeenEvent,
    /// The event refused under the same id (nothing booked).
    pub second: SeenEvent,
}

impl IntakeAnomaly {
    /// Sort-key prefix in the machine's partition.
    pub const PREFIX: &'static str = "ANOMALY#";

    /// The key: one per machine, id and refused content, so a resent refused event is one.
    pub fn key(&self) -> Key {
        Key::new(
            crate::machines::Machine::partition(&self.machine_id),
            format!(
                "{}{}#{}",
                Self::PREFIX,
                self.event_id,
                self.second.fingerprint.as_deref().unwrap_or("")
            ),
        )
    }

    /// The anomaly of `event`, refused at `now`, whose id `first` holds.
    pub fn reused(
        machine_id: &str,
        event: &MachineEvent,
        first: SeenEvent,
        now: DateTime<Utc>,
    ) -> Self {
        IntakeAnomaly {
            machine_id: machine_id.to_string(),
            event_id: event.id.clone(),
            kind: "reused_id".into(),
            first,
            second: SeenEvent {
                received_at: Some(now),
                fingerprint: Some(fingerprint(event)),
                payload: kept_payload(event),
            },
        }
    }
}

impl From<&StoredReceipt> for SeenEvent {
    fn from(r: &StoredReceipt) -> Self {
        SeenEvent {
            received_at: Some(r.received_at),
            fingerprint: r.fingerprint.clone(),
            payload: r.payload.clone(),
        }
    }
}

impl SeenEvent {
    /// An event received at `at`, as kept.
    pub fn of(event: &MachineEvent, at: DateTime<Utc>) -> Self {
        SeenEvent {
            received_at: Some(at),
            fingerprint: Some(fingerprint(event)),
            payload: kept_payload(event),
        }
    }
}

/// An event of a step whose id is stored with other content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReusedId {
    /// Its index in the step's events.
    pub event: usize,
    pub id: String,
    /// The stored receipt of the id.
    pub first: StoredReceipt,
}

/// The events whose id a receipt holds with another fingerprint (receipts from before
/// fingerprints cannot tell: they are duplicates, as before). `receipt_ids[i]` are event `i`'s
/// receipt ids (its parts).
pub(super) fn reused_ids(
    events: &[MachineEvent],
    receipt_ids: &[Vec<String>],
    stored: &HashMap<String, StoredReceipt>,
) -> Vec<ReusedId> {
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let fp = fingerprint(e);
        let other = receipt_ids[i]
            .iter()
            .filter_map(|id| stored.get(id))
            .find(|r| r.fingerprint.as_ref().is_some_and(|f| *f != fp));
        if let Some(first) = other {
            out.push(ReusedId {
                event: i,
                id: e.id.clone(),
                first: first.clone(),
            });
        }
    }
    out
}

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
