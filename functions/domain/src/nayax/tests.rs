//! Nayax messages read from the documented examples (`tests/fixtures/nayax/`, field for field)
//! and the variants their field tables allow.

use super::*;
use crate::events::{EventKind, Payment};
use chrono::{DateTime, NaiveDateTime, Utc};
use proptest::prelude::*;

macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../tests/fixtures/nayax/", $name))
    };
}

fn transaction(body: &str) -> Transaction {
    match Message::read(Feed::Transactions, body).unwrap() {
        Message::Transaction(t) => t,
        other => panic!("{other:?}"),
    }
}

fn utc(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

fn local(s: &str) -> NaiveDateTime {
    s.parse().unwrap()
}

#[test]
fn the_documented_transaction_is_one_cashless_sale_at_the_machines_time() {
    let t = transaction(fixture!("transaction_documented.json"));
    assert_eq!(t.transaction_id, "3804536984");
    assert_eq!(t.site_id.as_deref(), Some("6"));
    assert_eq!(t.machine, "54265");
    assert_eq!(t.local_time, local("2020-04-20T10:34:05.063"));
    assert_eq!(t.settled_at, Some(utc("2020-04-20T07:34:15Z")));
    assert_eq!(t.kind, TransactionKind::Sale);
    assert_eq!(t.payment_method, Some(2));
    assert_eq!(t.payment(), Payment::Cashless);
    assert_eq!(t.currency.as_deref(), Some("EUR"));
    assert_eq!(t.lines.len(), 1);
    // The machine's local time in Israel (UTC+3 in April) is ten seconds before settlement.
    let at = local_instant(t.local_time, chrono_tz::Asia::Jerusalem, t.settled_at);
    assert_eq!(at, utc("2020-04-20T07:34:05.063Z"));
    let vends = t.vends(at, 2, &[None]).unwrap();
    assert_eq!(vends.len(), 1);
    assert_eq!(vends[0].id, "nayax-3804536984-1");
    assert_eq!(vends[0].at_utc(), at);
    let EventKind::Vend(v) = &vends[0].kind else {
        panic!("{vends:?}")
    };
    assert_eq!(
        (v.price_minor, v.quantity, v.payment),
        (100, 1, Payment::Cashless)
    );
    assert!(!v.free && !v.test);
}

#[test]
fn a_products_array_is_one_vend_a_line_with_its_selection_and_catalog_number() {
    let t = transaction(fixture!("transaction_multi_products.json"));
    assert_eq!(t.lines.len(), 3);
    let codes: Vec<_> = t.lines.iter().map(|l| l.selection.as_deref()).collect();
    assert_eq!(codes, [Some("11"), Some("24"), Some("37")]);
    let catalog: Vec<_> = t
        .lines
        .iter()
        .map(|l| l.catalog_number.as_deref())
        .collect();
    assert_eq!(catalog, [Some("WAT-050"), Some("CHO-001"), None]);
    let at = utc("2020-04-20T11:05:33Z");
    let products = [Some("p-water".to_string()), None, None];
    let vends = t.vends(at, 2, &products).unwrap();
    let sold: Vec<(String, i64, Option<String>)> = vends
        .iter()
        .map(|e| match &e.kind {
            EventKind::Vend(v) => (v.selection.clone(), v.price_minor, v.product_id.clone()),
            k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(
        sold,
        [
            ("11".into(), 150, Some("p-water".into())),
            ("24".into(), 220, None),
            ("37".into(), 100, None)
        ]
    );
    // The lines add up to the amount charged.
    let total: i64 = sold.iter().map(|s| s.1).sum();
    assert_eq!(Some(total), minor_units(t.charged.as_deref().unwrap(), 2));
    let ids: Vec<_> = vends.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "nayax-3804540777-1",
            "nayax-3804540777-2",
            "nayax-3804540777-3"
        ]
    );
}

#[test]
fn payment_method_3_is_cash_and_a_void_is_no_sale() {
    let cash = transaction(fixture!("transaction_cash.json"));
    assert_eq!(cash.payment(), Payment::Cash);
    assert_eq!(cash.kind, TransactionKind::Sale);
    let void = transaction(fixture!("transaction_void.json"));
    assert_eq!(void.kind, TransactionKind::Void);
}

#[test]
fn missing_and_null_columns_are_read_as_absent() {
    let t = transaction(fixture!("transaction_nulls.json"));
    assert_eq!(t.kind, TransactionKind::Sale);
    assert!(t.lines[0].catalog_number.is_none());
    let vends = t.vends(utc("2020-04-20T07:00:00Z"), 2, &[None]).unwrap();
    assert_eq!(vends.len(), 1);
}

#[test]
fn statuses_and_negative_values_say_declined_cancelled_and_refunds() {
    let with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value =
            serde_json::from_str(fixture!("transaction_documented.json")).unwrap();
        edit(&mut v);
        transaction(&v.to_string()).kind
    };
    let status = |s: &'static str| {
        move |v: &mut serde_json::Value| {
            v["Data"]["Transaction Status Name"] = s.into();
        }
    };
    assert_eq!(with(&status("Declined")), TransactionKind::Declined);
    assert_eq!(with(&status("Cancelled")), TransactionKind::Cancelled);
    assert_eq!(with(&status("Refunded")), TransactionKind::Refund);
    assert_eq!(with(&status("Settled")), TransactionKind::Sale);
    assert_eq!(
        with(&|v| v["Data"]["SeValue"] = serde_json::json!(-1.5)),
        TransactionKind::Refund
    );
    // Ids and amounts as strings are read too.
    let t = {
        let mut v: serde_json::Value =
            serde_json::from_str(fixture!("transaction_documented.json")).unwrap();
        v["TransactionId"] = "77".into();
        v["MachineId"] = " 54265 ".into();
        v["Data"]["SeValue"] = "2.50".into();
        v["Data"]["Extra Charge"] = "0.25".into();
        transaction(&v.to_string())
    };
    assert_eq!(
        (t.transaction_id.as_str(), t.machine.as_str()),
        ("77", "54265")
    );
    let vends = t.vends(utc("2020-04-20T07:00:00Z"), 2, &[None]).unwrap();
    let EventKind::Vend(v) = &vends[0].kind else {
        panic!()
    };
    // The convenience fee is not the product's takings.
    assert_eq!(v.price_minor, 225);
}

