//! What machine events leave in the item store: the machine's live status, encashment rows and
//! audit reads. The events area owns these keys; other areas read them through
//! [`super::EventsService`].

use crate::ports::sales::StoredReceipt;
use crate::ports::{Item, Key, StoreError};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use vendfleet_domain::events::reuse::{fingerprint, kept_payload};
use vendfleet_domain::events::MachineEvent;

/// A telemetry value with the instant of the reading that set it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stamped {
    pub value: Value,
    pub at: DateTime<Utc>,
}

/// The live part of the machine overview, fed by every event. Each figure keeps the latest
/// reading by event time, so events arriving late or out of order leave the same status.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineStatus {
    pub machine_id: String,
    /// Telemetry by field name (`status`, `power`, `signal`, `cash_box_minor` …).
    #[serde(default)]
    pub telemetry: BTreeMap<String, Stamped>,
    pub last_sale: Option<DateTime<Utc>>,
    pub last_refill: Option<DateTime<Utc>>,
    pub last_encashment: Option<DateTime<Utc>>,
    pub last_audit: Option<DateTime<Utc>>,
    /// The latest event of any kind.
    pub last_updated: Option<DateTime<Utc>>,
    #[serde(skip)]
    pub version: u64,
}

fn later(slot: &mut Option<DateTime<Utc>>, at: DateTime<Utc>) {
    if slot.is_none_or(|s| s < at) {
        *slot = Some(at);
    }
}

impl MachineStatus {
    /// The item key.
    pub fn key(machine_id: &str) -> Key {
        Key::new(crate::machines::Machine::partition(machine_id), "STATUS")
    }

    /// The store item.
    pub fn to_item(&self) -> Result<Item, StoreError> {
        Ok(Item::from_value(Self::key(&self.machine_id), self)?.with_version(self.version))
    }

    /// The status stored in `item`.
    pub fn from_item(item: &Item) -> Result<MachineStatus, StoreError> {
        let mut s: MachineStatus = item.to_value()?;
        s.version = item.version;
        Ok(s)
    }

    /// Notes an event at `at`.
    pub fn seen(&mut self, at: DateTime<Utc>) {
        later(&mut self.last_updated, at);
    }

    /// Notes a sale.
    pub fn sold(&mut self, at: DateTime<Utc>) {
        later(&mut self.last_sale, at);
    }

    /// Notes a refill.
    pub fn refilled(&mut self, at: DateTime<Utc>) {
        later(&mut self.last_refill, at);
    }

    /// Notes a cash collection.
    pub fn encashed(&mut self, at: DateTime<Utc>) {
        later(&mut self.last_encashment, at);
    }

    /// Notes an audit read.
    pub fn audited(&mut self, at: DateTime<Utc>) {
        later(&mut self.last_audit, at);
    }

    /// Sets a telemetry field unless a later reading set it already. Ties keep the greater value
    /// (as JSON text), so the result does not depend on arrival order.
    pub fn report(&mut self, field: &str, value: Value, at: DateTime<Utc>) {
        let replace = match self.telemetry.get(field) {
            None => true,
            Some(s) => (at, value.to_string()) > (s.at, s.value.to_string()),
        };
        if replace {
            self.telemetry
                .insert(field.to_string(), Stamped { value, at });
        }
    }

    /// A telemetry text field.
    pub fn text(&self, field: &str) -> Option<String> {
        self.telemetry
            .get(field)
            .and_then(|s| s.value.as_str().map(str::to_string))
    }

    /// A telemetry integer field.
    pub fn int(&self, field: &str) -> Option<i64> {
        self.telemetry.get(field).and_then(|s| s.value.as_i64())
    }
}

/// One cash collection: a row of the encashment report (spec section 3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct Encashment {
    /// The machine event's id.
    pub id: String,
    pub at: DateTime<Utc>,
    /// The day in the location's zone.
    pub local_date: NaiveDate,
    #[serde(flatten)]
    pub stamp: crate::fleet::MachineStamp,
    pub bag_no: String,
    pub employee_id: Option<String>,
    pub employee_name: Option<String>,
    pub cash_box_minor: i64,
    pub bill_stacker_minor: i64,
    pub collected_minor: i64,
    pub tubes_minor: i64,
    pub ejected_minor: i64,
    pub refilled_coins_minor: i64,
    pub currency: String,
}

impl Encashment {
    /// Sort-key prefix in the machine's partition.
    pub const PREFIX: &'static str = "CASH#";

    /// GSI1 partition of a local day's collections, fleet-wide.
    pub fn day_partition(day: NaiveDate) -> String {
        format!("CASHDAY#{day}")
    }

    /// The item: in the machine's partition by time, fleet-wide by local day in GSI1.
    pub fn to_item(&self) -> Result<Item, StoreError> {
        let at = self.at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        Ok(Item::from_value(
            Key::new(
                crate::machines::Machine::partition(&self.stamp.machine_id),
                format!("{}{at}#{}", Self::PREFIX, self.id),
            ),
            self,
        )?
        .with_gsi1(
            Self::day_partition(self.local_date),
            format!("{at}#{}#{}", self.stamp.machine_id, self.id),
        ))
    }
}

