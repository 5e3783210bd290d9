//! Planned routes: saved from a plan (one per refiller, its stops in order, each stop's picklist
//! kept as computed then), moved through their statuses, visited stop by stop
//! (`fill-from-route`, idempotent), and reported on: visits, stock loaded/filled/returned, and
//! forecast accuracy (the predicted need against the need the refiller found).

use super::*;
use crate::listing::{sort_by, sortable_instant};
use crate::ports::{Condition, Write};
use crate::records::check_version;
use crate::records::Record;
use vendfleet_domain::planning::RouteStatus;
use vendfleet_domain::report::Choice;

/// One route of a save.
#[derive(Debug, Clone, Default)]
pub struct RouteInput {
    pub employee_id: String,
    pub machine_ids: Vec<String>,
}

/// The save form.
#[derive(Debug, Clone, Default)]
pub struct SaveRoutesInput {
    pub visit_date: Option<String>,
    pub route_type: Option<String>,
    pub name: Option<String>,
    pub depot: Option<Point>,
    pub routes: Vec<RouteInput>,
}

/// The route list's query.
#[derive(Debug, Clone, Default)]
pub struct RouteListParams {
    pub list: ListParams,
    pub status: Option<String>,
    pub employee: Option<String>,
    pub date_from: Option<String>,
    pub date_to: Option<String>,
}

/// The edit form.
#[derive(Debug, Clone, Default)]
pub struct RouteEdit {
    pub name: Option<String>,
    pub route_type: Option<String>,
    pub visit_date: Option<String>,
    pub version: Option<u64>,
}

/// Whether every machine of `route` lies in `reach` (who may see a route).
pub(super) fn within(reach: &BTreeSet<String>, route: &PlannedRoute) -> bool {
    route
        .stops
        .iter()
        .all(|s| reach.contains(&s.stop.machine_id))
}

pub(super) fn not_found() -> AppError {
    AppError::NotFound("Planned route not found".into())
}

pub(super) fn final_conflict(s: RouteStatus) -> AppError {
    AppError::conflict(format!(
        "The route is {}: it can no longer change.",
        s.key().replace('_', " ")
    ))
}

impl PlanningService {
    pub(super) fn end_of_day(&self, date: NaiveDate) -> DateTime<Utc> {
        local_instant(
            date + Duration::days(1),
            NaiveTime::MIN,
            self.calendar.time_zone(),
        )
    }

    /// A route `p` may see: every one of its machines in their scope.
    pub(crate) async fn route_for(&self, p: &Principal, id: &str) -> AppResult<PlannedRoute> {
        let route = self.routes.get(id).await?.ok_or_else(not_found)?;
        let reach = self.machines.visible_ids(p).await?;
        if within(&reach, &route) {
            Ok(route)
        } else {
            Err(not_found())
        }
    }

    /// The stops of a route with their picklists and visits, in route order.
    pub async fn stops_of(&self, route: &PlannedRoute) -> AppResult<Vec<RouteStop>> {
        let q = Query::partition(
            Index::Primary,
            format!("{}#{}", PlannedRoute::KIND, route.id),
        )
        .sk(SortKey::BeginsWith(RouteStop::PREFIX.into()));
        let mut by: HashMap<String, RouteStop> = HashMap::new();
        for item in crate::ports::query_all(self.store.as_ref(), q).await? {
            let s = RouteStop::from_item(&item)?;
            by.insert(s.machine_id.clone(), s);
        }
        Ok(route
            .stops
            .iter()
            .filter_map(|s| by.remove(&s.stop.machine_id))
            .collect())
    }

