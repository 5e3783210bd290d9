//! Operator-local days: "today", period presets and default ranges.
//!
//! Timestamps are UTC; a day is always somebody's local day. Fleet-wide "today", "this month"
//! and default ranges use the operator's time zone; the day of one event uses its location's.
//! Nothing here takes the date of a UTC instant as if it were local.

use chrono::{DateTime, Datelike, Duration, FixedOffset, Months, NaiveDate, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

/// The local date of `at` in `tz`.
pub fn local_date(at: DateTime<Utc>, tz: Tz) -> NaiveDate {
    at.with_timezone(&tz).date_naive()
}

/// The latest calendar date that has begun anywhere on Earth at `now` (UTC+14, Line Islands).
/// Events are never in the future, so no event of any location has a later local date: a range
/// that ends here holds everything up to now, whatever the locations' zones.
pub fn latest_date_anywhere(now: DateTime<Utc>) -> NaiveDate {
    let kiritimati = FixedOffset::east_opt(14 * 3600).expect("a valid offset");
    now.with_timezone(&kiritimati).date_naive()
}

/// Parses a calendar date given as `YYYY-MM-DD` in a query or form. Years outside 1900–9999 are
/// refused too: no figure lies there, and date arithmetic near chrono's limits would overflow.
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let text = text.trim();
    if text.len() != 10 {
        return None;
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .filter(|d| (1900..=9999).contains(&d.year()))
}

/// Parses an IANA time-zone name (`Europe/Paris`).
pub fn parse_zone(name: &str) -> Option<Tz> {
    name.trim().parse().ok()
}

/// A sales period preset (`/api/filters/periods/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Period {
    /// The operator's yesterday (for schedules).
    Yesterday,
    /// Monday of this ISO week to today.
    CurrentWeek,
    /// The ISO week before this one, Monday to Sunday.
    PreviousWeek,
    CurrentMonth,
    PreviousMonth,
    CurrentAndPreviousMonth,
    CurrentYear,
    PreviousYear,
    /// The caller gives `date_from` and `date_to`.
    Custom,
}

impl Period {
    /// Every preset, in menu order.
    pub const ALL: [Period; 9] = [
        Period::Yesterday,
        Period::CurrentWeek,
        Period::PreviousWeek,
        Period::CurrentMonth,
        Period::PreviousMonth,
        Period::CurrentAndPreviousMonth,
        Period::CurrentYear,
        Period::PreviousYear,
        Period::Custom,
    ];

    /// The presets a scheduled report can use (`/api/filters/query-schedulers/periods/`):
    /// spans that mean something on every run.
    pub const SCHEDULED: &'static [Period] = match Self::ALL.split_last() {
        // Every preset but the last, `Custom`.
        Some((Period::Custom, presets)) => presets,
        _ => panic!("Period::ALL ends with Custom"),
    };

    /// The key used in query strings.
    pub fn key(self) -> &'static str {
        match self {
            Period::Yesterday => "yesterday",
            Period::CurrentWeek => "current_week",
            Period::PreviousWeek => "previous_week",
            Period::CurrentMonth => "current_month",
            Period::PreviousMonth => "previous_month",
            Period::CurrentAndPreviousMonth => "current_and_previous_month",
            Period::CurrentYear => "current_year",
            Period::PreviousYear => "previous_year",
            Period::Custom => "custom",
        }
    }

    /// The preset with this key.
    pub fn from_key(key: &str) -> Option<Period> {
        Period::ALL.into_iter().find(|p| p.key() == key.trim())
    }

    /// The inclusive local dates the preset covers when the operator's day is `today`
    /// (`None` for `Custom`). Current spans end today, not at the end of the month or year.
    pub fn range(self, today: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
        let month_start = today.with_day(1)?;
        let previous_month_start = month_start.checked_sub_months(Months::new(1))?;
        let year_start = NaiveDate::from_ymd_opt(today.year(), 1, 1)?;
        let week_start = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
        Some(match self {
            Period::Yesterday => (today - Duration::days(1), today - Duration::days(1)),
            Period::CurrentWeek => (week_start, today),
            Period::PreviousWeek => (
                week_start - Duration::days(7),
                week_start - Duration::days(1),
            ),
            Period::CurrentMonth => (month_start, today),
            Period::PreviousMonth => (previous_month_start, month_start - Duration::days(1)),
            Period::CurrentAndPreviousMonth => (previous_month_start, today),
            Period::CurrentYear => (year_start, today),
            Period::PreviousYear => (
                NaiveDate::from_ymd_opt(today.year() - 1, 1, 1)?,
                year_start - Duration::days(1),
            ),
            Period::Custom => return None,
        })
    }
}

