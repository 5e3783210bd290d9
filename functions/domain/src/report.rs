//! Sales reports: what a sales query groups by, over which periods, which value it shows, and
//! the aggregation of rollup figures into groups × periods. Pure arithmetic: the application
//! reads the rollups and says which groups each row belongs to.

use crate::sales::Figures;
use chrono::{Datelike, Duration, NaiveDate};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

crate::choice! {
    /// What the rows of a sales report are (`group_by`, `/api/filters/sales-journal/group-by/`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum GroupBy {
        Machine,
        Location,
        Client,
        Product,
        ProductTag,
        MachineTag,
    }
}

crate::choice! {
    /// How a report's days are bucketed (`grouping_period`, `/api/filters/grouping-periods/`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum Grouping {
        Day,
        /// ISO weeks, Monday to Sunday.
        Week,
        Month,
    }
}

crate::choice! {
    /// Which figure a report shows (`value`, `/api/filters/values/`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum Value {
        /// Revenue, VAT included (minor units).
        Sales,
        /// Units sold.
        Quantity,
        /// Revenue excluding VAT (minor units).
        SalesExclTax,
    }
}

/// The query-string keys of a choice, and the choice of a key.
pub trait Choice: Sized + Copy + 'static {
    /// Every choice, in menu order.
    const ALL: &'static [Self];
    /// The key used in query strings.
    fn key(self) -> &'static str;
    /// The choice with this key.
    fn from_key(key: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.key() == key.trim())
    }
}

/// Declares an enum of choices: its menu is its variants in declaration order (`Choice::ALL`),
/// its keys their snake_case names, as serde names them (strum's `VariantArray` and
/// `IntoStaticStr`, derived). The enum derives serde's traits itself.
#[macro_export]
macro_rules! choice {
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vattr:meta])* $variant:ident ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(strum::VariantArray, strum::IntoStaticStr)]
        #[strum(serialize_all = "snake_case")]
        #[serde(rename_all = "snake_case")]
        $vis enum $name {
            $( $(#[$vattr])* $variant ),*
        }
    };
}

/// Every enum deriving strum's `VariantArray` (its menu is its variants in declaration order)
/// and `IntoStaticStr` (its key, `#[strum(serialize_all = "snake_case")]` as serde names it) is
/// a choice.
impl<T> Choice for T
where
    T: strum::VariantArray + Copy + Into<&'static str> + 'static,
{
    const ALL: &'static [Self] = T::VARIANTS;
    fn key(self) -> &'static str {
        self.into()
    }
}

impl GroupBy {
    /// Whether the groups are products (read from the product rollups).
    pub fn by_product(self) -> bool {
        matches!(self, GroupBy::Product | GroupBy::ProductTag)
    }
}

impl Value {
    /// The figure this value shows.
    pub fn of(self, f: &Figures) -> i64 {
        match self {
            Value::Sales => f.sales_minor,
            Value::Quantity => f.quantity,
            Value::SalesExclTax => f.sales_excl_tax_minor,
        }
    }
}

impl Grouping {
    /// The first day of the bucket holding `day`.
    pub fn bucket(self, day: NaiveDate) -> NaiveDate {
        match self {
            Grouping::Day => day,
            Grouping::Week => day - Duration::days(i64::from(day.weekday().num_days_from_monday())),
            Grouping::Month => day.with_day(1).expect("every month has a first day"),
        }
    }

    /// The buckets that `from..=to` touches, in order (empty when `from > to`).
    pub fn buckets(self, from: NaiveDate, to: NaiveDate) -> Vec<NaiveDate> {
        let mut out: Vec<NaiveDate> = Vec::new();
        let mut day = from;
        while day <= to {
            let b = self.bucket(day);
            if out.last() != Some(&b) {
                out.push(b);
            }
            day = match self {
                Grouping::Day => day + Duration::days(1),
                Grouping::Week => b + Duration::days(7),
                Grouping::Month => b.checked_add_months(chrono::Months::new(1)).unwrap_or(to),
            };
            if day == b {
                break;
            }
        }
        out
    }
}

