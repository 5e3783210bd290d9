//! The sales engine's columns at three grains: by day, by week (Monday to Sunday) and by
//! calendar month. A sum over a span reads whole months and whole weeks where their days all
//! fall in one bucket of the answer, and single days only at the edges, so its cost follows the
//! number of buckets and edges, not the span's days: a year by machine reads about 12 month
//! columns, a quarter by week 13 week columns, and any span its whole months plus, at each
//! edge, at most 4 weeks and 12 days.

use super::cells::{Cell, DayCells};
use chrono::{Datelike, Days, NaiveDate};
use std::collections::BTreeMap;
use vendfleet_domain::sales::Month;

/// A grain of the columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Grain {
    Day,
    Week,
    Month,
}

/// A part of a span read from one column: the grain and its first day.
pub(super) type Piece = (Grain, NaiveDate);

/// The Monday of `d`'s week.
fn monday(d: NaiveDate) -> NaiveDate {
    d - Days::new(u64::from(d.weekday().num_days_from_monday()))
}

/// The first day of each grain `d` belongs to: its day, its week's Monday, its month's first.
fn keys(d: NaiveDate) -> [(Grain, NaiveDate); 3] {
    [
        (Grain::Day, d),
        (Grain::Week, monday(d)),
        (Grain::Month, Month::of(d).first_day()),
    ]
}

/// The days `from..=to` as whole months, then whole weeks, then days, each taken only where all
/// its days fall in one bucket (`bucket` gives a day's; buckets are runs of days in order), in
/// the order of their days.
pub(super) fn pieces(
    from: NaiveDate,
    to: NaiveDate,
    bucket: impl Fn(NaiveDate) -> usize,
) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut d = from;
    let whole = |a: NaiveDate, b: NaiveDate| b <= to && bucket(a) == bucket(b);
    // A week running into a month that could be read whole is read as days instead.
    let spoils_month = |a: NaiveDate, b: NaiveDate| {
        let next = Month::of(b).first_day();
        next > a && whole(next, Month::of(next).last_day())
    };
    while d <= to {
        let month_end = Month::of(d).last_day();
        let week_end = d + Days::new(6);
        let (piece, next) = if d.day() == 1 && whole(d, month_end) {
            ((Grain::Month, d), month_end)
        } else if d.weekday().num_days_from_monday() == 0
            && whole(d, week_end)
            && !spoils_month(d, week_end)
        {
            ((Grain::Week, d), week_end)
        } else {
            ((Grain::Day, d), d)
        };
        out.push(piece);
        match next.succ_opt() {
            Some(n) => d = n,
            None => break,
        }
    }
    out
}

/// A column (`T`) by day, by week and by month.
#[derive(Debug, Default)]
pub(super) struct Levels<T> {
    day: BTreeMap<NaiveDate, T>,
    week: BTreeMap<NaiveDate, T>,
    month: BTreeMap<NaiveDate, T>,
}

impl<T: Default> Levels<T> {
    fn at(&self, grain: Grain) -> &BTreeMap<NaiveDate, T> {
        match grain {
            Grain::Day => &self.day,
            Grain::Week => &self.week,
            Grain::Month => &self.month,
        }
    }

    fn at_mut(&mut self, grain: Grain) -> &mut BTreeMap<NaiveDate, T> {
        match grain {
            Grain::Day => &mut self.day,
            Grain::Week => &mut self.week,
            Grain::Month => &mut self.month,
        }
    }

    /// The columns by day.
    pub fn days(&self) -> &BTreeMap<NaiveDate, T> {
        &self.day
    }

    /// Calls `f` with the column of `date`'s day, week and month, each made when missing.
    pub fn each_mut(&mut self, date: NaiveDate, mut f: impl FnMut(&mut T)) {
        for (grain, key) in keys(date) {
            f(self.at_mut(grain).entry(key).or_default());
        }
    }