/// What a span `from..=to` is compared with: the calendar period before it, or the span
/// before it aligned by weekday.
///
/// - From January 1st over more than one month (the year to date, whole years): the same dates
///   as many years before as the span touches (year against year; February 29th becomes the
///   28th).
/// - Otherwise from the 1st of a month (a month, the month to date, a quarter, months): the
///   same days as many months before as the span touches (October against September, November
///   1–27 against October 1–27); a span ending on its month's last day ends on the last day of
///   the month compared, other days are kept where that month has them.
/// - Any other span (an ISO week or part of one, a day, custom dates): the span before, moved
///   back by its length rounded up to whole weeks, so that each day faces the same weekday
///   (a Tuesday against the Tuesday before; ten days against the ten days two weeks earlier).
///
/// The span compared never overlaps the span and always ends before it.
pub fn comparison_span(from: NaiveDate, to: NaiveDate) -> (NaiveDate, NaiveDate) {
    let months_touched =
        (to.year() - from.year()) * 12 + to.month() as i32 - from.month() as i32 + 1;
    let by_months = |k: u32| -> Option<(NaiveDate, NaiveDate)> {
        let start = from.checked_sub_months(Months::new(k))?;
        let to_month = to.with_day(1)?.checked_sub_months(Months::new(k))?;
        let last = last_day_of_month(to_month)?;
        let end = if to == last_day_of_month(to)? {
            last
        } else {
            to_month.with_day(to.day().min(last.day()))?
        };
        Some((start, end))
    };
    let calendar = if from.day() == 1 && months_touched >= 1 {
        if from.month() == 1 && months_touched > 1 {
            let years = (to.year() - from.year() + 1) as u32;
            by_months(12 * years)
        } else {
            by_months(months_touched as u32)
        }
    } else {
        None
    };
    calendar.unwrap_or_else(|| {
        let days = (to - from).num_days().max(0) + 1;
        let shift = Duration::days((days + 6) / 7 * 7);
        (from - shift, to - shift)
    })
}

/// Whether a sale at `at`, on a day `days_back` days before today, falls within "the same hours"
/// as `now`: its wall-clock time in `zone` moved forward by `days_back` days is not later than
/// `now`'s wall-clock time there. "Today so far" is compared with earlier days this way.
///
/// Wall clocks, not elapsed hours: on a day the clocks go forward (an hour of wall time never
/// happens) or back (an hour happens twice), 09:00 still faces 09:00. A zone ahead of the
/// operator whose day has already moved on compares whole days; one whose day has not begun,
/// nothing.
pub fn within_same_hours(at: DateTime<Utc>, days_back: i64, now: DateTime<Utc>, zone: Tz) -> bool {
    let moved = at.with_timezone(&zone).naive_local() + Duration::days(days_back);
    moved <= now.with_timezone(&zone).naive_local()
}

