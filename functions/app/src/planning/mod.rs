//! Planning: which machines to visit (ranked by need, within the user's machine scope), what to
//! bring (predictive picklists), in which order (a VRP solver for several refillers), and the
//! planned routes from loading to the visit report (`routes`).
//!
//! Velocities come from the machine × product × day rollups through
//! [`SalesStore::weekday_units`] (one read for the whole scope); stock from the planogram; the
//! last reading, cash and held audits from the machine status and the audit index — a handful
//! of reads whatever the fleet's size.

pub mod model;
pub mod routes;
pub mod solver;

use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::events::EventsService;
use crate::listing::{page_of, paging, ListPage, ListParams};
use crate::machines::{Machine, MachinesService, Selection};
use crate::ports::{Index, ItemStore, Key, Query, SalesStore, SortKey};
use crate::products::ProductsService;
use crate::records::Records;
use crate::settings::{Location, SettingsService};
use crate::users::Directory;
use crate::Calendar;
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
pub use model::*;
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

/// The whole fleet's units by weekday over a velocity window, as read at `loaded_at`.
struct FleetVelocities {
    window: (NaiveDate, NaiveDate),
    loaded_at: DateTime<Utc>,
    machines: BTreeSet<String>,
    units: Arc<Vec<crate::ports::WeekdayUnits>>,
}

