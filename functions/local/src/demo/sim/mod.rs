//! One vending machine's behaviour, shared by the seeded history (`seed-demo`) and the live
//! simulator (`simulate`): stock per selection, the cash it holds (coin tubes, cash box, bill
//! stacker) and its audit counters, and the machine events each action produces.
//!
//! Everything random comes from the machine's own seeded generator, so a machine's events depend
//! only on the seed, the machine's index and the instants it is asked about.

use super::audit::{self, AuditCounters, CashFigures, CoinTube, SelectionAudit};
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, Utc};
use chrono_tz::Tz;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use vendfleet_domain::events::{
    CashCollection, EventKind, MachineEvent, Payment, Refill, RefillLine, Telemetry, Vend,
};

mod cash;
mod demand;

pub use cash::*;
pub use demand::*;

/// Vend counters: count and value, since the machine was initialised and since the last read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counter {
    pub count_init: u64,
    pub value_init: u64,
    pub count_reset: u64,
    pub value_reset: u64,
}

impl Counter {
    fn add(&mut self, count: u64, value: u64) {
        self.count_init += count;
        self.value_init += value;
        self.count_reset += count;
        self.value_reset += value;
    }

    fn reset(&mut self) {
        self.count_reset = 0;
        self.value_reset = 0;
    }

    /// As the audit writes it.
    pub fn audit(&self) -> AuditCounters {
        AuditCounters {
            count_init: self.count_init,
            value_init: self.value_init,
            count_reset: self.count_reset,
            value_reset: self.value_reset,
        }
    }
}

/// One selection of the planogram as the machine knows it.
#[derive(Debug, Clone)]
pub struct Slot {
    pub code: String,
    /// Product name, for the audit file.
    pub name: String,
    pub max: i64,
    pub current: i64,
    pub price: i64,
    /// Relative popularity.
    pub weight: f64,
    pub paid: Counter,
    pub test: Counter,
    pub free: Counter,
    /// Vend attempts that found the selection empty since the last read, and the last one.
    pub sold_out: u64,
    pub sold_out_at: Option<DateTime<FixedOffset>>,
}

impl Slot {
    /// A selection with empty counters.
    pub fn new(
        code: String,
        name: String,
        max: i64,
        current: i64,
        price: i64,
        weight: f64,
    ) -> Self {
        Slot {
            code,
            name,
            max,
            current,
            price,
            weight,
            paid: Counter::default(),
            test: Counter::default(),
            free: Counter::default(),
            sold_out: 0,
            sold_out_at: None,
        }
    }
}

/// How a machine is set up: everything but its running state.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Prefix of its event ids (unique per machine: its serial).
    pub id_prefix: String,
    pub serial: String,
    pub model: String,
    pub location: String,
    pub kind: Kind,
    pub site: Site,
    pub italian: bool,
    pub zone: Tz,
    pub refiller: Option<String>,
    /// Average vends on a working day.
    pub daily: f64,
    pub cashless_share: f64,
    /// Whether the refiller reads an audit (DEX) at each visit.
    pub audits: bool,
    /// Cash in the box and stacker that calls for a collection.
    pub collect_at: i64,
}

/// A machine and its state.
pub struct MachineSim {
    pub setup: Setup,
    pub slots: Vec<Slot>,
    pub cash: Cash,
    pub rng: StdRng,
    seq: u64,
    bags: u64,
    signal: i32,
    /// A fault reported by the last telemetry, cleared by the next.
    fault: bool,
    pub last_refill: Option<DateTime<Utc>>,
    pub last_collection: Option<DateTime<Utc>>,
    reads: u64,
    last_read: Option<DateTime<FixedOffset>>,
    cashless: Counter,
    cash_sales: Counter,
}

