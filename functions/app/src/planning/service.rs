//! Planning: which machines to visit (ranked by need, within the user's machine scope), what to
//! bring (predictive picklists), in which order (a VRP solver for several refillers), and the
//! planned routes from loading to the visit report (`routes`).
//!
//! Velocities come from the machine × product × day rollups through
//! [`SalesStore::weekday_units`](crate::ports::SalesStore::weekday_units) (one read for the whole scope); stock from the planogram; the
//! last reading, cash and held audits from the machine status and the audit index — a handful
//! of reads whatever the fleet's size.

mod loading;
mod picklist;
mod plans;
mod route_reports;
mod routes;
mod states;
mod visit;

pub use loading::*;
pub use picklist::{rank, totals};
pub use route_reports::*;
pub use routes::*;
pub use visit::*;

pub use super::model::*;
use super::solver;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::events::EventsService;
use crate::fleet::{FleetService, Location};
use crate::listing::{page_of, paging, ListPage, ListParams};
use crate::machines::{Machine, MachinesService, Selection};
use crate::ports::{Index, ItemStore, Key, Query, SortKey};
use crate::products::ProductsService;
use crate::records::Records;
use crate::users::Directory;
use crate::Calendar;
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::calendar::{local_date, parse_date};
use vendfleet_domain::planning::{
    need, predicted_stock, to_bring, MachineNeedFacts, NeedLevel, Point, SelectionNeed, Velocity,
};
use vendfleet_domain::{FieldErrors, MachineScope, Permission};

/// Visit dates may lie this many days ahead at most.
pub const MAX_VISIT_DAYS_AHEAD: i64 = 60;
/// Machines in one plan at most.
pub const MAX_PLAN_MACHINES: usize = 200;
/// Refillers in one plan at most.
pub const MAX_PLAN_EMPLOYEES: usize = 20;
/// Stops of one planned route at most (a route and its stops are written in one step).
pub const MAX_ROUTE_STOPS: usize = 90;

/// Above this many machines a request reads the whole fleet's velocities and keeps them for
/// [`VELOCITY_TTL_SECS`]; fewer are read on their own.
pub const FLEET_VELOCITIES_FROM: usize = 100;
/// How long the fleet's velocities are kept. They average whole past days, so only vends that
/// arrive late for those days change them meanwhile.
pub const VELOCITY_TTL_SECS: i64 = 300;

/// Units by weekday over a velocity window, by machine.
pub(crate) type UnitsByMachine = HashMap<String, Vec<crate::ports::WeekdayUnits>>;

/// The whole fleet's units by weekday over a velocity window, as read at `loaded_at`.
struct FleetVelocities {
    window: (NaiveDate, NaiveDate),
    loaded_at: DateTime<Utc>,
    machines: BTreeSet<String>,
    units: Arc<UnitsByMachine>,
}

/// The planning service.
#[derive(Clone)]
pub struct PlanningService {
    velocities: Arc<std::sync::Mutex<Option<FleetVelocities>>>,
    /// Each machine's status and selections, where this process is the sole writer (`kept.rs`).
    kept: Option<Arc<super::kept::Kept>>,
    pub(crate) store: Arc<dyn ItemStore>,
    pub(crate) sales: crate::sales::SalesService,
    pub(crate) machines: MachinesService,
    pub(crate) events: EventsService,
    pub(crate) products: ProductsService,
    pub(crate) fleet: FleetService,
    pub(crate) directory: Directory,
    pub(crate) routes: Records<PlannedRoute>,
    pub(crate) calendar: Calendar,
}

/// The route-planning list's query.
#[derive(Debug, Clone, Default)]
pub struct PlanningListParams {
    pub list: ListParams,
    pub visit_date: Option<String>,
    /// `all` (default) or `visit` (need now or soon).
    pub need: Option<String>,
}

/// The generate-picklist form.
#[derive(Debug, Clone, Default)]
pub struct PicklistInput {
    pub visit_date: Option<String>,
    pub machine_ids: Vec<String>,
    pub all_needing: bool,
    pub employee_ids: Vec<String>,
    pub depot: Option<Point>,
    pub van_capacity: Option<i64>,
    pub shift_start: Option<String>,
    pub shift_end: Option<String>,
    pub service_minutes: Option<i64>,
}

fn hhmm(errors: &mut FieldErrors, field: &str, v: &str) -> Option<NaiveTime> {
    match NaiveTime::parse_from_str(v.trim(), "%H:%M") {
        Ok(t) => Some(t),
        Err(_) => {
            errors.add(field, "Enter a time as HH:MM.");
            None
        }
    }
}

