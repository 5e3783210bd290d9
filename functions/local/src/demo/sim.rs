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

/// What a machine sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Snack,
    ColdDrinks,
    Coffee,
}

impl Kind {
    /// How much busier than the site's average this kind of machine is.
    pub fn factor(self) -> f64 {
        match self {
            Kind::Snack => 0.95,
            Kind::ColdDrinks => 0.85,
            Kind::Coffee => 1.2,
        }
    }
}

/// The kind of site a location is: it shapes the day, the week and the payment mix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Site {
    Station,
    Hospital,
    Office,
    School,
    University,
    Factory,
    Gym,
}

/// Relative sales per local hour (0–23) by site.
const HOURS: [[f64; 24]; 7] = [
    // Station: commuter peaks, some night trade.
    [
        1.0, 0.5, 0.3, 0.2, 0.5, 3.0, 8.0, 12.0, 11.0, 7.0, 6.0, 6.0, 8.0, 7.0, 5.0, 5.0, 7.0,
        11.0, 12.0, 9.0, 6.0, 4.0, 3.0, 2.0,
    ],
    // Hospital: all day, visitors in the afternoon, a night shift.
    [
        1.5, 1.0, 0.8, 0.6, 0.6, 1.0, 3.0, 6.0, 8.0, 9.0, 10.0, 9.0, 10.0, 9.0, 8.0, 8.0, 7.0, 6.0,
        5.0, 4.0, 3.0, 3.0, 2.0, 2.0,
    ],
    // Office: working hours, coffee at 10 and after lunch.
    [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3, 3.0, 9.0, 11.0, 12.0, 9.0, 10.0, 12.0, 10.0, 9.0, 8.0,
        5.0, 2.0, 0.8, 0.2, 0.0, 0.0, 0.0,
    ],
    // School: breaks and lunch.
    [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 6.0, 7.0, 12.0, 6.0, 10.0, 11.0, 5.0, 7.0, 9.0,
        4.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    ],
    // University: long days.
    [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 2.0, 6.0, 10.0, 12.0, 11.0, 12.0, 12.0, 9.0, 9.0, 10.0,
        8.0, 5.0, 3.0, 1.0, 0.3, 0.0, 0.0,
    ],
    // Factory: three shifts.
    [
        3.0, 2.5, 2.0, 2.0, 3.0, 8.0, 10.0, 6.0, 5.0, 6.0, 6.0, 5.0, 7.0, 9.0, 7.0, 6.0, 5.0, 4.0,
        4.0, 4.0, 5.0, 7.0, 8.0, 5.0,
    ],
    // Gym: before work, lunch, evenings.
    [
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 6.0, 7.0, 4.0, 3.0, 4.0, 7.0, 6.0, 3.0, 3.0, 4.0, 8.0,
        11.0, 12.0, 10.0, 6.0, 2.0, 0.0,
    ],
];

/// Relative sales per weekday (Monday first) by site; public holidays count as Sundays.
const WEEK: [[f64; 7]; 7] = [
    [1.0, 1.0, 1.0, 1.0, 1.1, 0.9, 0.8],
    [1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.75],
    [1.0, 1.05, 1.05, 1.0, 0.85, 0.08, 0.04],
    [1.0, 1.0, 0.8, 1.0, 0.95, 0.1, 0.0],
    [1.0, 1.05, 1.05, 1.0, 0.85, 0.25, 0.1],
    [1.0, 1.0, 1.0, 1.0, 0.95, 0.45, 0.2],
    [1.0, 0.95, 1.0, 0.95, 0.85, 1.1, 0.9],
];

/// Days the route calls at a site (Monday first).
const ROUTE_DAYS: [[bool; 7]; 7] = [
    [true, true, true, true, true, true, false],
    [true, true, true, true, true, true, false],
    [true, false, true, false, true, false, false],
    [true, false, true, false, true, false, false],
    [true, false, true, false, true, false, false],
    [true, true, false, true, true, false, false],
    [false, true, false, true, false, true, false],
];

impl Site {
    /// Every site kind.
    pub const ALL: [Site; 7] = [
        Site::Station,
        Site::Hospital,
        Site::Office,
        Site::School,
        Site::University,
        Site::Factory,
        Site::Gym,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// The location type as stored on the location.
    pub fn label(self) -> &'static str {
        match self {
            Site::Station => "Station",
            Site::Hospital => "Hospital",
            Site::Office => "Office",
            Site::School => "School",
            Site::University => "University",
            Site::Factory => "Factory",
            Site::Gym => "Gym",
        }
    }

    /// The site of a stored location type (offices for anything else).
    pub fn from_label(label: &str) -> Site {
        Site::ALL
            .into_iter()
            .find(|s| s.label().eq_ignore_ascii_case(label.trim()))
            .unwrap_or(Site::Office)
    }

