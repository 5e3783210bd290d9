//! `vendfleet simulate --nayax QUEUE_URL`: the machines of the data directory that have a Nayax
//! machine id, sending as Nayax Core does — transaction messages (one a sale, with its product
//! lines; the documented field names, docs/nayax-format.md), events and DEX audit files to
//! their queues — with what a real feed does: the same message twice, messages late and out of
//! order, a void of an earlier sale, a machine Vendfleet does not know.

use crate::error::BoxError;
use crate::simulate::{batch, machines, Args, Live, Pace};
use base64::Engine;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::Arc;
use vendfleet_adapters_embedded::{Embedded, SqsFeeds};
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::ports::{QueueAccess, SystemClock};
use vendfleet_app::App;
use vendfleet_domain::events::{EventKind, MachineEvent, Payment};

/// Nayax's payment method ids (its Dynamic Transaction Monitor): 1 card, 3 cash.
const CARD: u32 = 1;
const CASH: u32 = 3;
/// A Nayax machine id no machine has.
const STRANGER: &str = "99999999";

struct NayaxMachine {
    live: Live,
    nayax_id: String,
    zone: Tz,
    currency: String,
}

fn decimal(minor: i64) -> Value {
    json!(minor as f64 / 100.0)
}

fn local(at: DateTime<Utc>, zone: Tz) -> String {
    at.with_timezone(&zone)
        .naive_local()
        .format("%Y-%m-%dT%H:%M:%S%.3f")
        .to_string()
}

/// A sale as Nayax Core's transaction message.
fn transaction(
    m: &NayaxMachine,
    id: u64,
    at: DateTime<Utc>,
    lines: &[(&str, i64, u32)],
    method: u32,
) -> Value {
    let local = local(at, m.zone);
    let settled = at + chrono::Duration::seconds(10);
    let total: i64 = lines.iter().map(|(_, p, q)| p * i64::from(*q)).sum();
    let products: Vec<Value> = lines
        .iter()
        .map(|(selection, price, quantity)| {
            json!({
                "Product Code in Map": selection.parse::<u64>().map_or(json!(selection), |n| json!(n)),
                "Product PA Code": selection,
                "Product Name": null,
                "Product Bruto": decimal(*price),
                "Product Discount Amount": 0.0,
                "Product Catalog Number": "",
                "Product Quantity": quantity,
            })
        })
        .collect();
    json!({
        "TransactionId": id,
        "RemoteStartTransactionId": null,
        "PaymentMethodId": method,
        "SiteId": 1,
        "MachineTime": local,
        "Void": false,
        "MachineId": m.nayax_id.parse::<u64>().map_or(json!(m.nayax_id), |n| json!(n)),
        "Data": {
            "Settlement Time (Date only)": settled.format("%Y-%m-%d").to_string(),
            "Settlement Time (Time only)": settled.format("%H:%M:%S").to_string(),
            "SeValue": decimal(total),
            "Machine Name": m.live.id,
            "Machine AuTime": local,
            "Machine SeTime": local,
            "Currency": m.currency,
            "Extra Charge": 0.0,
            "Payment Method ID (1)": method,
            "Payment Method Description": if method == CASH { "Cash" } else { "Credit Card" },
            "Transaction ID": id,
            "Site ID": 1,
            "Products": products,
        }
    })
}

