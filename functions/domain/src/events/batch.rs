//! A batch's envelope and each event's validation: one bad event never fails the batch.

use super::*;
use chrono::SecondsFormat;
use serde_json::Map;

/// A body that is not a batch at all: nothing of it is stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    #[error("The body is {bytes} bytes; at most 1048576 (1 MiB) are accepted.")]
    TooLarge { bytes: usize },
    #[error("The body is not JSON: {0}.")]
    NotJson(String),
    #[error("The body must be a JSON object with an \"events\" array.")]
    NoEvents,
    #[error("\"events\" must hold at least 1 event.")]
    Empty,
    #[error("\"events\" holds {count} events; at most 500 are accepted per request.")]
    TooMany { count: usize },
}

impl BatchError {
    /// The HTTP status to answer: 413 for [`BatchError::TooLarge`], 400 otherwise.
    pub fn status(&self) -> u16 {
        match self {
            BatchError::TooLarge { .. } => 413,
            _ => 400,
        }
    }
}

/// A parsed request: every event of the body is in exactly one of `events`, `duplicates`
/// and `rejected` (`reused` repeats the rejected ones that reuse an id), each list in body
/// order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    /// How many events the body held.
    pub received: usize,
    /// Valid events, the first of each id in the body.
    pub events: Vec<IndexedEvent>,
    /// Valid events whose id an earlier valid event of the same body already carries with the
    /// same content ([`super::reuse::fingerprint`]): answered as duplicates, never stored.
    pub duplicates: Vec<Duplicate>,
    /// Valid events whose id an earlier valid event of the same body carries with other
    /// content: rejected (in `rejected` too), never stored, kept as intake anomalies.
    pub reused: Vec<Reused>,
    /// Invalid events. A rejected event does not claim its id: a later valid event with the
    /// same id is accepted.
    pub rejected: Vec<Rejected>,
}

/// A valid event and its position in the body's `events` (from 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedEvent {
    pub index: usize,
    pub event: MachineEvent,
}

/// A valid event repeating the id of the event at `first_index` of the same body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub index: usize,
    pub id: String,
    pub first_index: usize,
}

/// A valid event reusing the id of the event at `first_index` of the same body with other
/// content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reused {
    pub index: usize,
    pub first_index: usize,
    pub event: MachineEvent,
}

/// An invalid event: its position, its id when that is valid, and the messages per field
/// (`type`, `at`, `lines[2].added`, an unknown field's own name, `event` for a non-object).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejected {
    pub index: usize,
    pub id: Option<String>,
    pub errors: FieldErrors,
}

/// The rejection of the event at `index` whose id an earlier event has with other content:
/// received at `first_received` (a stored one), or earlier in the same request (`None`).
pub fn rejection(index: usize, id: &str, first_received: Option<DateTime<Utc>>) -> Rejected {
    let when = match first_received {
        Some(at) => format!(
            "was received at {} with other content",
            at.to_rfc3339_opts(SecondsFormat::Secs, true)
        ),
        None => "is used earlier in this request with other content".into(),
    };
    Rejected {
        index,
        id: Some(id.to_string()),
        errors: FieldErrors::single(
            "id",
            format!(
                "Reused id: an event with this id {when}; nothing of this event was stored. \
                 Give every event its own id."
            ),
        ),
    }
}

/// The 200 reply's `data`: `{"accepted": N, "duplicates": N, "rejected": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Receipt {
    pub accepted: usize,
    pub duplicates: usize,
    pub rejected: Vec<Rejected>,
}

impl Batch {
    /// The reply once the intake has stored `self.events`, of which `already_stored` were
    /// found in the machine's dedupe records with the same content (retries: duplicates too)
    /// and `reused` had their id stored with other content (rejected).
    pub fn receipt(&self, already_stored: usize, reused: Vec<Rejected>) -> Receipt {
        let taken = self.events.len().saturating_sub(reused.len());
        let already_stored = already_stored.min(taken);
        let mut rejected = self.rejected.clone();
        rejected.extend(reused);
        rejected.sort_by_key(|r| r.index);
        Receipt {
            accepted: taken - already_stored,
            duplicates: self.duplicates.len() + already_stored,
            rejected,
        }
    }
}