    /// Saves a plan as planned routes, one per employee, the stops in the order given; each
    /// stop's picklist is computed now and kept.
    pub async fn save_routes(
        &self,
        p: &Principal,
        input: &SaveRoutesInput,
    ) -> AppResult<Vec<PlannedRoute>> {
        p.require(Permission::RoutePlanningGeneratePicklist)?;
        let mut errors = FieldErrors::new();
        let visit = self.visit_date(input.visit_date.as_deref(), &mut errors);
        let route_type = match input.route_type.as_deref().map(str::trim) {
            None | Some("") => RouteType::Refill,
            Some(k) => RouteType::from_key(k).unwrap_or_else(|| {
                errors.add(
                    "route_type",
                    "Choose one of: refill, cash_collection, refill_and_collection.",
                );
                RouteType::Refill
            }),
        };
        let name = vendfleet_domain::validation::optional_text(
            &mut errors,
            "name",
            input.name.as_deref().unwrap_or(""),
            120,
        );
        if input.routes.is_empty() {
            errors.add("routes", "Give at least one route.");
        }
        if input.routes.len() > MAX_PLAN_EMPLOYEES {
            errors.add("routes", format!("At most {MAX_PLAN_EMPLOYEES} routes."));
        }
        let mut all_machines: Vec<Machine> = Vec::new();
        let mut seen = BTreeSet::new();
        for (i, r) in input.routes.iter().enumerate() {
            let ids: Vec<&str> = r
                .machine_ids
                .iter()
                .map(|m| m.trim())
                .filter(|m| !m.is_empty())
                .collect();
            if ids.is_empty() {
                errors.add(
                    format!("routes.{i}.machine_ids"),
                    "Give at least one machine.",
                );
            }
            if ids.len() > MAX_ROUTE_STOPS {
                errors.add(
                    format!("routes.{i}.machine_ids"),
                    format!("At most {MAX_ROUTE_STOPS} machines in a route."),
                );
            }
            for id in ids {
                if !seen.insert(id.to_string()) {
                    let name = all_machines
                        .iter()
                        .find(|m| m.id == id)
                        .map_or(id, |m| m.name.as_str());
                    errors.add(
                        format!("routes.{i}.machine_ids"),
                        format!("“{name}” is in more than one stop."),
                    );
                    continue;
                }
                all_machines.push(self.machines.machine_for(p, id).await?);
            }
        }
        let s = self.settings().await?;
        let mut employees = Vec::new();
        let names: HashMap<&str, &str> = all_machines
            .iter()
            .map(|m| (m.id.as_str(), m.name.as_str()))
            .collect();
        for (i, r) in input.routes.iter().enumerate() {
            let machines: BTreeMap<String, String> = r
                .machine_ids
                .iter()
                .map(|m| m.trim())
                .filter(|m| !m.is_empty())
                .map(|m| (m.to_string(), names.get(m).unwrap_or(&m).to_string()))
                .collect();
            let found = self
                .employees(
                    p,
                    std::slice::from_ref(&r.employee_id),
                    &machines,
                    true,
                    Permission::RoutePlanningChangeEmployee,
                    &mut errors,
                    &format!("routes.{i}.employee_id"),
                )
                .await?;
            employees.push(found.into_iter().next().map(|(u, _)| u));
        }
        errors.into_result()?;
        let plans = self.plans_of(all_machines, visit, &s).await?;
        let by_id: HashMap<String, MachinePlan> = plans
            .into_iter()
            .map(|m| (m.machine.id.clone(), m))
            .collect();
        let depot = input.depot.or(s.depot());
        let now = self.calendar.now();
        let mut saved = Vec::new();
        for (r, employee) in input.routes.iter().zip(employees) {
            let employee = employee.expect("checked");
            let mut stops = Vec::new();
            let mut route_stops = Vec::new();
            let mut previous = depot;
            // Times leg by leg from the shift start.
            let start = local_instant(
                visit,
                NaiveTime::parse_from_str(&s.shift_start, "%H:%M").unwrap_or(NaiveTime::MIN),
                self.calendar.time_zone(),
            );
            let service = Duration::seconds(s.service_minutes * 60);
            let (mut distance, mut at) = (0i64, start);
            for id in r
                .machine_ids
                .iter()
                .map(|m| m.trim())
                .filter(|m| !m.is_empty())
            {
                let m = &by_id[id];
                let (d, t) = match (previous, m.point) {
                    (Some(a), Some(b)) => solver::leg(a, b, s.road_factor, s.speed_kmh),
                    _ => (0, 0),
                };
                distance += d;
                at += Duration::seconds(t);
                if m.point.is_some() {
                    previous = m.point;
                }
                stops.push(RouteStopSummary {
                    stop: PlanStop {
                        machine_id: m.machine.id.clone(),
                        machine_name: m.machine.name.clone(),
                        location_name: m.location.as_ref().map(|l| l.name.clone()),
                        address: address_of(m.location.as_ref()),
                        point: m.point,
                        arrival: Some(at),
                        departure: Some(at + service),
                        distance_m: d,
                        units: m.units_to_bring(),
                    },
                    visited_at: None,
                    not_serviced: None,
                });
                at += service;
                route_stops.push(RouteStop {
                    route_id: String::new(),
                    machine_id: m.machine.id.clone(),
                    currency: m.machine.currency.clone(),
                    decimal_places: m.machine.decimal_places,
                    lines: m.selections.iter().map(PickLine::from).collect(),
                    visit: None,
                    version: 1,
                    schema: SCHEMA,
                });
            }
            if let (Some(a), Some(b)) = (previous, depot) {
                let (d, t) = solver::leg(a, b, s.road_factor, s.speed_kmh);
                distance += d;
                at += Duration::seconds(t);
            }
            let id = ulid::Ulid::new().to_string();
            let route = PlannedRoute {
                id: id.clone(),
                name: if name.is_empty() {
                    format!("{} {}", visit, employee.name)
                } else {
                    name.clone()
                },
                route_type,
                visit_date: visit,
                created_at: now,
                created_by: p.user.id.clone(),
                expires_at: self.end_of_day(visit),
                employee_id: employee.id.clone(),
                employee_name: employee.name.clone(),
                status: RouteStatus::Planned,
                stops,
                distance_m: distance,
                duration_s: (at - start).num_seconds(),
                depot,
                updated_at: now,
                picklist_date: Some(visit),
                loaded: BTreeMap::new(),
                version: 1,
                schema: SCHEMA,
            };
            let mut writes = Records::<PlannedRoute>::insert_writes(&route)?;
            for mut st in route_stops {
                st.route_id = id.clone();
                writes.push(Write::Put {
                    item: st.to_item()?,
                    condition: Some(Condition::NotExists),
                });
            }
            saved.push((route, writes));
        }
        // One step per route keeps each within the store's transaction limit.
        let mut out = Vec::with_capacity(saved.len());
        for (route, writes) in saved {
            self.store.transact(writes).await.map_err(AppError::from)?;
            out.push(route);
        }
        Ok(out)
    }

