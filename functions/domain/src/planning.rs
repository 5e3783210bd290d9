//! Route planning's arithmetic: weekday-aware sales velocity, the stock predicted at a visit,
//! days to empty, what to bring (par minus predicted stock, rounded up to cases), how urgently a
//! machine needs a visit, distances between coordinates, and the planned route's statuses.
//! Pure: the application reads the rollups, the planogram and the machines' status.

pub use crate::thresholds::Thresholds;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// How far ahead a prediction walks, in days.
pub const MAX_DAYS_AHEAD: i64 = 366;

/// Units a day on each weekday (index 0 is Monday).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Velocity {
    pub by_weekday: [f64; 7],
}

/// How many of each weekday (Monday first) the local days `from..=to` hold.
pub fn weekday_counts(from: NaiveDate, to: NaiveDate) -> [i64; 7] {
    let mut out = [0i64; 7];
    if to < from {
        return out;
    }
    let days = (to - from).num_days() + 1;
    for (i, slot) in out.iter_mut().enumerate() {
        // Days d in the span with (weekday(from) + offset) % 7 == i.
        let first = (i as i64 - i64::from(from.weekday().num_days_from_monday())).rem_euclid(7);
        if first < days {
            *slot = (days - 1 - first) / 7 + 1;
        }
    }
    out
}

impl Velocity {
    /// The velocity of units sold on each weekday over the local days `from..=to`.
    pub fn from_units(units: [i64; 7], from: NaiveDate, to: NaiveDate) -> Velocity {
        let counts = weekday_counts(from, to);
        let mut by_weekday = [0.0; 7];
        for i in 0..7 {
            if counts[i] > 0 {
                by_weekday[i] = units[i] as f64 / counts[i] as f64;
            }
        }
        Velocity { by_weekday }
    }

    /// The units a day on `day`'s weekday.
    pub fn on(&self, day: NaiveDate) -> f64 {
        self.by_weekday[day.weekday().num_days_from_monday() as usize]
    }

    /// Units a day over a week.
    pub fn average(&self) -> f64 {
        self.by_weekday.iter().sum::<f64>() / 7.0
    }

    /// This velocity times `share` (a product split over several selections).
    pub fn scaled(&self, share: f64) -> Velocity {
        Velocity {
            by_weekday: self.by_weekday.map(|v| v * share),
        }
    }

    /// Units expected over the local days `from..to` (the end excluded).
    pub fn between(&self, from: NaiveDate, to: NaiveDate) -> f64 {
        let mut sum = 0.0;
        let mut day = from;
        while day < to {
            sum += self.on(day);
            day += Duration::days(1);
        }
        sum
    }

    /// Days from the start of `from` until the stock `current` falls to `level` or below, the
    /// last day counted in part; `Some(0.0)` when it is there already, `None` when it does not
    /// get there within [`MAX_DAYS_AHEAD`] days (nothing sells).
    pub fn days_until(&self, current: f64, level: f64, from: NaiveDate) -> Option<f64> {
        if current <= level {
            return Some(0.0);
        }
        let week: f64 = self.by_weekday.iter().sum();
        if week <= 0.0 {
            return None;
        }
        let mut left = current - level;
        let mut day = from;
        let mut n = 0i64;
        // Any seven days in a row sell a week: skip whole weeks but the last one or two.
        let weeks = ((left / week).floor() as i64 - 1).clamp(0, MAX_DAYS_AHEAD / 7 + 1);
        left -= weeks as f64 * week;
        n += 7 * weeks;
        day += Duration::days(7 * weeks);
        while n < MAX_DAYS_AHEAD {
            let v = self.on(day);
            if v >= left && v > 0.0 {
                return Some(n as f64 + left / v);
            }
            left -= v;
            day += Duration::days(1);
            n += 1;
        }
        None
    }
}

/// The stock predicted at the start of `visit`: `current` (as of the machine's last reading,
/// on `reading_day`) less the sales expected from `reading_day` to the day before `visit`,
/// never below 0.
pub fn predicted_stock(
    current: i64,
    v: &Velocity,
    reading_day: NaiveDate,
    visit: NaiveDate,
) -> f64 {
    (current as f64 - v.between(reading_day, visit)).max(0.0)
}

