//! What drives a machine's sales: its kind and site, the hours, weekdays, holidays and paydays,
//! and the random draws the simulation makes.

use super::*;

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
