//! Audit truth as a property: random sequences of audit reads of one machine (random sales
//! between reads, meter resets, reads cut off or changed after their checksum, CR LF / LF / CR
//! line ends), delivered shuffled, repeated and re-batched, then reviewed as a person would
//! (changed reads rejected, cut-off ones accepted or left). Whatever happens, what is booked and
//! the stock equal the truth between the complete reads that were counted or accepted (each
//! counted from the one before it), never more; every doubtful read is held (or late, or
//! superseded) with the right reason, never counted as it arrives.

use crate::common::audits::{
    audit_list, booked, cut_inside, deliver_shuffled, dex_event, machine_with, stock,
    with_line_ends, AuditFile, SelectionCounters,
};
use crate::common::{Backend, Harness};
use axum::http::StatusCode;
use chrono::Duration;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use vendfleet_app::ports::Clock;

const SELECTIONS: [(&str, u64); 4] = [("10", 150), ("11", 130), ("12", 90), ("13", 200)];
const START_STOCK: i64 = 10_000;

/// What happened to one read on its way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Damage {
    None,
    /// Cut off inside a selection's `PA1`.
    Cut,
    /// A figure changed after the checksum.
    Changed,
}

/// Sales since the start, per selection: cash, cashless, test and free vends.
type Sold = BTreeMap<&'static str, [u64; 4]>;

struct Read {
    id: String,
    hours_ago: i64,
    content: String,
    damage: Damage,
    /// The selections whose counters it holds whole (those before the cut of a cut read).
    holds: Vec<&'static str>,
    /// The sales since the start when it was read.
    sold: Sold,
    /// Counters were reset since the previous read.
    reset_before: bool,
}

/// A machine's life: counters start high (a machine in service), sales between reads, and
/// perhaps a meter reset (every counter and the read counter back to zero).
fn history(rng: &mut StdRng, reads: usize) -> Vec<Read> {
    let pa7: Vec<bool> = SELECTIONS.iter().map(|_| rng.random_bool(0.5)).collect();
    let mut counters: Vec<[u64; 4]> = SELECTIONS
        .iter()
        .map(|_| {
            [
                rng.random_range(1000..5000),
                rng.random_range(1000..5000),
                rng.random_range(10..50),
                rng.random_range(10..50),
            ]
        })
        .collect();
    let mut sold: Sold = SELECTIONS.iter().map(|(id, _)| (*id, [0; 4])).collect();
    let mut read_no = rng.random_range(100..500u64);
    let mut out: Vec<Read> = Vec::new();
    for i in 0..reads {
        // At most one reset a sequence: counters that went back are what tells a reset, and
        // a second one soon after the first leaves counters too small to go back (no audit can
        // tell those sales from sales).
        let reset_before = i > 0 && !out.iter().any(|r| r.reset_before) && rng.random_bool(0.15);
        if reset_before {
            counters = SELECTIONS.iter().map(|_| [0; 4]).collect();
            read_no = 0;
        }
        if i > 0 {
            for (s, (id, _)) in SELECTIONS.iter().enumerate() {
                let sale = [
                    rng.random_range(0..6),
                    rng.random_range(0..6),
                    rng.random_range(0..2),
                    rng.random_range(0..2),
                ];
                for k in 0..4 {
                    counters[s][k] += sale[k];
                    sold.get_mut(id).unwrap()[k] += sale[k];
                }
            }
        }
        read_no += 1;
        let file = AuditFile {
            serial: "SN-PROPERTY".into(),
            reads: read_no,
            selections: SELECTIONS
                .iter()
                .zip(&counters)
                .zip(&pa7)
                .map(|(((id, price), c), pa7)| SelectionCounters {
                    id: (*id).into(),
                    price: *price,
                    cash: c[0],
                    cashless: c[1],
                    test: c[2],
                    free: c[3],
                    pa7: *pa7,
                })
                .collect(),
            manual_fill: None,
        };
        let clean = file.render();
        let damage = match rng.random_range(0..100) {
            0..15 => Damage::Cut,
            15..30 => Damage::Changed,
            _ => Damage::None,
        };
        let cut = rng.random_range(1..4);
        let holds: Vec<&'static str> = SELECTIONS
            .iter()
            .take(if damage == Damage::Cut { cut } else { 4 })
            .map(|s| s.0)
            .collect();
        let content = match damage {
            Damage::None => clean,
            Damage::Cut => cut_inside(&clean, SELECTIONS[cut].0),
            Damage::Changed => {
                let (s, (_, price)) = SELECTIONS
                    .iter()
                    .enumerate()
                    .nth(rng.random_range(0..4))
                    .unwrap();
                let paid = counters[s][0] + counters[s][1];
                let extra = rng.random_range(1..60);
                clean.replace(
                    &format!("PA2*{paid}*{}*", paid * price),
                    &format!("PA2*{}*{}*", paid + extra, (paid + extra) * price),
                )
            }
        };
        let ends = ["\r\n", "\n", "\r"][rng.random_range(0..3)];
        out.push(Read {
            id: format!("r{i}"),
            hours_ago: ((reads - i) * 6) as i64,
            content: with_line_ends(&content, ends),
            damage,
            holds,
            sold: sold.clone(),
            reset_before,
        });
    }
    out
}

