//! The query scheduler's cron schedules: five classic cron fields (minute, hour, day of month,
//! month, day of week) read in a time zone, with the daylight-saving rules operators expect,
//! and the one conversion to and from EventBridge Scheduler's `cron(...)` expressions.
//!
//! - A field is `*`, a number, a range `a-b`, a step `*/s` or `a-b/s`, or a comma list of those.
//!   Days of the week are 0–7 (0 and 7 are Sunday) or `SUN`–`SAT`; months 1–12 or `JAN`–`DEC`.
//! - A day of month and a day of week may not both be restricted (EventBridge cannot say "either",
//!   and classic cron's "either" surprises people): one of them must be `*`.
//! - Runs are local wall-clock times in the task's zone. A time that does not exist (the hour
//!   skipped when clocks go forward) runs once, at the first minute that exists after it (02:30 on
//!   the spring-forward day runs at 03:00); a time that happens twice (the hour repeated when
//!   clocks go back) runs once, the first time.

use crate::validation::FieldErrors;
use chrono::{DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

/// The five fields as the user wrote them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CronFields {
    pub minute: String,
    pub hour: String,
    pub day_of_month: String,
    pub month: String,
    pub day_of_week: String,
}

impl Default for CronFields {
    /// Every day at 07:00.
    fn default() -> Self {
        CronFields {
            minute: "0".into(),
            hour: "7".into(),
            day_of_month: "*".into(),
            month: "*".into(),
            day_of_week: "*".into(),
        }
    }
}

const DAY_NAMES: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const MONTH_NAMES: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];

/// One field's allowed values as a bit set, and whether it is `*` (unrestricted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Set {
    bits: u64,
    any: bool,
}

impl Set {
    fn has(self, v: u32) -> bool {
        self.bits & (1u64 << v) != 0
    }

    fn values(self, lo: u32, hi: u32) -> impl Iterator<Item = u32> {
        (lo..=hi).filter(move |v| self.has(*v))
    }
}

/// How a field reads: its bounds and its names (offset so that the first name is `lo`).
struct Spec {
    lo: u32,
    hi: u32,
    names: &'static [&'static str],
}

const MINUTE: Spec = Spec {
    lo: 0,
    hi: 59,
    names: &[],
};
const HOUR: Spec = Spec {
    lo: 0,
    hi: 23,
    names: &[],
};
const DAY_OF_MONTH: Spec = Spec {
    lo: 1,
    hi: 31,
    names: &[],
};
const MONTH: Spec = Spec {
    lo: 1,
    hi: 12,
    names: &MONTH_NAMES,
};
/// 0–7 (7 folds to 0, Sunday).
const DAY_OF_WEEK: Spec = Spec {
    lo: 0,
    hi: 7,
    names: &DAY_NAMES,
};

fn parse_value(text: &str, spec: &Spec) -> Result<u32, String> {
    let t = text.trim();
    if let Some(i) = spec.names.iter().position(|n| n.eq_ignore_ascii_case(t)) {
        return Ok(spec.lo + i as u32);
    }
    match t.parse::<u32>() {
        Ok(v) if (spec.lo..=spec.hi).contains(&v) => Ok(v),
        _ => Err(format!(
            "Use numbers from {} to {}{}.",
            spec.lo,
            spec.hi,
            if spec.names.is_empty() {
                String::new()
            } else {
                format!(
                    " or the names {}–{}",
                    spec.names[0],
                    spec.names[spec.names.len() - 1]
                )
            }
        )),
    }
}

