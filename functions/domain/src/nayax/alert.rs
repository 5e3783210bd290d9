//! A Nayax Core event/alert message (the events feed): `machineId`, `eventCode`, `eventName`,
//! `eventData` … (Nayax's example page spells the ids `machineld`, with a lower-case L: both
//! are read).

use super::model::Unreadable;
use super::value::{id, text};
use crate::events::{EventKind, MachineEvent, Telemetry};
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

/// An event or alert, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    /// `machineId`: the machine's Nayax id.
    pub machine: String,
    /// `eventCode`, kept raw.
    pub code: String,
    /// `eventName`, kept raw.
    pub name: String,
    /// `eventSourceName` (Device, Machine …).
    pub source: Option<String>,
    /// `eventData`: free text (`Key:Value` lines).
    pub data: Option<String>,
    /// `eventId`, when sent (else the queue's message id names it).
    pub event_id: Option<String>,
}

impl Alert {
    pub(super) fn read(o: &Map<String, Value>) -> Result<Alert, Unreadable> {
        let machine = id(o, &["machineId", "machineld", "MachineId"])?
            .ok_or(Unreadable::Missing { field: "machineId" })?;
        let code = id(o, &["eventCode", "EventCode"])?
            .ok_or(Unreadable::Missing { field: "eventCode" })?;
        Ok(Alert {
            machine,
            name: text(o, &["eventName", "EventName"])?.unwrap_or_default(),
            code,
            source: text(o, &["eventSourceName"])?,
            data: text(o, &["eventData"])?,
            event_id: id(o, &["eventId", "eventld", "EventId"])?,
        })
    }

    /// The machine state the event tells, as our telemetry: power from power events (up,
    /// down, failure), the door from door events, and for every other event its raw code and
    /// name as the machine's status (the dashboard counts any event as the machine being in
    /// touch).
    pub fn telemetry(&self) -> Telemetry {
        let name = self.name.to_ascii_lowercase();
        let mut t = Telemetry::default();
        if name.contains("power") {
            let off = ["down", "fail", "off", "loss", "lost"]
                .iter()
                .any(|w| name.contains(w));
            t.power = Some(if off { "off" } else { "on" }.into());
        } else if name.contains("door") {
            let open = name.contains("open");
            t.status = Some(if open { "door_open" } else { "door_closed" }.into());
        } else {
            let mut raw = format!("nayax {}: {}", self.code, self.name.trim());
            raw.truncate(200);
            t.status = Some(raw);
        }
        if let Some(firmware) = self
            .data
            .as_deref()
            .and_then(|d| d.lines().find_map(|l| l.strip_prefix("Device FW Version:")))
        {
            t.firmware = Some(firmware.trim().chars().take(64).collect());
        }
        t
    }

    /// The event as our telemetry event, named `id` (the message's) at `at` (when it was sent:
    /// Nayax's alert carries no time of its own).
    pub fn event(&self, id: &str, at: DateTime<Utc>) -> MachineEvent {
        MachineEvent {
            id: format!("nayax-event-{}", self.event_id.as_deref().unwrap_or(id)),
            at: at.fixed_offset(),
            kind: EventKind::Telemetry(self.telemetry()),
        }
    }
}