/// A location's street address, when it has one.
pub(crate) fn address_of(l: Option<&Location>) -> Option<String> {
    l.map(|l| l.address.trim())
        .filter(|a| !a.is_empty())
        .map(String::from)
}

/// The instant a local wall-clock time of `date` in `tz` falls on; a time the clocks skip
/// (spring forward) is taken an hour later, a time that happens twice the first time.
pub fn local_instant(date: NaiveDate, time: NaiveTime, tz: chrono_tz::Tz) -> DateTime<Utc> {
    use chrono::TimeZone;
    let naive = date.and_time(time);
    match tz.from_local_datetime(&naive).earliest() {
        Some(t) => t.with_timezone(&Utc),
        None => tz
            .from_local_datetime(&(naive + Duration::hours(1)))
            .earliest()
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|| Utc.from_utc_datetime(&naive)),
    }
}

impl PlanningService {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        store: Arc<dyn ItemStore>,
        sales: crate::sales::SalesService,
        machines: MachinesService,
        events: EventsService,
        products: ProductsService,
        fleet: FleetService,
        directory: Directory,
        calendar: Calendar,
        touched: Option<Arc<crate::records::Touched>>,
    ) -> Self {
        PlanningService {
            velocities: Arc::new(std::sync::Mutex::new(None)),
            kept: touched.map(|t| Arc::new(super::kept::Kept::new(t))),
            routes: Records::new(store.clone()),
            store,
            sales,
            machines,
            events,
            products,
            fleet,
            directory,
            calendar,
        }
    }

    // ----- settings -------------------------------------------------------------------

    /// The operator's planning settings (the defaults until someone saves them).
    pub async fn settings(&self) -> AppResult<PlanningSettings> {
        match self.store.get(&PlanningSettings::key()).await? {
            Some(item) => {
                let mut s: PlanningSettings = item.to_value()?;
                s.version = Some(item.version);
                Ok(s)
            }
            None => Ok(PlanningSettings::default()),
        }
    }

    /// The settings as `p` may read them.
    pub async fn settings_for(&self, p: &Principal) -> AppResult<PlanningSettings> {
        p.require(Permission::RoutePlanningList)?;
        self.settings().await
    }

    /// Saves the settings: for a planner who sees the whole fleet (they are the operator's).
    pub async fn save_settings(
        &self,
        p: &Principal,
        input: &PlanningSettings,
    ) -> AppResult<PlanningSettings> {
        p.require(Permission::RoutePlanningGeneratePicklist)?;
        if !matches!(p.machine_scope(), MachineScope::All) {
            return Err(AppError::Forbidden(
                "Only a user who sees every machine may change the operator's planning settings."
                    .into(),
            ));
        }
        let mut next = input.clone();
        next.check()?;
        let current = self.settings().await?.version.unwrap_or(0);
        if input.version.is_some_and(|v| v != current) {
            return Err(AppError::stale());
        }
        next.updated_at = Some(self.calendar.now());
        next.version = Some(current + 1);
        let condition = if current == 0 {
            crate::ports::Condition::NotExists
        } else {
            crate::ports::Condition::VersionIs(current)
        };
        let item = crate::ports::Item::from_value(PlanningSettings::key(), &next)?
            .with_version(current + 1);
        self.store.put(item, Some(condition)).await?;
        Ok(next)
    }

    // ----- needs ----------------------------------------------------------------------

    /// The visit date asked for (default: the operator's tomorrow), from today to
    /// [`MAX_VISIT_DAYS_AHEAD`] days on.
    pub fn visit_date(&self, v: Option<&str>, errors: &mut FieldErrors) -> NaiveDate {
        let today = self.calendar.today();
        match v.map(str::trim).filter(|s| !s.is_empty()) {
            None => today + Duration::days(1),
            Some(s) => match parse_date(s) {
                Some(d) if d < today => {
                    errors.add("visit_date", "Choose today or a later day.");
                    today
                }
                Some(d) if d > today + Duration::days(MAX_VISIT_DAYS_AHEAD) => {
                    errors.add(
                        "visit_date",
                        format!("Choose a day within {MAX_VISIT_DAYS_AHEAD} days."),
                    );
                    today
                }
                Some(d) => d,
                None => {
                    errors.add("visit_date", "Enter a real date as YYYY-MM-DD.");
                    today
                }
            },
        }
    }

    /// The velocity window: `velocity_days` operator days up to yesterday.
    pub fn velocity_window(&self, s: &PlanningSettings) -> (NaiveDate, NaiveDate) {
        let today = self.calendar.today();
        (
            today - Duration::days(s.velocity_days),
            today - Duration::days(1),
        )
    }
}

/// The key of the operator's planning settings.
impl PlanningSettings {
    pub fn key() -> Key {
        Key::new("PLANNING", "SETTINGS")
    }
}