/// What to bring to a selection of capacity `max` whose stock at the visit is predicted to be
/// `predicted`: the gap to par rounded up, then up to whole cases when the product comes in
/// cases.
pub fn to_bring(max: i64, predicted: f64, case_size: Option<i64>) -> i64 {
    // A hair's tolerance so that 3.0000000001 predicted units do not ask for one more.
    let gap = ((max as f64 - predicted) - 1e-9).ceil().max(0.0) as i64;
    let gap = gap.min(max.max(0));
    match case_size {
        Some(c) if c > 1 && gap > 0 => (gap + c - 1) / c * c,
        _ => gap,
    }
}

/// How urgently a machine needs a visit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NeedLevel {
    /// Something needs doing already.
    Now,
    /// A selection goes low within the horizon.
    Soon,
    /// Nothing in sight.
    Later,
}

impl NeedLevel {
    pub fn key(self) -> &'static str {
        match self {
            NeedLevel::Now => "now",
            NeedLevel::Soon => "soon",
            NeedLevel::Later => "later",
        }
    }
}

/// One selection as planning sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SelectionNeed {
    pub current: i64,
    pub max: i64,
    pub expiry: Option<NaiveDate>,
    pub velocity: Velocity,
}

/// A machine's facts for its need.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineNeedFacts {
    pub last_reading: Option<DateTime<Utc>>,
    /// The day of the last reading in the machine's zone (today when it never reported).
    pub reading_day: NaiveDate,
    pub cash_box_minor: Option<i64>,
    pub held_audits: usize,
    pub selections: Vec<SelectionNeed>,
}

/// The signals behind a machine's need.
#[derive(Debug, Clone, PartialEq)]
pub struct Signals {
    pub sold_out: usize,
    pub low: usize,
    /// Selections predicted empty at the visit.
    pub empty_at_visit: usize,
    pub expiring: usize,
    /// The fewest days to empty among the selections that sell.
    pub min_days_to_empty: Option<f64>,
    /// The fewest days until a selection goes below the low level.
    pub min_days_to_low: Option<f64>,
    pub cash_box_minor: Option<i64>,
    pub cash_due: bool,
    pub last_reading_hours: Option<i64>,
    pub offline: bool,
    pub held_audits: usize,
    /// Units to bring at the visit (before case rounding).
    pub units_to_bring: i64,
}

/// A machine's need at `now` for a visit on `visit` (the operator's day being `today`).
#[derive(Debug, Clone, PartialEq)]
pub struct Need {
    pub level: NeedLevel,
    /// The day by which it should be visited.
    pub visit_by: NaiveDate,
    pub signals: Signals,
}