/// The planning service.
#[derive(Clone)]
pub struct PlanningService {
    velocities: Arc<std::sync::Mutex<Option<FleetVelocities>>>,
    pub(crate) store: Arc<dyn ItemStore>,
    pub(crate) sales: Arc<dyn SalesStore>,
    pub(crate) machines: MachinesService,
    pub(crate) events: EventsService,
    pub(crate) products: ProductsService,
    pub(crate) settings: SettingsService,
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
        sales: Arc<dyn SalesStore>,
        machines: MachinesService,
        events: EventsService,
        products: ProductsService,
        settings: SettingsService,
        directory: Directory,
        calendar: Calendar,
    ) -> Self {
        PlanningService {
            velocities: Arc::new(std::sync::Mutex::new(None)),
            routes: Records::new(store.clone()),
            store,
            sales,
            machines,
            events,
            products,
            settings,
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
                s.version = item.version;
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
        version: Option<u64>,
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
        let current = self.settings().await?;
        if version.is_some_and(|v| v != current.version) {
            return Err(AppError::stale());
        }
        next.updated_at = Some(self.calendar.now());
        next.version = current.version + 1;
        let condition = if current.version == 0 {
            crate::ports::Condition::NotExists
        } else {
            crate::ports::Condition::VersionIs(current.version)
        };
        let item = crate::ports::Item::from_value(PlanningSettings::key(), &next)?
            .with_version(next.version);
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

    /// Units by weekday of `ids` over the window: many machines from the fleet's figures, kept
    /// for [`VELOCITY_TTL_SECS`]; few read on their own.
    async fn weekday_units(
        &self,
        ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Vec<crate::ports::WeekdayUnits>> {
        if ids.len() < FLEET_VELOCITIES_FROM {
            return Ok(self.sales.weekday_units(ids, from, to).await?);
        }
        let now = self.calendar.now();
        let fresh = |c: &FleetVelocities| {
            c.window == (from, to)
                && now >= c.loaded_at
                && (now - c.loaded_at).num_seconds() < VELOCITY_TTL_SECS
                && ids.iter().all(|i| c.machines.contains(i))
        };
        let cached = {
            let guard = self.velocities.lock().expect("velocity cache");
            guard.as_ref().filter(|c| fresh(c)).map(|c| c.units.clone())
        };
        let units = match cached {
            Some(u) => u,
            None => {
                let all: Vec<String> = self
                    .machines
                    .machines()
                    .all_shared()
                    .await?
                    .iter()
                    .map(|m| m.id.clone())
                    .collect();
                let units = Arc::new(self.sales.weekday_units(&all, from, to).await?);
                *self.velocities.lock().expect("velocity cache") = Some(FleetVelocities {
                    window: (from, to),
                    loaded_at: now,
                    machines: all.into_iter().collect(),
                    units: units.clone(),
                });
                units
            }
        };
        let wanted: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
        Ok(units
            .iter()
            .filter(|u| wanted.contains(u.machine_id.as_str()))
            .cloned()
            .collect())
    }

    /// The plans (need, selections, predictions) of the given machines for a visit on `visit`.
    pub async fn plans_of(
        &self,
        machines: Vec<Machine>,
        visit: NaiveDate,
        s: &PlanningSettings,
    ) -> AppResult<Vec<MachinePlan>> {
        let (now, today) = (self.calendar.now(), self.calendar.today());
        let ids: Vec<String> = machines.iter().map(|m| m.id.clone()).collect();
        let (from, to) = self.velocity_window(s);
        let (mut statuses, mut selections, held, units, locations, products, components) = tokio::try_join!(
            self.events.statuses(&ids),
            self.machines.selections_of(&ids),
            self.events.held_audit_counts(),
            self.weekday_units(&ids, from, to),
            self.settings.locations().all_shared(),
            self.products.products().all_shared(),
            self.products.components().all_shared(),
        )?;
        let locations: HashMap<&str, &Location> =
            locations.iter().map(|l| (l.id.as_str(), l)).collect();
        let products: HashMap<&str, &crate::products::Product> =
            products.iter().map(|p| (p.id.as_str(), p)).collect();
        let components: HashMap<&str, &crate::products::Component> =
            components.iter().map(|c| (c.id.as_str(), c)).collect();
        let mut velocities: HashMap<(String, String), Velocity> = HashMap::new();
        for u in units {
            velocities.insert(
                (u.machine_id, u.product_id),
                Velocity::from_units(u.units, from, to),
            );
        }
        let thresholds = s.thresholds();
        let mut out = Vec::with_capacity(machines.len());
        for machine in machines {
            let location = machine
                .location_id
                .as_deref()
                .and_then(|l| locations.get(l).copied())
                .cloned();
            let tz = self
                .calendar
                .zone_or_operator(location.as_ref().map(|l| l.time_zone.as_str()));
            let status = statuses.remove(&machine.id);
            let last_reading = status.as_ref().and_then(|s| s.last_updated);
            let reading_day = last_reading.map_or(today, |r| local_date(r, tz).min(today));
            let mut sels = selections.remove(&machine.id).unwrap_or_default();
            sels.sort_by_key(|s| crate::machines::natural(&s.selection));
            // A product in several selections shares its velocity by their capacity.
            let mut capacity: HashMap<&str, i64> = HashMap::new();
            for sel in &sels {
                *capacity.entry(sel.product_id.as_str()).or_default() += sel.max.max(0);
            }
            let mut plans = Vec::with_capacity(sels.len());
            let mut needs = Vec::with_capacity(sels.len());
            for sel in &sels {
                let total = capacity[sel.product_id.as_str()];
                let share = if total > 0 {
                    sel.max.max(0) as f64 / total as f64
                } else {
                    0.0
                };
                let velocity = velocities
                    .get(&(machine.id.clone(), sel.product_id.clone()))
                    .map(|v| v.scaled(share))
                    .unwrap_or_default();
                let product = products.get(sel.product_id.as_str()).copied();
                plans.push(selection_plan(
                    sel,
                    product,
                    &components,
                    velocity,
                    reading_day,
                    visit,
                ));
                needs.push(SelectionNeed {
                    current: sel.current,
                    max: sel.max,
                    expiry: sel.expiry_date,
                    velocity,
                });
            }
            let facts = MachineNeedFacts {
                last_reading,
                reading_day,
                cash_box_minor: status.as_ref().and_then(|s| s.int("cash_box_minor")),
                held_audits: held.get(&machine.id).copied().unwrap_or(0),
                selections: needs,
            };
            let mut need = need(&facts, &thresholds, now, today, visit);
            need.signals.units_to_bring = plans.iter().map(|p| p.to_bring).sum();
            let point = location
                .as_ref()
                .and_then(|l| match (l.latitude, l.longitude) {
                    (Some(latitude), Some(longitude)) => Some(Point {
                        latitude,
                        longitude,
                    }),
                    _ => None,
                });
            out.push(MachinePlan {
                machine,
                location,
                point,
                last_reading,
                need,
                selections: plans,
            });
        }
        Ok(out)
    }

    /// The active machines `p` sees, planned for `visit`, ranked by need.
    pub async fn ranked(
        &self,
        p: &Principal,
        visit: NaiveDate,
        s: &PlanningSettings,
    ) -> AppResult<Vec<MachinePlan>> {
        let machines: Vec<Machine> = self
            .machines
            .visible(p)
            .await?
            .into_iter()
            .filter(|m| !m.inactive)
            .collect();
        let mut plans = self.plans_of(machines, visit, s).await?;
        rank(&mut plans);
        Ok(plans)
    }

    /// A page of the ranked list, with the settings it was ranked by.
    pub async fn list(
        &self,
        p: &Principal,
        params: &PlanningListParams,
    ) -> AppResult<(ListPage<MachinePlan>, PlanningSettings)> {
        p.require(Permission::RoutePlanningList)?;
        let mut errors = FieldErrors::new();
        let pg = paging(&params.list, &[], &mut errors);
        let visit = self.visit_date(params.visit_date.as_deref(), &mut errors);
        let only_visit = match params.need.as_deref().map(str::trim) {
            None | Some("") | Some("all") => false,
            Some("visit") => true,
            Some(_) => {
                errors.add("need", "Choose one of: all, visit.");
                false
            }
        };
        errors.into_result()?;
        let s = self.settings().await?;
        let mut plans = self.ranked(p, visit, &s).await?;
        if only_visit {
            plans.retain(|m| m.need.level != NeedLevel::Later);
        }
        if !pg.search.is_empty() {
            plans.retain(|m| {
                m.machine.name.to_lowercase().contains(&pg.search)
                    || m.location
                        .as_ref()
                        .is_some_and(|l| l.name.to_lowercase().contains(&pg.search))
            });
        }
        Ok((page_of(plans, &pg), s))
    }

    /// Every machine of the scope for the map, with the depot.
    pub async fn map(
        &self,
        p: &Principal,
        visit_date: Option<&str>,
    ) -> AppResult<(Vec<MachinePlan>, Option<Point>)> {
        p.require(Permission::RoutePlanningList)?;
        let mut errors = FieldErrors::new();
        let visit = self.visit_date(visit_date, &mut errors);
        errors.into_result()?;
        let s = self.settings().await?;
        Ok((self.ranked(p, visit, &s).await?, s.depot()))
    }

    /// One machine's plan (404 outside the scope).
    pub async fn machine_plan(
        &self,
        p: &Principal,
        machine_id: &str,
        visit_date: Option<&str>,
    ) -> AppResult<MachinePlan> {
        p.require(Permission::RoutePlanningList)?;
        let mut errors = FieldErrors::new();
        let visit = self.visit_date(visit_date, &mut errors);
        errors.into_result()?;
        let machine = self.machines.machine_for(p, machine_id).await?;
        let s = self.settings().await?;
        let mut plans = self.plans_of(vec![machine], visit, &s).await?;
        Ok(plans.remove(0))
    }

    /// A machine's cash: what it holds by its latest readings, its last collection, and the cash
    /// its vends took since.
    pub async fn machine_cash(&self, p: &Principal, machine_id: &str) -> AppResult<MachineCash> {
        p.require(Permission::RoutePlanningList)?;
        let machine = self.machines.machine_for(p, machine_id).await?;
        let s = self.settings().await?;
        let status = self.events.status(machine_id).await?;
        let last = self.events.last_encashment(machine_id).await?;
        let now = self.calendar.now();
        let since = last.as_ref().map(|e| e.at);
        // Cash sales since the last collection (at most a year back).
        let from = since.map_or(now - Duration::days(366), |t| {
            t.max(now - Duration::days(366))
        });
        let days = (
            from.date_naive() - Duration::days(1),
            vendfleet_domain::calendar::latest_date_anywhere(now),
        );
        let ledger = self.sales.ledger(machine_id, days.0, days.1).await?;
        let expected: i64 = ledger
            .iter()
            .filter(|v| since.is_none_or(|t| v.at > t) && v.at >= from)
            .map(|v| vendfleet_domain::sales::Figures::of(v).cash_minor)
            .sum();
        let field = |f: &str| status.as_ref().and_then(|s| s.int(f));
        let read_at = status
            .as_ref()
            .and_then(|s| s.telemetry.get("cash_box_minor").map(|t| t.at));
        let cash_box = field("cash_box_minor");
        Ok(MachineCash {
            currency: machine.currency.clone(),
            decimal_places: machine.decimal_places,
            cash_box_minor: cash_box,
            bill_stacker_minor: field("bill_stacker_minor"),
            tubes_minor: field("tubes_minor"),
            read_at,
            last_collection: last,
            expected_cash_minor: expected,
            auto_collect_minor: s.auto_collect_minor,
            collect: cash_box.unwrap_or(expected) >= s.auto_collect_minor
                && s.auto_collect_minor > 0,
        })
    }

    // ----- picklists and routing -----------------------------------------------------

    /// Every employee of `ids` (active users), each of whom must reach every machine of
    /// `machine_ids`; `p` plans for others only with the change-employee permission.
    pub(crate) async fn employees(
        &self,
        p: &Principal,
        ids: &[String],
        machine_ids: &BTreeSet<String>,
        change_employee: Permission,
        errors: &mut FieldErrors,
        field: &str,
    ) -> AppResult<Vec<crate::users::User>> {
        let mut out = Vec::new();
        let mut seen = BTreeSet::new();
        for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
            if !seen.insert(id.to_string()) {
                continue;
            }
            if id != p.user.id && !p.can(change_employee) {
                return Err(AppError::Forbidden(format!(
                    "You may plan only for yourself ({}).",
                    change_employee.key()
                )));
            }
            let Some(user) = self.directory.user(id).await?.filter(|u| u.active) else {
                errors.add(field, format!("“{id}” is not an active user."));
                continue;
            };
            // The planner must see the employee's scope no wider than their own: an employee
            // is named only if they reach every machine of the plan.
            let employee = self.directory.principal(user.clone()).await?;
            let reach = self.machines.visible_ids(&employee).await?;
            if let Some(m) = machine_ids.iter().find(|m| !reach.contains(*m)) {
                errors.add(field, format!("{} cannot reach machine {m}.", user.name));
                continue;
            }
            out.push(user);
        }
        if out.is_empty() && errors.is_empty() {
            errors.add(field, "Choose at least one employee.");
        }
        if out.len() > MAX_PLAN_EMPLOYEES {
            errors.add(field, format!("Choose at most {MAX_PLAN_EMPLOYEES}."));
        }
        Ok(out)
    }

    /// The machines of a plan, from ids (each in the scope, 404 otherwise) or all that need a
    /// visit.
    async fn chosen(
        &self,
        p: &Principal,
        ids: &[String],
        all_needing: bool,
        visit: NaiveDate,
        s: &PlanningSettings,
        errors: &mut FieldErrors,
    ) -> AppResult<Vec<MachinePlan>> {
        let plans = if all_needing {
            let mut plans = self.ranked(p, visit, s).await?;
            plans.retain(|m| m.need.level != NeedLevel::Later);
            plans
        } else {
            let mut machines = Vec::new();
            let mut seen = BTreeSet::new();
            for id in ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
                if seen.insert(id.to_string()) {
                    machines.push(self.machines.machine_for(p, id).await?);
                }
            }
            self.plans_of(machines, visit, s).await?
        };
        if plans.is_empty() {
            errors.add("machine_ids", "Choose at least one machine.");
        }
        if plans.len() > MAX_PLAN_MACHINES {
            errors.add(
                "machine_ids",
                format!("Choose at most {MAX_PLAN_MACHINES} machines."),
            );
        }
        Ok(plans)
    }

    /// The picklist and the optimised routes for the chosen machines, refillers and day.
    pub async fn generate(&self, p: &Principal, input: &PicklistInput) -> AppResult<Plan> {
        p.require(Permission::RoutePlanningGeneratePicklist)?;
        let mut errors = FieldErrors::new();
        let visit = self.visit_date(input.visit_date.as_deref(), &mut errors);
        let s = self.settings().await?;
        let capacity = input.van_capacity.unwrap_or(s.van_capacity);
        if !(1..=100_000).contains(&capacity) {
            errors.add("van_capacity", "Must be between 1 and 100000.");
        }
        let service = input.service_minutes.unwrap_or(s.service_minutes);
        if !(0..=240).contains(&service) {
            errors.add("service_minutes", "Must be between 0 and 240.");
        }
        let start = hhmm(
            &mut errors,
            "shift_start",
            input.shift_start.as_deref().unwrap_or(&s.shift_start),
        );
        let end = hhmm(
            &mut errors,
            "shift_end",
            input.shift_end.as_deref().unwrap_or(&s.shift_end),
        );
        if let (Some(a), Some(b)) = (start, end) {
            if b <= a {
                errors.add("shift_end", "Must be after the shift start.");
            }
        }
        if let Some(d) = &input.depot {
            let mut one = FieldErrors::new();
            vendfleet_domain::validation::coordinate(
                &mut one,
                "depot.latitude",
                Some(d.latitude),
                90.0,
            );
            vendfleet_domain::validation::coordinate(
                &mut one,
                "depot.longitude",
                Some(d.longitude),
                180.0,
            );
            for (f, ms) in one.0 {
                for m in ms {
                    errors.add(f.clone(), m);
                }
            }
        }
        let plans = self
            .chosen(
                p,
                &input.machine_ids,
                input.all_needing,
                visit,
                &s,
                &mut errors,
            )
            .await?;
        let machine_ids: BTreeSet<String> = plans.iter().map(|m| m.machine.id.clone()).collect();
        let employees = self
            .employees(
                p,
                &input.employee_ids,
                &machine_ids,
                Permission::RoutePlanningChangeEmployee,
                &mut errors,
                "employee_ids",
            )
            .await?;
        errors.into_result()?;
        let tz = self.calendar.time_zone();
        let routing = solver::RoutingInput {
            stops: plans
                .iter()
                .filter_map(|m| {
                    m.point.map(|point| solver::StopInput {
                        id: m.machine.id.clone(),
                        point,
                        units: m.units_to_bring(),
                    })
                })
                .collect(),
            vehicles: employees
                .iter()
                .map(|u| solver::VehicleInput {
                    id: u.id.clone(),
                    capacity,
                })
                .collect(),
            depot: input.depot.or(s.depot()),
            shift_start: local_instant(visit, start.expect("checked"), tz),
            shift_end: local_instant(visit, end.expect("checked"), tz),
            service_secs: service * 60,
            road_factor: s.road_factor,
            speed_kmh: s.speed_kmh,
            generations: 300,
            max_secs: 2,
        };
        let solved = tokio::task::spawn_blocking(move || solver::solve(&routing))
            .await
            .map_err(|e| AppError::Internal(format!("solver task: {e}")))?
            .map_err(AppError::Internal)?;
        Ok(Plan::assemble(visit, plans, &employees, solved))
    }
}

