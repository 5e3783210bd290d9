//! `vendfleet simulate`: live machines for a running server. Reads the machines, their
//! planograms, locations and webhook secrets from the data directory (SQLite in WAL mode reads
//! beside the running server), then posts signed batches of events — vends mostly, refills when
//! stock runs low, cash collections, telemetry, now and then an EVA-DTS audit — to
//! `POST /webhooks/machines/{id}/events` at about `--rate` events a second, and re-sends some
//! batches already sent (a retry: same ids, new timestamp and signature), which the server
//! must count as duplicates.

use crate::demo::sim::{mix, Cash, MachineSim, Setup, Site, Slot};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::ports::SystemClock;
use vendfleet_app::App;
use vendfleet_domain::events::{sign, MachineEvent, SIGNATURE_HEADER, TIMESTAMP_HEADER};

use crate::error::BoxError;

/// `vendfleet simulate` options.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The running server, e.g. http://127.0.0.1:8080 (plain HTTP); not with `--nayax`.
    #[arg(long, required_unless_present = "nayax")]
    pub(crate) url: Option<String>,
    /// The server's data directory (machines and webhook secrets are read from it).
    #[arg(long, env = "VENDFLEET_DATA", default_value = "data")]
    pub(crate) data: PathBuf,
    /// Events a second, about.
    #[arg(long, default_value_t = 20.0)]
    pub(crate) rate: f64,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Stop after this many seconds (default: run until interrupted).
    #[arg(long)]
    pub(crate) duration: Option<u64>,
    /// Send as Nayax Core instead: its transaction messages to this SQS queue (the machines'
    /// Nayax machine ids; docs/nayax.md), with duplicates, late deliveries, voids and an
    /// unknown machine; the key from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
    #[arg(long, value_name = "QUEUE_URL")]
    pub(crate) nayax: Option<String>,
    /// With `--nayax`: the events and alerts queue.
    #[arg(long, value_name = "QUEUE_URL", requires = "nayax")]
    pub(crate) nayax_events: Option<String>,
    /// With `--nayax`: the EVA DTS (DEX) audit files queue.
    #[arg(long, value_name = "QUEUE_URL", requires = "nayax")]
    pub(crate) nayax_dex: Option<String>,
    /// With `--nayax`: the queues' region.
    #[arg(long, env = "AWS_REGION", default_value = "us-east-1")]
    pub(crate) region: String,
    /// With `--nayax`: an SQS emulator (moto) every queue call goes to.
    #[arg(long, env = "VENDFLEET_SQS_ENDPOINT")]
    pub(crate) sqs_endpoint: Option<String>,
}

/// The rhythm of a simulation: about `rate` a second, in ticks of 100 ms, until its duration
/// ends or Ctrl-C.
pub(crate) struct Pace {
    pub(crate) started: Instant,
    stop_at: Option<Duration>,
    rate: f64,
    ticker: tokio::time::Interval,
    budget: f64,
    ctrl_c: std::pin::Pin<Box<dyn std::future::Future<Output = std::io::Result<()>> + Send>>,
}

impl Pace {
    const TICK: Duration = Duration::from_millis(100);

    pub(crate) fn new(rate: f64, duration: Option<u64>) -> Pace {
        let mut ticker = tokio::time::interval(Self::TICK);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Pace {
            started: Instant::now(),
            stop_at: duration.map(Duration::from_secs),
            rate,
            ticker,
            budget: 0.0,
            ctrl_c: Box::pin(tokio::signal::ctrl_c()),
        }
    }

    /// Waits for the next tick: how many may be sent now (with what was left), or `None` when
    /// the simulation ends.
    pub(crate) async fn next(&mut self) -> Option<f64> {
        tokio::select! {
            _ = self.ticker.tick() => {}
            _ = &mut self.ctrl_c => return None,
        }
        if self.stop_at.is_some_and(|d| self.started.elapsed() >= d) {
            return None;
        }
        self.budget += self.rate * Self::TICK.as_secs_f64();
        Some(self.budget)
    }

    /// What was left of the tick's allowance.
    pub(crate) fn keep(&mut self, budget: f64) {
        self.budget = budget;
    }
}