impl MachineSim {
    /// A machine with its selections and cash, its events numbered from `first_seq`.
    pub fn new(setup: Setup, slots: Vec<Slot>, cash: Cash, seed: u64, first_seq: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let signal = rng.random_range(-92..-58);
        MachineSim {
            setup,
            slots,
            cash,
            rng,
            seq: first_seq,
            bags: 0,
            signal,
            fault: false,
            last_refill: None,
            last_collection: None,
            reads: 0,
            last_read: None,
            cashless: Counter::default(),
            cash_sales: Counter::default(),
        }
    }

    /// The next event id.
    fn next_id(&mut self) -> String {
        self.seq += 1;
        format!("{}-{:07}", self.setup.id_prefix, self.seq)
    }

    /// `at` with the offset of the machine's zone, as a machine sends it.
    pub fn local(&self, at: DateTime<Utc>) -> DateTime<FixedOffset> {
        at.with_timezone(&self.setup.zone).fixed_offset()
    }

    fn event(&mut self, at: DateTime<Utc>, kind: EventKind) -> MachineEvent {
        MachineEvent {
            id: self.next_id(),
            at: self.local(at),
            kind,
        }
    }

    /// A customer's vend at `at`: a selection drawn by popularity among those with stock left.
    /// `None` when the machine is sold out of everything (the customer walks away).
    pub fn vend(&mut self, at: DateTime<Utc>) -> Option<MachineEvent> {
        let pick = weighted(
            &mut self.rng,
            self.slots
                .iter()
                .map(|s| if s.current > 0 { s.weight } else { 0.0 }),
        );
        // Someone wanted a selection that is empty: the audit counts a sold-out attempt.
        let wanted = weighted(&mut self.rng, self.slots.iter().map(|s| s.weight));
        if let Some(w) = wanted {
            if self.slots[w].current <= 0 {
                let local = self.local(at);
                let slot = &mut self.slots[w];
                slot.sold_out += 1;
                slot.sold_out_at = Some(local);
            }
        }
        let i = pick?;
        // A free vend now and then (a refund, a promotion); test vends come with refills.
        let free = self.rng.random_bool(0.004);
        let quantity = if self.setup.kind == Kind::Snack
            && self.slots[i].current >= 2
            && self.rng.random_bool(0.01)
        {
            2
        } else {
            1
        };
        let cashless = self.rng.random_bool(self.setup.cashless_share);
        Some(self.vend_of(i, at, quantity, cashless, free, false))
    }

    /// A vend of `quantity` units of selection `i` (stock, cash and counters follow).
    pub fn vend_of(
        &mut self,
        i: usize,
        at: DateTime<Utc>,
        quantity: u32,
        cashless: bool,
        free: bool,
        test: bool,
    ) -> MachineEvent {
        let price = self.slots[i].price;
        let q = u64::from(quantity);
        let value = price.max(0) as u64 * q;
        {
            let slot = &mut self.slots[i];
            slot.current -= i64::from(quantity);
            if test {
                slot.test.add(q, value);
            } else if free {
                slot.free.add(q, value);
            } else {
                slot.paid.add(q, value);
            }
        }
        let payment = if cashless {
            Payment::Cashless
        } else {
            Payment::Cash
        };
        if !free && !test {
            if cashless {
                self.cashless.add(1, value);
            } else {
                self.cash_sales.add(1, value);
                for _ in 0..quantity {
                    self.cash.pay(price, &mut self.rng);
                }
            }
        }
        let code = self.slots[i].code.clone();
        self.event(
            at,
            EventKind::Vend(Vend {
                selection: code,
                price_minor: price,
                quantity,
                payment,
                product_id: None,
                free,
                test,
            }),
        )
    }

    /// Whether the stock calls for a refill: a selection sold out, a fifth of them low, or a
    /// week since the last refill with anything sold.
    pub fn needs_refill(&self, at: DateTime<Utc>) -> bool {
        let low = self.slots.iter().filter(|s| s.current * 4 <= s.max).count();
        let empty = self.slots.iter().any(|s| s.current <= 0);
        let week = self
            .last_refill
            .is_none_or(|l| at - l >= chrono::Duration::days(7))
            && self.slots.iter().any(|s| s.current < s.max);
        empty || low >= (self.slots.len() / 5).max(2) || week
    }

