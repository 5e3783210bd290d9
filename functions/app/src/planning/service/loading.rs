//! The van loading list (pre-kitting): what a route or a day's routes take out of the
//! warehouse — per product in cases and loose units, per stop the tote — and the warehouse's
//! tick-off of what was loaded. Only stops on routes count.

use super::routes::*;
use super::*;
use crate::records::check_version;
use vendfleet_domain::planning::RouteStatus;

/// What the loading list is asked for: one of a day or a route.
#[derive(Debug, Clone, Default)]
pub struct LoadingQuery {
    pub date: Option<String>,
    pub route_id: Option<String>,
}

/// One product to load.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct LoadProduct {
    pub product_id: String,
    pub product_name: String,
    pub units: i64,
    pub case_size: Option<i64>,
    /// Whole cases (`units` ÷ the case size).
    pub cases: i64,
    /// Units outside whole cases.
    pub loose: i64,
    /// Units ticked as loaded.
    pub loaded: i64,
}

/// One product of a stop's tote.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ToteLine {
    pub product_id: String,
    pub product_name: String,
    pub units: i64,
}

/// A stop's tote.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct LoadStop {
    pub route_id: String,
    pub route_name: String,
    /// 1 for the route's first stop.
    pub order: usize,
    pub machine_id: String,
    pub machine_name: String,
    pub location_name: Option<String>,
    pub tote: Vec<ToteLine>,
}

/// The loading list of one or more routes.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadingList {
    pub date: Option<NaiveDate>,
    pub routes: Vec<PlannedRoute>,
    pub products: Vec<LoadProduct>,
    pub stops: Vec<LoadStop>,
}

/// One product's tick-off.
#[derive(Debug, Clone, Default)]
pub struct LoadedInput {
    pub product_id: String,
    pub loaded: i64,
}

/// Whole cases and loose units of `units` (no case size: all loose).
pub fn cases_and_loose(units: i64, case_size: Option<i64>) -> (i64, i64) {
    match case_size.filter(|c| *c > 0) {
        Some(c) => (units / c, units % c),
        None => (0, units),
    }
}

/// The loading list of `routes` with their stops, in route order then stop order. Products
/// are listed most units first, then by name.
pub fn loading_list(
    date: Option<NaiveDate>,
    routes: Vec<(PlannedRoute, Vec<RouteStop>)>,
) -> LoadingList {
    let mut products: BTreeMap<String, LoadProduct> = BTreeMap::new();
    let mut stops = Vec::new();
    for (route, route_stops) in &routes {
        let first = stops.len();
        let names: HashMap<&str, (usize, &PlanStop)> = route
            .stops
            .iter()
            .enumerate()
            .map(|(i, s)| (s.stop.machine_id.as_str(), (i + 1, &s.stop)))
            .collect();
        for st in route_stops {
            let mut tote: BTreeMap<&str, ToteLine> = BTreeMap::new();
            for l in st.lines.iter().filter(|l| l.to_bring > 0) {
                tote.entry(&l.product_id)
                    .or_insert_with(|| ToteLine {
                        product_id: l.product_id.clone(),
                        product_name: l.product_name.clone(),
                        units: 0,
                    })
                    .units += l.to_bring;
                let p = products
                    .entry(l.product_id.clone())
                    .or_insert_with(|| LoadProduct {
                        product_id: l.product_id.clone(),
                        product_name: l.product_name.clone(),
                        units: 0,
                        case_size: None,
                        cases: 0,
                        loose: 0,
                        loaded: 0,
                    });
                p.units += l.to_bring;
                p.case_size = p.case_size.or(l.case_size.filter(|c| *c > 0));
            }
            let (order, stop) = names
                .get(st.machine_id.as_str())
                .copied()
                .expect("a route's stop item is one of its stops");
            stops.push(LoadStop {
                route_id: route.id.clone(),
                route_name: route.name.clone(),
                order,
                machine_id: st.machine_id.clone(),
                machine_name: stop.machine_name.clone(),
                location_name: stop.location_name.clone(),
                tote: tote.into_values().collect(),
            });
        }
        stops[first..].sort_by_key(|s: &LoadStop| s.order);
        for (product, units) in &route.loaded {
            if let Some(p) = products.get_mut(product) {
                p.loaded += units;
            }
        }
    }
    let mut products: Vec<LoadProduct> = products
        .into_values()
        .map(|mut p| {
            (p.cases, p.loose) = cases_and_loose(p.units, p.case_size);
            p
        })
        .collect();
    products.sort_by(|a, b| {
        b.units
            .cmp(&a.units)
            .then_with(|| a.product_name.cmp(&b.product_name))
            .then_with(|| a.product_id.cmp(&b.product_id))
    });
    LoadingList {
        date,
        routes: routes.into_iter().map(|(r, _)| r).collect(),
        products,
        stops,
    }
}

