//! Sales facts and their additive figures: what the ledger keeps of a vend and what the rollups
//! sum. Pure data and arithmetic; the sales store port stores them.

use crate::events::{Payment, VendClass};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// One vend as the ledger keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendFact {
    pub machine_id: String,
    /// The machine event that reported it (unique per machine with `part`).
    pub event_id: String,
    pub at: DateTime<Utc>,
    /// The operator-local day of `at` in the machine's location's zone.
    pub local_date: NaiveDate,
    /// The machine's location when the sale was taken in.
    pub location_id: Option<String>,
    pub selection: String,
    /// The product sold; empty when neither the event nor the planogram named one.
    pub product_id: String,
    pub quantity: u32,
    /// Price × quantity; 0 for free and test vends.
    pub revenue_minor: i64,
    /// Revenue excluding VAT at the product's rate.
    pub net_minor: i64,
    pub payment: Payment,
    pub class: VendClass,
    /// The product's VAT rate at the sale, in basis points (`None`: taken in before the ledger
    /// kept rates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vat_bps: Option<u32>,
}

/// The transaction log's order within a day: newest first, then machine and event id.
pub fn log_order(a: &VendFact, b: &VendFact) -> std::cmp::Ordering {
    b.at.cmp(&a.at)
        .then_with(|| a.machine_id.cmp(&b.machine_id))
        .then_with(|| a.event_id.cmp(&b.event_id))
}

/// The additive figures of a set of vends; every rollup holds one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    /// Units sold (free and test vends excluded).
    pub quantity: i64,
    /// What customers paid (free and test vends pay nothing).
    pub sales_minor: i64,
    /// What they paid net of VAT, at each product's rate.
    pub sales_excl_tax_minor: i64,
    /// Revenue paid in cash.
    pub cash_minor: i64,
    /// Revenue paid cashless.
    pub cashless_minor: i64,
    /// Units vended free.
    pub free_quantity: i64,
    /// Units vended as tests.
    pub test_quantity: i64,
    /// Sale events (a vend of several units counts once).
    pub transactions: i64,
}

impl Figures {
    /// The figures of one vend.
    pub fn of(v: &VendFact) -> Figures {
        let q = i64::from(v.quantity);
        match v.class {
            VendClass::Sale => Figures {
                quantity: q,
                sales_minor: v.revenue_minor,
                sales_excl_tax_minor: v.net_minor,
                cash_minor: if v.payment == Payment::Cash {
                    v.revenue_minor
                } else {
                    0
                },
                cashless_minor: if v.payment == Payment::Cashless {
                    v.revenue_minor
                } else {
                    0
                },
                transactions: 1,
                ..Figures::default()
            },
            VendClass::Free => Figures {
                free_quantity: q,
                ..Figures::default()
            },
            VendClass::Test => Figures {
                test_quantity: q,
                ..Figures::default()
            },
        }
    }

    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &Figures) {
        self.quantity += o.quantity;
        self.sales_minor += o.sales_minor;
        self.sales_excl_tax_minor += o.sales_excl_tax_minor;
        self.cash_minor += o.cash_minor;
        self.cashless_minor += o.cashless_minor;
        self.free_quantity += o.free_quantity;
        self.test_quantity += o.test_quantity;
        self.transactions += o.transactions;
    }

    /// The figures with every sign turned (to take a part out of a sum).
    pub fn negated(&self) -> Figures {
        Figures::from_array(self.to_array().map(|v| -v))
    }

    /// The figures as an array, in the order of [`Figures::NAMES`].
    pub fn to_array(&self) -> [i64; 8] {
        [
            self.quantity,
            self.sales_minor,
            self.sales_excl_tax_minor,
            self.cash_minor,
            self.cashless_minor,
            self.free_quantity,
            self.test_quantity,
            self.transactions,
        ]
    }

    /// Figures from an array in the order of [`Figures::NAMES`].
    pub fn from_array(a: [i64; 8]) -> Figures {
        Figures {
            quantity: a[0],
            sales_minor: a[1],
            sales_excl_tax_minor: a[2],
            cash_minor: a[3],
            cashless_minor: a[4],
            free_quantity: a[5],
            test_quantity: a[6],
            transactions: a[7],
        }
    }

    /// Short names of the figures (storage column and attribute names).
    pub const NAMES: [&'static str; 8] =
        ["q", "rev", "net", "cash", "cashless", "free", "test", "tx"];

    /// True when every figure is zero.
    pub fn is_zero(&self) -> bool {
        self.to_array().iter().all(|v| *v == 0)
    }
}

/// A calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Month {
    pub year: i32,
    pub month: u32,
}

