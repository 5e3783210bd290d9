//! The machine webhook's contract (`POST /webhooks/machines/{machineId}/events`, docs/webhook.md):
//! signature check, batch parsing and per-event validation, and the money arithmetic reports sum.
//! Pure: bytes, headers and the current time in; typed events, rejections and errors out.
//!
//! - [`verify_signature`] / [`sign`]: `X-Vendfleet-Signature: v1=<hex HMAC-SHA256>` over
//!   `"{timestamp}.{raw body}"` keyed with the machine's secret, `X-Vendfleet-Timestamp` within
//!   ±300 s of the server clock. Every [`SignatureError`] is a 401 for the caller.
//! - [`parse_batch`]: the envelope `{"events": [...]}` (1 to 500) is read as a
//!   [`serde_json::Value`] first, so one bad event cannot fail the batch; each event is then
//!   validated on its own into a [`MachineEvent`] or a [`Rejected`] naming its fields. A
//!   [`BatchError`] (400, or 413 over 1 MiB) is kept for bodies that are not a batch at all.
//! - [`vend_revenue`] / [`net_of_vat`]: integer minor units, never floats.

use crate::validation::FieldErrors;
use chrono::{DateTime, FixedOffset, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;

/// Header holding the Unix time (seconds) the request was signed at.
pub const TIMESTAMP_HEADER: &str = "X-Vendfleet-Timestamp";
/// Header holding `v1=<64 lower-case hex digits>` (several comma-separated entries allowed).
pub const SIGNATURE_HEADER: &str = "X-Vendfleet-Signature";
/// How far (seconds, either way) the signing time may be from the server's clock.
pub const SIGNATURE_WINDOW_SECS: u64 = 300;
/// Most entries a signature header may hold (`v1=…,v1=…` during a secret rotation).
pub const MAX_SIGNATURE_ENTRIES: usize = 8;
/// Largest body accepted (1 MiB); larger is a 413.
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// Most events in one request.
pub const MAX_EVENTS: usize = 500;
/// Longest event id, in characters.
pub const MAX_ID_CHARS: usize = 64;
/// Largest money amount, in minor units (10^12).
pub const MAX_MONEY_MINOR: i64 = 1_000_000_000_000;
/// Largest quantity of one vend.
pub const MAX_QUANTITY: u32 = 1000;
/// Longest selection code (vends, refill lines), in characters.
pub const MAX_SELECTION_CHARS: usize = 20;
/// Most lines in one refill.
pub const MAX_REFILL_LINES: usize = 500;
/// Largest `added` / `removed` of one refill line.
pub const MAX_REFILL_UNITS: u32 = 1_000_000;
/// Longest DEX `content`, in bytes of UTF-8 (512 KiB).
pub const MAX_DEX_BYTES: usize = 512 * 1024;
/// How far (seconds) an event's `at` may lie after the server's clock.
pub const MAX_FUTURE_SECS: i64 = 300;
/// Smallest Unix time an event's `at` may have: 2000-01-01T00:00:00Z.
pub const EARLIEST_AT_UNIX: i64 = 946_684_800;

/// Longest free-text values (ids of products and employees, bag numbers, telemetry strings).
const MAX_REF_CHARS: usize = 64;
/// Smallest and largest telemetry `signal` (dBm when negative, a percentage otherwise).
const SIGNAL_RANGE: (i64, i64) = (-150, 100);

mod batch;
pub mod reuse;
mod signature;

pub use batch::*;
pub use signature::*;

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/// One validated machine event. Serialises to the wire format it was read from (`type` beside
/// the kind's fields), so it can be queued and read back; deserialising does not validate, so
/// read only what [`parse_batch`] produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineEvent {
    /// Unique per machine: a repeated id is a duplicate, never counted twice.
    pub id: String,
    /// When it happened, with the offset the machine sent (the UTC instant: [`Self::at_utc`]).
    pub at: DateTime<FixedOffset>,
    #[serde(flatten)]
    pub kind: EventKind,
}

impl MachineEvent {
    /// The instant of `at`, in UTC.
    pub fn at_utc(&self) -> DateTime<Utc> {
        self.at.with_timezone(&Utc)
    }

    /// The local date the event lands on in `tz` (its location's zone), whatever offset the
    /// machine sent and however late it arrives.
    pub fn local_date(&self, tz: Tz) -> NaiveDate {
        crate::calendar::local_date(self.at_utc(), tz)
    }
}

/// What happened, by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    Vend(Vend),
    CashCollection(CashCollection),
    Refill(Refill),
    Telemetry(Telemetry),
    /// A raw EVA-DTS audit file, as text (parsed by [`crate::dex`]).
    Dex {
        content: String,
    },
}

impl EventKind {
    /// The wire name of the kind (`vend`, `cash_collection`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            EventKind::Vend(_) => "vend",
            EventKind::CashCollection(_) => "cash_collection",
            EventKind::Refill(_) => "refill",
            EventKind::Telemetry(_) => "telemetry",
            EventKind::Dex { .. } => "dex",
        }
    }
}

/// How a vend was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Payment {
    Cash,
    Cashless,
}

/// How a vend counts: a sale, or a free or test vend (counted apart, no revenue).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VendClass {
    Sale,
    Free,
    Test,
}

/// A sale of `quantity` units from `selection` at `price_minor` each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vend {
    pub selection: String,
    /// The unit price, in minor units.
    pub price_minor: i64,
    pub quantity: u32,
    pub payment: Payment,
    /// The product sold; when absent, the product in `selection` of the planogram.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_id: Option<String>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub free: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub test: bool,
}

impl Vend {
    /// One unit from A1 paid in cash at `price_minor` (the tests' plain sale).
    #[cfg(test)]
    pub(crate) fn a1_cash(price_minor: i64) -> Vend {
        Vend {
            selection: "A1".into(),
            price_minor,
            quantity: 1,
            payment: Payment::Cash,
            product_id: None,
            free: false,
            test: false,
        }
    }

    /// `Test` when `test` is true (even if `free` is too), else `Free` when `free`, else `Sale`.
    pub fn class(&self) -> VendClass {
        if self.test {
            VendClass::Test
        } else if self.free {
            VendClass::Free
        } else {
            VendClass::Sale
        }
    }

    /// The sale's revenue (price × quantity); 0 for a free or test vend.
    pub fn revenue_minor(&self) -> i64 {
        match self.class() {
            VendClass::Sale => vend_revenue(self.price_minor, self.quantity),
            VendClass::Free | VendClass::Test => 0,
        }
    }
}

/// A cash collection: the figures of one bag, all in minor units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashCollection {
    pub bag_no: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub employee_id: Option<String>,
    pub cash_box_minor: i64,
    pub bill_stacker_minor: i64,
    pub tubes_minor: i64,
    pub ejected_minor: i64,
    pub refilled_coins_minor: i64,
    pub collected_minor: i64,
}

