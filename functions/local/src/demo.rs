//! `vendfleet seed-demo`: a demo fleet with a history, for a first look at the product.
//!
//! The catalogue — clients, locations in eight French and Italian cities, models, products with
//! their VAT, refillers on routes, machines with planograms — is made through the application
//! services, so every rule and validation applies. The history is machine events (vends,
//! refills, cash collections, telemetry, audits) applied through `app.events.apply`, the code
//! that applies live webhook events: stock, ledger, rollups, refill log and encashments agree.
//!
//! Deterministic for a seed: the same seed and the same clock instant give the same catalogue
//! (names, planograms, prices) and the same events with the same ids. The ids of the records
//! the services make (ULIDs) differ from run to run.

mod audit;
mod catalogue;
mod data;
mod history;
mod settlements;
pub mod sim;

pub(crate) use options::Options;
use std::time::{Duration, Instant};
use tokio::task::JoinSet;
use vendfleet_app::auth::Principal;
use vendfleet_app::{App, AppError};
use vendfleet_domain::events::{EventKind, MachineEvent, VendClass, MAX_EVENTS};

/// Machines whose history is worked out and applied at once. The single SQLite writer is the
/// bottleneck; enough machines in flight keep it busy while others prepare their commits (8:
/// 24 s for the default demo on two cores, 3: 30 s).
const PARALLEL_MACHINES: usize = 8;

/// Counts of the events of a history.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub events: usize,
    /// Paid vends (sales).
    pub sales: usize,
    pub free_vends: usize,
    pub test_vends: usize,
    pub revenue_minor: i64,
    pub refills: usize,
    pub collections: usize,
    pub telemetry: usize,
    pub audits: usize,
}

impl Counts {
    /// The counts of `events`.
    pub fn of(events: &[MachineEvent]) -> Counts {
        let mut c = Counts {
            events: events.len(),
            ..Counts::default()
        };
        for e in events {
            match &e.kind {
                EventKind::Vend(v) => match v.class() {
                    VendClass::Sale => {
                        c.sales += 1;
                        c.revenue_minor += v.revenue_minor();
                    }
                    VendClass::Free => c.free_vends += 1,
                    VendClass::Test => c.test_vends += 1,
                },
                EventKind::Refill(_) => c.refills += 1,
                EventKind::CashCollection(_) => c.collections += 1,
                EventKind::Telemetry(_) => c.telemetry += 1,
                EventKind::Dex { .. } => c.audits += 1,
            }
        }
        c
    }

    fn add(&mut self, o: &Counts) {
        self.events += o.events;
        self.sales += o.sales;
        self.free_vends += o.free_vends;
        self.test_vends += o.test_vends;
        self.revenue_minor += o.revenue_minor;
        self.refills += o.refills;
        self.collections += o.collections;
        self.telemetry += o.telemetry;
        self.audits += o.audits;
    }
}

/// What a seeding made, and how long it took.
#[derive(Debug, Clone)]
pub struct Summary {
    pub options: Options,
    pub machines: usize,
    pub locations: usize,
    pub clients: usize,
    pub products: usize,
    pub refillers: usize,
    pub history: Counts,
    /// Last month's settlement file imported: its name and rows.
    pub settlement: (String, usize),
    pub catalogue_time: Duration,
    pub history_time: Duration,
}

/// `1234567` as `1,234,567`.
fn thousands(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let head = digits.len() % 3;
    let mut parts: Vec<&str> = Vec::new();
    if head > 0 {
        parts.push(&digits[..head]);
    }
    for i in (head..digits.len()).step_by(3) {
        parts.push(&digits[i..i + 3]);
    }
    let out = parts.join(",");
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let h = &self.history;
        let total = self.catalogue_time + self.history_time;
        let per_day = if self.machines > 0 {
            h.sales as f64 / (self.machines as f64 * f64::from(self.options.days))
        } else {
            0.0
        };
        writeln!(
            f,
            "Seeded the demo fleet (seed {}) in {:.1} s: {} machines at {} locations, {} clients, {} new products, {} refillers",
            self.options.seed,
            total.as_secs_f64(),
            self.machines,
            self.locations,
            self.clients,
            self.products,
            self.refillers,
        )?;
        writeln!(
            f,
            "  catalogue through the services in {:.1} s",
            self.catalogue_time.as_secs_f64()
        )?;
        write!(
            f,
            "  {} days of history in {:.1} s: {} events ({:.0} a second) — {} sales ({:.1} per machine a day, € {}.{:02}), {} free and {} test vends, {} refills, {} cash collections, {} telemetry readings, {} audits",
            self.options.days,
            self.history_time.as_secs_f64(),
            thousands(h.events as i64),
            h.events as f64 / self.history_time.as_secs_f64().max(1e-9),
            thousands(h.sales as i64),
            per_day,
            thousands(h.revenue_minor / 100),
            h.revenue_minor % 100,
            h.free_vends,
            h.test_vends,
            thousands(h.refills as i64),
            thousands(h.collections as i64),
            thousands(h.telemetry as i64),
            h.audits,
        )?;
        write!(
            f,
            "\n  card settlements: last month's file {} imported ({} rows)",
            self.settlement.0, self.settlement.1
        )
    }
}

fn err(e: AppError) -> String {
    format!("seeding the demo fleet: {e}")
}

/// Whether the fleet already has machines (the demo is only seeded into an empty fleet).
pub async fn fleet_is_empty(app: &App) -> Result<bool, String> {
    Ok(app.machines.machines().all().await.map_err(err)?.is_empty())
}

/// Seeds the catalogue and `opts.days` days of history ending at the clock's now, acting as
/// `admin`. The caller checks that the fleet is empty.
pub async fn seed(app: &App, admin: &Principal, opts: Options) -> Result<Summary, String> {
    if opts.machines == 0 || opts.days == 0 {
        return Err("seeding the demo fleet: give at least one machine and one day".into());
    }
    let now = app.clock.now();
    let started = Instant::now();
    let plan = catalogue::plan(&opts, now);
    let made = catalogue::make(app, admin, &opts, &plan).await?;
    let catalogue_time = started.elapsed();
    let started = Instant::now();
    let mut totals = Counts::default();
    let mut running: JoinSet<Result<Counts, String>> = JoinSet::new();
    let machines = made.machines.len();
    for (id, mut sim) in made.machines {
        while running.len() >= PARALLEL_MACHINES {
            if let Some(done) = running.join_next().await {
                totals.add(&done.map_err(|e| format!("seeding the demo fleet: {e}"))??);
            }
        }
        let app = app.clone();
        let days = opts.days;
        running.spawn(async move {
            let events = history::events(&mut sim, days, now);
            let counts = Counts::of(&events);
            for chunk in events.chunks(MAX_EVENTS) {
                app.events.apply(&id, chunk).await.map_err(err)?;
            }
            Ok(counts)
        });
    }
    while let Some(done) = running.join_next().await {
        totals.add(&done.map_err(|e| format!("seeding the demo fleet: {e}"))??);
    }
    let settlement = settlements::seed(app, admin, opts.seed).await?;
    Ok(Summary {
        options: opts,
        machines,
        locations: made.locations,
        clients: made.clients,
        products: made.products,
        refillers: made.refillers,
        history: totals,
        settlement,
        catalogue_time,
        history_time: started.elapsed(),
    })
}

mod options;
#[cfg(test)]
mod tests;