impl Month {
    /// The month of a date.
    pub fn of(d: NaiveDate) -> Month {
        Month {
            year: d.year(),
            month: d.month(),
        }
    }

    /// The first day of the month.
    pub fn first_day(self) -> NaiveDate {
        NaiveDate::from_ymd_opt(self.year, self.month, 1).expect("a valid month")
    }

    /// The last day of the month.
    pub fn last_day(self) -> NaiveDate {
        self.next().first_day().pred_opt().expect("a day before")
    }

    /// The month after.
    pub fn next(self) -> Month {
        if self.month == 12 {
            Month {
                year: self.year + 1,
                month: 1,
            }
        } else {
            Month {
                year: self.year,
                month: self.month + 1,
            }
        }
    }

    /// `yyyymm` as an integer (storage key).
    pub fn number(self) -> i64 {
        i64::from(self.year) * 100 + i64::from(self.month)
    }

    /// The month of a `yyyymm` integer.
    pub fn from_number(n: i64) -> Option<Month> {
        let year = i32::try_from(n / 100).ok()?;
        let month = u32::try_from(n % 100).ok()?;
        NaiveDate::from_ymd_opt(year, month, 1).map(Month::of)
    }
}

/// `yyyymmdd` as an integer (storage key of a day).
pub fn day_number(d: NaiveDate) -> i64 {
    i64::from(d.year()) * 10_000 + i64::from(d.month()) * 100 + i64::from(d.day())
}

/// The date of a `yyyymmdd` integer.
pub fn day_from_number(n: i64) -> Option<NaiveDate> {
    let year = i32::try_from(n / 10_000).ok()?;
    let month = u32::try_from((n / 100) % 100).ok()?;
    let day = u32::try_from(n % 100).ok()?;
    NaiveDate::from_ymd_opt(year, month, day)
}

