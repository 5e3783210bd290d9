//! Generating a picklist: the chosen machines' plans split between the refillers who can reach
//! them (the solver), and what each route brings.

use super::*;

impl PlanningService {
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
        let machines: BTreeMap<String, String> = plans
            .iter()
            .map(|m| (m.machine.id.clone(), m.machine.name.clone()))
            .collect();
        // The machines are shared out among the refillers who reach them.
        let reaching = self
            .employees(
                p,
                &input.employee_ids,
                &machines,
                false,
                Permission::RoutePlanningChangeEmployee,
                &mut errors,
                "employee_ids",
            )
            .await?;
        errors.into_result()?;
        let reachable_by = |machine: &str| -> Vec<String> {
            if reaching.iter().all(|(_, reach)| reach.contains(machine)) {
                return Vec::new();
            }
            reaching
                .iter()
                .filter(|(_, reach)| reach.contains(machine))
                .map(|(u, _)| u.id.clone())
                .collect()
        };
        let employees: Vec<crate::users::User> = reaching.iter().map(|(u, _)| u.clone()).collect();
        let tz = self.calendar.time_zone();
        let routing = solver::RoutingInput {
            stops: plans
                .iter()
                .filter_map(|m| {
                    m.point.map(|point| solver::StopInput {
                        id: m.machine.id.clone(),
                        point,
                        units: m.units_to_bring(),
                        reachable_by: reachable_by(&m.machine.id),
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
                            address: super::address_of(m.location.as_ref()),
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