/// Reads a webhook body: size, envelope, then each event on its own (see [`parse_event`]).
/// `now` bounds the events' `at` (at most [`MAX_FUTURE_SECS`] ahead). Keys of the envelope
/// other than `events` are ignored.
pub fn parse_batch(raw_body: &[u8], now: DateTime<Utc>) -> Result<Batch, BatchError> {
    if raw_body.len() > MAX_BODY_BYTES {
        return Err(BatchError::TooLarge {
            bytes: raw_body.len(),
        });
    }
    let envelope: Value =
        serde_json::from_slice(raw_body).map_err(|e| BatchError::NotJson(e.to_string()))?;
    let Some(Value::Array(events)) = envelope.get("events") else {
        return Err(BatchError::NoEvents);
    };
    if events.is_empty() {
        return Err(BatchError::Empty);
    }
    if events.len() > MAX_EVENTS {
        return Err(BatchError::TooMany {
            count: events.len(),
        });
    }
    let mut batch = Batch {
        received: events.len(),
        ..Batch::default()
    };
    let mut first_of: HashMap<String, usize> = HashMap::new();
    for (index, raw) in events.iter().enumerate() {
        match parse_event(raw, now) {
            Ok(event) => {
                if let Some(&first_index) = first_of.get(&event.id) {
                    let first = batch.events.iter().find(|e| e.index == first_index);
                    let same = first.is_some_and(|f| {
                        super::reuse::fingerprint(&f.event) == super::reuse::fingerprint(&event)
                    });
                    if same {
                        batch.duplicates.push(Duplicate {
                            index,
                            id: event.id,
                            first_index,
                        });
                    } else {
                        batch.rejected.push(rejection(index, &event.id, None));
                        batch.reused.push(Reused {
                            index,
                            first_index,
                            event,
                        });
                    }
                } else {
                    first_of.insert(event.id.clone(), index);
                    batch.events.push(IndexedEvent { index, event });
                }
            }
            Err(errors) => batch.rejected.push(Rejected {
                index,
                id: raw
                    .get("id")
                    .and_then(Value::as_str)
                    .filter(|id| check_id(id).is_none())
                    .map(str::to_string),
                errors,
            }),
        }
    }
    Ok(batch)
}

const COMMON_FIELDS: [&str; 3] = ["id", "type", "at"];
const VEND_FIELDS: [&str; 7] = [
    "selection",
    "price_minor",
    "quantity",
    "payment",
    "product_id",
    "free",
    "test",
];
pub(super) const CASH_FIELDS: [&str; 8] = [
    "bag_no",
    "employee_id",
    "cash_box_minor",
    "bill_stacker_minor",
    "tubes_minor",
    "ejected_minor",
    "refilled_coins_minor",
    "collected_minor",
];
const REFILL_FIELDS: [&str; 3] = ["employee_id", "source", "lines"];
const REFILL_LINE_FIELDS: [&str; 3] = ["selection", "added", "removed"];
const TELEMETRY_FIELDS: [&str; 9] = [
    "connection_method",
    "protocol",
    "firmware",
    "status",
    "power",
    "signal",
    "cash_box_minor",
    "bill_stacker_minor",
    "tubes_minor",
];
const DEX_FIELDS: [&str; 1] = ["content"];

pub(super) const REQUIRED: &str = "This field is required.";
pub(super) const NOT_STRING: &str = "Must be a string.";
pub(super) const NOT_INTEGER: &str = "Must be an integer.";
pub(super) const NOT_BOOLEAN: &str = "Must be true or false.";
pub(super) const CONTROL: &str = "Must not contain control characters.";

