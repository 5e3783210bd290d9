//! Audit truth: an audit machine books what its complete reads say and nothing else. A changed
//! or cut-off read is held and never becomes the baseline; a file whose line ends were changed
//! keeps its checksum; cash and cashless come from the audit's own counters, free and test vends
//! take stock, and the encashment expects the cash the audits counted.

use crate::common::audits::{
    audit_list, booked, cut_inside, dex_event, machine_with, post_events, review, stock,
    with_line_ends, AuditFile, SelectionCounters, TestMachine,
};
use crate::common::{Backend, Harness};
use axum::http::StatusCode;
use chrono::Duration;
use serde_json::{json, Value};
use vendfleet_app::ports::Clock;

fn selection(id: &str, price: u64, cash: u64) -> SelectionCounters {
    SelectionCounters {
        id: id.into(),
        price,
        cash,
        ..SelectionCounters::default()
    }
}

fn file(reads: u64, selections: Vec<SelectionCounters>) -> AuditFile {
    AuditFile {
        serial: "123456789012".into(),
        reads,
        selections,
        manual_fill: None,
    }
}

async fn send(h: &Harness, m: &TestMachine, id: &str, hours_ago: i64, content: &str) -> Value {
    let at = h.clock.now() - Duration::hours(hours_ago);
    let r = post_events(h, m, json!([dex_event(id, at, content)])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["accepted"], 1, "{}", r.json());
    r.json()
}

fn states(list: &[Value]) -> Vec<&str> {
    list.iter().map(|r| r["state"].as_str().unwrap()).collect()
}

async fn figures(h: &Harness, m: &TestMachine) -> (i64, i64) {
    let f = booked(h, &m.id).await;
    (f.quantity, f.sales_minor)
}

/// 50 vends added to a selection after the machine computed G85: before, counted (62 vends,
/// 93.00 where 12 happened); now held for its checksum, and the next intact read counts from
/// the baseline.
async fn a_changed_audit_is_held_and_books_nothing(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = machine_with(&h, &admin, "audit", &[("1", 150)], 100).await;
    send(
        &h,
        &m,
        "base",
        48,
        &file(1, vec![selection("1", 150, 100)]).render(),
    )
    .await;
    let honest = file(2, vec![selection("1", 150, 112)]).render();
    let changed = honest.replace("PA2*112*16800*", "PA2*162*24300*");
    assert_ne!(changed, honest);
    send(&h, &m, "changed", 24, &changed).await;
    assert_eq!(figures(&h, &m).await, (0, 0), "a held read books nothing");
    let list = audit_list(&h, &admin, &m.id).await;
    assert_eq!(states(&list), ["held", "baseline"]);
    assert_eq!(list[0]["checksum"], "bad");
    assert_eq!(list[0]["held_for"], json!(["bad_checksum"]));
    // Accepting would book what the changed file says: the person sees it before deciding.
    assert_eq!(list[0]["preview"]["vends"], 62);
    assert_eq!(list[0]["preview"]["value_minor"], 9300);
    let r = review(&h, &admin, &m.id, "changed", "reject").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    send(
        &h,
        &m,
        "next",
        1,
        &file(3, vec![selection("1", 150, 115)]).render(),
    )
    .await;
    assert_eq!(figures(&h, &m).await, (15, 2250));
    assert_eq!(stock(&h, &admin, &m.id).await["1"], 85);
    let list = audit_list(&h, &admin, &m.id).await;
    assert_eq!(states(&list), ["counted", "rejected", "baseline"]);
    assert_eq!(list[0]["previous_id"], "base");
}