/// A refill: units added to and removed from selections.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refill {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub employee_id: Option<String>,
    /// Where the goods came from (a warehouse, a vehicle…), as the machine names it.
    pub source: String,
    pub lines: Vec<RefillLine>,
}

/// One selection of a refill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefillLine {
    pub selection: String,
    pub added: u32,
    pub removed: u32,
}

/// A machine's state; at least one field is present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Telemetry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection_method: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub firmware: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// Signal strength: dBm when negative, a percentage otherwise (-150 to 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cash_box_minor: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bill_stacker_minor: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tubes_minor: Option<i64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

// ---------------------------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------------------------

/// A vend's revenue: `price_minor × quantity`, in minor units. Checked arithmetic: a product
/// beyond `i64` saturates at `i64::MAX` (or `i64::MIN`) instead of wrapping or panicking;
/// validated vends (price ≤ 10^12, quantity ≤ 1000) never get near it.
pub fn vend_revenue(price_minor: i64, quantity: u32) -> i64 {
    price_minor
        .checked_mul(i64::from(quantity))
        .unwrap_or(if price_minor < 0 { i64::MIN } else { i64::MAX })
}

/// The amount excluding VAT of `gross_minor` (VAT included) at `vat_bps` basis points
/// (2000 = 20 %): `gross × 10000 / (10000 + vat_bps)`, rounded to the nearest minor unit,
/// halves away from zero (so `net_of_vat(-g, r) == -net_of_vat(g, r)`).
///
/// Computed in `i128`, so it never overflows: `|net| ≤ |gross|`, and `net_of_vat(g, 0) == g`.
/// Reports sum the rounded net of each vend; the sum may differ by a few minor units from the
/// net of the summed gross.
pub fn net_of_vat(gross_minor: i64, vat_bps: u32) -> i64 {
    let numerator = i128::from(gross_minor) * 10_000;
    let denominator = 10_000 + i128::from(vat_bps);
    let quotient = numerator / denominator;
    let remainder = numerator % denominator;
    let rounded = if 2 * remainder.abs() >= denominator {
        quotient + numerator.signum()
    } else {
        quotient
    };
    // |rounded| ≤ |gross_minor|, so this always fits.
    i64::try_from(rounded).unwrap_or(gross_minor)
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// 2023-11-14T22:13:20Z.
    const NOW_UNIX: i64 = 1_700_000_000;

    fn now() -> DateTime<Utc> {
        Utc.timestamp_opt(NOW_UNIX, 0).unwrap()
    }

    // -- signature ----------------------------------------------------------------------------

    /// Computed independently, once, with OpenSSL 3.0:
    /// `printf '%s' '1700000000.{"events":[]}' | openssl dgst -sha256 -hmac secret`
    /// → `SHA2-256(stdin)= 3947de27ec923573170fccda604ddfb25583ff98dc51e96cca2e11c59545026a`
    const KAT: &str = "v1=3947de27ec923573170fccda604ddfb25583ff98dc51e96cca2e11c59545026a";

    #[test]
    fn signature_known_answer() {
        let body = br#"{"events":[]}"#;
        assert_eq!(sign(b"secret", NOW_UNIX, body), KAT);
        let ts = NOW_UNIX.to_string();
        assert_eq!(
            verify_signature(b"secret", Some(&ts), Some(KAT), body, NOW_UNIX),
            Ok(())
        );
        // Surrounding spaces in header values are ignored.
        let padded = format!(" {KAT} ");
        assert_eq!(
            verify_signature(
                b"secret",
                Some(" 1700000000 "),
                Some(&padded),
                body,
                NOW_UNIX
            ),
            Ok(())
        );
    }

    #[test]
    fn signature_window_edges() {
        let body = b"{}";
        let ts = NOW_UNIX.to_string();
        let sig = sign(b"k", NOW_UNIX, body);
        let check = |now| verify_signature(b"k", Some(&ts), Some(&sig), body, now);
        assert_eq!(check(NOW_UNIX + 300), Ok(()));
        assert_eq!(check(NOW_UNIX - 300), Ok(()));
        assert_eq!(
            check(NOW_UNIX + 301),
            Err(SignatureError::OutsideWindow { skew_secs: 301 })
        );
        assert_eq!(
            check(NOW_UNIX - 301),
            Err(SignatureError::OutsideWindow { skew_secs: 301 })
        );
        assert!(matches!(
            check(i64::MIN),
            Err(SignatureError::OutsideWindow { .. })
        ));
        // Milliseconds instead of seconds: far outside the window.
        let ms = (NOW_UNIX * 1000).to_string();
        let sig_ms = sign(b"k", NOW_UNIX * 1000, body);
        assert!(matches!(
            verify_signature(b"k", Some(&ms), Some(&sig_ms), body, NOW_UNIX),
            Err(SignatureError::OutsideWindow { .. })
        ));
    }

    #[test]
    fn signature_mismatches() {
        let body = br#"{"events":[{"id":"1"}]}"#;
        let ts = NOW_UNIX.to_string();
        let sig = sign(b"secret", NOW_UNIX, body);
        let tampered = br#"{"events":[{"id":"2"}]}"#;
        assert_eq!(
            verify_signature(b"secret", Some(&ts), Some(&sig), tampered, NOW_UNIX),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(b"other", Some(&ts), Some(&sig), body, NOW_UNIX),
            Err(SignatureError::Mismatch)
        );
        // The timestamp is signed too: another one inside the window does not match.
        let later = (NOW_UNIX + 1).to_string();
        assert_eq!(
            verify_signature(b"secret", Some(&later), Some(&sig), body, NOW_UNIX),
            Err(SignatureError::Mismatch)
        );
        // An empty secret never matches, even a signature made with it.
        let empty_sig = sign(b"", NOW_UNIX, body);
        assert_eq!(
            verify_signature(b"", Some(&ts), Some(&empty_sig), body, NOW_UNIX),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn signature_rotation_and_other_schemes() {
        let body = b"{}";
        let ts = NOW_UNIX.to_string();
        let old = sign(b"old", NOW_UNIX, body);
        let new = sign(b"new", NOW_UNIX, body);
        let both = format!("{old}, {new}");
        for secret in [&b"old"[..], b"new"] {
            assert_eq!(
                verify_signature(secret, Some(&ts), Some(&both), body, NOW_UNIX),
                Ok(())
            );
        }
        assert_eq!(
            verify_signature(b"third", Some(&ts), Some(&both), body, NOW_UNIX),
            Err(SignatureError::Mismatch)
        );
        let with_v2 = format!("v2=whatever,{new}");
        assert_eq!(
            verify_signature(b"new", Some(&ts), Some(&with_v2), body, NOW_UNIX),
            Ok(())
        );
    }

    #[test]
    fn signature_malformed_headers() {
        let body = b"{}";
        let ts = NOW_UNIX.to_string();
        let sig = sign(b"k", NOW_UNIX, body);
        let check =
            |ts: Option<&str>, sig: Option<&str>| verify_signature(b"k", ts, sig, body, NOW_UNIX);
        assert_eq!(
            check(None, Some(&sig)),
            Err(SignatureError::MissingTimestamp)
        );
        assert_eq!(
            check(Some("  "), Some(&sig)),
            Err(SignatureError::MissingTimestamp)
        );
        for bad in [
            "abc",
            "-1700000000",
            "+1700000000",
            "1700000000.5",
            "1700000000000000000000",
            "17e8",
            "0x65",
        ] {
            assert_eq!(
                check(Some(bad), Some(&sig)),
                Err(SignatureError::MalformedTimestamp),
                "{bad}"
            );
        }
        assert_eq!(
            check(Some(&ts), None),
            Err(SignatureError::MissingSignature)
        );
        assert_eq!(
            check(Some(&ts), Some("")),
            Err(SignatureError::MissingSignature)
        );
        let hex = &sig[3..];
        let nine = [sig.as_str(); 9].join(",");
        for bad in [
            hex.to_string(),                      // no scheme
            format!("v1={}", hex.to_uppercase()), // upper-case
            format!("v1={}", &hex[..63]),         // short
            format!("v1={hex}0"),                 // long
            format!("v1={}g", &hex[..63]),        // not hex
            "v1=".to_string(),
            format!("sha256={hex}"), // no v1 entry
            format!("{sig},"),       // empty entry
            format!("v 1={hex}"),
            nine,
        ] {
            let result = check(Some(&ts), Some(&bad));
            assert!(
                matches!(result, Err(SignatureError::MalformedSignature(_))),
                "{bad}: {result:?}"
            );
        }
        // A malformed v1 beside a good one is still malformed: the header is wrong.
        let mixed = format!("v1=00,{sig}");
        assert!(matches!(
            check(Some(&ts), Some(&mixed)),
            Err(SignatureError::MalformedSignature(_))
        ));
    }

    #[test]
    fn signature_errors_have_messages() {
        for e in [
            SignatureError::MissingTimestamp,
            SignatureError::MalformedTimestamp,
            SignatureError::MissingSignature,
            SignatureError::MalformedSignature("x"),
            SignatureError::OutsideWindow { skew_secs: 301 },
            SignatureError::Mismatch,
        ] {
            let message = e.to_string();
            assert!(message.ends_with('.') && message.len() > 20, "{message}");
        }
        assert!(SignatureError::Mismatch
            .to_string()
            .contains("\"{timestamp}.{raw body}\""));
    }

    /// The worked example of docs/webhook.md: its signature (computed there with
    /// `openssl dgst -sha256 -hmac whsec-demo`) and its reply.
    #[test]
    fn docs_worked_example() {
        let body = br#"{"events":[{"id":"m42-000187","type":"vend","at":"2024-05-01T12:30:00+02:00","selection":"A1","price_minor":250,"quantity":2,"payment":"cashless"},{"id":"m42-000188","type":"vend","at":"2024-05-01T12:31:10+02:00","selection":"C4","price_minor":1.5,"payment":"cash"}]}"#;
        let ts = 1_714_559_460;
        let sig = "v1=ddc3f51c771f15b7b76fdf40314e4c789d6f03a922d5af415a36a6082f6edead";
        assert_eq!(sign(b"whsec-demo", ts, body), sig);
        assert_eq!(
            verify_signature(b"whsec-demo", Some("1714559460"), Some(sig), body, ts),
            Ok(())
        );
        let batch = parse_batch(body, Utc.timestamp_opt(ts, 0).unwrap()).unwrap();
        let EventKind::Vend(v) = &batch.events[0].event.kind else {
            panic!("not a vend")
        };
        assert_eq!(v.revenue_minor(), 500);
        assert_eq!(
            serde_json::to_value(batch.receipt(0, Vec::new())).unwrap(),
            json!({"accepted": 1, "duplicates": 0, "rejected": [
                {"index": 1, "id": "m42-000188", "errors": {"price_minor": ["Must be an integer."]}}
            ]})
        );
        assert_eq!(batch.receipt(1, Vec::new()).duplicates, 1);
    }

    // -- batch --------------------------------------------------------------------------------

    fn vend(id: &str) -> Value {
        json!({"id": id, "type": "vend", "at": "2023-11-14T23:00:00+01:00",
               "selection": "A1", "price_minor": 250, "payment": "cash"})
    }

    fn batch_of(events: Vec<Value>) -> Batch {
        let body = serde_json::to_vec(&json!({ "events": events })).unwrap();
        parse_batch(&body, now()).unwrap()
    }

    /// The errors of one event, which must be rejected.
    fn errors_of(event: Value) -> BTreeMapErrors {
        let batch = batch_of(vec![event]);
        assert!(batch.events.is_empty(), "accepted: {:?}", batch.events);
        batch.rejected[0].errors.0.clone()
    }

    type BTreeMapErrors = std::collections::BTreeMap<String, Vec<String>>;

    fn accepted(event: Value) -> MachineEvent {
        let batch = batch_of(vec![event]);
        assert!(batch.rejected.is_empty(), "rejected: {:?}", batch.rejected);
        batch.events[0].event.clone()
    }

    fn with(mut event: Value, key: &str, value: Value) -> Value {
        event[key] = value;
        event
    }

    fn without(mut event: Value, key: &str) -> Value {
        event.as_object_mut().unwrap().remove(key);
        event
    }

    #[test]
    fn envelope_errors() {
        let p = |body: &[u8]| parse_batch(body, now());
        assert!(matches!(p(b"nope"), Err(BatchError::NotJson(_))));
        assert!(matches!(p(b""), Err(BatchError::NotJson(_))));
        assert!(matches!(
            p(b"{\"events\": [\xff]}"),
            Err(BatchError::NotJson(_))
        ));
        assert_eq!(p(b"[]"), Err(BatchError::NoEvents));
        assert_eq!(p(b"{}"), Err(BatchError::NoEvents));
        assert_eq!(p(b"{\"event\": []}"), Err(BatchError::NoEvents));
        assert_eq!(p(b"{\"events\": {}}"), Err(BatchError::NoEvents));
        assert_eq!(p(b"{\"events\": null}"), Err(BatchError::NoEvents));
        assert_eq!(p(b"{\"events\": []}"), Err(BatchError::Empty));
        let many: Vec<Value> = (0..501).map(|i| vend(&i.to_string())).collect();
        let body = serde_json::to_vec(&json!({ "events": many })).unwrap();
        assert_eq!(p(&body), Err(BatchError::TooMany { count: 501 }));
        let huge = vec![b' '; MAX_BODY_BYTES + 1];
        assert_eq!(
            p(&huge),
            Err(BatchError::TooLarge {
                bytes: MAX_BODY_BYTES + 1
            })
        );
        assert_eq!(BatchError::TooLarge { bytes: 1 }.status(), 413);
        for e in [
            BatchError::NotJson("x".into()),
            BatchError::NoEvents,
            BatchError::Empty,
            BatchError::TooMany { count: 501 },
        ] {
            assert_eq!(e.status(), 400);
            assert!(e.to_string().ends_with('.'));
        }
    }

    #[test]
    fn limits_are_inclusive() {
        let five_hundred: Vec<Value> = (0..500).map(|i| vend(&i.to_string())).collect();
        assert_eq!(batch_of(five_hundred).events.len(), 500);
        // Exactly 1 MiB is accepted (padding after the JSON).
        let mut body = serde_json::to_vec(&json!({ "events": [vend("a")] })).unwrap();
        body.resize(MAX_BODY_BYTES, b' ');
        assert_eq!(parse_batch(&body, now()).unwrap().events.len(), 1);
    }

    #[test]
    fn one_bad_event_among_good_ones() {
        let bad = with(vend("b"), "price_minor", json!(1.5));
        let batch = batch_of(vec![vend("a"), bad, vend("c")]);
        assert_eq!(batch.received, 3);
        let indexes: Vec<usize> = batch.events.iter().map(|e| e.index).collect();
        assert_eq!(indexes, [0, 2]);
        assert_eq!(batch.rejected.len(), 1);
        assert_eq!(batch.rejected[0].index, 1);
        assert_eq!(batch.rejected[0].id.as_deref(), Some("b"));
        let receipt = serde_json::to_value(batch.receipt(0, Vec::new())).unwrap();
        assert_eq!(
            receipt,
            json!({"accepted": 2, "duplicates": 0, "rejected": [
                {"index": 1, "id": "b", "errors": {"price_minor": ["Must be an integer."]}}
            ]})
        );
        // One already stored (a retry): a duplicate, not accepted.
        let receipt = batch.receipt(1, Vec::new());
        assert_eq!((receipt.accepted, receipt.duplicates), (1, 1));
        // A rejected event without a usable id answers null.
        let batch = batch_of(vec![json!({"type": "vend"}), json!(42)]);
        let r = serde_json::to_value(&batch.rejected).unwrap();
        assert_eq!(r[0]["id"], Value::Null);
        assert_eq!(r[1]["errors"], json!({"event": ["Must be a JSON object."]}));
    }

    #[test]
    fn duplicates_inside_a_batch() {
        let other = with(vend("a"), "price_minor", json!(999));
        let bad = with(vend("x"), "payment", json!("card"));
        let batch = batch_of(vec![vend("a"), other, vend("a"), bad, vend("x")]);
        // The same content again is a duplicate ...
        assert_eq!(
            batch.duplicates,
            [Duplicate {
                index: 2,
                id: "a".into(),
                first_index: 0
            }]
        );
        // ... other content under the same id is rejected: a reused id.
        let reused: Vec<(usize, usize, &str)> = batch
            .reused
            .iter()
            .map(|r| (r.index, r.first_index, r.event.id.as_str()))
            .collect();
        assert_eq!(reused, [(1, 0, "a")]);
        assert_eq!(batch.reused[0].event.kind, accepted_kind_price(999));
        let reasons: Vec<(usize, &str)> = batch
            .rejected
            .iter()
            .map(|r| (r.index, r.errors.0.keys().next().unwrap().as_str()))
            .collect();
        assert_eq!(reasons, [(1, "id"), (3, "payment")]);
        assert!(batch.rejected[0].errors.0["id"][0]
            .contains("is used earlier in this request with other content"));
        // The invalid "x" does not claim the id: the valid one after it is accepted.
        let accepted: Vec<(usize, &str)> = batch
            .events
            .iter()
            .map(|e| (e.index, e.event.id.as_str()))
            .collect();
        assert_eq!(accepted, [(0, "a"), (4, "x")]);
        assert_eq!(batch.events[0].event.kind, accepted_kind_price(250));
        let receipt = batch.receipt(0, Vec::new());
        assert_eq!(
            (receipt.accepted, receipt.duplicates, receipt.rejected.len()),
            (2, 1, 2)
        );
        // An id stored before with other content: rejected beside the others, in body order.
        let stored = rejection(0, "a", None);
        let receipt = batch.receipt(0, vec![stored]);
        assert_eq!((receipt.accepted, receipt.duplicates), (1, 1));
        let order: Vec<usize> = receipt.rejected.iter().map(|r| r.index).collect();
        assert_eq!(order, [0, 1, 3]);
    }

    fn accepted_kind_price(price: i64) -> EventKind {
        EventKind::Vend(Vend::a1_cash(price))
    }

    #[test]
    fn unknown_envelope_keys_are_ignored() {
        let body = serde_json::to_vec(&json!({"events": [vend("a")], "machine": "x"})).unwrap();
        assert_eq!(parse_batch(&body, now()).unwrap().events.len(), 1);
    }

    #[test]
    fn id_rules() {
        assert_eq!(errors_of(without(vend("a"), "id"))["id"], [REQUIRED]);
        assert_eq!(
            errors_of(with(vend("a"), "id", json!(7)))["id"],
            [NOT_STRING]
        );
        assert_eq!(errors_of(vend(""))["id"], [REQUIRED]);
        assert_eq!(errors_of(vend("a\u{0}b"))["id"], [CONTROL]);
        assert_eq!(errors_of(vend("a\nb"))["id"], [CONTROL]);
        let long = "x".repeat(65);
        assert_eq!(
            errors_of(vend(&long))["id"],
            ["Must be at most 64 characters."]
        );
        // 64 characters, counted as characters not bytes; not trimmed.
        let wide = "é".repeat(64);
        assert_eq!(accepted(vend(&wide)).id, wide);
        assert_eq!(accepted(vend(" a ")).id, " a ");
        // The reply carries the id only when it is valid.
        let batch = batch_of(vec![with(vend(&long), "payment", json!("x"))]);
        assert_eq!(batch.rejected[0].id, None);
    }

    #[test]
    fn at_rules() {
        let at = |v: Value| with(vend("a"), "at", v);
        let e = accepted(at(json!("2023-11-14T23:00:00.250+01:00")));
        assert_eq!(e.at.offset().local_minus_utc(), 3600);
        assert_eq!(e.at_utc().to_rfc3339(), "2023-11-14T22:00:00.250+00:00");
        assert_eq!(
            accepted(at(json!("2023-11-14T22:00:00Z")))
                .at
                .offset()
                .local_minus_utc(),
            0
        );
        let format_error =
            "Must be an RFC 3339 date-time with an offset, e.g. 2024-05-01T12:30:00+02:00.";
        for bad in [
            "2023-11-14T22:00:00",
            "2023-11-14",
            "yesterday",
            "2023-13-01T00:00:00Z",
        ] {
            assert_eq!(errors_of(at(json!(bad)))["at"], [format_error], "{bad}");
        }
        assert_eq!(errors_of(at(json!(1_700_000_000)))["at"], [NOT_STRING]);
        assert_eq!(errors_of(without(vend("a"), "at"))["at"], [REQUIRED]);
        // Up to 5 minutes ahead of now (2023-11-14T22:13:20Z), inclusive.
        accepted(at(json!("2023-11-14T22:18:20Z")));
        accepted(at(json!("2023-11-14T23:18:20+01:00")));
        assert_eq!(
            errors_of(at(json!("2023-11-14T22:18:21Z")))["at"],
            ["Must not be more than 5 minutes ahead of the server's clock."]
        );
        // Not before 2000-01-01T00:00:00Z; days late is fine.
        accepted(at(json!("2000-01-01T00:00:00Z")));
        accepted(at(json!("2000-01-01T01:00:00+01:00")));
        accepted(at(json!("2023-11-01T08:00:00-05:00")));
        assert_eq!(
            errors_of(at(json!("1999-12-31T23:59:59Z")))["at"],
            ["Must not be before 2000-01-01."]
        );
    }

    #[test]
    fn local_dates_use_the_location_zone() {
        let e = accepted(with(vend("a"), "at", json!("2023-03-25T19:30:00-05:00")));
        let paris: Tz = "Europe/Paris".parse().unwrap();
        let new_york: Tz = "America/New_York".parse().unwrap();
        assert_eq!(
            e.local_date(paris),
            NaiveDate::from_ymd_opt(2023, 3, 26).unwrap()
        );
        assert_eq!(
            e.local_date(new_york),
            NaiveDate::from_ymd_opt(2023, 3, 25).unwrap()
        );
    }

    #[test]
    fn type_rules() {
        assert_eq!(errors_of(without(vend("a"), "type"))["type"], [REQUIRED]);
        assert_eq!(
            errors_of(with(vend("a"), "type", json!(1)))["type"],
            [NOT_STRING]
        );
        let errors = errors_of(with(vend("a"), "type", json!("sale")));
        assert_eq!(
            errors["type"],
            ["Unknown type: expected vend, cash_collection, refill, telemetry or dex."]
        );
        // Fields are not judged when the type is unknown.
        assert_eq!(errors.len(), 1);
        // Case matters.
        assert!(errors_of(with(vend("a"), "type", json!("Vend"))).contains_key("type"));
    }

    #[test]
    fn unknown_fields_are_named() {
        let errors = errors_of(with(
            with(vend("a"), "colour", json!("red")),
            "bag_no",
            json!("1"),
        ));
        assert_eq!(errors["colour"], ["Unknown field for a vend event."]);
        assert_eq!(errors["bag_no"], ["Unknown field for a vend event."]);
        assert_eq!(errors.len(), 2);
        // Even a null unknown field is named.
        assert!(errors_of(with(vend("a"), "extra", Value::Null)).contains_key("extra"));
    }

    #[test]
    fn vend_rules() {
        let v = accepted(vend("a"));
        let EventKind::Vend(sale) = &v.kind else {
            panic!("not a vend")
        };
        assert_eq!(sale.quantity, 1);
        assert_eq!(sale.class(), VendClass::Sale);
        assert_eq!(sale.revenue_minor(), 250);
        // Money: integers 0..=10^12, never floats.
        let price = |p: Value| with(vend("a"), "price_minor", p);
        accepted(price(json!(0)));
        accepted(price(json!(MAX_MONEY_MINOR)));
        let range = "Must be between 0 and 1000000000000.";
        for (bad, message) in [
            (json!(1.5), NOT_INTEGER),
            (json!(2.0), NOT_INTEGER),
            (json!(1e3), NOT_INTEGER),
            (json!("250"), NOT_INTEGER),
            (json!(true), NOT_INTEGER),
            (json!(-1), range),
            (json!(MAX_MONEY_MINOR + 1), range),
            (json!(u64::MAX), range),
        ] {
            assert_eq!(
                errors_of(price(bad.clone()))["price_minor"],
                [message],
                "{bad}"
            );
        }
        assert_eq!(
            errors_of(without(vend("a"), "price_minor"))["price_minor"],
            [REQUIRED]
        );
        // Quantity: 1..=1000, default 1 (also for null).
        let qty = |q: Value| with(vend("a"), "quantity", q);
        let q = |e: MachineEvent| match e.kind {
            EventKind::Vend(v) => v.quantity,
            _ => unreachable!(),
        };
        assert_eq!(q(accepted(qty(json!(1000)))), 1000);
        assert_eq!(q(accepted(qty(Value::Null))), 1);
        for bad in [json!(0), json!(1001), json!(-1)] {
            assert_eq!(
                errors_of(qty(bad))["quantity"],
                ["Must be between 1 and 1000."]
            );
        }
        assert_eq!(errors_of(qty(json!(2.0)))["quantity"], [NOT_INTEGER]);
        // Payment.
        let pay = |p: Value| with(vend("a"), "payment", p);
        assert!(matches!(
            accepted(pay(json!("cashless"))).kind,
            EventKind::Vend(Vend {
                payment: Payment::Cashless,
                ..
            })
        ));
        for bad in [json!("card"), json!("CASH"), json!(1)] {
            assert_eq!(
                errors_of(pay(bad))["payment"],
                ["Must be \"cash\" or \"cashless\"."]
            );
        }
        assert_eq!(
            errors_of(without(vend("a"), "payment"))["payment"],
            [REQUIRED]
        );
        // Selection: required, trimmed, at most 20 characters.
        let sel = |s: Value| with(vend("a"), "selection", s);
        assert!(matches!(
            accepted(sel(json!(" 12 "))).kind,
            EventKind::Vend(Vend { ref selection, .. }) if selection == "12"
        ));
        accepted(sel(json!("x".repeat(20))));
        assert_eq!(
            errors_of(sel(json!("x".repeat(21))))["selection"],
            ["Must be at most 20 characters."]
        );
        assert_eq!(errors_of(sel(json!("  ")))["selection"], [REQUIRED]);
        assert_eq!(errors_of(sel(json!(12)))["selection"], [NOT_STRING]);
        assert_eq!(
            errors_of(without(vend("a"), "selection"))["selection"],
            [REQUIRED]
        );
        // Product id: optional string.
        assert!(matches!(
            accepted(with(vend("a"), "product_id", json!("01HZX"))).kind,
            EventKind::Vend(Vend { product_id: Some(ref p), .. }) if p == "01HZX"
        ));
        assert_eq!(
            errors_of(with(vend("a"), "product_id", json!(5)))["product_id"],
            [NOT_STRING]
        );
        // Free and test: booleans; test wins over free; neither has revenue.
        let class = |e: MachineEvent| match e.kind {
            EventKind::Vend(v) => (v.class(), v.revenue_minor()),
            _ => unreachable!(),
        };
        assert_eq!(
            class(accepted(with(vend("a"), "free", json!(true)))),
            (VendClass::Free, 0)
        );
        assert_eq!(
            class(accepted(with(vend("a"), "test", json!(true)))),
            (VendClass::Test, 0)
        );
        let both = with(with(vend("a"), "test", json!(true)), "free", json!(true));
        assert_eq!(class(accepted(both)), (VendClass::Test, 0));
        assert_eq!(
            class(accepted(with(vend("a"), "free", json!(false)))).0,
            VendClass::Sale
        );
        for bad in [json!("true"), json!(1)] {
            assert_eq!(
                errors_of(with(vend("a"), "free", bad.clone()))["free"],
                [NOT_BOOLEAN]
            );
            assert_eq!(
                errors_of(with(vend("a"), "test", bad))["test"],
                [NOT_BOOLEAN]
            );
        }
        // Every problem of an event is reported at once.
        let errors = errors_of(json!({"id": "", "type": "vend", "at": "x", "price_minor": -1}));
        let fields: Vec<&str> = errors.keys().map(String::as_str).collect();
        assert_eq!(fields, ["at", "id", "payment", "price_minor", "selection"]);
    }

    fn collection() -> Value {
        json!({"id": "c1", "type": "cash_collection", "at": "2023-11-14T08:00:00+01:00",
               "bag_no": "B-17", "cash_box_minor": 12000, "bill_stacker_minor": 5000,
               "tubes_minor": 3000, "ejected_minor": 0, "refilled_coins_minor": 2000,
               "collected_minor": 17000})
    }

    #[test]
    fn cash_collection_rules() {
        let e = accepted(collection());
        assert_eq!(
            e.kind,
            EventKind::CashCollection(CashCollection {
                bag_no: "B-17".into(),
                employee_id: None,
                cash_box_minor: 12000,
                bill_stacker_minor: 5000,
                tubes_minor: 3000,
                ejected_minor: 0,
                refilled_coins_minor: 2000,
                collected_minor: 17000,
            })
        );
        accepted(with(collection(), "employee_id", json!("emp-1")));
        for name in CASH_FIELDS.iter().filter(|n| **n != "employee_id") {
            assert_eq!(
                errors_of(without(collection(), name))[*name],
                [REQUIRED],
                "{name}"
            );
            if name.ends_with("_minor") {
                assert_eq!(
                    errors_of(with(collection(), name, json!(0.5)))[*name],
                    [NOT_INTEGER]
                );
                assert_eq!(
                    errors_of(with(collection(), name, json!(-5)))[*name],
                    ["Must be between 0 and 1000000000000."]
                );
            }
        }
        assert_eq!(
            errors_of(with(collection(), "bag_no", json!(17)))["bag_no"],
            [NOT_STRING]
        );
        assert_eq!(
            errors_of(with(collection(), "employee_id", json!("e\u{7}")))["employee_id"],
            [CONTROL]
        );
        assert!(errors_of(with(collection(), "selection", json!("A1"))).contains_key("selection"));
    }

    fn refill() -> Value {
        json!({"id": "r1", "type": "refill", "at": "2023-11-14T09:00:00+01:00",
               "source": "van 3", "lines": [
                   {"selection": "A1", "added": 10, "removed": 0},
                   {"selection": "A2", "added": 0, "removed": 2}]})
    }

    #[test]
    fn refill_rules() {
        let e = accepted(refill());
        let EventKind::Refill(r) = &e.kind else {
            panic!("not a refill")
        };
        assert_eq!(r.source, "van 3");
        assert_eq!(
            r.lines[1],
            RefillLine {
                selection: "A2".into(),
                added: 0,
                removed: 2
            }
        );
        assert_eq!(errors_of(without(refill(), "lines"))["lines"], [REQUIRED]);
        assert_eq!(errors_of(without(refill(), "source"))["source"], [REQUIRED]);
        assert_eq!(
            errors_of(with(refill(), "lines", json!([])))["lines"],
            ["Must hold at least 1 line."]
        );
        assert_eq!(
            errors_of(with(refill(), "lines", json!({"A1": 3})))["lines"],
            ["Must be a list of lines."]
        );
        let too_many: Vec<Value> = (0..=MAX_REFILL_LINES)
            .map(|i| json!({"selection": i.to_string(), "added": 1, "removed": 0}))
            .collect();
        assert_eq!(
            errors_of(with(refill(), "lines", json!(too_many)))["lines"],
            ["Must hold at most 500 lines."]
        );
        let lines = |l: Value| with(refill(), "lines", json!([l]));
        let errors = errors_of(
            json!({"id": "r", "type": "refill", "at": "2023-11-14T09:00:00Z",
            "source": "w", "lines": [
                {"selection": "", "added": -1, "removed": 1.5},
                "A1",
                {"selection": "x".repeat(21), "added": 1, "removed": 0, "price": 3},
                {"added": MAX_REFILL_UNITS + 1}]}),
        );
        assert_eq!(errors["lines[0].selection"], [REQUIRED]);
        assert_eq!(errors["lines[0].added"], ["Must be between 0 and 1000000."]);
        assert_eq!(errors["lines[0].removed"], [NOT_INTEGER]);
        assert_eq!(errors["lines[1]"], ["Must be a JSON object."]);
        assert_eq!(
            errors["lines[2].selection"],
            ["Must be at most 20 characters."]
        );
        assert_eq!(
            errors["lines[2].price"],
            ["Unknown field for a refill line."]
        );
        assert_eq!(errors["lines[3].selection"], [REQUIRED]);
        assert_eq!(errors["lines[3].added"], ["Must be between 0 and 1000000."]);
        assert_eq!(errors["lines[3].removed"], [REQUIRED]);
        accepted(lines(
            json!({"selection": "A1", "added": MAX_REFILL_UNITS, "removed": 0}),
        ));
        let repeated = with(
            refill(),
            "lines",
            json!([{"selection": "A1", "added": 1, "removed": 0},
                   {"selection": " A1", "added": 2, "removed": 0}]),
        );
        assert_eq!(
            errors_of(repeated)["lines[1].selection"],
            ["Repeats the selection of lines[0]."]
        );
    }

    #[test]
    fn telemetry_rules() {
        let t = |fields: Value| {
            let mut event = json!({"id": "t1", "type": "telemetry", "at": "2023-11-14T09:00:00Z"});
            for (k, v) in fields.as_object().unwrap() {
                event[k] = v.clone();
            }
            event
        };
        let e = accepted(t(json!({"signal": -71, "firmware": "4.2.1"})));
        assert_eq!(
            e.kind,
            EventKind::Telemetry(Telemetry {
                signal: Some(-71),
                firmware: Some("4.2.1".into()),
                ..Telemetry::default()
            })
        );
        let all = json!({"connection_method": "4g", "protocol": "mdb", "firmware": "1",
            "status": "ok", "power": "mains", "signal": 80, "cash_box_minor": 1,
            "bill_stacker_minor": 2, "tubes_minor": 3});
        accepted(t(all));
        let empty = errors_of(t(json!({})));
        assert_eq!(empty.keys().collect::<Vec<_>>(), ["telemetry"]);
        assert!(empty["telemetry"][0].starts_with("Give at least one of: connection_method"));
        // Nulls count as absent.
        assert!(errors_of(t(json!({"status": null}))).contains_key("telemetry"));
        assert_eq!(
            errors_of(t(json!({"signal": -151})))["signal"],
            ["Must be between -150 and 100."]
        );
        assert_eq!(errors_of(t(json!({"signal": 101})))["signal"].len(), 1);
        assert_eq!(
            errors_of(t(json!({"tubes_minor": 1.5})))["tubes_minor"],
            [NOT_INTEGER]
        );
        assert_eq!(errors_of(t(json!({"status": 3})))["status"], [NOT_STRING]);
        assert!(errors_of(t(json!({"status": "ok", "temperature": 4}))).contains_key("temperature"));
    }

    #[test]
    fn dex_rules() {
        let d = |c: Value| json!({"id": "d1", "type": "dex", "at": "2023-11-14T09:00:00Z", "content": c});
        let content = "DXS*XYZ1234567*VA*V0/6*1\r\nDXE*1*1\r\n";
        assert_eq!(
            accepted(d(json!(content))).kind,
            EventKind::Dex {
                content: content.into()
            }
        );
        accepted(d(json!("x".repeat(MAX_DEX_BYTES))));
        assert_eq!(
            errors_of(d(json!("x".repeat(MAX_DEX_BYTES + 1))))["content"],
            ["Must be at most 512 KiB."]
        );
        assert_eq!(errors_of(d(json!(" \r\n")))["content"], [REQUIRED]);
        assert_eq!(errors_of(d(json!(["DXS"])))["content"], [NOT_STRING]);
        assert_eq!(errors_of(d(Value::Null))["content"], [REQUIRED]);
    }

    // -- money --------------------------------------------------------------------------------

    #[test]
    fn revenue_and_vat() {
        assert_eq!(vend_revenue(250, 3), 750);
        assert_eq!(
            vend_revenue(MAX_MONEY_MINOR, MAX_QUANTITY),
            1_000_000_000_000_000
        );
        assert_eq!(vend_revenue(i64::MAX, 2), i64::MAX);
        assert_eq!(vend_revenue(i64::MIN, 2), i64::MIN);
        assert_eq!(vend_revenue(i64::MIN, 0), 0);
        assert_eq!(net_of_vat(1200, 2000), 1000);
        assert_eq!(net_of_vat(1000, 0), 1000);
        assert_eq!(net_of_vat(0, 2000), 0);
        assert_eq!(net_of_vat(1, 2000), 1); // 0.833 → 1
        assert_eq!(net_of_vat(105, 1000), 95); // 95.45 → 95
        assert_eq!(net_of_vat(110, 1000), 100);
        // Halves go away from zero: 3 / 2 = 1.5 → 2, -1.5 → -2; 5 / 2 = 2.5 → 3.
        assert_eq!(net_of_vat(3, 10_000), 2);
        assert_eq!(net_of_vat(-3, 10_000), -2);
        assert_eq!(net_of_vat(5, 10_000), 3);
        assert_eq!(net_of_vat(i64::MAX, 0), i64::MAX);
        assert_eq!(net_of_vat(i64::MIN, 0), i64::MIN);
        // (2^63 − 1) × 10^4 / (10^4 + 2^32 − 1) = 21474786485116.39… (Python fractions).
        assert_eq!(net_of_vat(i64::MAX, u32::MAX), 21_474_786_485_116);
    }

    // -- properties ---------------------------------------------------------------------------

    /// Text the validator keeps as is: no control characters, no surrounding spaces.
    fn text(max: usize) -> impl Strategy<Value = String> {
        proptest::string::string_regex(&format!("[^\\p{{Cc}}]{{1,{max}}}"))
            .unwrap()
            .prop_map(|s| s.trim().to_string())
            .prop_filter("non-empty after trimming", |s| !s.is_empty())
    }

    fn money() -> impl Strategy<Value = i64> {
        prop_oneof![Just(0), Just(MAX_MONEY_MINOR), 0..=MAX_MONEY_MINOR]
    }

    fn at() -> impl Strategy<Value = DateTime<FixedOffset>> {
        (
            EARLIEST_AT_UNIX..=NOW_UNIX + MAX_FUTURE_SECS,
            prop_oneof![Just(0u32), 0u32..1_000_000_000],
            -(23 * 60 + 59)..=(23 * 60 + 59),
        )
            .prop_map(|(secs, nanos, offset_min)| {
                let offset = FixedOffset::east_opt(offset_min * 60).unwrap();
                Utc.timestamp_opt(secs, nanos)
                    .unwrap()
                    .with_timezone(&offset)
            })
    }

    fn kind() -> impl Strategy<Value = EventKind> {
        let payment = prop_oneof![Just(Payment::Cash), Just(Payment::Cashless)];
        let vend = (
            text(MAX_SELECTION_CHARS),
            money(),
            1..=MAX_QUANTITY,
            payment,
            proptest::option::of(text(MAX_REF_CHARS)),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(
                |(selection, price_minor, quantity, payment, product_id, free, test)| {
                    EventKind::Vend(Vend {
                        selection,
                        price_minor,
                        quantity,
                        payment,
                        product_id,
                        free,
                        test,
                    })
                },
            );
        let cash = (
            text(MAX_REF_CHARS),
            proptest::option::of(text(MAX_REF_CHARS)),
            [money(), money(), money(), money(), money(), money()],
        )
            .prop_map(|(bag_no, employee_id, m)| {
                EventKind::CashCollection(CashCollection {
                    bag_no,
                    employee_id,
                    cash_box_minor: m[0],
                    bill_stacker_minor: m[1],
                    tubes_minor: m[2],
                    ejected_minor: m[3],
                    refilled_coins_minor: m[4],
                    collected_minor: m[5],
                })
            });
        let line = (
            text(MAX_SELECTION_CHARS),
            0..=MAX_REFILL_UNITS,
            0..=MAX_REFILL_UNITS,
        )
            .prop_map(|(selection, added, removed)| RefillLine {
                selection,
                added,
                removed,
            });
        let refill = (
            proptest::option::of(text(MAX_REF_CHARS)),
            text(MAX_REF_CHARS),
            proptest::collection::vec(line, 1..6),
        )
            .prop_map(|(employee_id, source, mut lines)| {
                let mut seen = std::collections::HashSet::new();
                lines.retain(|l| seen.insert(l.selection.clone()));
                EventKind::Refill(Refill {
                    employee_id,
                    source,
                    lines,
                })
            });
        let opt_text = || proptest::option::of(text(MAX_REF_CHARS));
        let opt_money = || proptest::option::of(money());
        let telemetry = (
            (opt_text(), opt_text(), opt_text(), opt_text(), opt_text()),
            proptest::option::of(-150i32..=100),
            (opt_money(), opt_money(), opt_money()),
        )
            .prop_map(
                |((connection_method, protocol, firmware, status, power), signal, (a, b, c))| {
                    Telemetry {
                        connection_method,
                        protocol,
                        firmware,
                        status,
                        power,
                        signal,
                        cash_box_minor: a,
                        bill_stacker_minor: b,
                        tubes_minor: c,
                    }
                },
            )
            .prop_filter("at least one field", |t| *t != Telemetry::default())
            .prop_map(EventKind::Telemetry);
        let dex = proptest::string::string_regex("(?s).{0,200}")
            .unwrap()
            .prop_filter("not blank", |c| !c.trim().is_empty())
            .prop_map(|content| EventKind::Dex { content });
        prop_oneof![vend, cash, refill, telemetry, dex]
    }

    fn event() -> impl Strategy<Value = MachineEvent> {
        (
            proptest::string::string_regex("[^\\p{Cc}]{1,64}").unwrap(),
            at(),
            kind(),
        )
            .prop_map(|(id, at, kind)| MachineEvent { id, at, kind })
    }

    /// Any JSON value, a few levels deep, with the event fields' names as likely keys.
    fn json_value() -> impl Strategy<Value = Value> {
        let key = prop_oneof![
            Just("id".to_string()),
            Just("type".to_string()),
            Just("at".to_string()),
            Just("lines".to_string()),
            Just("selection".to_string()),
            Just("price_minor".to_string()),
            Just("quantity".to_string()),
            Just("content".to_string()),
            "[a-z_]{1,12}",
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            prop_oneof![
                Just("vend".to_string()),
                Just("refill".to_string()),
                Just("telemetry".to_string()),
                Just("2023-11-14T22:00:00Z".to_string()),
                any::<String>(),
            ]
            .prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                proptest::collection::btree_map(key.clone(), inner, 0..8)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(body in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = parse_batch(&body, now());
        }

        #[test]
        fn arbitrary_json_events_never_panic(events in proptest::collection::vec(json_value(), 1..6)) {
            let body = serde_json::to_vec(&json!({ "events": events })).unwrap();
            let batch = parse_batch(&body, now()).unwrap();
            prop_assert_eq!(
                batch.events.len() + batch.duplicates.len() + batch.rejected.len(),
                events.len()
            );
            for r in &batch.rejected {
                prop_assert!(!r.errors.is_empty());
            }
        }

        #[test]
        fn valid_events_round_trip(events in proptest::collection::vec(event(), 1..6)) {
            let body = serde_json::to_vec(&json!({ "events": events })).unwrap();
            let batch = parse_batch(&body, now()).unwrap();
            // Only reused ids (an id again with other content) are rejected.
            prop_assert_eq!(batch.rejected.len(), batch.reused.len());
            let mut seen = std::collections::HashSet::new();
            let firsts: Vec<&MachineEvent> =
                events.iter().filter(|e| seen.insert(e.id.clone())).collect();
            prop_assert_eq!(batch.events.len(), firsts.len());
            prop_assert_eq!(
                batch.duplicates.len() + batch.reused.len(),
                events.len() - firsts.len()
            );
            for (parsed, sent) in batch.events.iter().zip(firsts) {
                prop_assert_eq!(&parsed.event, sent);
                // DateTime equality ignores the offset: the offset is kept too.
                prop_assert_eq!(parsed.event.at.offset(), sent.at.offset());
                // What is queued reads back the same.
                let queued = serde_json::to_string(&parsed.event).unwrap();
                let back: MachineEvent = serde_json::from_str(&queued).unwrap();
                prop_assert_eq!(&back, sent);
            }
        }

        #[test]
        fn signatures_verify_and_tampering_fails(
            secret in proptest::collection::vec(any::<u8>(), 1..80),
            body in proptest::collection::vec(any::<u8>(), 0..256),
            ts in 0i64..=99_999_999_999,
            skew in -300i64..=300,
            flip in any::<prop::sample::Index>(),
        ) {
            let sig = sign(&secret, ts, &body);
            let ts_text = ts.to_string();
            prop_assert_eq!(
                verify_signature(&secret, Some(&ts_text), Some(&sig), &body, ts + skew),
                Ok(())
            );
            if !body.is_empty() {
                let mut tampered = body.clone();
                tampered[flip.index(body.len())] ^= 1;
                prop_assert_eq!(
                    verify_signature(&secret, Some(&ts_text), Some(&sig), &tampered, ts + skew),
                    Err(SignatureError::Mismatch)
                );
            }
        }

        #[test]
        fn verify_never_panics(
            ts in proptest::option::of(".{0,24}"),
            sig in proptest::option::of(".{0,200}"),
            now in any::<i64>(),
        ) {
            let _ = verify_signature(b"k", ts.as_deref(), sig.as_deref(), b"{}", now);
        }

        #[test]
        fn revenue_never_panics(price in any::<i64>(), quantity in any::<u32>()) {
            let r = vend_revenue(price, quantity);
            if let Some(exact) = price.checked_mul(i64::from(quantity)) {
                prop_assert_eq!(r, exact);
            }
        }

        #[test]
        fn net_of_vat_bounds(gross in any::<i64>(), bps in any::<u32>()) {
            let net = net_of_vat(gross, bps);
            prop_assert_eq!(net_of_vat(gross, 0), gross);
            if gross >= 0 {
                prop_assert!(0 <= net && net <= gross);
            } else {
                prop_assert!(gross <= net && net <= 0);
            }
            if gross != i64::MIN {
                prop_assert_eq!(net_of_vat(-gross, bps), -net);
            }
        }

        #[test]
        fn net_of_vat_is_nearest(gross in 0i64..=1_000_000_000_000_000, bps in 0u32..=10_000) {
            // |net × (10000 + bps) − gross × 10000| ≤ (10000 + bps) / 2.
            let net = i128::from(net_of_vat(gross, bps));
            let den = 10_000 + i128::from(bps);
            let diff = (net * den - i128::from(gross) * 10_000).abs();
            prop_assert!(2 * diff <= den);
        }
    }
}