    /// A page of the routes `p` sees, newest visit first.
    pub async fn list_routes(
        &self,
        p: &Principal,
        params: &RouteListParams,
    ) -> AppResult<ListPage<PlannedRoute>> {
        p.require(Permission::PlannedRoutesList)?;
        let mut errors = FieldErrors::new();
        let pg = paging(
            &params.list,
            &[
                "visit_date",
                "created_at",
                "name",
                "employee_name",
                "status",
            ],
            &mut errors,
        );
        let status = params
            .status
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .and_then(|s| {
                let k = RouteStatus::parse(s);
                if k.is_none() {
                    errors.add(
                        "status",
                        "Choose one of: planned, in_progress, done, cancelled, expired.",
                    );
                }
                k
            });
        let date = |field: &str, v: &Option<String>, errors: &mut FieldErrors| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .and_then(|s| {
                    let d = parse_date(s);
                    if d.is_none() {
                        errors.add(field, "Enter a real date as YYYY-MM-DD.");
                    }
                    d
                })
        };
        let from = date("date_from", &params.date_from, &mut errors);
        let to = date("date_to", &params.date_to, &mut errors);
        if let (Some(a), Some(b)) = (from, to) {
            if a > b {
                errors.add("date_from", "Must be on or before the end date.");
            } else if (b - a).num_days() > 366 {
                errors.add("date_from", "Choose at most one year.");
            }
        }
        errors.into_result()?;
        let routes: Vec<PlannedRoute> = match (from, to) {
            (Some(a), Some(b)) => {
                let mut out = Vec::new();
                let mut month = vendfleet_domain::sales::Month::of(a);
                while month.first_day() <= b {
                    out.extend(
                        self.routes
                            .related(&PlannedRoute::month_partition(month.first_day()))
                            .await?,
                    );
                    month = month.next();
                }
                out
            }
            _ => self.routes.all().await?,
        };
        let reach = self.machines.visible_ids(p).await?;
        let now = self.calendar.now();
        let employee = params
            .employee
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty());
        let mut routes: Vec<PlannedRoute> = routes
            .into_iter()
            .filter(|r| within(&reach, r))
            .filter(|r| from.is_none_or(|a| r.visit_date >= a))
            .filter(|r| to.is_none_or(|b| r.visit_date <= b))
            .filter(|r| status.is_none_or(|s| r.status_at(now) == s))
            .filter(|r| employee.is_none_or(|e| r.employee_id == e))
            .filter(|r| {
                pg.search.is_empty()
                    || r.name.to_lowercase().contains(&pg.search)
                    || r.employee_name.to_lowercase().contains(&pg.search)
            })
            .collect();
        if pg.ordering.is_none() {
            routes.sort_by(|a, b| {
                b.visit_date
                    .cmp(&a.visit_date)
                    .then_with(|| b.created_at.cmp(&a.created_at))
                    .then_with(|| b.id.cmp(&a.id))
            });
        } else {
            sort_by(&mut routes, &pg, "visit_date", |r, f| match f {
                "created_at" => (sortable_instant(&r.created_at), r.id.clone()),
                "name" => (r.name.to_lowercase(), r.id.clone()),
                "employee_name" => (r.employee_name.to_lowercase(), r.id.clone()),
                "status" => (r.status_at(now).key().into(), r.id.clone()),
                _ => (r.visit_date.to_string(), r.id.clone()),
            });
        }
        Ok(page_of(routes, &pg))
    }

    /// One route.
    pub async fn get_route(&self, p: &Principal, id: &str) -> AppResult<PlannedRoute> {
        p.require(Permission::PlannedRoutesList)?;
        self.route_for(p, id).await
    }

    /// A route with its stops' picklists and visits.
    pub async fn route_with_stops(
        &self,
        p: &Principal,
        id: &str,
    ) -> AppResult<(PlannedRoute, Vec<RouteStop>)> {
        let route = self.get_route(p, id).await?;
        let stops = self.stops_of(&route).await?;
        Ok((route, stops))
    }

    pub(super) async fn replace_route(
        &self,
        current: &PlannedRoute,
        mut next: PlannedRoute,
    ) -> AppResult<PlannedRoute> {
        next.updated_at = self.calendar.now();
        next.version = current.version + 1;
        self.routes.replace(current, &next).await?;
        Ok(next)
    }

    /// Changes a planned route's name, type or day.
    pub async fn edit_route(
        &self,
        p: &Principal,
        id: &str,
        input: &RouteEdit,
    ) -> AppResult<PlannedRoute> {
        p.require(Permission::PlannedRoutesEdit)?;
        let current = self.route_for(p, id).await?;
        check_version(input.version, &current)?;
        let status = current.status_at(self.calendar.now());
        if status != RouteStatus::Planned {
            return Err(AppError::conflict(format!(
                "Only a planned route can be edited; this one is {}.",
                status.key().replace('_', " ")
            )));
        }
        let mut errors = FieldErrors::new();
        let mut next = current.clone();
        if let Some(n) = &input.name {
            next.name = vendfleet_domain::validation::required_text(&mut errors, "name", n, 120);
        }
        if let Some(t) = input.route_type.as_deref() {
            match RouteType::from_key(t.trim()) {
                Some(k) => next.route_type = k,
                None => errors.add(
                    "route_type",
                    "Choose one of: refill, cash_collection, refill_and_collection.",
                ),
            }
        }
        if input.visit_date.is_some() {
            next.visit_date = self.visit_date(input.visit_date.as_deref(), &mut errors);
            next.expires_at = self.end_of_day(next.visit_date);
            // The stops' picklists stay those computed for the day they were saved for.
            next.picklist_date = Some(current.picklist_date());
        }
        errors.into_result()?;
        self.replace_route(&current, next).await
    }

    /// Moves a route to another status (409 for a move not allowed).
    pub async fn move_route(
        &self,
        p: &Principal,
        id: &str,
        to: &str,
        version: Option<u64>,
    ) -> AppResult<PlannedRoute> {
        p.require(Permission::PlannedRoutesEdit)?;
        let Some(to) = RouteStatus::parse(to.trim()) else {
            return Err(AppError::invalid_field(
                "status",
                "Choose one of: in_progress, done, cancelled.",
            ));
        };
        let current = self.route_for(p, id).await?;
        check_version(version, &current)?;
        let from = current.status_at(self.calendar.now());
        if !from.can_move(to) {
            return Err(AppError::conflict(format!(
                "A route cannot go from {} to {}.",
                from.key().replace('_', " "),
                to.key().replace('_', " ")
            )));
        }
        let mut next = current.clone();
        next.status = to;
        self.replace_route(&current, next).await
    }

    /// Gives a route to another employee, who must reach all its machines.
    pub async fn change_employee(
        &self,
        p: &Principal,
        id: &str,
        employee_id: &str,
        version: Option<u64>,
    ) -> AppResult<PlannedRoute> {
        p.require(Permission::PlannedRoutesChangeEmployee)?;
        let current = self.route_for(p, id).await?;
        check_version(version, &current)?;
        let status = current.status_at(self.calendar.now());
        if status.is_final() {
            return Err(final_conflict(status));
        }
        let mut errors = FieldErrors::new();
        let machines: BTreeMap<String, String> = current
            .stops
            .iter()
            .map(|s| (s.stop.machine_id.clone(), s.stop.machine_name.clone()))
            .collect();
        let found = self
            .employees(
                p,
                &[employee_id.to_string()],
                &machines,
                true,
                Permission::PlannedRoutesChangeEmployee,
                &mut errors,
                "employee_id",
            )
            .await?;
        errors.into_result()?;
        let (employee, _) = found.into_iter().next().expect("checked");
        let mut next = current.clone();
        next.employee_id = employee.id;
        next.employee_name = employee.name;
        self.replace_route(&current, next).await
    }

    /// Deletes a route that was not started (or is over without a visit: cancelled, expired).
    pub async fn delete_route(&self, p: &Principal, id: &str) -> AppResult<()> {
        p.require(Permission::PlannedRoutesDelete)?;
        let route = self.route_for(p, id).await?;
        let status = route.status_at(self.calendar.now());
        if matches!(status, RouteStatus::InProgress | RouteStatus::Done) || route.visited() > 0 {
            return Err(AppError::conflict(
                "A route that was started keeps its visits: cancel it instead.",
            ));
        }
        let mut writes = Records::<PlannedRoute>::delete_writes(&route);
        for s in &route.stops {
            writes.push(Write::Delete {
                key: RouteStop::key(&route.id, &s.stop.machine_id),
                condition: None,
            });
        }
        for chunk in writes.chunks(crate::records::MAX_CHANGE_WRITES) {
            self.store.transact(chunk.to_vec()).await?;
        }
        Ok(())
    }

    /// Takes a machine off a route (not a visited stop, not a final route).
    pub async fn remove_stop(
        &self,
        p: &Principal,
        id: &str,
        machine_id: &str,
    ) -> AppResult<PlannedRoute> {
        p.require(Permission::PlannedRoutesEdit)?;
        let current = self.route_for(p, id).await?;
        let status = current.status_at(self.calendar.now());
        if status.is_final() {
            return Err(final_conflict(status));
        }
        let Some(stop) = current
            .stops
            .iter()
            .find(|s| s.stop.machine_id == machine_id)
        else {
            return Err(AppError::NotFound("Machine not on this route".into()));
        };
        if stop.visited_at.is_some() {
            return Err(AppError::conflict("A visited stop stays on its route."));
        }
        if current.stops.len() == 1 {
            return Err(AppError::conflict(
                "The route's last stop cannot be removed: cancel or delete the route.",
            ));
        }
        let mut next = current.clone();
        next.stops.retain(|s| s.stop.machine_id != machine_id);
        next.updated_at = self.calendar.now();
        next.version = current.version + 1;
        let mut writes = Records::<PlannedRoute>::replace_writes(&current, &next)?;
        writes.push(Write::Delete {
            key: RouteStop::key(&current.id, machine_id),
            condition: None,
        });
        self.store.transact(writes).await?;
        Ok(next)
    }
}