/// Ranks plans: need level, then the soonest day a selection goes low, then units to bring
/// (most first), then name.
pub fn rank(plans: &mut [MachinePlan]) {
    plans.sort_by(|a, b| {
        a.need
            .level
            .cmp(&b.need.level)
            .then_with(|| {
                let low = |m: &MachinePlan| m.need.signals.min_days_to_low.unwrap_or(f64::MAX);
                low(a).total_cmp(&low(b))
            })
            .then_with(|| b.units_to_bring().cmp(&a.units_to_bring()))
            .then_with(|| a.machine.name.cmp(&b.machine.name))
            .then_with(|| a.machine.id.cmp(&b.machine.id))
    });
}

/// One selection's plan.
fn selection_plan(
    sel: &Selection,
    product: Option<&crate::products::Product>,
    components: &HashMap<&str, &crate::products::Component>,
    velocity: Velocity,
    reading_day: NaiveDate,
    visit: NaiveDate,
) -> SelectionPlan {
    let predicted = predicted_stock(sel.current, &velocity, reading_day, visit);
    let case_size = product.and_then(|p| p.case_size).filter(|c| *c > 1);
    let need = to_bring(sel.max, predicted, None);
    let bring = to_bring(sel.max, predicted, case_size);
    let recipe = product
        .filter(|p| p.is_composite)
        .map(|p| p.recipe.clone())
        .unwrap_or_default();
    SelectionPlan {
        selection: sel.selection.clone(),
        product_id: sel.product_id.clone(),
        product_name: product.map(|p| p.name.clone()).unwrap_or_default(),
        current: sel.current,
        max: sel.max,
        case_size,
        price_minor: sel.price_minor,
        velocity,
        days_to_empty: velocity.days_until(sel.current as f64, 0.0, reading_day),
        predicted_at_visit: predicted,
        need,
        to_bring: bring,
        expiry_date: sel.expiry_date,
        components: recipe
            .iter()
            .map(|line| {
                let c = components.get(line.component_id.as_str());
                ComponentNeed {
                    component_id: line.component_id.clone(),
                    name: c.map(|c| c.name.clone()).unwrap_or_default(),
                    unit: c.map(|c| c.unit.clone()).unwrap_or_default(),
                    quantity: bring * line.quantity,
                    per_unit: line.quantity,
                }
            })
            .collect(),
    }
}