    /// A route refill at `at`: every selection back to max, now and then a damaged unit
    /// removed. `None` when nothing changes.
    pub fn refill(&mut self, at: DateTime<Utc>) -> Option<MachineEvent> {
        let mut lines = Vec::new();
        for i in 0..self.slots.len() {
            let removed = if self.slots[i].current > 0 && self.rng.random_bool(0.015) {
                1
            } else {
                0
            };
            let s = &mut self.slots[i];
            let added = s.max - (s.current - removed);
            if added <= 0 && removed == 0 {
                continue;
            }
            let added = added.max(0);
            s.current += added - removed;
            lines.push(RefillLine {
                selection: s.code.clone(),
                added: added as u32,
                removed: removed as u32,
            });
        }
        if lines.is_empty() {
            return None;
        }
        self.last_refill = Some(at);
        let employee_id = self.setup.refiller.clone();
        Some(self.event(
            at,
            EventKind::Refill(Refill {
                employee_id,
                source: "route".into(),
                lines,
            }),
        ))
    }

    /// A test vend by the refiller after a refill, now and then.
    pub fn maybe_test_vend(&mut self, at: DateTime<Utc>) -> Option<MachineEvent> {
        if !self.rng.random_bool(0.15) {
            return None;
        }
        let i = self.rng.random_range(0..self.slots.len());
        (self.slots[i].current > 0).then(|| self.vend_of(i, at, 1, false, false, true))
    }

    /// Whether the cash calls for a collection.
    pub fn needs_collection(&self, at: DateTime<Utc>) -> bool {
        let held = self.cash.cash_box + self.cash.bill_stacker;
        held >= self.setup.collect_at
            || (held > 0
                && self
                    .last_collection
                    .is_none_or(|l| at - l >= chrono::Duration::days(14)))
    }

    /// A cash collection at `at`: the bag takes the cash box and the bill stacker; coins are
    /// ejected from or added to the tubes to bring them back near the float. `tubes_minor` is
    /// what the tubes held when the refiller opened the machine.
    pub fn collect(&mut self, at: DateTime<Utc>) -> MachineEvent {
        let tubes = self.cash.tubes_value();
        let float = self.cash.float;
        let (ejected, refilled) = if tubes > float + 1500 {
            (self.cash.eject_to(float), 0)
        } else if tubes < float - 1500 {
            (0, self.cash.fill_tubes_to(float))
        } else {
            (0, 0)
        };
        let t = Totals {
            manual_out: ejected as u64,
            manual_fill: refilled as u64,
            ..Totals::default()
        };
        self.cash.note(t);
        let (cash_box, bill_stacker) = (self.cash.cash_box, self.cash.bill_stacker);
        let mut collected = cash_box + bill_stacker + ejected;
        // Now and then the count at the depot differs a little from the machine's.
        if collected > 1000 && self.rng.random_bool(0.03) {
            collected -= self.rng.random_range(1..=15) * 10;
        }
        self.cash.cash_box = 0;
        self.cash.bill_stacker = 0;
        self.bags += 1;
        self.last_collection = Some(at);
        let bag_no = format!("BAG-{}-{:04}", self.setup.serial, self.bags);
        let employee_id = self.setup.refiller.clone();
        self.event(
            at,
            EventKind::CashCollection(CashCollection {
                bag_no,
                employee_id,
                cash_box_minor: cash_box,
                bill_stacker_minor: bill_stacker,
                tubes_minor: tubes,
                ejected_minor: ejected,
                refilled_coins_minor: refilled,
                collected_minor: collected,
            }),
        )
    }

