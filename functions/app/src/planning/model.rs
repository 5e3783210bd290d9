//! Planning's settings, computed plans, and planned routes as stored.

use crate::error::{AppError, AppResult};
use crate::fleet::Location;
use crate::machines::Machine;
use crate::ports::{Item, Key};
use crate::records::Record;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use vendfleet_domain::planning::{Need, Point, RouteStatus, Thresholds, Velocity};
use vendfleet_domain::FieldErrors;

/// Version of the stored shape of planning items.
pub const SCHEMA: u32 = 1;

/// The operator's planning settings.
// Stored as one item, and the API's `SettingsDto` as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = SettingsDto))]
pub struct PlanningSettings {
    /// A selection below this share of its max (percent) is low.
    pub low_share_pct: u32,
    pub expiry_days: i64,
    /// Cash box amount (minor units) at which a machine should be collected.
    pub auto_collect_minor: i64,
    pub stale_hours: i64,
    pub horizon_days: i64,
    /// Days of sales the velocities average (7–91).
    pub velocity_days: i64,
    pub van_capacity: i64,
    /// HH:MM in the operator's zone.
    pub shift_start: String,
    pub shift_end: String,
    pub service_minutes: i64,
    pub road_factor: f64,
    pub speed_kmh: f64,
    pub depot_latitude: Option<f64>,
    pub depot_longitude: Option<f64>,
    /// Ignored on writes.
    #[serde(default)]
    pub updated_at: Option<DateTime<Utc>>,
    /// The version the form was loaded with (0 before the first save).
    // Read from the item's version, not from its stored body.
    #[serde(default)]
    pub version: Option<u64>,
}

impl Default for PlanningSettings {
    fn default() -> Self {
        let t = Thresholds::default();
        PlanningSettings {
            low_share_pct: t.low_share_pct,
            expiry_days: t.expiry_days,
            auto_collect_minor: t.auto_collect_minor,
            stale_hours: t.stale_hours,
            horizon_days: t.horizon_days,
            velocity_days: 28,
            van_capacity: 800,
            shift_start: "07:30".into(),
            shift_end: "16:30".into(),
            service_minutes: 10,
            road_factor: 1.3,
            speed_kmh: 40.0,
            depot_latitude: None,
            depot_longitude: None,
            updated_at: None,
            version: Some(0),
        }
    }
}

impl PlanningSettings {
    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            low_share_pct: self.low_share_pct,
            expiry_days: self.expiry_days,
            auto_collect_minor: self.auto_collect_minor,
            stale_hours: self.stale_hours,
            horizon_days: self.horizon_days,
        }
    }

    /// The depot, when both coordinates are set.
    pub fn depot(&self) -> Option<Point> {
        match (self.depot_latitude, self.depot_longitude) {
            (Some(latitude), Some(longitude)) => Some(Point {
                latitude,
                longitude,
            }),
            _ => None,
        }
    }

    /// 400 with every field at fault.
    pub fn check(&self) -> AppResult<()> {
        let mut e = FieldErrors::new();
        let mut range = |field: &str, v: i64, lo: i64, hi: i64| {
            if !(lo..=hi).contains(&v) {
                e.add(field, format!("Must be between {lo} and {hi}."));
            }
        };
        range("low_share_pct", i64::from(self.low_share_pct), 0, 100);
        range("expiry_days", self.expiry_days, 0, 60);
        range(
            "auto_collect_minor",
            self.auto_collect_minor,
            0,
            100_000_000,
        );
        range("stale_hours", self.stale_hours, 1, 24 * 30);
        range("horizon_days", self.horizon_days, 0, 30);
        range("velocity_days", self.velocity_days, 7, 91);
        range("van_capacity", self.van_capacity, 1, 100_000);
        range("service_minutes", self.service_minutes, 0, 240);
        let times: Vec<Option<chrono::NaiveTime>> = [
            ("shift_start", &self.shift_start),
            ("shift_end", &self.shift_end),
        ]
        .into_iter()
        .map(|(f, v)| {
            chrono::NaiveTime::parse_from_str(v.trim(), "%H:%M")
                .map_err(|_| e.add(f, "Enter a time as HH:MM."))
                .ok()
        })
        .collect();
        if let [Some(a), Some(b)] = times[..] {
            if b <= a {
                e.add("shift_end", "Must be after the shift start.");
            }
        }
        if !(self.road_factor.is_finite() && (1.0..=3.0).contains(&self.road_factor)) {
            e.add("road_factor", "Must be between 1 and 3.");
        }
        if !(self.speed_kmh.is_finite() && (5.0..=130.0).contains(&self.speed_kmh)) {
            e.add("speed_kmh", "Must be between 5 and 130.");
        }
        vendfleet_domain::validation::coordinate(
            &mut e,
            "depot_latitude",
            self.depot_latitude,
            90.0,
        );
        vendfleet_domain::validation::coordinate(
            &mut e,
            "depot_longitude",
            self.depot_longitude,
            180.0,
        );
        if self.depot_latitude.is_some() != self.depot_longitude.is_some() {
            e.add(
                "depot_longitude",
                "Give both latitude and longitude, or neither.",
            );
        }
        e.into_result().map_err(AppError::invalid)
    }
}