    /// Average vends a day on a working day, before the machine's kind and own noise.
    pub fn base_daily(self) -> f64 {
        match self {
            Site::Station => 46.0,
            Site::Hospital => 38.0,
            Site::Office => 32.0,
            Site::School => 26.0,
            Site::University => 38.0,
            Site::Factory => 34.0,
            Site::Gym => 24.0,
        }
    }

    /// Share of sales paid cashless.
    pub fn cashless_share(self) -> f64 {
        match self {
            Site::Station => 0.60,
            Site::Hospital => 0.55,
            Site::Office => 0.63,
            Site::School => 0.46,
            Site::University => 0.58,
            Site::Factory => 0.48,
            Site::Gym => 0.62,
        }
    }

    /// The hour profile.
    pub fn hours(self) -> &'static [f64; 24] {
        &HOURS[self.index()]
    }

    /// The weekday factor of `date` (public holidays as Sundays).
    pub fn day_factor(self, date: NaiveDate, italian: bool) -> f64 {
        let wd = if is_holiday(date, italian) {
            6
        } else {
            date.weekday().num_days_from_monday() as usize
        };
        WEEK[self.index()][wd]
    }

    /// Whether the route calls on `date`.
    pub fn route_day(self, date: NaiveDate) -> bool {
        ROUTE_DAYS[self.index()][date.weekday().num_days_from_monday() as usize]
    }
}

/// Fixed-date public holidays of France or Italy.
pub fn is_holiday(date: NaiveDate, italian: bool) -> bool {
    let md = (date.month(), date.day());
    let common = [(1, 1), (5, 1), (8, 15), (11, 1), (12, 25)];
    let own: &[(u32, u32)] = if italian {
        &[(1, 6), (4, 25), (6, 2), (12, 8), (12, 26)]
    } else {
        &[(5, 8), (7, 14), (11, 11)]
    };
    common.contains(&md) || own.contains(&md)
}

/// Spending after payday: the last days of the month and the first two of the next.
pub fn payday_factor(date: NaiveDate) -> f64 {
    match date.day() {
        27.. => 1.18,
        1 | 2 => 1.1,
        _ => 1.0,
    }
}

/// A standard normal sample (Box–Muller).
pub fn normal(rng: &mut StdRng) -> f64 {
    let u1: f64 = rng.random_range(f64::EPSILON..1.0);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A Poisson sample (Knuth below 30, a rounded normal above).
pub fn poisson(rng: &mut StdRng, lambda: f64) -> u32 {
    if lambda <= 0.0 {
        return 0;
    }
    if lambda < 30.0 {
        let limit = (-lambda).exp();
        let mut k = 0;
        let mut p: f64 = rng.random();
        while p > limit {
            k += 1;
            p *= rng.random::<f64>();
        }
        k
    } else {
        (lambda + lambda.sqrt() * normal(rng)).round().max(0.0) as u32
    }
}

/// An index drawn with the given weights (none when they are all zero).
pub fn weighted(rng: &mut StdRng, weights: impl Iterator<Item = f64> + Clone) -> Option<usize> {
    let total: f64 = weights.clone().sum();
    if total <= 0.0 {
        return None;
    }
    let mut x = rng.random_range(0.0..total);
    let mut last = None;
    for (i, w) in weights.enumerate() {
        if w <= 0.0 {
            continue;
        }
        last = Some(i);
        if x < w {
            return Some(i);
        }
        x -= w;
    }
    last
}

/// SplitMix64: a well-mixed seed for machine `index` of a run seeded with `seed`.
pub fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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

/// Coin values held in the change tubes; 2 € coins go to the cash box.
pub const TUBE_COINS: [i64; 4] = [10, 20, 50, 100];
const TUBE_CAPACITY: [i64; 4] = [120, 100, 90, 70];
const BILL: i64 = 500;

/// Money counters of the audit (since initialisation and since the last read).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub in_total: u64,
    pub to_box: u64,
    pub to_tubes: u64,
    pub bills: u64,
    pub change: u64,
    pub manual_out: u64,
    pub manual_fill: u64,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.in_total += o.in_total;
        self.to_box += o.to_box;
        self.to_tubes += o.to_tubes;
        self.bills += o.bills;
        self.change += o.change;
        self.manual_out += o.manual_out;
        self.manual_fill += o.manual_fill;
    }
}

/// The cash a machine holds. Every cash sale raises `cash_box + bill_stacker + tubes` by
/// exactly its price (coins in, change out), so a collection's figures agree with the cash
/// sales since the previous one.
#[derive(Debug, Clone)]
pub struct Cash {
    /// Coins per tube, in the order of [`TUBE_COINS`].
    pub tubes: [i64; 4],
    pub cash_box: i64,
    pub bill_stacker: i64,
    pub bill_validator: bool,
    /// Value the refiller keeps in the tubes for change.
    pub float: i64,
    pub since_init: Totals,
    pub since_reset: Totals,
    /// Coins filled / dispensed by hand per tube since initialisation.
    pub filled: [u64; 4],
    pub dispensed: [u64; 4],
}