fn diff(a: &Sold, b: &Sold) -> Sold {
    b.iter()
        .map(|(id, s)| {
            let p = a[id];
            (*id, [s[0] - p[0], s[1] - p[1], s[2] - p[2], s[3] - p[3]])
        })
        .collect()
}

async fn audit_sequences_book_the_truth(b: Backend, seeds: std::ops::Range<u64>, reads: usize) {
    for seed in seeds {
        let mut rng = StdRng::seed_from_u64(seed);
        let h = Harness::on_store(b).await;
        let admin = h.admin().await;
        let planogram: Vec<(&str, i64)> =
            SELECTIONS.iter().map(|(id, p)| (*id, *p as i64)).collect();
        let m = machine_with(&h, &admin, "audit", &planogram, START_STOCK).await;
        let history = history(&mut rng, reads);
        let now = h.clock.now();
        let events: Vec<Value> = history
            .iter()
            .map(|r| dex_event(&r.id, now - Duration::hours(r.hours_ago), &r.content))
            .collect();
        // Each read once or more, in any order, in batches of 1 to 3.
        deliver_shuffled(&h, &m, &events, &mut rng, 3).await;
        let by_id: HashMap<&str, &Read> = history.iter().map(|r| (r.id.as_str(), r)).collect();

        // As arrived: a doubtful read is never counted nor a baseline, and is held for its
        // reason; a complete one is never held.
        for r in audit_list(&h, &admin, &m.id).await {
            let read = by_id[r["id"].as_str().unwrap()];
            let state = r["state"].as_str().unwrap();
            let held_for: Vec<&str> = r["held_for"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .collect();
            match read.damage {
                // A complete read is counted, a baseline or late; held only when its sales look
                // far above the usual, or the machine was reset since its baseline in a way its
                // counters cannot tell apart: held as a selection's reset.
                Damage::None if state == "held" || state == "superseded" => {
                    let position = |id: &str| history.iter().position(|x| x.id == id).unwrap();
                    let from = position(r["previous_id"].as_str().unwrap());
                    let to = position(&read.id);
                    let reset = history[from + 1..=to].iter().any(|x| x.reset_before)
                        && held_for
                            .iter()
                            .all(|f| ["counter_reset", "negative_delta"].contains(f));
                    // Or far more than the few days of sales before it say is usual.
                    let jump = held_for == ["implausible_jump"];
                    assert!(
                        reset || jump,
                        "seed {seed}: {} held for {held_for:?}",
                        read.id
                    );
                }
                Damage::None => assert!(
                    ["baseline", "counted", "late"].contains(&state),
                    "seed {seed}: {} {state}",
                    read.id
                ),
                damaged => {
                    assert!(
                        ["held", "superseded", "late"].contains(&state),
                        "seed {seed}: {} ({damaged:?}) {state}",
                        read.id
                    );
                    let reason = if damaged == Damage::Cut {
                        "truncated"
                    } else {
                        "bad_checksum"
                    };
                    assert!(
                        state == "late" || held_for.contains(&reason),
                        "seed {seed}: {} ({damaged:?}) held for {held_for:?}",
                        read.id
                    );
                }
            }
        }
        // Reviewed: changed reads rejected; cut-off ones accepted now and then, oldest first.
        let mut accepted_cut = false;
        let mut held: Vec<Value> = audit_list(&h, &admin, &m.id)
            .await
            .into_iter()
            .filter(|r| r["state"] == "held")
            .collect();
        held.reverse();
        for r in held {
            let read = by_id[r["id"].as_str().unwrap()];
            // What a cut read lacks is unknown when it would start a new baseline: left. A
            // complete read held for a jump is checked and accepted.
            let accept = match read.damage {
                Damage::Cut => r["preview"]["new_baseline"] == false && rng.random_bool(0.5),
                Damage::None => r["held_for"] == json!(["implausible_jump"]),
                Damage::Changed => false,
            };
            let path = format!(
                "/api/machines/{}/audits/{}/{}/",
                m.id,
                read.id,
                if accept { "accept" } else { "reject" }
            );
            let reply = h.post(&path, &admin, json!({})).await;
            assert_eq!(
                reply.status,
                StatusCode::OK,
                "seed {seed}: {}",
                reply.json()
            );
            accepted_cut |= accept && read.damage == Damage::Cut;
        }

        // The oracle: every counted or accepted read books the truth since its baseline, the
        // complete read before it that was counted, accepted or started a baseline.
        let list = audit_list(&h, &admin, &m.id).await;
        let mut chain: Vec<&Value> = list
            .iter()
            .filter(|r| ["baseline", "counted", "accepted"].contains(&r["state"].as_str().unwrap()))
            .collect();
        chain.reverse();
        let dump = format!(
            "reads {:?}\nlist {:?}",
            history
                .iter()
                .map(|x| (&x.id, x.damage, x.reset_before))
                .collect::<Vec<_>>(),
            list.iter()
                .map(|r| (
                    r["id"].to_string(),
                    r["state"].to_string(),
                    r["previous_id"].to_string(),
                    r["vends"].to_string(),
                    r["findings"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|f| f["reason"].to_string())
                        .collect::<Vec<_>>()
                ))
                .collect::<Vec<_>>()
        );
        // Each selection counts from the last of those reads that held it (a cut read holds
        // the selections before its cut; the others it carries from its baseline).
        let mut want: Sold = SELECTIONS.iter().map(|(id, _)| (*id, [0; 4])).collect();
        let mut from: HashMap<&str, &Read> = HashMap::new();
        let mut cash = 0;
        let mut cashless = 0;
        for (i, r) in chain.iter().enumerate() {
            let read = by_id[r["id"].as_str().unwrap()];
            let new_baseline = r["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["flag"] == "meter_reset" || f["flag"] == "board_change");
            if r["state"] == "baseline" || new_baseline || r["previous_id"].is_null() {
                assert_eq!(r["vends"], 0, "seed {seed}: {r}");
                from = read.holds.iter().map(|s| (*s, read)).collect();
                continue;
            }
            let prev = chain[i - 1];
            assert_eq!(
                r["previous_id"], prev["id"],
                "seed {seed}: deltas between consecutive complete reads"
            );
            let position = |id: &str| history.iter().position(|x| x.id == id).unwrap();
            for id in &read.holds {
                let base = from[id];
                let (a, b) = (position(&base.id), position(&read.id));
                assert!(
                    !history[a + 1..=b].iter().any(|x| x.reset_before),
                    "seed {seed}: {} counted across a meter reset\n{dump}",
                    read.id
                );
                let price = SELECTIONS.iter().find(|s| s.0 == *id).unwrap().1;
                let d = diff(&base.sold, &read.sold)[id];
                cash += d[0] * price;
                cashless += d[1] * price;
                let w = want.get_mut(id).unwrap();
                for k in 0..4 {
                    w[k] += d[k];
                }
                from.insert(id, read);
            }
        }
        let f = booked(&h, &m.id).await;
        let sum = |k: usize| want.values().map(|w| w[k]).sum::<u64>() as i64;
        let value: u64 = want
            .iter()
            .map(|(id, w)| (w[0] + w[1]) * SELECTIONS.iter().find(|s| s.0 == *id).unwrap().1)
            .sum();
        assert_eq!(
            f.quantity,
            sum(0) + sum(1),
            "seed {seed}: paid vends\n{dump}"
        );
        assert_eq!(f.sales_minor, value as i64, "seed {seed}: value");
        assert_eq!(f.test_quantity, sum(2), "seed {seed}: test vends");
        assert_eq!(f.free_quantity, sum(3), "seed {seed}: free vends");
        assert_eq!(f.cash_minor + f.cashless_minor, f.sales_minor);
        if !accepted_cut {
            // Over complete reads, cash and cashless to the cent of the machine's counters.
            assert_eq!(
                (f.cash_minor, f.cashless_minor),
                (cash as i64, cashless as i64),
                "seed {seed}"
            );
        }
        // Never more than happened between the first and the last read.
        let all = diff(&history[0].sold, &history[reads - 1].sold);
        assert!(f.quantity as u64 <= all.values().map(|w| w[0] + w[1]).sum::<u64>());
        let s = stock(&h, &admin, &m.id).await;
        for (id, w) in &want {
            assert_eq!(
                s[*id],
                START_STOCK - (w[0] + w[1] + w[2] + w[3]) as i64,
                "seed {seed}: stock of {id}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_audit_sequences_book_the_truth() {
    audit_sequences_book_the_truth(Backend::Sqlite, 0..24, 10).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamo_audit_sequences_book_the_truth() {
    audit_sequences_book_the_truth(Backend::Dynamo, 100..102, 8).await;
}