/// Most events in one batch of one machine.
const MAX_BATCH: usize = 8;
/// Batches kept for re-sending.
const RETRY_POOL: usize = 200;
/// A batch already sent is re-sent after every this many new ones.
const RETRY_EVERY: usize = 6;
/// Error messages printed before going quiet.
const MAX_REPORTED: usize = 10;

/// A live machine: its id, secret and simulator.
pub(crate) struct Live {
    pub(crate) id: String,
    pub(crate) secret: String,
    pub(crate) sim: MachineSim,
}

/// A plain HTTP/1.1 client keeping one connection alive.
struct Http {
    host: String,
    port: u16,
    prefix: String,
    sender: Option<SendRequest<Full<Bytes>>>,
}

impl Http {
    fn new(url: &str) -> Result<Http, BoxError> {
        let rest = url
            .trim()
            .strip_prefix("http://")
            .ok_or("--url must start with http:// (plain HTTP)")?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
            None => (rest, ""),
        };
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), p.parse().map_err(|_| "bad port in --url")?),
            None => (authority.to_string(), 80),
        };
        if host.is_empty() {
            return Err("no host in --url".into());
        }
        Ok(Http {
            host,
            port,
            prefix: path.to_string(),
            sender: None,
        })
    }

    async fn connect(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, BoxError> {
        if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
            let stream = tokio::net::TcpStream::connect((self.host.as_str(), self.port)).await?;
            stream.set_nodelay(true)?;
            let (sender, conn) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(async move {
                let _ = conn.await;
            });
            self.sender = Some(sender);
        }
        self.sender.as_mut().ok_or_else(|| "no connection".into())
    }

    /// POSTs `body` to `path` with `headers`; the status and the body of the answer.
    async fn post(
        &mut self,
        path: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> Result<(u16, Vec<u8>), BoxError> {
        let uri = format!("{}{path}", self.prefix);
        let host = format!("{}:{}", self.host, self.port);
        let mut last: Option<BoxError> = None;
        // One reconnection: a kept-alive connection the server closed meanwhile.
        for _ in 0..2 {
            let mut req = hyper::Request::post(&uri)
                .header(hyper::header::HOST, &host)
                .header(hyper::header::CONTENT_TYPE, "application/json");
            for (name, value) in headers {
                req = req.header(*name, value);
            }
            let req = req.body(Full::new(Bytes::from(body.clone())))?;
            let sender = match self.connect().await {
                Ok(s) => s,
                Err(e) => {
                    last = Some(e);
                    continue;
                }
            };
            match sender.send_request(req).await {
                Ok(res) => {
                    let status = res.status().as_u16();
                    let bytes = res.into_body().collect().await?.to_bytes();
                    return Ok((status, bytes.to_vec()));
                }
                Err(e) => {
                    self.sender = None;
                    last = Some(e.into());
                }
            }
        }
        Err(last.unwrap_or_else(|| "request failed".into()))
    }
}

/// Running totals.
#[derive(Debug, Default)]
struct Tally {
    batches: usize,
    events: usize,
    retries: usize,
    retried_events: usize,
    accepted: usize,
    duplicates: usize,
    rejected: usize,
    failed_requests: usize,
    reported: usize,
}

impl Tally {
    fn line(&self) -> String {
        format!(
            "accepted {}, duplicates {}, rejected {} ({} events in {} batches, {} retries re-sending {} events, {} failed requests)",
            self.accepted,
            self.duplicates,
            self.rejected,
            self.events,
            self.batches,
            self.retries,
            self.retried_events,
            self.failed_requests
        )
    }

    fn report(&mut self, message: String) {
        if self.reported < MAX_REPORTED {
            eprintln!("simulate: {message}");
        }
        self.reported += 1;
    }
}