impl Plan {
    /// The plan of solved routes over the machines' picklists.
    fn assemble(
        visit: NaiveDate,
        plans: Vec<MachinePlan>,
        employees: &[crate::users::User],
        solved: solver::Routing,
    ) -> Plan {
        let by_id: BTreeMap<String, &MachinePlan> =
            plans.iter().map(|m| (m.machine.id.clone(), m)).collect();
        let names: HashMap<&str, &str> = employees
            .iter()
            .map(|u| (u.id.as_str(), u.name.as_str()))
            .collect();
        let routes = solved
            .routes
            .iter()
            .filter(|r| !r.stops.is_empty())
            .map(|r| PlanRoute {
                employee_id: r.vehicle_id.clone(),
                employee_name: names
                    .get(r.vehicle_id.as_str())
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
                stops: r
                    .stops
                    .iter()
                    .map(|st| {
                        let m = by_id[&st.id];
                        PlanStop {
                            machine_id: m.machine.id.clone(),
                            machine_name: m.machine.name.clone(),
                            location_name: m.location.as_ref().map(|l| l.name.clone()),
                            point: m.point,
                            arrival: Some(st.arrival),
                            departure: Some(st.departure),
                            distance_m: st.distance_m,
                            units: m.units_to_bring(),
                        }
                    })
                    .collect(),
                distance_m: r.distance_m,
                duration_s: r.duration_s,
                start: Some(r.start),
                end: Some(r.end),
                units: r.units,
            })
            .collect();
        let mut unassigned: Vec<(String, String)> = plans
            .iter()
            .filter(|m| m.point.is_none())
            .map(|m| (m.machine.id.clone(), "no_coordinates".to_string()))
            .collect();
        for (id, why) in &solved.unassigned {
            unassigned.push((
                id.clone(),
                match why {
                    solver::Unassigned::Capacity => "capacity",
                    solver::Unassigned::Shift => "shift",
                }
                .to_string(),
            ));
        }
        let totals = totals(plans.iter().flat_map(|m| m.selections.iter()));
        Plan {
            visit_date: visit,
            routes,
            unassigned,
            totals,
            machines: plans,
        }
    }
}

/// What to load, by product (most first), each with its components.
pub fn totals<'a>(lines: impl Iterator<Item = &'a SelectionPlan>) -> Vec<ProductTotal> {
    let mut by: BTreeMap<String, ProductTotal> = BTreeMap::new();
    for l in lines.filter(|l| l.to_bring > 0) {
        let t = by
            .entry(l.product_id.clone())
            .or_insert_with(|| ProductTotal {
                product_id: l.product_id.clone(),
                product_name: l.product_name.clone(),
                quantity: 0,
                case_size: l.case_size,
                components: Vec::new(),
            });
        t.quantity += l.to_bring;
        for c in &l.components {
            match t
                .components
                .iter_mut()
                .find(|x| x.component_id == c.component_id)
            {
                Some(x) => x.quantity += c.quantity,
                None => t.components.push(c.clone()),
            }
        }
    }
    let mut out: Vec<ProductTotal> = by.into_values().collect();
    out.sort_by(|a, b| {
        b.quantity
            .cmp(&a.quantity)
            .then_with(|| a.product_name.cmp(&b.product_name))
    });
    out
}

/// The key of the operator's planning settings.
impl PlanningSettings {
    pub fn key() -> Key {
        Key::new("PLANNING", "SETTINGS")
    }
}