fn parse_field(text: &str, spec: &Spec) -> Result<Set, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Required (use * for every value).".into());
    }
    if text == "*" || text == "?" {
        let mut bits = 0;
        for v in spec.lo..=spec.hi {
            bits |= 1 << v;
        }
        return Ok(Set { bits, any: true });
    }
    let mut bits = 0u64;
    for part in text.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((r, s)) => match s.trim().parse::<u32>() {
                Ok(s) if s >= 1 && s <= spec.hi => (r.trim(), s),
                _ => {
                    return Err(format!(
                        "“{part}”: the step after / must be 1 to {}.",
                        spec.hi
                    ))
                }
            },
            None => (part.trim(), 1),
        };
        let (lo, hi) = if range == "*" {
            (spec.lo, spec.hi)
        } else if let Some((a, b)) = range.split_once('-') {
            let (a, b) = (parse_value(a, spec)?, parse_value(b, spec)?);
            if a > b {
                return Err(format!(
                    "“{part}”: a range goes from the smaller to the larger."
                ));
            }
            (a, b)
        } else {
            let v = parse_value(range, spec)?;
            // `5/15` means from 5 to the end, every 15.
            (v, if step > 1 { spec.hi } else { v })
        };
        let mut v = lo;
        while v <= hi {
            bits |= 1 << v;
            v += step;
        }
    }
    Ok(Set { bits, any: false })
}

/// A parsed, valid schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    fields: CronFields,
    minute: Set,
    hour: Set,
    day_of_month: Set,
    month: Set,
    /// Sunday = 0 (7 folded in).
    day_of_week: Set,
}

/// How far ahead a schedule is searched for its next run (29 February on a Monday is rare).
const HORIZON_DAYS: i64 = 366 * 30;