/// Loads the machines of the data directory as live simulators.
pub(crate) async fn machines(app: &App, seed: u64, run: i64) -> Result<Vec<Live>, BoxError> {
    let names: HashMap<String, String> = app
        .products
        .products()
        .all()
        .await
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect();
    let mut all = app
        .machines
        .machines()
        .all()
        .await
        .map_err(|e| e.to_string())?;
    all.retain(|m| !m.inactive && !m.webhook_secret.is_empty());
    all.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
    let mut out = Vec::new();
    for (i, m) in all.into_iter().enumerate() {
        let Some(ctx) = app
            .machines
            .intake_context(&m.id)
            .await
            .map_err(|e| e.to_string())?
        else {
            continue;
        };
        if ctx.selections.is_empty() {
            continue;
        }
        let status = app.events.status(&m.id).await.map_err(|e| e.to_string())?;
        let site = ctx
            .location
            .as_ref()
            .map_or(Site::Office, |l| Site::from_label(&l.location_type));
        let mut rng = StdRng::seed_from_u64(mix(seed ^ 0x5eed, i as u64));
        let slots = ctx
            .selections
            .iter()
            .map(|s| {
                Slot::new(
                    s.selection.clone(),
                    names.get(&s.product_id).cloned().unwrap_or_default(),
                    s.max,
                    s.current,
                    s.price_minor,
                    (crate::demo::sim::normal(&mut rng) * 0.5).exp(),
                )
            })
            .collect();
        let int = |field: &str| status.as_ref().and_then(|s| s.int(field));
        let mut cash = Cash::new(
            int("tubes_minor").unwrap_or(4000).clamp(0, 8000),
            m.peripherals.bill_validator.fitted,
        );
        cash.cash_box = int("cash_box_minor").unwrap_or(0).max(0);
        cash.bill_stacker = int("bill_stacker_minor").unwrap_or(0).max(0);
        let short: String = if m.serial.is_empty() {
            &m.id
        } else {
            &m.serial
        }
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(30)
        .collect();
        let setup = Setup {
            id_prefix: format!("{short}-L{run:x}"),
            serial: short,
            model: String::new(),
            location: ctx
                .location
                .as_ref()
                .map(|l| l.name.clone())
                .unwrap_or_default(),
            kind: crate::demo::sim::Kind::Snack,
            site,
            italian: ctx.zone == chrono_tz::Europe::Rome,
            zone: ctx.zone,
            refiller: ctx.location.as_ref().and_then(|l| l.refiller_id.clone()),
            daily: site.base_daily(),
            cashless_share: site.cashless_share(),
            audits: true,
            collect_at: 8000,
        };
        out.push(Live {
            id: m.id.clone(),
            secret: m.webhook_secret.clone(),
            sim: MachineSim::new(setup, slots, cash, mix(seed, i as u64), 0),
        });
    }
    Ok(out)
}