impl Cash {
    /// A machine with tubes filled to `float` and an empty cash box.
    pub fn new(float: i64, bill_validator: bool) -> Self {
        let mut c = Cash {
            tubes: [0; 4],
            cash_box: 0,
            bill_stacker: 0,
            bill_validator,
            float,
            since_init: Totals::default(),
            since_reset: Totals::default(),
            filled: [0; 4],
            dispensed: [0; 4],
        };
        c.fill_tubes_to(float);
        c.filled = [0; 4];
        c
    }

    /// Value of the coins in the tubes.
    pub fn tubes_value(&self) -> i64 {
        self.tubes.iter().zip(TUBE_COINS).map(|(n, v)| n * v).sum()
    }

    fn note(&mut self, t: Totals) {
        self.since_init.add(&t);
        self.since_reset.add(&t);
    }

    /// Coins of the tubes paying `amount` exactly, largest first, when they can.
    fn change_plan(&self, amount: i64) -> Option<[i64; 4]> {
        let mut left = amount;
        let mut plan = [0; 4];
        for i in (0..4).rev() {
            let n = (left / TUBE_COINS[i]).min(self.tubes[i]);
            plan[i] = n;
            left -= n * TUBE_COINS[i];
        }
        (left == 0).then_some(plan)
    }

    /// Coins (and a remainder below 10 cents) that make up `amount`, largest first.
    fn coins_of(amount: i64) -> (Vec<i64>, i64) {
        let mut out = Vec::new();
        let mut left = amount;
        for v in [200, 100, 50, 20, 10] {
            while left >= v {
                out.push(v);
                left -= v;
            }
        }
        (out, left)
    }

    /// A cash payment of `price`: a 5 € note now and then, else coins (rounded up to 50 cents
    /// about half the time), with change from the tubes when they can pay it.
    pub fn pay(&mut self, price: i64, rng: &mut StdRng) {
        let mut t = Totals::default();
        if self.bill_validator && price <= BILL && rng.random_bool(0.12) {
            if let Some(plan) = self.change_plan(BILL - price) {
                self.bill_stacker += BILL;
                t.in_total += BILL as u64;
                t.bills += BILL as u64;
                self.give_change(plan, &mut t);
                self.note(t);
                return;
            }
        }
        let rounded = (price + 49) / 50 * 50;
        // The change is planned on the tubes before the coins go in (they only add to them).
        let (inserted, plan) = match self.change_plan(rounded - price) {
            Some(plan) if rounded > price && rng.random_bool(0.45) => (rounded, plan),
            _ => (price, [0; 4]),
        };
        let (coins, rest) = Cash::coins_of(inserted);
        for coin in coins {
            match TUBE_COINS.iter().position(|v| *v == coin) {
                Some(i) if self.tubes[i] < TUBE_CAPACITY[i] => {
                    self.tubes[i] += 1;
                    t.to_tubes += coin as u64;
                }
                _ => {
                    self.cash_box += coin;
                    t.to_box += coin as u64;
                }
            }
        }
        // Below 10 cents (a price set by hand): taken as small coins into the box.
        self.cash_box += rest;
        t.to_box += rest as u64;
        t.in_total += inserted as u64;
        self.give_change(plan, &mut t);
        self.note(t);
    }

    fn give_change(&mut self, plan: [i64; 4], t: &mut Totals) {
        for (i, n) in plan.iter().enumerate() {
            self.tubes[i] -= n;
            t.change += (n * TUBE_COINS[i]) as u64;
        }
    }

    /// Fills the tubes up to `target` with coins, smallest denominations last; the value added.
    fn fill_tubes_to(&mut self, target: i64) -> i64 {
        let mut added = 0;
        for i in (0..4).rev() {
            while self.tubes_value() + TUBE_COINS[i] <= target && self.tubes[i] < TUBE_CAPACITY[i] {
                self.tubes[i] += 1;
                self.filled[i] += 1;
                added += TUBE_COINS[i];
            }
        }
        added
    }

    /// Ejects coins by hand, largest first, down to `target`; the value ejected.
    fn eject_to(&mut self, target: i64) -> i64 {
        let mut out = 0;
        for i in (0..4).rev() {
            while self.tubes[i] > 0 && self.tubes_value() - TUBE_COINS[i] >= target {
                self.tubes[i] -= 1;
                self.dispensed[i] += 1;
                out += TUBE_COINS[i];
            }
        }
        out
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