/// The need of a machine.
pub fn need(
    m: &MachineNeedFacts,
    t: &Thresholds,
    now: DateTime<Utc>,
    today: NaiveDate,
    visit: NaiveDate,
) -> Need {
    let mut s = Signals {
        sold_out: 0,
        low: 0,
        empty_at_visit: 0,
        expiring: 0,
        min_days_to_empty: None,
        min_days_to_low: None,
        cash_box_minor: m.cash_box_minor,
        cash_due: m
            .cash_box_minor
            .is_some_and(|c| t.auto_collect_minor > 0 && c >= t.auto_collect_minor),
        last_reading_hours: m.last_reading.map(|r| (now - r).num_hours().max(0)),
        offline: m
            .last_reading
            .is_none_or(|r| now - r >= Duration::hours(t.stale_hours)),
        held_audits: m.held_audits,
        units_to_bring: 0,
    };
    let min = |slot: &mut Option<f64>, v: Option<f64>| {
        if let Some(v) = v {
            *slot = Some(slot.map_or(v, |s: f64| s.min(v)));
        }
    };
    for sel in m.selections.iter().filter(|s| s.max > 0) {
        let low = t.low_level(sel.max);
        if sel.current <= 0 {
            s.sold_out += 1;
        } else if (sel.current as f64) < low {
            s.low += 1;
        }
        if sel.current > 0
            && sel
                .expiry
                .is_some_and(|d| d <= today + Duration::days(t.expiry_days))
        {
            s.expiring += 1;
        }
        let predicted = predicted_stock(sel.current, &sel.velocity, m.reading_day, visit);
        if predicted <= 0.0 {
            s.empty_at_visit += 1;
        }
        s.units_to_bring += to_bring(sel.max, predicted, None);
        let current = sel.current as f64;
        min(
            &mut s.min_days_to_empty,
            sel.velocity.days_until(current, 0.0, m.reading_day),
        );
        // "Below the low level": at or under the level less a hair.
        min(
            &mut s.min_days_to_low,
            sel.velocity
                .days_until(current, (low - 1e-9).max(0.0), m.reading_day),
        );
    }
    // Days counted from the reading day, turned into a date.
    let due_day = s
        .min_days_to_low
        .map(|d| m.reading_day + Duration::days(d.floor() as i64));
    let now_signals =
        s.sold_out > 0 || s.low > 0 || s.expiring > 0 || s.cash_due || s.held_audits > 0;
    let (level, visit_by) = if now_signals {
        (NeedLevel::Now, today)
    } else {
        match due_day {
            Some(d) if d <= today + Duration::days(t.horizon_days) => {
                (NeedLevel::Soon, d.max(today))
            }
            Some(d) => (NeedLevel::Later, d.max(today)),
            None => (NeedLevel::Later, today + Duration::days(MAX_DAYS_AHEAD)),
        }
    };
    Need {
        level,
        visit_by,
        signals: s,
    }
}

/// Earth's mean radius in metres.
const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// A point on the map.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Point {
    pub latitude: f64,
    pub longitude: f64,
}

/// The great-circle distance between two points, in metres (haversine).
pub fn haversine_m(a: Point, b: Point) -> f64 {
    let (la1, la2) = (a.latitude.to_radians(), b.latitude.to_radians());
    let dla = la2 - la1;
    let dlo = (b.longitude - a.longitude).to_radians();
    let h = (dla / 2.0).sin().powi(2) + la1.cos() * la2.cos() * (dlo / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().min(1.0).asin()
}

/// A planned route's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteStatus {
    Planned,
    InProgress,
    Done,
    Cancelled,
    Expired,
}

impl RouteStatus {
    pub const ALL: [RouteStatus; 5] = [
        RouteStatus::Planned,
        RouteStatus::InProgress,
        RouteStatus::Done,
        RouteStatus::Cancelled,
        RouteStatus::Expired,
    ];