impl PlanningService {
    /// The loading list of a day's routes (cancelled ones left out) or of one route, within
    /// the user's reach.
    pub async fn loading_list(&self, p: &Principal, q: &LoadingQuery) -> AppResult<LoadingList> {
        p.require(Permission::PlannedRoutesList)?;
        let trimmed = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
        };
        let (date, route_id) = (trimmed(&q.date), trimmed(&q.route_id));
        let (routes, asked) = match (date, route_id) {
            (Some(_), Some(_)) | (None, None) => {
                return Err(AppError::invalid_field(
                    "date",
                    "Give either a day or a route.",
                ));
            }
            (None, Some(id)) => (vec![self.route_for(p, &id).await?], None),
            (Some(d), None) => {
                let Some(day) = parse_date(&d) else {
                    return Err(AppError::invalid_field(
                        "date",
                        "Enter a real date as YYYY-MM-DD.",
                    ));
                };
                let reach = self.machines.visible_ids(p).await?;
                let now = self.calendar.now();
                let mut routes: Vec<PlannedRoute> = self
                    .routes
                    .related(&PlannedRoute::month_partition(day))
                    .await?
                    .into_iter()
                    .filter(|r| r.visit_date == day && within(&reach, r))
                    .filter(|r| r.status_at(now) != RouteStatus::Cancelled)
                    .collect();
                routes.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.id.cmp(&b.id)));
                (routes, Some(day))
            }
        };
        let date = match routes.as_slice() {
            [] => asked,
            [first, ..] => Some(first.visit_date),
        };
        let mut with_stops = Vec::with_capacity(routes.len());
        for r in routes {
            let stops = self.stops_of(&r).await?;
            with_stops.push((r, stops));
        }
        Ok(loading_list(date, with_stops))
    }

    /// Ticks products off a route's loading list: each given product's loaded units are set
    /// (0 clears it). The route's refiller or a user who edits routes; not on a route that is
    /// done, cancelled or expired.
    pub async fn set_loaded(
        &self,
        p: &Principal,
        id: &str,
        lines: &[LoadedInput],
        version: Option<u64>,
    ) -> AppResult<PlannedRoute> {
        p.require(Permission::PlannedRoutesList)?;
        let current = self.route_for(p, id).await?;
        if current.employee_id != p.user.id && !p.can(Permission::PlannedRoutesEdit) {
            return Err(AppError::Forbidden(
                "Only the route's refiller or someone who edits routes ticks its loading.".into(),
            ));
        }
        check_version(version, &current)?;
        let status = current.status_at(self.calendar.now());
        if status.is_final() {
            return Err(final_conflict(status));
        }
        let stops = self.stops_of(&current).await?;
        let on_route: BTreeSet<&str> = stops
            .iter()
            .flat_map(|s| s.lines.iter())
            .filter(|l| l.to_bring > 0)
            .map(|l| l.product_id.as_str())
            .collect();
        let mut errors = FieldErrors::new();
        if lines.is_empty() {
            errors.add("lines", "Give at least one product.");
        }
        let mut next = current.clone();
        let mut seen = BTreeSet::new();
        for (i, l) in lines.iter().enumerate() {
            let product = l.product_id.trim();
            if !on_route.contains(product) {
                errors.add(
                    format!("lines.{i}.product_id"),
                    "This product is not on the route's loading list.",
                );
            } else if !seen.insert(product) {
                errors.add(
                    format!("lines.{i}.product_id"),
                    "This product is given twice.",
                );
            }
            if !(0..=1_000_000).contains(&l.loaded) {
                errors.add(
                    format!("lines.{i}.loaded"),
                    "Must be between 0 and 1000000.",
                );
            } else if l.loaded == 0 {
                next.loaded.remove(product);
            } else {
                next.loaded.insert(product.to_string(), l.loaded);
            }
        }
        errors.into_result()?;
        self.replace_route(&current, next).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(product: &str, to_bring: i64, case_size: Option<i64>) -> PickLine {
        PickLine {
            selection: format!("S-{product}-{to_bring}"),
            product_id: product.into(),
            product_name: product.to_uppercase(),
            current: 0,
            max: 50,
            case_size,
            price_minor: 100,
            velocity: 1.0,
            predicted_at_visit: 0.0,
            need: to_bring,
            to_bring,
            components: Vec::new(),
        }
    }

    fn route(
        id: &str,
        stops: &[(&str, Vec<PickLine>)],
        loaded: &[(&str, i64)],
    ) -> (PlannedRoute, Vec<RouteStop>) {
        let day = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        let at = day.and_hms_opt(8, 0, 0).unwrap().and_utc();
        let r = PlannedRoute {
            id: id.into(),
            name: format!("Route {id}"),
            route_type: RouteType::Refill,
            visit_date: day,
            created_at: at,
            created_by: "admin".into(),
            expires_at: at,
            employee_id: "e".into(),
            employee_name: "E".into(),
            status: RouteStatus::Planned,
            stops: stops
                .iter()
                .map(|(m, _)| RouteStopSummary {
                    stop: PlanStop {
                        machine_id: m.to_string(),
                        machine_name: format!("Machine {m}"),
                        location_name: None,
                        address: None,
                        point: None,
                        arrival: None,
                        departure: None,
                        distance_m: 0,
                        units: 0,
                    },
                    visited_at: None,
                    not_serviced: None,
                })
                .collect(),
            distance_m: 0,
            duration_s: 0,
            depot: None,
            updated_at: at,
            picklist_date: None,
            loaded: loaded.iter().map(|(p, n)| (p.to_string(), *n)).collect(),
            version: 1,
            schema: 1,
        };
        // The stop items come in any order; the list follows the route's.
        let items = stops
            .iter()
            .rev()
            .map(|(m, lines)| RouteStop {
                route_id: id.into(),
                machine_id: m.to_string(),
                currency: "EUR".into(),
                decimal_places: 2,
                lines: lines.clone(),
                visit: None,
                version: 1,
                schema: 1,
            })
            .collect();
        (r, items)
    }

    #[test]
    fn products_in_cases_and_loose_units_and_each_stops_tote() {
        let a = route(
            "a",
            &[
                // Two selections of water in one machine: one tote line of 18.
                (
                    "m1",
                    vec![
                        line("water", 12, Some(6)),
                        line("water", 6, Some(6)),
                        line("chips", 0, None),
                    ],
                ),
                ("m2", vec![line("chips", 5, None)]),
            ],
            &[("water", 12), ("chips", 3)],
        );
        let b = route(
            "b",
            &[("m3", vec![line("water", 7, Some(6))])],
            &[("water", 6)],
        );
        let list = loading_list(None, vec![a, b]);
        let products: Vec<(&str, i64, i64, i64, i64)> = list
            .products
            .iter()
            .map(|p| (p.product_id.as_str(), p.units, p.cases, p.loose, p.loaded))
            .collect();
        assert_eq!(
            products,
            vec![("water", 25, 4, 1, 18), ("chips", 5, 0, 5, 3)]
        );
        type Tote<'a> = (&'a str, usize, &'a str, Vec<(&'a str, i64)>);
        let totes: Vec<Tote> = list
            .stops
            .iter()
            .map(|s| {
                (
                    s.route_id.as_str(),
                    s.order,
                    s.machine_id.as_str(),
                    s.tote
                        .iter()
                        .map(|t| (t.product_id.as_str(), t.units))
                        .collect(),
                )
            })
            .collect();
        assert_eq!(
            totes,
            vec![
                ("a", 1, "m1", vec![("water", 18)]),
                ("a", 2, "m2", vec![("chips", 5)]),
                ("b", 1, "m3", vec![("water", 7)]),
            ]
        );
    }

    #[test]
    fn cases_and_loose_units() {
        assert_eq!(cases_and_loose(25, Some(12)), (2, 1));
        assert_eq!(cases_and_loose(24, Some(12)), (2, 0));
        assert_eq!(cases_and_loose(5, Some(12)), (0, 5));
        assert_eq!(cases_and_loose(7, None), (0, 7));
        assert_eq!(cases_and_loose(7, Some(0)), (0, 7));
        assert_eq!(cases_and_loose(0, Some(6)), (0, 0));
    }
}
