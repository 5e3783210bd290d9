//! Each machine's plan: its selections' velocities and predicted needs, ranked for the list and
//! the map, and one machine's products and cash.

use super::*;

impl PlanningService {
    /// Units by weekday over the window, by machine, of at least `ids`: many machines from the
    /// fleet's figures, kept for [`VELOCITY_TTL_SECS`]; few read on their own.
    async fn weekday_units(
        &self,
        ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Arc<UnitsByMachine>> {
        let by_machine = |units: Vec<crate::ports::WeekdayUnits>| {
            let mut out = UnitsByMachine::new();
            for u in units {
                out.entry(u.machine_id.clone()).or_default().push(u);
            }
            Arc::new(out)
        };
        if ids.len() < FLEET_VELOCITIES_FROM {
            return Ok(by_machine(self.sales.weekday_units(ids, from, to).await?));
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
                let units = by_machine(self.sales.weekday_units(&all, from, to).await?);
                *self.velocities.lock().expect("velocity cache") = Some(FleetVelocities {
                    window: (from, to),
                    loaded_at: now,
                    machines: all.into_iter().collect(),
                    units: units.clone(),
                });
                units
            }
        };
        Ok(units)
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
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let (from, to) = self.velocity_window(s);
        let (states, held, units, locations, products, components) = tokio::try_join!(
            self.machine_states(&refs),
            self.events.held_audit_counts(),
            self.weekday_units(&ids, from, to),
            self.fleet.locations().all_shared(),
            self.products.products().all_shared(),
            self.products.components().all_shared(),
        )?;
        let locations: HashMap<&str, &Location> =
            locations.iter().map(|l| (l.id.as_str(), l)).collect();
        let products: HashMap<&str, &crate::products::Product> =
            products.iter().map(|p| (p.id.as_str(), p)).collect();
        let components: HashMap<&str, &crate::products::Component> =
            components.iter().map(|c| (c.id.as_str(), c)).collect();
        let thresholds = s.thresholds();
        let mut out = Vec::with_capacity(machines.len());
        for (machine, state) in machines.into_iter().zip(states) {
            let units = units.get(&machine.id).map_or(&[][..], Vec::as_slice);
            let velocity_of = |product: &str| {
                units
                    .iter()
                    .find(|u| u.product_id == product)
                    .map(|u| Velocity::from_units(u.units, from, to))
            };
            let location = machine
                .location_id
                .as_deref()
                .and_then(|l| locations.get(l).copied())
                .cloned();
            let tz = self
                .calendar
                .zone_or_operator(location.as_ref().map(|l| l.time_zone.as_str()));
            let status = state.status.as_ref();
            let last_reading = status.and_then(|s| s.last_updated);
            let reading_day = last_reading.map_or(today, |r| local_date(r, tz).min(today));
            // In the selections' natural order.
            let sels = &state.selections;
            // A product in several selections shares its velocity by their capacity.
            let mut capacity: HashMap<&str, i64> = HashMap::new();
            for sel in sels {
                *capacity.entry(sel.product_id.as_str()).or_default() += sel.max.max(0);
            }
            let mut plans = Vec::with_capacity(sels.len());
            let mut needs = Vec::with_capacity(sels.len());
            for sel in sels {
                let total = capacity[sel.product_id.as_str()];
                let share = if total > 0 {
                    sel.max.max(0) as f64 / total as f64
                } else {
                    0.0
                };
                let velocity = velocity_of(&sel.product_id)
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
                cash_box_minor: status.and_then(|s| s.int("cash_box_minor")),
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
        let machines: Vec<Machine> = self.machines.active_visible(p).await?;
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

    /// Every employee of `ids` (active users) with the machines of `machines` (id → name) each
    /// reaches; `p` plans for others only with the change-employee permission. With
    /// `each_reaches_all` every employee must reach every machine (a route of their own);
    /// otherwise each must reach some, and every machine someone (the machines are shared out
    /// among those who reach them). Errors name the machines, never their ids.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn employees(
        &self,
        p: &Principal,
        ids: &[String],
        machines: &BTreeMap<String, String>,
        each_reaches_all: bool,
        change_employee: Permission,
        errors: &mut FieldErrors,
        field: &str,
    ) -> AppResult<Vec<(crate::users::User, BTreeSet<String>)>> {
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
            // is given only machines they reach.
            let employee = self.directory.principal(user.clone()).await?;
            let visible = self.machines.visible_ids(&employee).await?;
            let reach: BTreeSet<String> = machines
                .keys()
                .filter(|m| visible.contains(*m))
                .cloned()
                .collect();
            let missed: Vec<&str> = machines
                .iter()
                .filter(|(m, _)| !reach.contains(*m))
                .map(|(_, name)| name.as_str())
                .collect();
            if each_reaches_all && !missed.is_empty() {
                errors.add(
                    field,
                    format!("{} cannot reach {}.", user.name, names_list(&missed)),
                );
                continue;
            }
            if !each_reaches_all && reach.is_empty() && !machines.is_empty() {
                errors.add(
                    field,
                    format!("{} reaches none of the chosen machines.", user.name),
                );
                continue;
            }
            out.push((user, reach));
        }
        if !each_reaches_all && !out.is_empty() {
            let nobody: Vec<&str> = machines
                .iter()
                .filter(|(m, _)| !out.iter().any(|(_, reach)| reach.contains(*m)))
                .map(|(_, name)| name.as_str())
                .collect();
            if !nobody.is_empty() {
                errors.add(
                    field,
                    format!(
                        "Nobody chosen can reach {}: choose someone who can, or leave {} out.",
                        names_list(&nobody),
                        if nobody.len() == 1 { "it" } else { "them" }
                    ),
                );
            }
        }
        if out.is_empty() && errors.is_empty() {
            errors.add(field, "Choose at least one employee.");
        }
        if out.len() > MAX_PLAN_EMPLOYEES {
            errors.add(field, format!("Choose at most {MAX_PLAN_EMPLOYEES}."));
        }
        Ok(out)
    }
}

/// Machine names for a message: all of a few, the first five of many and how many more.
fn names_list(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let quoted: Vec<String> = names.iter().take(SHOWN).map(|n| format!("“{n}”")).collect();
    match names.len() {
        0 => String::new(),
        n if n > SHOWN => format!("{} and {} more", quoted.join(", "), n - SHOWN),
        1 => quoted[0].clone(),
        _ => {
            let (last, rest) = quoted.split_last().expect("two or more");
            format!("{} and {last}", rest.join(", "))
        }
    }
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