/// The issue's truncated read: 15 selections at 1.50; a read cut inside selection 13 between
/// two complete ones. Before: the cut read was held, but the next one was compared with it and
/// counted selections 13–15 from zero (90 vends / 135.00, their stock 73/72/71). Now the next
/// read counts from the last complete one: 24 vends / 36.00, their stock 96.
async fn a_truncated_read_is_held_and_never_a_baseline(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let codes: Vec<String> = (1..=15).map(|i| i.to_string()).collect();
    let sels: Vec<(&str, i64)> = codes.iter().map(|c| (c.as_str(), 150)).collect();
    let read = |reads: u64, sold: &dyn Fn(usize) -> u64| {
        let base = |i: usize| match i {
            13 => 23,
            14 => 24,
            15 => 25,
            _ => 10,
        };
        file(
            reads,
            (1..=15)
                .map(|i| selection(&i.to_string(), 150, base(i) + sold(i)))
                .collect(),
        )
        .render()
    };
    // Selections 1–6 sell one before the cut read and one after; 13–15 two and two.
    let before = read(1, &|_| 0);
    let cut = cut_inside(
        &read(2, &|i| match i {
            1..=6 => 1,
            13..=15 => 2,
            _ => 0,
        }),
        "13",
    );
    let after = read(3, &|i| match i {
        1..=6 => 2,
        13..=15 => 4,
        _ => 0,
    });
    for accept_the_cut in [false, true] {
        let m = machine_with(&h, &admin, "audit", &sels, 100).await;
        send(&h, &m, "b", 30, &before).await;
        send(&h, &m, "t", 20, &cut).await;
        let list = audit_list(&h, &admin, &m.id).await;
        assert_eq!(states(&list), ["held", "baseline"]);
        assert_eq!(list[0]["truncated"], true);
        assert_eq!(list[0]["held_for"], json!(["truncated"]), "{}", list[0]);
        assert_eq!(figures(&h, &m).await, (0, 0));
        if accept_the_cut {
            // Accepting books what it read (selections 1–6; 12 was read whole) ...
            let r = review(&h, &admin, &m.id, "t", "accept").await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            assert_eq!(figures(&h, &m).await, (6, 900));
        }
        send(&h, &m, "r", 10, &after).await;
        // ... and either way the sales between the complete reads are exactly what happened.
        assert_eq!(
            figures(&h, &m).await,
            (24, 3600),
            "accepted: {accept_the_cut}"
        );
        let s = stock(&h, &admin, &m.id).await;
        for (code, left) in &s {
            let want = match code.parse::<u32>().unwrap() {
                1..=6 => 98,
                13..=15 => 96,
                _ => 100,
            };
            assert_eq!(*left, want, "selection {code}, accepted: {accept_the_cut}");
        }
        let list = audit_list(&h, &admin, &m.id).await;
        if accept_the_cut {
            assert_eq!(states(&list), ["counted", "accepted", "baseline"]);
            assert_eq!(list[0]["previous_id"], "t");
        } else {
            // The complete read covers the cut one's sales: it can no longer be accepted.
            assert_eq!(states(&list), ["counted", "superseded", "baseline"]);
            assert_eq!(list[0]["previous_id"], "b");
            let r = review(&h, &admin, &m.id, "t", "accept").await;
            assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());
            assert!(r.json()["message"].as_str().unwrap().contains("superseded"));
            assert_eq!(figures(&h, &m).await, (24, 3600));
        }
    }
}

/// Files whose CR LF line ends were turned into LF or CR after the machine computed G85: before,
/// `checksum: "bad"`; now ok in their CR LF form, and counted.
async fn an_audit_whose_line_ends_were_changed_counts(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = machine_with(&h, &admin, "audit", &[("1", 150)], 100).await;
    let at = |reads: u64, cash: u64| file(reads, vec![selection("1", 150, cash)]).render();
    send(&h, &m, "a", 30, &with_line_ends(&at(1, 100), "\n")).await;
    send(&h, &m, "b", 20, &with_line_ends(&at(2, 104), "\n")).await;
    send(&h, &m, "c", 10, &with_line_ends(&at(3, 107), "\r")).await;
    let list = audit_list(&h, &admin, &m.id).await;
    assert_eq!(states(&list), ["counted", "counted", "baseline"]);
    for r in &list {
        assert_eq!(r["checksum"], "ok", "{r}");
        assert_eq!(r["checksum_line_ends"], "crlf", "{r}");
    }
    assert_eq!(figures(&h, &m).await, (7, 1050));
}