/// A small batch of one machine's events, the latest `now`: vends mostly, then what the
/// machine's state calls for, and now and then telemetry or an audit.
pub(crate) fn batch(
    sim: &mut MachineSim,
    size: usize,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<MachineEvent> {
    let mut out = Vec::with_capacity(size + 2);
    let mut at =
        now - chrono::Duration::seconds(sim.rng.random_range(size as i64..=size as i64 * 8));
    for _ in 0..size {
        at = (at + chrono::Duration::seconds(sim.rng.random_range(1..=8))).min(now);
        let roll: f64 = sim.rng.random();
        if roll < 0.04 {
            out.push(sim.telemetry(at));
        } else if roll < 0.045 {
            out.push(sim.audit(at));
        } else if sim.needs_collection(at) && roll < 0.06 {
            out.push(sim.collect(at));
        } else {
            match sim.vend(at) {
                Some(v) => out.push(v),
                None => out.extend(sim.refill(at)),
            }
        }
        // Refill when a fifth of the selections run low (sooner than the seeded routes).
        let low = sim.slots.iter().filter(|s| s.current * 4 <= s.max).count();
        if low * 5 >= sim.slots.len().max(1) {
            out.extend(sim.refill(at));
        }
    }
    out
}

/// `vendfleet simulate`.
pub async fn run(args: Args) -> Result<(), BoxError> {
    if !(args.rate > 0.0 && args.rate <= 10_000.0) {
        return Err("--rate must be above 0 and at most 10000 events a second".into());
    }
    let url = args.url.clone().ok_or("give --url (or --nayax)")?;
    let mut http = Http::new(&url)?;
    let db = args.data.join(vendfleet_adapters_embedded::DATABASE_FILE);
    if !db.is_file() {
        return Err(format!("no database at {}: give the server's --data", db.display()).into());
    }
    let embedded = Embedded::open(&args.data, b"vendfleet-simulate")?;
    let app = App::new(
        embedded.adapters(),
        Arc::new(SystemClock),
        AuthSettings::with_secret(Secret::new(vec![0u8; 32])),
        Default::default(),
    );
    let run_id = chrono::Utc::now().timestamp();
    let mut live = machines(&app, args.seed, run_id).await?;
    if live.is_empty() {
        return Err(format!(
            "no active machine with a planogram in {}: seed one first (`vendfleet seed-demo`)",
            args.data.display()
        )
        .into());
    }
    println!(
        "Simulating {} machines at about {} events a second against {} (Ctrl-C stops)",
        live.len(),
        args.rate,
        url
    );
    let mut rng = StdRng::seed_from_u64(args.seed);
    let mut tally = Tally::default();
    let mut pool: Vec<(usize, Vec<u8>, usize)> = Vec::new();
    let mut pace = Pace::new(args.rate, args.duration);
    let mut last_print = Instant::now();
    while let Some(mut budget) = pace.next().await {
        while budget >= 1.0 {
            let m = rng.random_range(0..live.len());
            let size = rng.random_range(1..=MAX_BATCH).min(budget as usize).max(1);
            let now = chrono::Utc::now();
            let events = batch(&mut live[m].sim, size, now);
            budget -= size as f64;
            if events.is_empty() {
                continue;
            }
            let body = serde_json::to_vec(&serde_json::json!({ "events": events }))?;
            tally.batches += 1;
            tally.events += events.len();
            send(&mut http, &live[m], body.clone(), events.len(), &mut tally).await;
            pool.push((m, body, events.len()));
            if pool.len() > RETRY_POOL {
                pool.remove(0);
            }
            if tally.batches % RETRY_EVERY == 0 {
                // A retry: the same body (same ids), signed again with a new timestamp.
                let (m, body, n) = pool[rng.random_range(0..pool.len())].clone();
                tally.retries += 1;
                tally.retried_events += n;
                send(&mut http, &live[m], body, n, &mut tally).await;
            }
        }
        pace.keep(budget);
        if last_print.elapsed() >= Duration::from_secs(1) {
            last_print = Instant::now();
            println!(
                "[{:>5.0} s] {}",
                pace.started.elapsed().as_secs_f64(),
                tally.line()
            );
        }
    }
    println!("simulate: {}", tally.line());
    Ok(())
}

/// Signs and posts one batch, counting the answer.
async fn send(http: &mut Http, m: &Live, body: Vec<u8>, events: usize, tally: &mut Tally) {
    let ts = chrono::Utc::now().timestamp();
    let signature = sign(m.secret.as_bytes(), ts, &body);
    let path = format!("/webhooks/machines/{}/events", m.id);
    let headers = [
        (TIMESTAMP_HEADER, ts.to_string()),
        (SIGNATURE_HEADER, signature),
    ];
    match http.post(&path, &headers, body).await {
        Ok((200, reply)) => {
            let v: serde_json::Value = serde_json::from_slice(&reply).unwrap_or_default();
            let data = &v["data"];
            let count = |k: &str| data[k].as_u64().unwrap_or(0) as usize;
            tally.accepted += count("accepted");
            tally.duplicates += count("duplicates");
            let rejected = data["rejected"].as_array().cloned().unwrap_or_default();
            tally.rejected += rejected.len();
            for r in rejected {
                tally.report(format!("machine {}: rejected {r}", m.id));
            }
        }
        Ok((status, reply)) => {
            tally.rejected += events;
            tally.failed_requests += 1;
            tally.report(format!(
                "machine {}: HTTP {status}: {}",
                m.id,
                String::from_utf8_lossy(&reply)
            ));
        }
        Err(e) => {
            tally.failed_requests += 1;
            tally.report(format!("machine {}: {e}", m.id));
        }
    }
}