    /// The columns of `pieces` there are, each with its first day.
    pub fn over<'a>(
        &'a self,
        pieces: &'a [Piece],
    ) -> impl Iterator<Item = (NaiveDate, &'a T)> + 'a {
        pieces
            .iter()
            .filter_map(|(grain, key)| self.at(*grain).get(key).map(|t| (*key, t)))
    }

    /// Sets the day columns and makes the week and month columns of them with `merge` (`None`
    /// from `merge` is kept as `None` in the answer: a sum out of range).
    pub fn from_days(
        day: BTreeMap<NaiveDate, T>,
        merge: impl Fn(&[&T]) -> Option<T>,
    ) -> Option<Levels<T>> {
        let mut levels = Levels {
            day,
            ..Levels::default()
        };
        for grain in [Grain::Week, Grain::Month] {
            let mut groups: BTreeMap<NaiveDate, Vec<&T>> = BTreeMap::new();
            for (d, t) in &levels.day {
                let key = keys(*d).iter().find(|(g, _)| *g == grain).map(|(_, k)| *k);
                groups.entry(key.unwrap_or(*d)).or_default().push(t);
            }
            let mut merged = BTreeMap::new();
            for (key, parts) in groups {
                merged.insert(key, merge(&parts)?);
            }
            *levels.at_mut(grain) = merged;
        }
        Some(levels)
    }
}

/// The cells of several days summed by machine and product; `None` when a sum leaves a cell's
/// range.
pub(super) fn sum_cells(parts: &[&DayCells]) -> Option<DayCells> {
    let mut pairs: Vec<(u32, Cell)> = Vec::new();
    for day in parts {
        day.each_machine(|i, cells| pairs.extend(cells.iter().map(|c| (i as u32, *c))));
    }
    pairs.sort_unstable_by_key(|(m, c)| (*m, c.product));
    let mut merged: Vec<(u32, Cell)> = Vec::with_capacity(pairs.len());
    for (m, c) in pairs {
        match merged.last_mut() {
            Some((lm, last)) if *lm == m && last.product == c.product => {
                *last = last.plus(&c.figures())?;
            }
            _ => merged.push((m, c)),
        }
    }
    Some(DayCells::from_unordered(merged))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().expect("a date")
    }

    /// The days each piece stands for, in order.
    fn days_of(pieces: &[Piece]) -> Vec<NaiveDate> {
        let mut out = Vec::new();
        for (grain, first) in pieces {
            let last = match grain {
                Grain::Day => *first,
                Grain::Week => *first + Days::new(6),
                Grain::Month => Month::of(*first).last_day(),
            };
            out.extend(first.iter_days().take_while(|x| *x <= last));
        }
        out
    }

    #[test]
    fn pieces_cover_every_day_once_and_never_cross_a_bucket() {
        // Buckets of every grouping the reports use, over spans starting and ending anywhere.
        let by_week = |x: NaiveDate| (monday(x) - d("2000-01-03")).num_days() as usize / 7;
        let by_month = |x: NaiveDate| (x.year() * 12 + x.month() as i32) as usize;
        let by_quarter = |x: NaiveDate| (x.year() * 4 + x.month0() as i32 / 3) as usize;
        let by_day = |x: NaiveDate| (x - d("2000-01-01")).num_days() as usize;
        let one = |_: NaiveDate| 0usize;
        let buckets: [&dyn Fn(NaiveDate) -> usize; 5] =
            [&by_week, &by_month, &by_quarter, &by_day, &one];
        let starts = [
            d("2025-12-27"),
            d("2026-01-01"),
            d("2026-02-02"),
            d("2026-03-05"),
            d("2024-02-26"),
        ];
        for from in starts {
            for len in [1u64, 6, 7, 13, 31, 45, 95, 250, 420] {
                let to = from + Days::new(len - 1);
                for bucket in buckets {
                    let p = pieces(from, to, bucket);
                    let every: Vec<NaiveDate> = from.iter_days().take_while(|x| *x <= to).collect();
                    assert_eq!(days_of(&p), every, "{from}..{to}");
                    for (grain, first) in &p {
                        let days = days_of(&[(*grain, *first)]);
                        assert!(
                            days.iter().all(|x| bucket(*x) == bucket(*first)),
                            "{grain:?} {first}"
                        );
                    }
                }
            }
        }
        // A year by month reads twelve months; a quarter by week whole weeks.
        assert_eq!(pieces(d("2026-01-01"), d("2026-12-31"), by_month).len(), 12);
        let q = pieces(d("2026-01-05"), d("2026-04-05"), by_week);
        assert!(q.iter().all(|(g, _)| *g == Grain::Week) && q.len() == 13);
        // Totals over 250 days: its 7 whole months, and at each edge at most 4 weeks and 12
        // days (the days before a Monday and before the first of a month).
        assert_eq!(
            pieces(d("2026-01-13"), d("2026-09-19"), one).len(),
            7 + 13 + 13
        );
    }
}