/// A component a selection's need takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentNeed {
    pub component_id: String,
    pub name: String,
    pub unit: String,
    pub quantity: i64,
    /// The recipe's quantity for one unit of the product.
    #[serde(default)]
    pub per_unit: i64,
}

/// One selection's plan for a visit.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectionPlan {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub current: i64,
    pub max: i64,
    pub case_size: Option<i64>,
    pub price_minor: i64,
    pub velocity: Velocity,
    pub days_to_empty: Option<f64>,
    pub predicted_at_visit: f64,
    /// The gap to par (units, before case rounding).
    pub need: i64,
    /// What to bring (rounded up to cases).
    pub to_bring: i64,
    pub expiry_date: Option<NaiveDate>,
    pub components: Vec<ComponentNeed>,
}

/// One machine's plan for a visit.
#[derive(Debug, Clone, PartialEq)]
pub struct MachinePlan {
    pub machine: Machine,
    pub location: Option<Location>,
    pub point: Option<Point>,
    pub last_reading: Option<DateTime<Utc>>,
    pub need: Need,
    pub selections: Vec<SelectionPlan>,
}

impl MachinePlan {
    /// Units to bring (rounded to cases).
    pub fn units_to_bring(&self) -> i64 {
        self.selections.iter().map(|s| s.to_bring).sum()
    }
}

/// A machine's cash.
#[derive(Debug, Clone, PartialEq)]
pub struct MachineCash {
    pub currency: String,
    pub decimal_places: u8,
    pub cash_box_minor: Option<i64>,
    pub bill_stacker_minor: Option<i64>,
    pub tubes_minor: Option<i64>,
    pub read_at: Option<DateTime<Utc>>,
    pub last_collection: Option<crate::events::Encashment>,
    pub expected_cash_minor: i64,
    pub auto_collect_minor: i64,
    pub collect: bool,
}

/// A stop of a plan or route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanStop {
    pub machine_id: String,
    pub machine_name: String,
    pub location_name: Option<String>,
    /// The location's street address, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    pub point: Option<Point>,
    pub arrival: Option<DateTime<Utc>>,
    pub departure: Option<DateTime<Utc>>,
    /// Metres from the previous stop.
    pub distance_m: i64,
    pub units: i64,
}

/// One refiller's route in a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanRoute {
    pub employee_id: String,
    pub employee_name: String,
    pub stops: Vec<PlanStop>,
    pub distance_m: i64,
    pub duration_s: i64,
    pub start: Option<DateTime<Utc>>,
    pub end: Option<DateTime<Utc>>,
    pub units: i64,
}

/// A product's total in a picklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductTotal {
    pub product_id: String,
    pub product_name: String,
    pub quantity: i64,
    pub case_size: Option<i64>,
    pub components: Vec<ComponentNeed>,
}

/// A generated plan: routes, what could not be routed, and the picklists.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub visit_date: NaiveDate,
    pub routes: Vec<PlanRoute>,
    /// (machine id, reason: `no_coordinates`, `capacity`, `shift`).
    pub unassigned: Vec<(String, String)>,
    pub totals: Vec<ProductTotal>,
    pub machines: Vec<MachinePlan>,
}

vendfleet_domain::choice! {
    /// A planned route's kind.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    pub enum RouteType {
        Refill,
        CashCollection,
        RefillAndCollection,
    }
}

/// A stop of a planned route, as the route keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RouteStopSummary {
    #[serde(flatten)]
    pub stop: PlanStop,
    pub visited_at: Option<DateTime<Utc>>,
    /// Why the stop could not be serviced, when its booking said so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_serviced: Option<NotServiced>,
}

/// A planned route: one refiller's day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedRoute {
    pub id: String,
    pub name: String,
    pub route_type: RouteType,
    pub visit_date: NaiveDate,
    pub created_at: DateTime<Utc>,
    pub created_by: String,
    /// The end of the visit day in the operator's zone.
    pub expires_at: DateTime<Utc>,
    pub employee_id: String,
    pub employee_name: String,
    /// As stored; [`PlannedRoute::status_at`] gives it with expiry.
    pub status: RouteStatus,
    pub stops: Vec<RouteStopSummary>,
    pub distance_m: i64,
    pub duration_s: i64,
    pub depot: Option<Point>,
    pub updated_at: DateTime<Utc>,
    /// The day the stops' picklists were computed for (the visit day when saved; a route
    /// moved to another day keeps it). Routes saved before it was kept: the visit day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picklist_date: Option<NaiveDate>,
    /// Units loaded into the van per product (the warehouse's tick-off of the loading list).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub loaded: BTreeMap<String, i64>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

