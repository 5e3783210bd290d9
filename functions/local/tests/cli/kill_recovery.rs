//! A `vendfleet serve` process killed with SIGKILL while a machine streams events, then
//! restarted, several times: every event it acknowledged is stored, none twice, and the
//! rollups still equal the ledger. The machine re-sends what was not acknowledged, as the
//! webhook contract tells it to.
//!
//! The server runs on the real clock (it is a real process), so event times and signatures are
//! taken from it; nothing asserted depends on the hour or the date.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::machines::{MachineInput, SelectionInput};
use vendfleet_app::ports::{Grain, RollupQuery, SystemClock};
use vendfleet_app::products::ProductInput;
use vendfleet_app::App;
use vendfleet_domain::events::{sign, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use vendfleet_domain::sales::Figures;

fn app(dir: &Path) -> App {
    let embedded = Embedded::open(dir, b"kill-test").unwrap();
    App::new(
        embedded.adapters(),
        Arc::new(SystemClock),
        AuthSettings::with_secret(Secret::new("kill-test-secret-kill-test-secret!!")),
        Default::default(),
    )
}

/// A machine with one selection; its id and webhook secret.
async fn setup(dir: &Path) -> (String, String) {
    let app = app(dir);
    app.auth
        .ensure_admin("admin@kill.test", "kill-password-1")
        .await
        .unwrap();
    let admin = app
        .users
        .directory()
        .user_by_email("admin@kill.test")
        .await
        .unwrap()
        .unwrap();
    let p = app.auth.principal(admin).await.unwrap();
    let product = app
        .products
        .create_product(
            &p,
            ProductInput {
                name: "Water".into(),
                price_minor: Some(100),
                currency: "EUR".into(),
                vat_bps: Some(550),
                units: "pcs".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let m = app
        .machines
        .create(
            &p,
            MachineInput {
                name: "Streamer".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    app.machines
        .upsert_selection(
            &p,
            &m.id,
            SelectionInput {
                selection: "A1".into(),
                product_id: product.id,
                max: 10_000,
                price_minor: 100,
                current: 10_000,
                expiry_date: None,
            },
        )
        .await
        .unwrap();
    let m = app.machines.machines().get(&m.id).await.unwrap().unwrap();
    (m.id, m.webhook_secret)
}

struct Server {
    child: Child,
    addr: String,
}

fn start(dir: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vendfleet"))
        .args(["serve", "--port", "0", "--web", "/nonexistent", "--data"])
        .arg(dir)
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server stopped before serving")
            .unwrap();
        if let Some(rest) = line.strip_prefix("Vendfleet is serving http://") {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // Keep draining stdout so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Server { child, addr }
}

/// Posts a signed batch; the status, or None when the connection failed.
fn post(addr: &str, machine: &str, secret: &str, body: &str) -> Option<u16> {
    let ts = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let sig = sign(secret.as_bytes(), ts, body.as_bytes());
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let req = format!(
        "POST /webhooks/machines/{machine}/events HTTP/1.1\r\nHost: {addr}\r\n\
         Content-Type: application/json\r\n{TIMESTAMP_HEADER}: {ts}\r\n{SIGNATURE_HEADER}: {sig}\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut reply = String::new();
    s.read_to_string(&mut reply).ok()?;
    reply
        .strip_prefix("HTTP/1.1 ")?
        .get(..3)?
        .parse::<u16>()
        .ok()
}

fn batch(first: usize, n: usize) -> (Vec<String>, String) {
    let at = chrono::Utc::now() - chrono::Duration::minutes(5);
    let ids: Vec<String> = (first..first + n).map(|i| format!("k{i:07}")).collect();
    let events: Vec<serde_json::Value> = ids
        .iter()
        .enumerate()
        .map(|(j, id)| {
            serde_json::json!({"id": id, "type": "vend", "at": at.to_rfc3339(), "selection": "A1",
                               "price_minor": 100, "quantity": 1 + j % 2, "payment": "cash"})
        })
        .collect();
    (ids, serde_json::json!({ "events": events }).to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_events_survive_sigkill_and_none_count_twice() {
    let dir = tempfile::tempdir().unwrap();
    let (machine, secret) = setup(dir.path()).await;
    let mut acknowledged: BTreeSet<String> = BTreeSet::new();
    let mut unacknowledged: Vec<(Vec<String>, String)> = Vec::new();
    let mut next = 0;
    let mut kills = 0;
    for round in 0..4u64 {
        let last = round == 3;
        let mut server = start(dir.path());
        // The machine first re-sends what the last crash left unanswered.
        for (ids, body) in std::mem::take(&mut unacknowledged) {
            assert_eq!(post(&server.addr, &machine, &secret, &body), Some(200));
            acknowledged.extend(ids);
        }
        // Then streams new batches from a thread while this one kills the server.
        let (addr, m, s) = (server.addr.clone(), machine.clone(), secret.clone());
        let first = next;
        let streamer = std::thread::spawn(move || {
            let mut sent = Vec::new();
            let mut n = first;
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline && !last {
                let (ids, body) = batch(n, 50);
                n += 50;
                let status = post(&addr, &m, &s, &body);
                let ok = status == Some(200);
                sent.push((ids, body, ok));
                if !ok {
                    break;
                }
            }
            (sent, n)
        });
        // The last round only re-sends; the others are cut short by SIGKILL.
        if !last {
            std::thread::sleep(Duration::from_millis(400 + 250 * round));
        }
        server.child.kill().unwrap(); // SIGKILL
        kills += 1;
        let (sent, n) = streamer.join().unwrap();
        next = n;
        server.child.wait().unwrap();
        for (ids, body, ok) in sent {
            if ok {
                acknowledged.extend(ids);
            } else {
                unacknowledged.push((ids, body));
            }
        }
    }
    assert_eq!(kills, 4);
    assert!(unacknowledged.is_empty());
    assert!(
        acknowledged.len() >= 200,
        "the stream should have got through: {}",
        acknowledged.len()
    );

    // Read what the killed process left on disk.
    let app = app(dir.path());
    let sales = app.sales.store();
    // The machine has no location: its days are the operator's.
    let today = app.calendar.today();
    let (from, to) = (
        today - chrono::Duration::days(2),
        today + chrono::Duration::days(2),
    );
    let ledger = sales.ledger(&machine, from, to).await.unwrap();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &ledger {
        *counts.entry(v.event_id.as_str()).or_default() += 1;
    }
    assert!(
        counts.values().all(|c| *c == 1),
        "an event was counted twice"
    );
    let missing: Vec<&String> = acknowledged
        .iter()
        .filter(|id| !counts.contains_key(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "acknowledged but lost: {} of {}",
        missing.len(),
        acknowledged.len()
    );
    // Events sent but never answered may or may not be there; nothing else is.
    assert!(ledger.iter().all(|v| v.event_id.starts_with('k')));
    let mut brute = Figures::default();
    for v in &ledger {
        brute.add(&Figures::of(v));
    }
    let rows = sales
        .rollups(&RollupQuery {
            machine_ids: vec![machine.clone()],
            from,
            to,
            grain: Grain::Day,
        })
        .await
        .unwrap();
    let mut rolled = Figures::default();
    for r in &rows {
        rolled.add(&r.figures);
    }
    assert_eq!(rolled, brute, "rollups equal the ledger after the crashes");
    // And the stock moved by exactly the units in the ledger.
    let sels = app
        .machines
        .intake_context(&machine)
        .await
        .unwrap()
        .unwrap();
    let units: i64 = ledger.iter().map(|v| i64::from(v.quantity)).sum();
    assert_eq!(sels.selections[0].current, 10_000 - units);
}