/// Splits `from..=to` into whole months (read from month rollups) and the edge days around
/// them (read from day rollups): the coarsest grains that answer the range exactly.
pub fn split_range(from: NaiveDate, to: NaiveDate) -> (Vec<Month>, Vec<(NaiveDate, NaiveDate)>) {
    let mut months = Vec::new();
    let mut edges = Vec::new();
    if from > to {
        return (months, edges);
    }
    let mut m = Month::of(from);
    let mut edge_start: Option<NaiveDate> = None;
    loop {
        let (first, last) = (m.first_day(), m.last_day());
        let lo = first.max(from);
        let hi = last.min(to);
        if lo == first && hi == last {
            if let Some(s) = edge_start.take() {
                edges.push((s, first.pred_opt().expect("a day before")));
            }
            months.push(m);
        } else if edge_start.is_none() {
            edge_start = Some(lo);
        }
        if last >= to {
            if let Some(s) = edge_start.take() {
                edges.push((s, hi));
            }
            break;
        }
        m = m.next();
    }
    (months, edges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn ranges_split_into_whole_months_and_edge_days() {
        let (m, e) = split_range(d("2026-01-15"), d("2026-04-03"));
        assert_eq!(
            m,
            vec![
                Month {
                    year: 2026,
                    month: 2
                },
                Month {
                    year: 2026,
                    month: 3
                }
            ]
        );
        assert_eq!(
            e,
            vec![
                (d("2026-01-15"), d("2026-01-31")),
                (d("2026-04-01"), d("2026-04-03"))
            ]
        );
        let (m, e) = split_range(d("2026-02-01"), d("2026-02-28"));
        assert_eq!(m.len(), 1);
        assert!(e.is_empty());
        let (m, e) = split_range(d("2026-02-03"), d("2026-02-05"));
        assert!(m.is_empty());
        assert_eq!(e, vec![(d("2026-02-03"), d("2026-02-05"))]);
        let (m, e) = split_range(d("2026-12-31"), d("2027-01-01"));
        assert!(m.is_empty());
        assert_eq!(e, vec![(d("2026-12-31"), d("2027-01-01"))]);
    }

    #[test]
    fn every_day_of_a_range_is_covered_once() {
        let start = d("2025-11-20");
        for len in 0..120 {
            for offset in [0, 7, 11] {
                let from = start + chrono::Duration::days(offset);
                let to = from + chrono::Duration::days(len);
                let (months, edges) = split_range(from, to);
                let mut days: Vec<NaiveDate> = Vec::new();
                for m in months {
                    days.extend(m.first_day().iter_days().take_while(|x| *x <= m.last_day()));
                }
                for (a, b) in edges {
                    days.extend(a.iter_days().take_while(|x| *x <= b));
                }
                days.sort();
                let want: Vec<NaiveDate> = from.iter_days().take_while(|x| *x <= to).collect();
                assert_eq!(days, want, "{from}..{to}");
            }
        }
    }

    #[test]
    fn day_and_month_numbers_round_trip() {
        assert_eq!(day_number(d("2026-03-09")), 20260309);
        assert_eq!(day_from_number(20260309), Some(d("2026-03-09")));
        assert_eq!(day_from_number(20260230), None);
        let m = Month::of(d("2026-12-05"));
        assert_eq!(m.number(), 202612);
        assert_eq!(Month::from_number(202612), Some(m));
        assert_eq!(m.next().number(), 202701);
        assert_eq!(m.last_day(), d("2026-12-31"));
    }
}

/// What a collection's figures say about the cash customers paid since the previous collection.
pub mod cash {
    /// The coin and note figures of one collection, minor units.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct Counts {
        pub cash_box_minor: i64,
        pub bill_stacker_minor: i64,
        /// The value in the coin tubes when the collection was made.
        pub tubes_minor: i64,
        /// Coins taken out of the tubes by hand at the collection.
        pub ejected_minor: i64,
        /// Coins put into the tubes at the collection (the float).
        pub refilled_coins_minor: i64,
    }

    impl Counts {
        /// What the tubes held when the collector left.
        pub fn tubes_left_minor(&self) -> i64 {
            self.tubes_minor - self.ejected_minor + self.refilled_coins_minor
        }
    }

    /// The cash customers paid between two collections (net of change): what went to the cash
    /// box and bill stacker, plus what the tubes gained since the previous collector left them.
    pub fn taken_since(previous: &Counts, current: &Counts) -> i64 {
        current.cash_box_minor + current.bill_stacker_minor + current.tubes_minor
            - previous.tubes_left_minor()
    }

    /// The cash a machine's own counters took in between two audit reads, net of the change it
    /// paid out: the rise of `CA305` (cash in since initialisation) less the rise of `CA403`
    /// (change since initialisation). `None` when the reads lack `CA305` or a counter went back
    /// (a reset or board change: no comparison rather than a wrong one).
    pub fn counted_since(previous: &crate::dex::Audit, current: &crate::dex::Audit) -> Option<i64> {
        let cash_in = |a: &crate::dex::Audit| a.cash_in.as_ref()?.since_init_minor;
        let change = |a: &crate::dex::Audit| {
            a.cash_out
                .as_ref()
                .and_then(|c| c.change_since_init_minor)
                .unwrap_or(0)
        };
        let taken_in = cash_in(current)?.checked_sub(cash_in(previous)?)?;
        let change = change(current).checked_sub(change(previous))?;
        i64::try_from(taken_in)
            .ok()?
            .checked_sub(i64::try_from(change).ok()?)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn audit(cash_in: Option<u64>, change: Option<u64>) -> crate::dex::Audit {
            crate::dex::Audit {
                cash_in: cash_in.map(|v| crate::dex::CashIn {
                    since_init_minor: Some(v),
                    ..Default::default()
                }),
                cash_out: change.map(|v| crate::dex::CashOut {
                    change_since_init_minor: Some(v),
                    ..Default::default()
                }),
                ..Default::default()
            }
        }

        #[test]
        fn counters_count_cash_in_less_change_and_refuse_a_reset() {
            let a = audit(Some(10_000), Some(2_000));
            assert_eq!(
                counted_since(&a, &audit(Some(13_500), Some(2_300))),
                Some(3_500 - 300)
            );
            assert_eq!(counted_since(&a, &audit(Some(9_000), Some(2_300))), None);
            assert_eq!(counted_since(&a, &audit(Some(13_500), Some(100))), None);
            assert_eq!(counted_since(&audit(None, None), &a), None);
            assert_eq!(
                counted_since(&audit(Some(100), None), &audit(Some(400), None)),
                Some(300)
            );
        }

        #[test]
        fn cash_taken_counts_what_the_tubes_gained_since_the_collector_left() {
            // Left with 30.00 in the tubes (35.00 found, 10.00 ejected, 5.00 refilled).
            let previous = Counts {
                cash_box_minor: 4_000,
                bill_stacker_minor: 0,
                tubes_minor: 3_500,
                ejected_minor: 1_000,
                refilled_coins_minor: 500,
            };
            assert_eq!(previous.tubes_left_minor(), 3_000);
            // Since: 12.00 in the box, 20.00 in notes, tubes at 31.50 (change given lowered them).
            let current = Counts {
                cash_box_minor: 1_200,
                bill_stacker_minor: 2_000,
                tubes_minor: 3_150,
                ..Counts::default()
            };
            assert_eq!(taken_since(&previous, &current), 1_200 + 2_000 + 150);
        }
    }
}