impl Schedule {
    /// Reads the five fields; field errors name `minute`, `hour`, `day_of_month`, `month`,
    /// `day_of_week`.
    pub fn parse(fields: &CronFields) -> Result<Schedule, FieldErrors> {
        let mut errors = FieldErrors::default();
        let mut read = |name: &str, text: &str, spec: &Spec| match parse_field(text, spec) {
            Ok(s) => Some(s),
            Err(e) => {
                errors.add(name, e);
                None
            }
        };
        let minute = read("minute", &fields.minute, &MINUTE);
        let hour = read("hour", &fields.hour, &HOUR);
        let day_of_month = read("day_of_month", &fields.day_of_month, &DAY_OF_MONTH);
        let month = read("month", &fields.month, &MONTH);
        let day_of_week = read("day_of_week", &fields.day_of_week, &DAY_OF_WEEK).map(|mut s| {
            if s.has(7) {
                s.bits = (s.bits & !(1 << 7)) | 1;
            }
            s
        });
        if let (Some(d), Some(w)) = (day_of_month, day_of_week) {
            if !d.any && !w.any {
                errors.add(
                    "day_of_week",
                    "Choose a day of the month or a day of the week, not both: set one to *.",
                );
            }
        }
        if let (Some(d), Some(m)) = (day_of_month, month) {
            // A day that no chosen month has (30 February) never runs.
            let longest = m.values(1, 12).map(month_length).max().unwrap_or(31);
            if !d.any && d.values(1, 31).all(|day| day > longest) {
                errors.add("day_of_month", "No chosen month has this day.");
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Schedule {
            fields: fields.clone(),
            minute: minute.expect("checked"),
            hour: hour.expect("checked"),
            day_of_month: day_of_month.expect("checked"),
            month: month.expect("checked"),
            day_of_week: day_of_week.expect("checked"),
        })
    }

    /// The fields it was read from.
    pub fn fields(&self) -> &CronFields {
        &self.fields
    }

    fn runs_on(&self, date: NaiveDate) -> bool {
        self.month.has(date.month())
            && self.day_of_month.has(date.day())
            && self.day_of_week.has(date.weekday().num_days_from_sunday())
    }

    /// The first run strictly after `after`, in `tz`.
    pub fn next_after(&self, tz: Tz, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        // Start a day early: a local time of the day before may map after `after` (a gap).
        let first = after.with_timezone(&tz).date_naive() - Duration::days(1);
        for offset in 0..HORIZON_DAYS {
            let date = first + Duration::days(offset);
            if !self.runs_on(date) {
                continue;
            }
            for h in self.hour.values(0, 23) {
                for m in self.minute.values(0, 59) {
                    let local = date.and_hms_opt(h, m, 0).expect("a valid time");
                    let at = instant(tz, local);
                    if at > after {
                        return Some(at);
                    }
                }
            }
        }
        None
    }

    /// The next `n` runs after `after`.
    pub fn upcoming(&self, tz: Tz, after: DateTime<Utc>, n: usize) -> Vec<DateTime<Utc>> {
        let mut runs = Vec::with_capacity(n);
        let mut from = after;
        while runs.len() < n {
            match self.next_after(tz, from) {
                Some(at) => {
                    runs.push(at);
                    from = at;
                }
                None => break,
            }
        }
        runs
    }

    /// The shortest time between two consecutive runs, in minutes of the zone's wall clock
    /// (a daylight-saving change aside): what an operator's minimum interval is checked against.
    /// `None` when the schedule never runs.
    pub fn shortest_gap_minutes(&self) -> Option<i64> {
        let times: Vec<i64> = self
            .hour
            .values(0, 23)
            .flat_map(|h| {
                self.minute
                    .values(0, 59)
                    .map(move |m| i64::from(h * 60 + m))
            })
            .collect();
        let (first, last) = (*times.first()?, *times.last()?);
        let within = times.windows(2).map(|w| w[1] - w[0]).min();
        // Weekdays fall on the same dates every 28 years (within 1901-2099): the closest two
        // running days of one such cycle are the closest of any.
        let start = NaiveDate::from_ymd_opt(2001, 1, 1).expect("a date");
        let mut previous: Option<NaiveDate> = None;
        let mut days = None::<i64>;
        for offset in 0..(28 * 366 + 7) {
            let date = start + Duration::days(offset);
            if !self.runs_on(date) {
                continue;
            }
            if let Some(p) = previous {
                let gap = (date - p).num_days();
                days = Some(days.map_or(gap, |d: i64| d.min(gap)));
            }
            previous = Some(date);
        }
        let across = days.map(|d| d * 24 * 60 - (last - first));
        match (within, across) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The EventBridge Scheduler expression (`cron(0 7 ? * MON-FRI *)`), to be read in the
    /// schedule's time zone (`ScheduleExpressionTimezone`).
    pub fn eventbridge(&self) -> String {
        let dom = if self.day_of_week.any {
            list(self.day_of_month, 1, 31, |v| v.to_string())
        } else {
            "?".to_string()
        };
        let dow = if self.day_of_week.any {
            "?".to_string()
        } else {
            list(self.day_of_week, 0, 6, |v| {
                DAY_NAMES[v as usize].to_string()
            })
        };
        format!(
            "cron({} {} {} {} {} *)",
            list(self.minute, 0, 59, |v| v.to_string()),
            list(self.hour, 0, 23, |v| v.to_string()),
            dom,
            list(self.month, 1, 12, |v| v.to_string()),
            dow
        )
    }

    /// Reads an EventBridge `cron(...)` expression back into fields (what a schedule that was
    /// stored says); `None` when it is not one this module writes.
    pub fn from_eventbridge(expression: &str) -> Option<CronFields> {
        let inner = expression.trim().strip_prefix("cron(")?.strip_suffix(')')?;
        let parts: Vec<&str> = inner.split_whitespace().collect();
        let [minute, hour, dom, month, dow, year] = parts.as_slice() else {
            return None;
        };
        if *year != "*" {
            return None;
        }
        let any = |s: &str| {
            if s == "?" {
                "*".to_string()
            } else {
                s.to_string()
            }
        };
        // EventBridge numbers days 1–7 from Sunday; this module writes names, but read both.
        let dow = if *dow == "?" || *dow == "*" {
            "*".to_string()
        } else {
            dow.split(',')
                .map(|part| {
                    part.split('-')
                        .map(|v| match v.parse::<u32>() {
                            Ok(n @ 1..=7) => DAY_NAMES[(n - 1) as usize].to_string(),
                            _ => v.to_string(),
                        })
                        .collect::<Vec<_>>()
                        .join("-")
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let fields = CronFields {
            minute: minute.to_string(),
            hour: hour.to_string(),
            day_of_month: any(dom),
            month: month.to_string(),
            day_of_week: dow,
        };
        Schedule::parse(&fields).ok().map(|_| fields)
    }

    /// Whether two schedules run at the same times (same sets in every field).
    pub fn same_times(&self, other: &Schedule) -> bool {
        self.minute.bits == other.minute.bits
            && self.hour.bits == other.hour.bits
            && self.day_of_month.bits == other.day_of_month.bits
            && self.month.bits == other.month.bits
            && self.day_of_week.bits == other.day_of_week.bits
    }
}

fn month_length(m: u32) -> u32 {
    match m {
        2 => 29,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A set as `*` when full, else a comma list with runs of three or more as ranges.
fn list(set: Set, lo: u32, hi: u32, name: impl Fn(u32) -> String) -> String {
    let values: Vec<u32> = set.values(lo, hi).collect();
    if values.len() == (hi - lo + 1) as usize {
        return "*".into();
    }
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j + 1 < values.len() && values[j + 1] == values[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            out.push(format!("{}-{}", name(values[i]), name(values[j])));
        } else {
            out.extend(values[i..=j].iter().map(|v| name(*v)));
        }
        i = j + 1;
    }
    out.join(",")
}

/// The instant of a local wall-clock time: the first one when it happens twice, the first
/// minute that exists after it when it does not exist.
pub fn instant(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    let mut t = local;
    for _ in 0..(24 * 60) {
        match tz.from_local_datetime(&t) {
            LocalResult::Single(at) => return at.with_timezone(&Utc),
            LocalResult::Ambiguous(first, _) => return first.with_timezone(&Utc),
            LocalResult::None => t += Duration::minutes(1),
        }
    }
    Utc.from_utc_datetime(&local)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(m: &str, h: &str, dom: &str, mon: &str, dow: &str) -> CronFields {
        CronFields {
            minute: m.into(),
            hour: h.into(),
            day_of_month: dom.into(),
            month: mon.into(),
            day_of_week: dow.into(),
        }
    }

    fn at(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    fn paris() -> Tz {
        "Europe/Paris".parse().unwrap()
    }

    #[test]
    fn a_daily_job_runs_at_local_time_across_midnight_utc() {
        let s = Schedule::parse(&fields("30", "0", "*", "*", "*")).unwrap();
        let tz: Tz = "Pacific/Auckland".parse().unwrap();
        // 00:30 in Auckland (UTC+13 in November) is 11:30 UTC the day before.
        let runs = s.upcoming(tz, at("2026-11-22T11:00:00Z"), 2);
        assert_eq!(
            runs,
            vec![at("2026-11-22T11:30:00Z"), at("2026-11-23T11:30:00Z")]
        );
    }

    #[test]
    fn spring_forward_runs_once_at_three() {
        // Paris skips 02:00–03:00 on 2026-03-29.
        let s = Schedule::parse(&fields("30", "2", "*", "*", "*")).unwrap();
        let runs = s.upcoming(paris(), at("2026-03-28T12:00:00Z"), 3);
        assert_eq!(
            runs,
            vec![
                at("2026-03-29T01:00:00Z"), // 03:00 CEST
                at("2026-03-30T00:30:00Z"), // 02:30 CEST
                at("2026-03-31T00:30:00Z"),
            ]
        );
        // A job at 02:30 and 03:00 still runs once at 03:00 that day.
        let both = Schedule::parse(&fields("0,30", "2,3", "29", "3", "*")).unwrap();
        let runs = both.upcoming(paris(), at("2026-03-28T12:00:00Z"), 3);
        assert_eq!(
            runs,
            vec![
                at("2026-03-29T01:00:00Z"),
                at("2026-03-29T01:30:00Z"),
                at("2027-03-29T00:00:00Z")
            ]
        );
    }

    #[test]
    fn fall_back_runs_once_the_first_time() {
        // Paris repeats 02:00–03:00 on 2026-10-25 (CEST then CET).
        let s = Schedule::parse(&fields("30", "2", "*", "*", "*")).unwrap();
        let runs = s.upcoming(paris(), at("2026-10-24T12:00:00Z"), 2);
        assert_eq!(
            runs,
            vec![at("2026-10-25T00:30:00Z"), at("2026-10-26T01:30:00Z")]
        );
    }

    #[test]
    fn fields_read_like_cron() {
        let s = Schedule::parse(&fields("*/15", "8-10", "*", "*", "MON-FRI")).unwrap();
        // Saturday 2026-11-21 → Monday 08:00 UTC.
        let runs = s.upcoming("UTC".parse().unwrap(), at("2026-11-21T00:00:00Z"), 3);
        assert_eq!(
            runs,
            vec![
                at("2026-11-23T08:00:00Z"),
                at("2026-11-23T08:15:00Z"),
                at("2026-11-23T08:30:00Z")
            ]
        );
        let sunday = Schedule::parse(&fields("0", "9", "*", "*", "7")).unwrap();
        let zero = Schedule::parse(&fields("0", "9", "*", "*", "0")).unwrap();
        assert!(sunday.same_times(&zero));
        let leap = Schedule::parse(&fields("0", "0", "29", "2", "*")).unwrap();
        assert_eq!(
            leap.next_after("UTC".parse().unwrap(), at("2026-11-22T00:00:00Z")),
            Some(at("2028-02-29T00:00:00Z"))
        );
    }

    #[test]
    fn bad_fields_are_named() {
        let e = Schedule::parse(&fields("60", "", "31", "2", "1")).unwrap_err();
        let j = serde_json::to_value(&e).unwrap();
        for f in ["minute", "hour", "day_of_week", "day_of_month"] {
            assert!(j.get(f).is_some(), "{f} in {j}");
        }
        assert!(Schedule::parse(&fields("5-1", "*", "*", "*", "*")).is_err());
        assert!(Schedule::parse(&fields("*/0", "*", "*", "*", "*")).is_err());
        assert!(Schedule::parse(&fields("0", "7", "*", "*", "FOO")).is_err());
    }

    #[test]
    fn eventbridge_expressions_round_trip() {
        let cases = [
            (fields("0", "7", "*", "*", "*"), "cron(0 7 * * ? *)"),
            (
                fields("*/15", "8-17", "*", "*", "1-5"),
                "cron(0,15,30,45 8-17 ? * MON-FRI *)",
            ),
            (fields("30", "6", "1", "*", "*"), "cron(30 6 1 * ? *)"),
            (
                fields("0", "9", "*", "JAN,JUL", "SUN,7"),
                "cron(0 9 ? 1,7 SUN *)",
            ),
        ];
        for (f, expected) in cases {
            let s = Schedule::parse(&f).unwrap();
            assert_eq!(s.eventbridge(), expected);
            let back = Schedule::from_eventbridge(expected).unwrap();
            assert!(Schedule::parse(&back).unwrap().same_times(&s), "{expected}");
        }
        // EventBridge's numeric days (1 = Sunday) read as names.
        let back = Schedule::from_eventbridge("cron(0 9 ? * 2-6 *)").unwrap();
        assert_eq!(back.day_of_week, "MON-FRI");
        assert!(Schedule::from_eventbridge("rate(5 minutes)").is_none());
    }

    #[test]
    fn the_shortest_gap_between_runs_is_measured_on_the_wall_clock() {
        let gap = |m: &str, h: &str, dom: &str, mon: &str, dow: &str| {
            Schedule::parse(&fields(m, h, dom, mon, dow))
                .unwrap()
                .shortest_gap_minutes()
        };
        assert_eq!(gap("*", "*", "*", "*", "*"), Some(1));
        assert_eq!(gap("*/15", "8-17", "*", "*", "1-5"), Some(15));
        assert_eq!(gap("0", "7", "*", "*", "*"), Some(24 * 60));
        // 23:50 then 00:05 the next day.
        assert_eq!(gap("5,50", "0,23", "*", "*", "*"), Some(15));
        // Weekdays: Friday to Monday is longer than Monday to Tuesday.
        assert_eq!(gap("0", "7", "*", "*", "MON-FRI"), Some(24 * 60));
        assert_eq!(gap("0", "7", "*", "*", "MON"), Some(7 * 24 * 60));
        // The 31st: July to August, December to January.
        assert_eq!(gap("0", "7", "31", "*", "*"), Some(31 * 24 * 60));
        assert_eq!(gap("0", "7", "31", "1,3", "*"), Some(59 * 24 * 60));
    }
}
