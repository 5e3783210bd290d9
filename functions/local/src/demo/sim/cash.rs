//! A machine's cash: coin tubes paying change, the cash box and the bill stacker.

use super::*;

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

    pub(super) fn note(&mut self, t: Totals) {
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
    pub(super) fn fill_tubes_to(&mut self, target: i64) -> i64 {
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
    pub(super) fn eject_to(&mut self, target: i64) -> i64 {
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
