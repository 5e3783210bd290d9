//! Event ids used again with other content. Every event's fingerprint is kept with its receipt
//! (the dedupe record), so that a later event with the same id tells a retry (the same content:
//! a duplicate, nothing changes) from a reused id (other content: rejected, nothing stored, and
//! shown beside the first as an intake anomaly), such as a machine whose id counter restarted.

use super::MachineEvent;
use chrono::SecondsFormat;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Bytes of an event's payload kept with its receipt; a larger one (a big audit file) keeps its
/// fingerprint only.
pub const MAX_KEPT_PAYLOAD: usize = 16 * 1024;

/// The fingerprint of an event's content: the first 64 bits of SHA-256 over its JSON without
/// the id, `at` as its UTC instant (the offset a machine writes does not change the event), in
/// lower-case hex.
pub fn fingerprint(e: &MachineEvent) -> String {
    let mut content = serde_json::to_value(&e.kind).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut content {
        map.insert(
            "at".into(),
            Value::from(e.at_utc().to_rfc3339_opts(SecondsFormat::AutoSi, true)),
        );
    }
    let digest = Sha256::digest(content.to_string().as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// The event as kept with its receipt (its wire JSON), unless larger than [`MAX_KEPT_PAYLOAD`].
pub fn kept_payload(e: &MachineEvent) -> Option<String> {
    serde_json::to_string(e)
        .ok()
        .filter(|p| p.len() <= MAX_KEPT_PAYLOAD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{EventKind, Vend};
    use chrono::DateTime;

    fn vend(at: &str, price: i64) -> MachineEvent {
        MachineEvent {
            id: "m42-000187".into(),
            at: DateTime::parse_from_rfc3339(at).unwrap(),
            kind: EventKind::Vend(Vend::a1_cash(price)),
        }
    }

    #[test]
    fn the_fingerprint_is_the_content_whatever_the_offset_and_id() {
        let a = vend("2026-11-22T12:30:00+01:00", 100);
        let same_instant = vend("2026-11-22T11:30:00Z", 100);
        assert_eq!(fingerprint(&a), fingerprint(&same_instant));
        let mut other_id = a.clone();
        other_id.id = "x".into();
        assert_eq!(fingerprint(&a), fingerprint(&other_id));
        assert_ne!(
            fingerprint(&a),
            fingerprint(&vend("2026-11-22T12:30:00+01:00", 99999))
        );
        assert_ne!(
            fingerprint(&a),
            fingerprint(&vend("2026-11-22T12:30:01+01:00", 100))
        );
        assert_eq!(fingerprint(&a).len(), 16);
        assert!(kept_payload(&a).unwrap().contains("\"price_minor\":100"));
        let big = MachineEvent {
            kind: EventKind::Dex {
                content: "x".repeat(MAX_KEPT_PAYLOAD),
            },
            ..a
        };
        assert_eq!(kept_payload(&big), None);
        let r = super::super::rejection(3, "m42-000187", None);
        assert_eq!(r.index, 3);
        assert!(r.errors.0["id"][0].starts_with("Reused id"));
    }
}