    pub fn key(self) -> &'static str {
        match self {
            RouteStatus::Planned => "planned",
            RouteStatus::InProgress => "in_progress",
            RouteStatus::Done => "done",
            RouteStatus::Cancelled => "cancelled",
            RouteStatus::Expired => "expired",
        }
    }

    pub fn parse(s: &str) -> Option<RouteStatus> {
        RouteStatus::ALL.into_iter().find(|k| k.key() == s)
    }

    /// No move leaves a final status, and a final route does not change.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            RouteStatus::Done | RouteStatus::Cancelled | RouteStatus::Expired
        )
    }

    /// Whether a route may move from `self` to `to` (expiry is not a move: it happens).
    pub fn can_move(self, to: RouteStatus) -> bool {
        use RouteStatus::*;
        matches!(
            (self, to),
            (Planned, InProgress) | (InProgress, Done) | (Planned | InProgress, Cancelled)
        )
    }

    /// The status a route stored as `self` has at `now`: a planned route past its expiry is
    /// expired.
    pub fn at(self, expires_at: DateTime<Utc>, now: DateTime<Utc>) -> RouteStatus {
        if self == RouteStatus::Planned && now >= expires_at {
            RouteStatus::Expired
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn weekday_counts_match_a_walk_over_the_days() {
        for (from, len) in [
            ("2026-11-23", 28),
            ("2026-11-25", 10),
            ("2026-12-31", 1),
            ("2026-03-01", 45),
        ] {
            let from = d(from);
            let to = from + Duration::days(len - 1);
            let mut walk = [0i64; 7];
            let mut day = from;
            while day <= to {
                walk[day.weekday().num_days_from_monday() as usize] += 1;
                day += Duration::days(1);
            }
            assert_eq!(weekday_counts(from, to), walk, "{from} + {len}");
        }
        assert_eq!(weekday_counts(d("2026-11-23"), d("2026-11-22")), [0; 7]);
    }

    #[test]
    fn velocity_prediction_and_days_until() {
        // 28 days from Monday 2026-10-26: four of each weekday.
        let v = Velocity::from_units([4, 8, 0, 0, 0, 20, 0], d("2026-10-26"), d("2026-11-22"));
        assert_eq!(v.by_weekday, [1.0, 2.0, 0.0, 0.0, 0.0, 5.0, 0.0]);
        assert!((v.average() - 8.0 / 7.0).abs() < 1e-12);
        // From Monday 23rd to Sunday 29th (excluded): Mon 1 + Tue 2 + Sat 5 = 8.
        assert_eq!(v.between(d("2026-11-23"), d("2026-11-29")), 8.0);
        assert_eq!(
            predicted_stock(10, &v, d("2026-11-23"), d("2026-11-29")),
            2.0
        );
        assert_eq!(
            predicted_stock(5, &v, d("2026-11-23"), d("2026-11-29")),
            0.0
        );
        // 10 units from Monday: 1 (Mon), 2 (Tue), 0, 0, 0, 5 (Sat), 0, 1 (Mon), then 1 of Tuesday's 2.
        assert_eq!(v.days_until(10.0, 0.0, d("2026-11-23")), Some(8.5));
        assert_eq!(v.days_until(0.0, 0.0, d("2026-11-23")), Some(0.0));
        assert_eq!(
            Velocity::default().days_until(3.0, 0.0, d("2026-11-23")),
            None
        );
    }

    #[test]
    fn days_until_skips_whole_weeks_like_a_day_by_day_walk() {
        let walk = |v: &Velocity, current: f64, level: f64, from: NaiveDate| {
            let mut left = current - level;
            if left <= 0.0 {
                return Some(0.0);
            }
            let mut day = from;
            for n in 0..MAX_DAYS_AHEAD {
                let x = v.on(day);
                if x >= left && x > 0.0 {
                    return Some(n as f64 + left / x);
                }
                left -= x;
                day += Duration::days(1);
            }
            None
        };
        let from = d("2026-11-25");
        for v in [
            Velocity {
                by_weekday: [1.0, 2.0, 0.0, 0.0, 0.0, 5.0, 0.0],
            },
            Velocity {
                by_weekday: [0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02],
            },
            Velocity {
                by_weekday: [3.5; 7],
            },
        ] {
            for current in [0.0, 1.0, 7.0, 8.0, 30.0, 250.0, 10_000.0] {
                for level in [0.0, 2.5] {
                    let (a, b) = (
                        v.days_until(current, level, from),
                        walk(&v, current, level, from),
                    );
                    match (a, b) {
                        (Some(a), Some(b)) => {
                            assert!((a - b).abs() < 1e-9, "{v:?} {current} {level}: {a} {b}")
                        }
                        _ => assert_eq!(a, b, "{v:?} {current} {level}"),
                    }
                }
            }
        }
    }

    #[test]
    fn to_bring_fills_to_par_and_rounds_up_to_cases() {
        assert_eq!(to_bring(10, 3.0, None), 7);
        assert_eq!(to_bring(10, 3.2, None), 7);
        assert_eq!(to_bring(10, 2.8, None), 8);
        assert_eq!(to_bring(10, 3.0 + 1e-12, None), 7);
        assert_eq!(to_bring(10, 10.0, Some(6)), 0);
        assert_eq!(to_bring(10, 3.0, Some(6)), 12);
        assert_eq!(to_bring(10, 4.0, Some(6)), 6);
        assert_eq!(to_bring(10, 0.0, Some(1)), 10);
        assert_eq!(to_bring(10, 12.0, None), 0);
    }

    #[test]
    fn need_levels_and_signals() {
        let now: DateTime<Utc> = "2026-11-23T09:00:00Z".parse().unwrap();
        let today = d("2026-11-23");
        let t = Thresholds::default();
        let flat = |u: f64| Velocity { by_weekday: [u; 7] };
        let sel = |current, velocity| SelectionNeed {
            current,
            max: 20,
            expiry: None,
            velocity,
        };
        let machine = |selections| MachineNeedFacts {
            last_reading: Some(now - Duration::hours(1)),
            reading_day: today,
            cash_box_minor: Some(500),
            held_audits: 0,
            selections,
        };
        // 20 units selling 2 a day: below 5 after 7.5 days; nothing now.
        let later = need(
            &machine(vec![sel(20, flat(2.0))]),
            &t,
            now,
            today,
            today + Duration::days(1),
        );
        assert_eq!(later.level, NeedLevel::Later);
        assert_eq!(later.visit_by, today + Duration::days(7));
        assert_eq!(later.signals.min_days_to_empty, Some(10.0));
        assert_eq!(later.signals.units_to_bring, 2);
        assert!(!later.signals.offline);
        // 8 units selling 2 a day: low after 1.5 days: soon.
        let soon = need(
            &machine(vec![sel(8, flat(2.0))]),
            &t,
            now,
            today,
            today + Duration::days(1),
        );
        assert_eq!(soon.level, NeedLevel::Soon);
        assert_eq!(soon.visit_by, today + Duration::days(1));
        // Sold out, or cash at the auto-collect amount: now.
        let out = need(
            &machine(vec![sel(0, flat(2.0)), sel(3, flat(0.0))]),
            &t,
            now,
            today,
            today,
        );
        assert_eq!(
            (out.level, out.signals.sold_out, out.signals.low),
            (NeedLevel::Now, 1, 1)
        );
        assert_eq!(out.signals.empty_at_visit, 1);
        let mut cash = machine(vec![sel(20, flat(0.0))]);
        cash.cash_box_minor = Some(t.auto_collect_minor);
        let cash = need(&cash, &t, now, today, today);
        assert!(cash.signals.cash_due);
        assert_eq!(cash.level, NeedLevel::Now);
        // Never reported: offline, and only a signal.
        let mut silent = machine(vec![sel(20, flat(0.0))]);
        silent.last_reading = None;
        let silent = need(&silent, &t, now, today, today);
        assert!(silent.signals.offline);
        assert_eq!(silent.level, NeedLevel::Later);
    }

    #[test]
    fn haversine_paris_to_rome() {
        let paris = Point {
            latitude: 48.8566,
            longitude: 2.3522,
        };
        let rome = Point {
            latitude: 41.9028,
            longitude: 12.4964,
        };
        let km = haversine_m(paris, rome) / 1000.0;
        assert!((km - 1105.0).abs() < 5.0, "{km}");
        assert_eq!(haversine_m(paris, paris), 0.0);
    }

    #[test]
    fn route_moves() {
        use RouteStatus::*;
        for from in RouteStatus::ALL {
            for to in RouteStatus::ALL {
                let allowed = matches!(
                    (from, to),
                    (Planned, InProgress)
                        | (InProgress, Done)
                        | (Planned, Cancelled)
                        | (InProgress, Cancelled)
                );
                assert_eq!(from.can_move(to), allowed, "{from:?} -> {to:?}");
                if from.is_final() {
                    assert!(!from.can_move(to));
                }
            }
        }
        let t: DateTime<Utc> = "2026-11-23T23:00:00Z".parse().unwrap();
        assert_eq!(Planned.at(t, t - Duration::seconds(1)), Planned);
        assert_eq!(Planned.at(t, t), Expired);
        assert_eq!(InProgress.at(t, t + Duration::days(1)), InProgress);
        assert_eq!(RouteStatus::parse("in_progress"), Some(InProgress));
    }
}