/// The last day of `date`'s month.
fn last_day_of_month(date: NaiveDate) -> Option<NaiveDate> {
    date.with_day(1)?
        .checked_add_months(Months::new(1))?
        .pred_opt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn local_dates_straddle_midnight() {
        #[rustfmt::skip]
        let cases = [
            // 23:30 UTC: already tomorrow in Paris and Auckland, still today in Los Angeles.
            ("2026-11-22T23:30:00Z", "Europe/Paris", "2026-11-23"),
            ("2026-11-22T23:30:00Z", "Pacific/Auckland", "2026-11-23"),
            ("2026-11-22T23:30:00Z", "America/Los_Angeles", "2026-11-22"),
            // 10:30 UTC: Auckland (UTC+13 in November) is already on the next day at 11:00.
            ("2026-11-22T10:30:00Z", "Europe/Paris", "2026-11-22"),
            ("2026-11-22T10:30:00Z", "Pacific/Auckland", "2026-11-22"),
            ("2026-11-22T11:00:00Z", "Pacific/Auckland", "2026-11-23"),
            // Daylight saving: Paris leaves summer time on 2026-10-25 at 01:00 UTC.
            ("2026-10-24T21:59:59Z", "Europe/Paris", "2026-10-24"),
            ("2026-10-24T22:00:00Z", "Europe/Paris", "2026-10-25"),
            ("2026-10-25T22:59:59Z", "Europe/Paris", "2026-10-25"),
            ("2026-10-25T23:00:00Z", "Europe/Paris", "2026-10-26"),
        ];
        for (instant, zone, day) in cases {
            let tz: Tz = zone.parse().unwrap();
            assert_eq!(local_date(at(instant), tz), d(day), "{instant} in {zone}");
        }
    }

    #[test]
    fn dates_parse_strictly_within_sane_years() {
        assert_eq!(parse_date("2026-02-28"), Some(d("2026-02-28")));
        assert_eq!(parse_date(" 2024-02-29 "), Some(d("2024-02-29")));
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "-262143-01-01",
            "262142-12-31",
            "1899-12-31",
            "2026-1-1",
            "",
            "x",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn latest_date_anywhere_covers_every_zone() {
        for hour in 0..24 {
            let now = Utc.with_ymd_and_hms(2026, 12, 31, hour, 30, 0).unwrap();
            let latest = latest_date_anywhere(now);
            for tz in chrono_tz::TZ_VARIANTS {
                assert!(local_date(now, tz) <= latest, "{tz} at {now}");
            }
        }
    }

    #[test]
    fn presets_use_the_local_day() {
        // (preset, the operator's today, the range it means). Sunday 2026-03-01: its week began
        // on Monday 23 February; 2024 is a leap year.
        #[rustfmt::skip]
        let cases = [
            (Period::Yesterday, "2026-03-01", "2026-02-28", "2026-02-28"),
            (Period::CurrentWeek, "2026-03-01", "2026-02-23", "2026-03-01"),
            (Period::PreviousWeek, "2026-03-02", "2026-02-23", "2026-03-01"),
            (Period::CurrentMonth, "2026-03-01", "2026-03-01", "2026-03-01"),
            (Period::PreviousMonth, "2026-03-01", "2026-02-01", "2026-02-28"),
            (Period::CurrentAndPreviousMonth, "2024-03-31", "2024-02-01", "2024-03-31"),
            (Period::PreviousMonth, "2024-03-31", "2024-02-01", "2024-02-29"),
            (Period::PreviousMonth, "2027-01-15", "2026-12-01", "2026-12-31"),
            (Period::CurrentYear, "2026-12-31", "2026-01-01", "2026-12-31"),
            (Period::PreviousYear, "2027-01-01", "2026-01-01", "2026-12-31"),
        ];
        for (period, today, from, to) in cases {
            assert_eq!(
                period.range(d(today)),
                Some((d(from), d(to))),
                "{period:?} on {today}"
            );
        }
        let today = d("2026-03-01");
        assert_eq!(Period::Custom.range(today), None);
        for p in Period::ALL {
            assert_eq!(Period::from_key(p.key()), Some(p));
        }
        // The operator's "this month" at 23:30 UTC on the last day of a month, seen from Paris,
        // is already the next month.
        let paris: Tz = "Europe/Paris".parse().unwrap();
        let today = local_date(at("2026-11-30T23:30:00Z"), paris);
        assert_eq!(
            Period::CurrentMonth.range(today),
            Some((d("2026-12-01"), d("2026-12-01")))
        );
    }

    #[test]
    fn a_span_is_compared_with_the_calendar_period_before_or_the_same_weekdays() {
        let c = |a: &str, b: &str| comparison_span(d(a), d(b));
        // Months, whole or to date, and a leap February.
        assert_eq!(
            c("2026-10-01", "2026-10-31"),
            (d("2026-09-01"), d("2026-09-30"))
        );
        assert_eq!(
            c("2026-03-01", "2026-03-31"),
            (d("2026-02-01"), d("2026-02-28"))
        );
        assert_eq!(
            c("2026-11-01", "2026-11-27"),
            (d("2026-10-01"), d("2026-10-27"))
        );
        assert_eq!(
            c("2026-03-01", "2026-03-30"),
            (d("2026-02-01"), d("2026-02-28"))
        );
        assert_eq!(
            c("2028-03-01", "2028-03-31"),
            (d("2028-02-01"), d("2028-02-29"))
        );
        assert_eq!(
            c("2026-01-01", "2026-01-31"),
            (d("2025-12-01"), d("2025-12-31"))
        );
        // The current and previous month; a quarter.
        assert_eq!(
            c("2026-10-01", "2026-11-27"),
            (d("2026-08-01"), d("2026-09-27"))
        );
        assert_eq!(
            c("2026-10-01", "2026-12-31"),
            (d("2026-07-01"), d("2026-09-30"))
        );
        // Years: to date, whole, a leap day.
        assert_eq!(
            c("2026-01-01", "2026-11-27"),
            (d("2025-01-01"), d("2025-11-27"))
        );
        assert_eq!(
            c("2025-01-01", "2025-12-31"),
            (d("2024-01-01"), d("2024-12-31"))
        );
        assert_eq!(
            c("2028-01-01", "2028-02-29"),
            (d("2027-01-01"), d("2027-02-28"))
        );
        // Weeks and days: the same weekdays before.
        assert_eq!(
            c("2026-11-23", "2026-11-29"),
            (d("2026-11-16"), d("2026-11-22"))
        );
        assert_eq!(
            c("2026-11-23", "2026-11-26"),
            (d("2026-11-16"), d("2026-11-19"))
        );
        assert_eq!(
            c("2026-11-26", "2026-11-26"),
            (d("2026-11-19"), d("2026-11-19"))
        );
        assert_eq!(
            c("2026-11-10", "2026-11-19"),
            (d("2026-10-27"), d("2026-11-05"))
        );
    }

    #[test]
    fn every_comparison_ends_before_its_span_and_keeps_its_shape() {
        // Brute force over every span of up to 400 days starting in 2027-2028 (a leap year).
        let mut from = d("2027-01-01");
        while from <= d("2028-12-31") {
            for len in (0..400).step_by(3) {
                let to = from + Duration::days(len);
                let (pf, pt) = comparison_span(from, to);
                assert!(pf <= pt && pt < from, "{from}..{to} against {pf}..{pt}");
                let whole_months = from.day() == 1 && to == last_day_of_month(to).unwrap();
                if whole_months {
                    assert_eq!(pf.day(), 1, "{from}..{to}");
                    assert_eq!(pt, last_day_of_month(pt).unwrap(), "{from}..{to}");
                } else if from.day() != 1 {
                    assert_eq!(pf.weekday(), from.weekday(), "{from}..{to}");
                    assert_eq!(pt - pf, to - from, "{from}..{to}");
                }
            }
            from += Duration::days(5);
        }
    }

    /// The wall-clock rule against a brute force that walks the compared day minute by minute
    /// in the zone and keeps the instants whose local time is at most now's: around both of
    /// Paris's 2026 clock changes, and New York's, at several times of day.
    #[test]
    fn same_hours_follow_the_wall_clock_around_clock_changes() {
        let cases = [
            ("Europe/Paris", "2026-03-29", "2026-03-30"),
            ("Europe/Paris", "2026-10-25", "2026-10-26"),
            ("Europe/Paris", "2026-03-29", "2026-04-05"),
            ("America/New_York", "2026-03-08", "2026-03-09"),
            ("America/New_York", "2026-11-01", "2026-11-08"),
        ];
        for (zone, day, today) in cases {
            let (zone, day, today): (Tz, _, _) = (zone.parse().unwrap(), d(day), d(today));
            let days_back = (today - day).num_days();
            for hm in [
                "00:00", "01:59", "02:00", "02:30", "03:00", "09:00", "23:59",
            ] {
                let wall = today.and_time(chrono::NaiveTime::parse_from_str(hm, "%H:%M").unwrap());
                let now = zone
                    .from_local_datetime(&wall)
                    .earliest()
                    .unwrap()
                    .with_timezone(&Utc);
                let start = zone
                    .from_local_datetime(&day.and_hms_opt(0, 0, 0).unwrap())
                    .earliest()
                    .unwrap()
                    .with_timezone(&Utc);
                let mut counted = 0;
                let mut brute = 0;
                let mut instant = start;
                while local_date(instant, zone) == day {
                    counted += i32::from(within_same_hours(instant, days_back, now, zone));
                    let local = instant.with_timezone(&zone).naive_local();
                    brute += i32::from(local.time() <= wall.time());
                    instant += Duration::minutes(1);
                }
                assert_eq!(counted, brute, "{zone} {day} at {hm}");
            }
        }
        // A day that is over in a zone ahead counts whole; one not begun in a zone behind, not at all.
        let now = at("2026-11-27T23:30:00Z");
        let auckland: Tz = "Pacific/Auckland".parse().unwrap();
        assert!(within_same_hours(
            at("2026-11-26T10:59:00Z"),
            1,
            now,
            auckland
        ));
        let honolulu: Tz = "Pacific/Honolulu".parse().unwrap();
        assert!(!within_same_hours(
            at("2026-11-27T09:59:00Z"),
            1,
            at("2026-11-27T09:00:00Z"),
            honolulu
        ));
    }
}