/// Sends as Nayax Core until the duration ends or Ctrl-C.
pub async fn run(args: Args) -> Result<(), BoxError> {
    let tx_queue = args.nayax.clone().ok_or("give --nayax QUEUE_URL")?;
    if !(args.rate > 0.0 && args.rate <= 1_000.0) {
        return Err("--rate must be above 0 and at most 1000 messages a second".into());
    }
    let embedded = Embedded::open(&args.data, b"vendfleet-simulate")?;
    let app = App::new(
        embedded.adapters(),
        Arc::new(SystemClock),
        AuthSettings::with_secret(Secret::new(vec![0u8; 32])),
        Default::default(),
    );
    let run_id = Utc::now().timestamp();
    let mut fleet = Vec::new();
    for live in machines(&app, args.seed, run_id).await? {
        let Some(ctx) = app
            .machines
            .intake_context(&live.id)
            .await
            .map_err(|e| e.to_string())?
        else {
            continue;
        };
        let Some(nayax_id) = ctx.machine.nayax_machine_id.clone() else {
            continue;
        };
        fleet.push(NayaxMachine {
            live,
            nayax_id,
            zone: ctx.zone,
            currency: ctx.machine.currency.clone(),
        });
    }
    if fleet.is_empty() {
        return Err(format!(
            "no active machine with a Nayax machine id and a planogram in {}: give machines their Nayax machine id (the demo's have one)",
            args.data.display()
        )
        .into());
    }
    let sqs = SqsFeeds::at(args.sqs_endpoint.clone().filter(|e| !e.is_empty()));
    let access = QueueAccess {
        region: args.region.clone(),
        access_key_id: std::env::var("AWS_ACCESS_KEY_ID").unwrap_or_default(),
        secret_access_key: std::env::var("AWS_SECRET_ACCESS_KEY").unwrap_or_default(),
    };
    println!(
        "Sending as Nayax Core for {} machines at about {} messages a second to {tx_queue} (Ctrl-C stops)",
        fleet.len(),
        args.rate
    );
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut next_id: u64 = 4_000_000_000 + (run_id as u64 % 1_000_000) * 1_000;
    let mut sent: Vec<Value> = Vec::new();
    let mut late: Vec<String> = Vec::new();
    let (
        mut sales,
        mut dupes,
        mut lates,
        mut voids,
        mut strangers,
        mut events,
        mut audits,
        mut failed,
    ) = (
        0usize, 0usize, 0usize, 0usize, 0usize, 0usize, 0usize, 0usize,
    );
    let mut pace = Pace::new(args.rate, args.duration);
    let send = async |queue: &str, body: String, failed: &mut usize| {
        if let Err(e) = sqs.send(&access, queue, &body).await {
            *failed += 1;
            if *failed <= 10 {
                eprintln!("simulate: {queue}: {e}");
            }
        }
    };
    while let Some(mut budget) = pace.next().await {
        while budget >= 1.0 {
            budget -= 1.0;
            let m = rng.random_range(0..fleet.len());
            let now = Utc::now();
            let drawn: Vec<MachineEvent> = batch(&mut fleet[m].live.sim, 3, now);
            let vends: Vec<(String, i64, u32, Payment)> = drawn
                .iter()
                .filter_map(|e| match &e.kind {
                    EventKind::Vend(v) if !v.free && !v.test => {
                        Some((v.selection.clone(), v.price_minor, v.quantity, v.payment))
                    }
                    _ => None,
                })
                .collect();
            for e in &drawn {
                match &e.kind {
                    EventKind::Telemetry(_) if args.nayax_events.is_some() => {
                        let name = ["Power up", "Door Open", "Door Close"][rng.random_range(0..3)];
                        let body = json!({"machineId": fleet[m].nayax_id, "eventCode": "1", "eventName": name,
                                          "eventSourceName": "Device", "eventData": null});
                        events += 1;
                        send(
                            args.nayax_events.as_deref().unwrap_or_default(),
                            body.to_string(),
                            &mut failed,
                        )
                        .await;
                    }
                    EventKind::Dex { content } if args.nayax_dex.is_some() => {
                        let encoded = base64::engine::general_purpose::STANDARD.encode(content);
                        let body = json!({"MachineId": fleet[m].nayax_id, "DexContent": encoded});
                        audits += 1;
                        send(
                            args.nayax_dex.as_deref().unwrap_or_default(),
                            body.to_string(),
                            &mut failed,
                        )
                        .await;
                    }
                    _ => {}
                }
            }
            if vends.is_empty() {
                continue;
            }
            let method = if vends[0].3 == Payment::Cash {
                CASH
            } else {
                CARD
            };
            let lines: Vec<(&str, i64, u32)> = vends
                .iter()
                .map(|(s, p, q, _)| (s.as_str(), *p, *q))
                .collect();
            next_id += 1;
            let at = drawn.last().map_or(now, MachineEvent::at_utc);
            let mut message = transaction(&fleet[m], next_id, at, &lines, method);
            let roll: f64 = rng.random();
            if roll < 0.01 {
                message["MachineId"] = json!(STRANGER);
                strangers += 1;
            } else {
                sales += 1;
            }
            let body = message.to_string();
            if roll > 0.9 {
                // Late: delivered after later ones.
                late.push(body.clone());
                lates += 1;
            } else {
                send(&tx_queue, body.clone(), &mut failed).await;
            }
            if rng.random::<f64>() < 0.1 {
                send(&tx_queue, body, &mut failed).await;
                dupes += 1;
            }
            if late.len() > 5 {
                let body = late.remove(rng.random_range(0..late.len()));
                send(&tx_queue, body, &mut failed).await;
            }
            sent.push(message);
            if sent.len() > 200 {
                sent.remove(0);
            }
            if rng.random::<f64>() < 0.03 {
                let mut void = sent[rng.random_range(0..sent.len())].clone();
                void["Void"] = json!(true);
                send(&tx_queue, void.to_string(), &mut failed).await;
                voids += 1;
            }
        }
        pace.keep(budget);
    }
    for body in late.drain(..) {
        send(&tx_queue, body, &mut failed).await;
    }
    println!(
        "simulate --nayax: {sales} sales, {dupes} sent twice, {lates} late, {voids} voids, {strangers} of an unknown machine ({STRANGER}), {events} events, {audits} audits; {failed} sends failed"
    );
    Ok(())
}