/// Validates one event of a batch. All problems of the event are reported, each under its
/// field. `null` counts as absent. Unknown fields are errors under their own name (only once
/// `type` is known, since the allowed fields depend on it).
pub fn parse_event(raw: &Value, now: DateTime<Utc>) -> Result<MachineEvent, FieldErrors> {
    let Value::Object(obj) = raw else {
        return Err(FieldErrors::single("event", "Must be a JSON object."));
    };
    let mut e = FieldErrors::new();
    let id = match field(obj, "id") {
        None => {
            e.add("id", REQUIRED);
            String::new()
        }
        Some(Value::String(id)) => {
            if let Some(message) = check_id(id) {
                e.add("id", message);
            }
            id.clone()
        }
        Some(_) => {
            e.add("id", NOT_STRING);
            String::new()
        }
    };
    let at = read_at(&mut e, obj, now);
    let kind = match field(obj, "type") {
        None => {
            e.add("type", REQUIRED);
            None
        }
        Some(Value::String(t)) => match t.as_str() {
            "vend" => Some(read_vend(&mut e, obj)),
            "cash_collection" => Some(read_cash_collection(&mut e, obj)),
            "refill" => Some(read_refill(&mut e, obj)),
            "telemetry" => Some(read_telemetry(&mut e, obj)),
            "dex" => Some(read_dex(&mut e, obj)),
            _ => {
                e.add(
                    "type",
                    "Unknown type: expected vend, cash_collection, refill, telemetry or dex.",
                );
                None
            }
        },
        Some(_) => {
            e.add("type", NOT_STRING);
            None
        }
    };
    if let Some(kind) = &kind {
        let allowed: &[&str] = match kind {
            EventKind::Vend(_) => &VEND_FIELDS,
            EventKind::CashCollection(_) => &CASH_FIELDS,
            EventKind::Refill(_) => &REFILL_FIELDS,
            EventKind::Telemetry(_) => &TELEMETRY_FIELDS,
            EventKind::Dex { .. } => &DEX_FIELDS,
        };
        let message = format!("Unknown field for a {} event.", kind.type_name());
        for key in obj.keys() {
            if !COMMON_FIELDS.contains(&key.as_str()) && !allowed.contains(&key.as_str()) {
                e.add(key.clone(), message.clone());
            }
        }
    }
    e.into_result()?;
    match (at, kind) {
        (Some(at), Some(kind)) => Ok(MachineEvent { id, at, kind }),
        // Unreachable: a missing `at` or `kind` has recorded an error above.
        _ => Err(FieldErrors::single("event", "Invalid event.")),
    }
}

/// Why `id` is not a valid event id, if it is not.
fn check_id(id: &str) -> Option<String> {
    if id.is_empty() {
        Some(REQUIRED.into())
    } else if id.chars().count() > MAX_ID_CHARS {
        Some(format!("Must be at most {MAX_ID_CHARS} characters."))
    } else if id.chars().any(char::is_control) {
        Some(CONTROL.into())
    } else {
        None
    }
}

fn read_at(
    e: &mut FieldErrors,
    obj: &Map<String, Value>,
    now: DateTime<Utc>,
) -> Option<DateTime<FixedOffset>> {
    let text = match field(obj, "at") {
        None => {
            e.add("at", REQUIRED);
            return None;
        }
        Some(Value::String(text)) => text,
        Some(_) => {
            e.add("at", NOT_STRING);
            return None;
        }
    };
    let Ok(at) = DateTime::parse_from_rfc3339(text) else {
        e.add(
            "at",
            "Must be an RFC 3339 date-time with an offset, e.g. 2024-05-01T12:30:00+02:00.",
        );
        return None;
    };
    let earliest = Utc
        .timestamp_opt(EARLIEST_AT_UNIX, 0)
        .single()
        .expect("a valid instant");
    if at < earliest {
        e.add("at", "Must not be before 2000-01-01.");
        return None;
    }
    if at > now + chrono::Duration::seconds(MAX_FUTURE_SECS) {
        e.add(
            "at",
            "Must not be more than 5 minutes ahead of the server's clock.",
        );
        return None;
    }
    Some(at)
}

fn read_vend(e: &mut FieldErrors, obj: &Map<String, Value>) -> EventKind {
    EventKind::Vend(Vend {
        selection: req_text(e, obj, "", "selection", MAX_SELECTION_CHARS),
        price_minor: req_int(e, obj, "", "price_minor", 0, MAX_MONEY_MINOR),
        quantity: opt_int(e, obj, "", "quantity", 1, i64::from(MAX_QUANTITY))
            .map_or(1, |q| q as u32),
        payment: match field(obj, "payment") {
            None => {
                e.add("payment", REQUIRED);
                Payment::Cash
            }
            Some(Value::String(p)) if p == "cash" => Payment::Cash,
            Some(Value::String(p)) if p == "cashless" => Payment::Cashless,
            Some(_) => {
                e.add("payment", "Must be \"cash\" or \"cashless\".");
                Payment::Cash
            }
        },
        product_id: opt_text(e, obj, "", "product_id", MAX_REF_CHARS),
        free: opt_bool(e, obj, "free"),
        test: opt_bool(e, obj, "test"),
    })
}