    /// The modem's reading: status, signal, power and the cash the machine holds.
    pub fn telemetry(&mut self, at: DateTime<Utc>) -> MachineEvent {
        self.signal = (self.signal + self.rng.random_range(-4..=4)).clamp(-105, -51);
        let status = if self.fault {
            self.fault = false;
            "ok"
        } else if self.rng.random_bool(0.01) {
            self.fault = true;
            ["coin jam", "door open", "bill validator fault"][self.rng.random_range(0..3)]
        } else {
            "ok"
        };
        let t = Telemetry {
            status: Some(status.into()),
            power: Some("mains".into()),
            signal: Some(self.signal),
            cash_box_minor: Some(self.cash.cash_box),
            bill_stacker_minor: Some(self.cash.bill_stacker),
            tubes_minor: Some(self.cash.tubes_value()),
            ..Telemetry::default()
        };
        self.event(at, EventKind::Telemetry(t))
    }

    /// An EVA-DTS audit read at `at` (the since-reset counters start again after it).
    pub fn audit(&mut self, at: DateTime<Utc>) -> MachineEvent {
        let local = self.local(at);
        self.reads += 1;
        let tubes: Vec<CoinTube> = TUBE_COINS
            .iter()
            .enumerate()
            .map(|(i, v)| CoinTube {
                value_minor: *v as u64,
                coins: self.cash.tubes[i] as u64,
                filled: self.cash.filled[i],
                dispensed: self.cash.dispensed[i],
            })
            .collect();
        let selections: Vec<SelectionAudit> = self
            .slots
            .iter()
            .map(|s| SelectionAudit {
                id: s.code.clone(),
                name: s.name.clone(),
                price_minor: s.price.max(0) as u64,
                capacity: s.max.max(0) as u64,
                level: s.current.max(0) as u64,
                paid: s.paid.audit(),
                test: s.test.audit(),
                free: s.free.audit(),
                sold_out: (s.sold_out > 0).then(|| {
                    let at = s.sold_out_at.unwrap_or(local);
                    (at, s.sold_out)
                }),
            })
            .collect();
        let sum = |f: fn(&Slot) -> &Counter| {
            let mut c = Counter::default();
            for s in &self.slots {
                let x = f(s);
                c.count_init += x.count_init;
                c.value_init += x.value_init;
                c.count_reset += x.count_reset;
                c.value_reset += x.value_reset;
            }
            c.audit()
        };
        let cash = CashFigures {
            cash_sales: self.cash_sales.audit(),
            cashless: self.cashless.audit(),
            in_reset: [
                self.cash.since_reset.in_total,
                self.cash.since_reset.to_box,
                self.cash.since_reset.to_tubes,
                self.cash.since_reset.bills,
            ],
            in_init: [
                self.cash.since_init.in_total,
                self.cash.since_init.to_box,
                self.cash.since_init.to_tubes,
                self.cash.since_init.bills,
            ],
            out: [
                self.cash.since_reset.change,
                self.cash.since_reset.manual_out,
                self.cash.since_init.change,
                self.cash.since_init.manual_out,
            ],
            manual_fill: [
                self.cash.since_reset.manual_fill,
                self.cash.since_init.manual_fill,
            ],
            tubes_value: self.cash.tubes_value().max(0) as u64,
            tubes,
        };
        let content = audit::render(&audit::AuditInput {
            serial: &self.setup.serial,
            model: &self.setup.model,
            location: &self.setup.location,
            selections: &selections,
            paid: sum(|s| &s.paid),
            test: sum(|s| &s.test),
            free: sum(|s| &s.free),
            cash,
            reads: self.reads,
            read_at: local,
            last_read: self.last_read,
        });
        for s in &mut self.slots {
            s.paid.reset();
            s.test.reset();
            s.free.reset();
            s.sold_out = 0;
            s.sold_out_at = None;
        }
        self.cashless.reset();
        self.cash_sales.reset();
        self.cash.since_reset = Totals::default();
        self.last_read = Some(local);
        self.event(at, EventKind::Dex { content })
    }
}