/// A real-shaped audit: selection 1 with its own PA7 (cash and cashless), 2 and 3 without (the
/// machine's CA2 and DA2 say the rest), free and test vends. Before: all 39.50 booked as cash,
/// no stock for free and test vends, and the encashment expected 39.50 in cash. Now: 21.50 cash
/// and 18.00 cashless, to the cent of CA2 and DA2; free and test vends take stock; the
/// encashment expects the 21.50 the audits counted.
async fn audit_machines_book_what_the_audit_says(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = machine_with(
        &h,
        &admin,
        "audit",
        &[("1", 150), ("2", 130), ("3", 90)],
        100,
    )
    .await;
    let counters = |reads: u64, s: [(u64, u64, u64, u64, bool); 3]| {
        file(
            reads,
            s.iter()
                .zip([("1", 150), ("2", 130), ("3", 90)])
                .map(
                    |(&(cash, cashless, test, free, pa7), (id, price))| SelectionCounters {
                        id: id.into(),
                        price,
                        cash,
                        cashless,
                        test,
                        free,
                        pa7,
                    },
                )
                .collect(),
        )
        .render()
    };
    let first = counters(
        1,
        [
            (100, 80, 2, 1, true),
            (50, 60, 0, 0, false),
            (40, 40, 1, 0, false),
        ],
    );
    // Selection 1: 10 cash, 6 cashless, a test and 2 free; 2: 5 cash and a free; 3: 10
    // cashless and a test.
    let second = counters(
        2,
        [
            (110, 86, 3, 3, true),
            (55, 60, 0, 1, false),
            (40, 50, 2, 0, false),
        ],
    );
    let now = h.clock.now();
    let collection = |id: &str, hours_ago: i64| {
        json!({"id": id, "type": "cash_collection", "at": (now - Duration::hours(hours_ago)).to_rfc3339(),
               "bag_no": id, "cash_box_minor": 2000, "bill_stacker_minor": 0, "tubes_minor": 0,
               "ejected_minor": 0, "refilled_coins_minor": 0, "collected_minor": 2000})
    };
    let r = post_events(
        &h,
        &m,
        json!([
            collection("c1", 30),
            dex_event("a", now - Duration::hours(29), &first),
            dex_event("b", now - Duration::hours(3), &second),
            collection("c2", 2),
        ]),
    )
    .await;
    assert_eq!(r.json()["data"]["accepted"], 4, "{}", r.json());
    let f = booked(&h, &m.id).await;
    assert_eq!((f.quantity, f.sales_minor), (31, 3950));
    assert_eq!((f.cash_minor, f.cashless_minor), (2150, 1800));
    assert_eq!((f.free_quantity, f.test_quantity), (3, 2));
    let s = stock(&h, &admin, &m.id).await;
    assert_eq!((s["1"], s["2"], s["3"]), (81, 94, 89));
    let list = audit_list(&h, &admin, &m.id).await;
    assert_eq!(list[0]["cash_minor"], 2150);
    assert_eq!(list[0]["cashless_minor"], 1800);
    let one = list[0]["deltas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["selection"] == "1")
        .unwrap()
        .clone();
    assert_eq!(
        (
            &one["cash_vends"],
            &one["cash_minor"],
            &one["cashless_vends"],
            &one["free_vends"],
            &one["test_vends"]
        ),
        (&json!(10), &json!(1500), &json!(6), &json!(2), &json!(1))
    );

    let today = h.app.calendar.today();
    let q = format!(
        "date_from={}&date_to={}",
        today - Duration::days(5),
        today + Duration::days(1)
    );
    let r = h.get(&format!("/api/encashments/?{q}"), &admin).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let c2 = r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bag_no"] == "c2")
        .unwrap()
        .clone();
    assert_eq!(c2["expected_minor"], 2150, "{c2}");
}

/// A machine's first read with a bad checksum is held (it would be the baseline); accepted, it
/// books nothing and the next read counts from it.
async fn a_doubtful_first_read_waits_to_become_the_baseline(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let m = machine_with(&h, &admin, "audit", &[("1", 150)], 100).await;
    let first = file(1, vec![selection("1", 150, 100)])
        .render()
        .replace("G85*", "G85*0");
    send(&h, &m, "a", 20, &first).await;
    let list = audit_list(&h, &admin, &m.id).await;
    assert_eq!(states(&list), ["held"]);
    assert_eq!(list[0]["preview"]["new_baseline"], true);
    assert_eq!(list[0]["preview"]["vends"], 0);
    let r = review(&h, &admin, &m.id, "a", "accept").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(figures(&h, &m).await, (0, 0));
    send(
        &h,
        &m,
        "b",
        10,
        &file(2, vec![selection("1", 150, 103)]).render(),
    )
    .await;
    assert_eq!(figures(&h, &m).await, (3, 450));
    assert_eq!(audit_list(&h, &admin, &m.id).await[0]["previous_id"], "a");
}

on_both_stores!(
    a_changed_audit_is_held_and_books_nothing,
    a_truncated_read_is_held_and_never_a_baseline,
    an_audit_whose_line_ends_were_changed_counts,
    audit_machines_book_what_the_audit_says,
    a_doubtful_first_read_waits_to_become_the_baseline,
);