#[test]
fn a_zero_price_is_free_and_a_test_card_is_a_test_vend() {
    let mut v: serde_json::Value =
        serde_json::from_str(fixture!("transaction_documented.json")).unwrap();
    v["Data"]["SeValue"] = serde_json::json!(0.0);
    let t = transaction(&v.to_string());
    let vends = t.vends(utc("2020-04-20T07:00:00Z"), 2, &[None]).unwrap();
    let EventKind::Vend(free) = &vends[0].kind else {
        panic!()
    };
    assert!(free.free && !free.test);
    v["Data"]["Payment Method Description"] = "Test Card".into();
    let t = transaction(&v.to_string());
    let vends = t.vends(utc("2020-04-20T07:00:00Z"), 2, &[None]).unwrap();
    let EventKind::Vend(test) = &vends[0].kind else {
        panic!()
    };
    assert!(test.test);
}

#[test]
fn unreadable_messages_say_why() {
    let read = |body: &str| Message::read(Feed::Transactions, body).unwrap_err();
    assert!(matches!(read("{not json"), Unreadable::NotJson(_)));
    assert_eq!(read("[1]"), Unreadable::NotAnObject);
    assert_eq!(
        read(r#"{"MachineId": 1, "MachineTime": "2020-01-01T00:00:00"}"#),
        Unreadable::Missing {
            field: "TransactionId"
        }
    );
    assert_eq!(
        read(r#"{"TransactionId": 1, "MachineTime": "2020-01-01T00:00:00"}"#),
        Unreadable::Missing { field: "MachineId" }
    );
    let bad = read(r#"{"TransactionId": 1, "MachineId": 2, "MachineTime": "yesterday"}"#);
    assert!(matches!(bad, Unreadable::Invalid { .. }), "{bad:?}");
    let bad = read(
        r#"{"TransactionId": 1, "MachineId": 2, "MachineTime": "2020-01-01T00:00:00", "Data": {"Products": 3}}"#,
    );
    assert!(matches!(bad, Unreadable::Invalid { .. }), "{bad:?}");
    // A price finer than the currency's cents is not booked.
    let t = transaction(
        r#"{"TransactionId": 1, "MachineId": 2, "MachineTime": "2020-01-01T00:00:00", "Data": {"SeValue": 1.005}}"#,
    );
    assert!(t.vends(utc("2020-01-01T00:00:00Z"), 2, &[None]).is_err());
}

#[test]
fn the_documented_event_is_read_with_its_code_name_and_firmware() {
    let Message::Alert(a) = Message::read(Feed::Events, fixture!("event_documented.json")).unwrap()
    else {
        panic!()
    };
    assert_eq!(a.machine, "697356467");
    assert_eq!((a.code.as_str(), a.name.as_str()), ("1", "Power up"));
    let t = a.telemetry();
    assert_eq!(t.power.as_deref(), Some("on"));
    assert_eq!(t.firmware.as_deref(), Some("4.0.0.5-rc3 - Jan 9 2019"));
    let e = a.event("m-1", utc("2026-03-01T10:00:00Z"));
    assert_eq!(e.id, "nayax-event-m-1");
    // Other events keep their raw code and name as the machine's status.
    let other = Message::read(
        Feed::Events,
        r#"{"machineId": "5", "eventCode": 42, "eventName": "Coin mech error"}"#,
    )
    .unwrap();
    let Message::Alert(other) = other else {
        panic!()
    };
    assert_eq!(
        other.telemetry().status.as_deref(),
        Some("nayax 42: Coin mech error")
    );
    let door = Message::read(
        Feed::Events,
        r#"{"machineld": "5", "eventCode": "7", "eventName": "Door Open"}"#,
    )
    .unwrap();
    let Message::Alert(door) = door else { panic!() };
    assert_eq!(door.telemetry().status.as_deref(), Some("door_open"));
}

#[test]
fn a_dex_message_carries_its_file_raw_or_in_base64() {
    use base64::Engine;
    let dex = "DXS*9252131001*VA*V0/6*1\r\nST*001*0001\r\nID1*123\r\nSE*3*0001\r\nDXE*1*1\r\n";
    let raw = serde_json::json!({"MachineId": 54265, "DexContent": dex}).to_string();
    let b64 = base64::engine::general_purpose::STANDARD.encode(dex);
    let encoded = serde_json::json!({"machineId": "54265", "payload": b64}).to_string();
    for body in [raw, encoded] {
        let Message::Audit(a) = Message::read(Feed::Dex, &body).unwrap() else {
            panic!()
        };
        assert_eq!((a.machine.as_str(), a.content.as_str()), ("54265", dex));
        let e = a.event(utc("2026-03-01T10:00:00Z"));
        assert!(e.id.starts_with("nayax-dex-"));
    }
    let none = Message::read(Feed::Dex, r#"{"MachineId": 1, "DexContent": "hello"}"#);
    assert!(matches!(none, Err(Unreadable::Missing { .. })));
}

#[test]
fn the_repeated_hour_of_autumn_takes_the_occurrence_nearest_settlement_else_the_first() {
    let paris = chrono_tz::Europe::Paris;
    let twice = local("2026-10-25T02:30:00");
    assert_eq!(
        local_instant(twice, paris, None),
        utc("2026-10-25T00:30:00Z")
    );
    let settled_late = Some(utc("2026-10-25T01:30:12Z"));
    assert_eq!(
        local_instant(twice, paris, settled_late),
        utc("2026-10-25T01:30:00Z")
    );
    let settled_early = Some(utc("2026-10-25T00:30:12Z"));
    assert_eq!(
        local_instant(twice, paris, settled_early),
        utc("2026-10-25T00:30:00Z")
    );
    // The skipped hour of spring is read with the offset before the jump.
    let never = local("2026-03-29T02:30:00");
    assert_eq!(
        local_instant(never, paris, None),
        utc("2026-03-29T01:30:00Z")
    );
    // Around midnight in a zone far from UTC.
    let auckland = chrono_tz::Pacific::Auckland;
    assert_eq!(
        local_instant(local("2026-12-07T00:10:00"), auckland, None),
        utc("2026-12-06T11:10:00Z")
    );
}

#[test]
fn amounts_become_minor_units_exactly() {
    assert_eq!(minor_units("1.0000", 2), Some(100));
    assert_eq!(minor_units("4.7", 2), Some(470));
    assert_eq!(minor_units("12", 0), Some(12));
    assert_eq!(minor_units("-0.50", 2), Some(-50));
    assert_eq!(minor_units("1.005", 2), None);
    assert_eq!(minor_units("1e5", 2), None);
    assert_eq!(minor_units("", 2), None);
    assert_eq!(minor_units(".5", 2), None);
}

proptest! {
    #[test]
    fn any_amount_in_cents_reads_back(cents in 0i64..10_000_000_000, zeros in 0usize..3) {
        let text = format!("{}.{:02}{}", cents / 100, cents % 100, "0".repeat(zeros));
        prop_assert_eq!(minor_units(&text, 2), Some(cents));
        // As serde_json prints the number Nayax sent.
        let number: serde_json::Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(minor_units(&number.to_string(), 2), Some(cents));
    }
}