fn read_cash_collection(e: &mut FieldErrors, obj: &Map<String, Value>) -> EventKind {
    let mut money = |name: &str| req_int(e, obj, "", name, 0, MAX_MONEY_MINOR);
    let cash_box_minor = money("cash_box_minor");
    let bill_stacker_minor = money("bill_stacker_minor");
    let tubes_minor = money("tubes_minor");
    let ejected_minor = money("ejected_minor");
    let refilled_coins_minor = money("refilled_coins_minor");
    let collected_minor = money("collected_minor");
    EventKind::CashCollection(CashCollection {
        bag_no: req_text(e, obj, "", "bag_no", MAX_REF_CHARS),
        employee_id: opt_text(e, obj, "", "employee_id", MAX_REF_CHARS),
        cash_box_minor,
        bill_stacker_minor,
        tubes_minor,
        ejected_minor,
        refilled_coins_minor,
        collected_minor,
    })
}

fn read_refill(e: &mut FieldErrors, obj: &Map<String, Value>) -> EventKind {
    let employee_id = opt_text(e, obj, "", "employee_id", MAX_REF_CHARS);
    let source = req_text(e, obj, "", "source", MAX_REF_CHARS);
    let mut lines = Vec::new();
    match field(obj, "lines") {
        None => e.add("lines", REQUIRED),
        Some(Value::Array(raw_lines)) if raw_lines.is_empty() => {
            e.add("lines", "Must hold at least 1 line.")
        }
        Some(Value::Array(raw_lines)) if raw_lines.len() > MAX_REFILL_LINES => e.add(
            "lines",
            format!("Must hold at most {MAX_REFILL_LINES} lines."),
        ),
        Some(Value::Array(raw_lines)) => {
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (i, raw) in raw_lines.iter().enumerate() {
                let prefix = format!("lines[{i}].");
                let Value::Object(line) = raw else {
                    e.add(format!("lines[{i}]"), "Must be a JSON object.");
                    continue;
                };
                let selection = req_text(e, line, &prefix, "selection", MAX_SELECTION_CHARS);
                let units = i64::from(MAX_REFILL_UNITS);
                let added = req_int(e, line, &prefix, "added", 0, units) as u32;
                let removed = req_int(e, line, &prefix, "removed", 0, units) as u32;
                for key in line.keys() {
                    if !REFILL_LINE_FIELDS.contains(&key.as_str()) {
                        e.add(format!("{prefix}{key}"), "Unknown field for a refill line.");
                    }
                }
                if !selection.is_empty() {
                    if let Some(first) = seen.insert(selection.clone(), i) {
                        e.add(
                            format!("{prefix}selection"),
                            format!("Repeats the selection of lines[{first}]."),
                        );
                    }
                }
                lines.push(RefillLine {
                    selection,
                    added,
                    removed,
                });
            }
        }
        Some(_) => e.add("lines", "Must be a list of lines."),
    }
    EventKind::Refill(Refill {
        employee_id,
        source,
        lines,
    })
}

fn read_telemetry(e: &mut FieldErrors, obj: &Map<String, Value>) -> EventKind {
    let t = Telemetry {
        connection_method: opt_text(e, obj, "", "connection_method", MAX_REF_CHARS),
        protocol: opt_text(e, obj, "", "protocol", MAX_REF_CHARS),
        firmware: opt_text(e, obj, "", "firmware", MAX_REF_CHARS),
        status: opt_text(e, obj, "", "status", MAX_REF_CHARS),
        power: opt_text(e, obj, "", "power", MAX_REF_CHARS),
        signal: opt_int(e, obj, "", "signal", SIGNAL_RANGE.0, SIGNAL_RANGE.1).map(|s| s as i32),
        cash_box_minor: opt_int(e, obj, "", "cash_box_minor", 0, MAX_MONEY_MINOR),
        bill_stacker_minor: opt_int(e, obj, "", "bill_stacker_minor", 0, MAX_MONEY_MINOR),
        tubes_minor: opt_int(e, obj, "", "tubes_minor", 0, MAX_MONEY_MINOR),
    };
    if TELEMETRY_FIELDS
        .iter()
        .all(|name| field(obj, name).is_none())
    {
        e.add(
            "telemetry",
            format!("Give at least one of: {}.", TELEMETRY_FIELDS.join(", ")),
        );
    }
    EventKind::Telemetry(t)
}