impl PlannedRoute {
    /// The day the picklists were computed for.
    pub fn picklist_date(&self) -> NaiveDate {
        self.picklist_date.unwrap_or(self.visit_date)
    }

    /// GSI2 partition of the routes of a visit month.
    pub fn month_partition(date: NaiveDate) -> String {
        format!("ROUTEMONTH#{}", date.format("%Y-%m"))
    }

    /// The status at `now`.
    pub fn status_at(&self, now: DateTime<Utc>) -> RouteStatus {
        self.status.at(self.expires_at, now)
    }

    /// Stops visited.
    pub fn visited(&self) -> usize {
        self.stops.iter().filter(|s| s.visited_at.is_some()).count()
    }
}

crate::record!(PlannedRoute, "ROUTE", "Planned route", |r| Some((
    PlannedRoute::month_partition(r.visit_date),
    format!("{}#{}", r.visit_date, r.id),
)));

/// One picklist line of a route's stop, as computed when the route was saved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PickLine {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub current: i64,
    pub max: i64,
    pub case_size: Option<i64>,
    pub price_minor: i64,
    /// Units a day (average over the week).
    pub velocity: f64,
    pub predicted_at_visit: f64,
    pub need: i64,
    pub to_bring: i64,
    #[serde(default)]
    pub components: Vec<ComponentNeed>,
}

impl From<&SelectionPlan> for PickLine {
    fn from(s: &SelectionPlan) -> Self {
        PickLine {
            selection: s.selection.clone(),
            product_id: s.product_id.clone(),
            product_name: s.product_name.clone(),
            current: s.current,
            max: s.max,
            case_size: s.case_size,
            price_minor: s.price_minor,
            velocity: s.velocity.average(),
            predicted_at_visit: s.predicted_at_visit,
            need: s.need,
            to_bring: s.to_bring,
            components: s.components.clone(),
        }
    }
}

vendfleet_domain::choice! {
    /// Why stock was taken out at a visit.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum RemovalReason {
        Expired,
        Damaged,
        Other,
    }
}

/// What the refiller did at one selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisitLine {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub found: i64,
    pub filled: i64,
    pub removed: i64,
    pub removed_reason: Option<RemovalReason>,
    /// The stock left: found + filled − removed.
    pub after: i64,
}

/// A booked visit of a stop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Visit {
    pub request_id: String,
    pub at: DateTime<Utc>,
    pub employee_id: String,
    pub employee_name: String,
    pub lines: Vec<VisitLine>,
    pub cash_bag: Option<String>,
    pub collected_minor: Option<i64>,
    /// The refiller's note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Set when the stop could not be serviced (then no lines and no cash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_serviced: Option<NotServiced>,
}

vendfleet_domain::choice! {
    /// Why a stop could not be serviced.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum NotServiced {
        /// The site or the machine could not be reached (locked, no key, no access).
        NoAccess,
        /// The machine is out of order.
        OutOfOrder,
        /// The site is closed.
        SiteClosed,
        Other,
    }
}

impl Visit {
    pub fn filled(&self) -> i64 {
        self.lines.iter().map(|l| l.filled).sum()
    }
    pub fn removed(&self) -> i64 {
        self.lines.iter().map(|l| l.removed).sum()
    }
}

/// A route's stop with its picklist and its visit: an item in the route's partition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RouteStop {
    pub route_id: String,
    pub machine_id: String,
    pub currency: String,
    pub decimal_places: u8,
    pub lines: Vec<PickLine>,
    pub visit: Option<Visit>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

impl RouteStop {
    pub const PREFIX: &'static str = "STOP#";

    pub fn key(route_id: &str, machine_id: &str) -> Key {
        Key::new(
            format!("{}#{route_id}", PlannedRoute::KIND),
            format!("{}{machine_id}", Self::PREFIX),
        )
    }

    pub fn to_item(&self) -> Result<Item, crate::ports::StoreError> {
        Ok(
            Item::from_value(Self::key(&self.route_id, &self.machine_id), self)?
                .with_version(self.version),
        )
    }

    pub fn from_item(item: &Item) -> Result<RouteStop, crate::ports::StoreError> {
        let mut s: RouteStop = item.to_value()?;
        s.version = item.version;
        Ok(s)
    }

    /// The visit's lines by selection (empty before the visit).
    pub fn visited_lines(&self) -> std::collections::HashMap<&str, &VisitLine> {
        self.visit
            .iter()
            .flat_map(|v| v.lines.iter())
            .map(|l| (l.selection.as_str(), l))
            .collect()
    }
}
