//! The dashboard area's shapes.

use crate::machines::Machine;
use chrono::{NaiveDate, NaiveTime};
use vendfleet_domain::attention::Finding;
use vendfleet_domain::sales::Figures;

/// Groups listed in the dashboard's top lists.
pub const TOP: usize = 5;

/// A span's figures and those of the span it is compared with (`comparison_span`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanFigures {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub figures: Figures,
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
    pub previous: Figures,
}

/// Today so far, against the same hours (wall clock, in each sale's zone) of yesterday and of
/// the same weekday a week before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Today {
    pub day: NaiveDate,
    /// The operator's wall-clock time now: where the compared days stop.
    pub until: NaiveTime,
    pub figures: Figures,
    pub yesterday: Figures,
    pub week_before: Figures,
}

/// Figures by day over a span, every day present (zero where nothing sold).
pub type DaySeries = Vec<(NaiveDate, Figures)>;

/// The dashboard's trend charts: the last 30 days, and this month by day against the month
/// compared with it (`comparison_span`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trend {
    pub last_days: DaySeries,
    pub month: DaySeries,
    pub previous_month: DaySeries,
}

/// Days the trend's first chart covers, today included.
pub const TREND_DAYS: i64 = 30;

/// One entry of a top list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Top {
    pub id: String,
    pub name: String,
    pub figures: Figures,
}

/// A machine that needs attention, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    pub machine: Machine,
    /// The name of the machine's location.
    pub location_name: Option<String>,
    pub findings: Vec<Finding>,
}

/// What the dashboard shows; `None` where the user may not see the report behind it.
#[derive(Debug, Clone, Default)]
pub struct Dashboard {
    pub today: Option<Today>,
    pub trend: Option<Trend>,
    pub month: Option<SpanFigures>,
    pub top_products: Option<Vec<Top>>,
    pub top_machines: Option<Vec<Top>>,
    pub attention: Option<Vec<Attention>>,
}