/// How an audit read's difference from the previous read counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", schema(as = AuditStateDto))]
pub enum AuditState {
    /// The machine's first read: the baseline, nothing to count.
    Baseline,
    /// Clean: its sales are in the figures.
    Counted,
    /// Flagged: held out of the figures until someone accepts or rejects it.
    Held,
    /// Flagged, then accepted: its sales are in the figures.
    Accepted,
    /// Flagged, then rejected: never counted.
    Rejected,
    /// The machine's sales come from its events: the difference is shown, never counted.
    Reconcile,
    /// Older than the machine's baseline when it arrived: no difference is computed.
    Late,
    /// Held, then a later read became the baseline: that read's difference holds its sales, so
    /// it can no longer be accepted (nor needs to be).
    Superseded,
}

/// One EVA-DTS audit read of a machine: the parsed audit, its counters, the difference from
/// its baseline with its findings, and how that difference counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRead {
    /// The machine event's id (with `#n` for the n-th audit of a file holding several).
    pub id: String,
    pub machine_id: String,
    pub at: DateTime<Utc>,
    pub local_date: NaiveDate,
    /// The parsed audit (`vendfleet dex parse`'s shape).
    pub audit: vendfleet_domain::dex::Audit,
    /// Its counters; for a read that became the baseline, with its baseline's where it has
    /// none (a truncated read's selections after the cut).
    #[serde(default)]
    pub counters: vendfleet_domain::audit::ReadCounters,
    /// The baseline the difference is taken from.
    #[serde(default)]
    pub previous_id: Option<String>,
    #[serde(default)]
    pub diff: Option<vendfleet_domain::audit::ReadDiff>,
    pub state: AuditState,
    #[serde(default)]
    pub reviewed_by: Option<String>,
    #[serde(default)]
    pub reviewed_at: Option<DateTime<Utc>>,
    #[serde(skip)]
    pub version: u64,
}

impl AuditRead {
    /// Sort-key prefix in the machine's partition.
    pub const PREFIX: &'static str = "AUDIT#";

    /// The sort key: by time, then id.
    pub fn sort_key(at: DateTime<Utc>, id: &str) -> String {
        format!("{}{:015}#{id}", Self::PREFIX, at.timestamp_millis())
    }

    /// Its place in the machine's reads: by time, then id.
    pub fn order(&self) -> (DateTime<Utc>, &str) {
        (self.at, &self.id)
    }

    /// Whether later reads count from it: a read that started a baseline, was counted or
    /// accepted, or (on an `events` machine) a reconcile read with nothing doubtful.
    pub fn is_baseline(&self) -> bool {
        match self.state {
            AuditState::Baseline | AuditState::Counted | AuditState::Accepted => true,
            AuditState::Reconcile => self.diff.as_ref().is_none_or(|d| d.is_clean()),
            _ => false,
        }
    }

    /// The item key.
    pub fn key(&self) -> Key {
        Key::new(
            crate::machines::Machine::partition(&self.machine_id),
            Self::sort_key(self.at, &self.id),
        )
    }

    /// GSI2 partition of the reads held for review, fleet-wide (a read leaves it when
    /// reviewed: the index is sparse).
    pub const HELD: &'static str = "AUDITS#HELD";

    /// The item, in the machine's partition in time order; a held read also in [`Self::HELD`].
    pub fn to_item(&self) -> Result<Item, StoreError> {
        let item = Item::from_value(self.key(), self)?.with_version(self.version);
        Ok(if self.state == AuditState::Held {
            item.with_gsi2(Self::HELD, format!("{}#{}", self.machine_id, self.key().sk))
        } else {
            item
        })
    }

    /// The read stored in `item`.
    pub fn from_item(item: &Item) -> Result<AuditRead, StoreError> {
        let mut r: AuditRead = item.to_value()?;
        r.version = item.version;
        Ok(r)
    }
}

/// One side of a reused id: when it arrived, its fingerprint and, when kept, the event.
// The API's `SeenEventDto` as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = SeenEventDto))]
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

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn telemetry_keeps_the_latest_reading_whatever_the_arrival_order() {
        let readings = [
            ("2026-11-01T10:00:00Z", "ok"),
            ("2026-11-01T12:00:00Z", "door open"),
            ("2026-11-01T11:00:00Z", "fault"),
            ("2026-11-01T12:00:00Z", "alarm"),
        ];
        let mut orders = vec![vec![0, 1, 2, 3], vec![3, 2, 1, 0], vec![2, 0, 3, 1]];
        orders.push(vec![1, 3, 0, 2]);
        let results: Vec<MachineStatus> = orders
            .iter()
            .map(|order| {
                let mut s = MachineStatus::default();
                for &i in order {
                    let (at, v) = readings[i];
                    s.report("status", Value::from(v), t(at));
                    s.seen(t(at));
                }
                s
            })
            .collect();
        for r in &results {
            assert_eq!(r, &results[0]);
        }
        assert_eq!(results[0].text("status").as_deref(), Some("door open"));
        assert_eq!(results[0].last_updated, Some(t("2026-11-01T12:00:00Z")));
    }
}