/// Sales figures by group and bucket, with the totals: what every sales report is drawn from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cube {
    /// Every figure once, whatever the groups (a row in several groups counts once here).
    pub total: Figures,
    /// By group key.
    pub groups: BTreeMap<String, Figures>,
    /// By bucket (first day).
    pub buckets: BTreeMap<NaiveDate, Figures>,
    /// By group key, then bucket.
    pub cells: BTreeMap<String, BTreeMap<NaiveDate, Figures>>,
}

impl Cube {
    /// Adds one rollup row's figures, in bucket `bucket`, to each of `groups` (a product with
    /// two tags, a machine with two tags, is in both tag groups).
    pub fn add<'a>(
        &mut self,
        bucket: NaiveDate,
        groups: impl IntoIterator<Item = &'a str>,
        f: &Figures,
    ) {
        self.total.add(f);
        self.buckets.entry(bucket).or_default().add(f);
        for g in groups {
            // Looked up before inserting: most rows add to a group that exists, and a key is
            // only allocated for a new one.
            match self.groups.get_mut(g) {
                Some(sum) => sum.add(f),
                None => {
                    self.groups.insert(g.to_string(), *f);
                }
            }
            match self.cells.get_mut(g) {
                Some(by_bucket) => by_bucket.entry(bucket).or_default().add(f),
                None => {
                    self.cells
                        .insert(g.to_string(), BTreeMap::from([(bucket, *f)]));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn buckets_cover_the_range_in_order() {
        let (from, to) = (d("2026-02-26"), d("2026-03-03"));
        assert_eq!(Grouping::Day.buckets(from, to).len(), 6);
        // 26 Feb 2026 is a Thursday: its week starts on Monday 23 Feb; 3 March is in the next.
        assert_eq!(
            Grouping::Week.buckets(from, to),
            vec![d("2026-02-23"), d("2026-03-02")]
        );
        assert_eq!(
            Grouping::Month.buckets(from, to),
            vec![d("2026-02-01"), d("2026-03-01")]
        );
        assert_eq!(
            Grouping::Month.buckets(d("2026-12-31"), d("2027-01-01")),
            vec![d("2026-12-01"), d("2027-01-01")]
        );
        assert!(Grouping::Day.buckets(to, from).is_empty());
        // Every day's bucket is among the range's buckets.
        for g in Grouping::ALL {
            let b = g.buckets(d("2025-12-15"), d("2026-03-20"));
            let mut day = d("2025-12-15");
            while day <= d("2026-03-20") {
                assert!(b.contains(&g.bucket(day)), "{g:?} {day}");
                day += Duration::days(1);
            }
        }
    }

    #[test]
    fn keys_round_trip_and_values_pick_their_figure() {
        for g in GroupBy::ALL {
            assert_eq!(GroupBy::from_key(g.key()), Some(*g));
        }
        assert_eq!(Grouping::from_key(" week "), Some(Grouping::Week));
        assert_eq!(Value::from_key("revenue"), None);
        let f = Figures {
            quantity: 3,
            sales_minor: 360,
            sales_excl_tax_minor: 300,
            ..Figures::default()
        };
        assert_eq!(Value::Sales.of(&f), 360);
        assert_eq!(Value::Quantity.of(&f), 3);
        assert_eq!(Value::SalesExclTax.of(&f), 300);
    }

    #[test]
    fn a_row_in_two_groups_counts_in_each_and_once_in_the_total() {
        let f = Figures {
            quantity: 2,
            sales_minor: 300,
            ..Figures::default()
        };
        let mut c = Cube::default();
        c.add(d("2026-03-01"), ["hot", "promo"], &f);
        c.add(d("2026-03-01"), ["hot"], &f);
        assert_eq!(c.total.quantity, 4);
        assert_eq!(c.groups["hot"].quantity, 4);
        assert_eq!(c.groups["promo"].quantity, 2);
        assert_eq!(c.buckets[&d("2026-03-01")].sales_minor, 600);
        assert_eq!(c.cells["promo"][&d("2026-03-01")].quantity, 2);
    }
}