fn read_dex(e: &mut FieldErrors, obj: &Map<String, Value>) -> EventKind {
    let content = match field(obj, "content") {
        None => {
            e.add("content", REQUIRED);
            String::new()
        }
        Some(Value::String(c)) if c.trim().is_empty() => {
            e.add("content", REQUIRED);
            String::new()
        }
        Some(Value::String(c)) if c.len() > MAX_DEX_BYTES => {
            e.add("content", "Must be at most 512 KiB.");
            String::new()
        }
        Some(Value::String(c)) => c.clone(),
        Some(_) => {
            e.add("content", NOT_STRING);
            String::new()
        }
    };
    EventKind::Dex { content }
}

/// The value of `name`, `None` when absent or `null`.
fn field<'v>(obj: &'v Map<String, Value>, name: &str) -> Option<&'v Value> {
    obj.get(name).filter(|v| !v.is_null())
}

/// A required string: trimmed, 1 to `max` characters, no control characters; "" on error.
fn req_text(
    e: &mut FieldErrors,
    obj: &Map<String, Value>,
    prefix: &str,
    name: &str,
    max: usize,
) -> String {
    let value = opt_text(e, obj, prefix, name, max);
    if value.is_none() && field(obj, name).is_none() {
        e.add(format!("{prefix}{name}"), REQUIRED);
    }
    value.unwrap_or_default()
}

/// An optional string: trimmed, 1 to `max` characters, no control characters.
fn opt_text(
    e: &mut FieldErrors,
    obj: &Map<String, Value>,
    prefix: &str,
    name: &str,
    max: usize,
) -> Option<String> {
    let key = || format!("{prefix}{name}");
    match field(obj, name)? {
        Value::String(s) => {
            let s = s.trim();
            if s.is_empty() {
                e.add(key(), REQUIRED);
            } else if s.chars().count() > max {
                e.add(key(), format!("Must be at most {max} characters."));
            } else if s.chars().any(char::is_control) {
                e.add(key(), CONTROL);
            } else {
                return Some(s.to_string());
            }
            None
        }
        _ => {
            e.add(key(), NOT_STRING);
            None
        }
    }
}

/// A required integer in `min..=max`; 0 on error.
fn req_int(
    e: &mut FieldErrors,
    obj: &Map<String, Value>,
    prefix: &str,
    name: &str,
    min: i64,
    max: i64,
) -> i64 {
    if field(obj, name).is_none() {
        e.add(format!("{prefix}{name}"), REQUIRED);
        return 0;
    }
    opt_int(e, obj, prefix, name, min, max).unwrap_or(0)
}

/// An optional integer in `min..=max`. A JSON number with a fraction or an exponent (`1.5`,
/// `2.0`, `1e3`) is an error, never truncated.
fn opt_int(
    e: &mut FieldErrors,
    obj: &Map<String, Value>,
    prefix: &str,
    name: &str,
    min: i64,
    max: i64,
) -> Option<i64> {
    let key = || format!("{prefix}{name}");
    let Value::Number(n) = field(obj, name)? else {
        e.add(key(), NOT_INTEGER);
        return None;
    };
    let value = if let Some(v) = n.as_i64() {
        v
    } else if n.is_u64() {
        i64::MAX // above any limit here
    } else {
        e.add(key(), NOT_INTEGER);
        return None;
    };
    if value < min || value > max {
        e.add(key(), format!("Must be between {min} and {max}."));
        return None;
    }
    Some(value)
}

/// An optional boolean, `false` when absent.
fn opt_bool(e: &mut FieldErrors, obj: &Map<String, Value>, name: &str) -> bool {
    match field(obj, name) {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            e.add(name, NOT_BOOLEAN);
            false
        }
    }
}
