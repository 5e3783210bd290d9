//! Stop order for one or several refillers: a capacitated vehicle routing problem with shifts,
//! solved by `vrp-pragmatic` (vrp-core's rich-VRP metaheuristic). We build its problem and a
//! routing matrix from coordinates (haversine × road factor, at a fixed speed; no routing
//! service) and read its tours back.

use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::io::BufWriter;
use std::sync::Arc;
use vendfleet_domain::planning::{haversine_m, Point};
use vrp_pragmatic::core::models::Problem as CoreProblem;
use vrp_pragmatic::core::rosomaxa::evolution::TelemetryMode;
use vrp_pragmatic::core::solver::{Solver, VrpConfigBuilder};
use vrp_pragmatic::core::utils::{DefaultRandom, Environment, Parallelism};
use vrp_pragmatic::format::problem::{
    Fleet, Job, JobPlace, JobSkills, JobTask, Matrix, MatrixProfile, Plan, PragmaticProblem,
    Problem, ShiftEnd, ShiftStart, VehicleCosts, VehicleProfile, VehicleShift, VehicleType,
};
use vrp_pragmatic::format::solution::{write_pragmatic, PragmaticOutputType, Solution, Stop};
use vrp_pragmatic::format::Location;

/// One place to visit.
#[derive(Debug, Clone, PartialEq)]
pub struct StopInput {
    pub id: String,
    pub point: Point,
    /// Units to bring (the van's load).
    pub units: i64,
    /// The vans that may take it (their refillers reach the machine); empty: any.
    pub reachable_by: Vec<String>,
}

/// One refiller's van.
#[derive(Debug, Clone, PartialEq)]
pub struct VehicleInput {
    pub id: String,
    pub capacity: i64,
}

/// The whole problem.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutingInput {
    pub stops: Vec<StopInput>,
    pub vehicles: Vec<VehicleInput>,
    /// Where the vans leave from and come back to; none: routes open at their first stop and
    /// close at their last.
    pub depot: Option<Point>,
    pub shift_start: DateTime<Utc>,
    pub shift_end: DateTime<Utc>,
    pub service_secs: i64,
    pub road_factor: f64,
    pub speed_kmh: f64,
    /// Generations of the metaheuristic at most.
    pub generations: usize,
    /// Seconds at most.
    pub max_secs: usize,
}

/// A visit in a solved route.
#[derive(Debug, Clone, PartialEq)]
pub struct SolvedStop {
    pub id: String,
    pub arrival: DateTime<Utc>,
    pub departure: DateTime<Utc>,
    /// Metres from the previous stop (or the depot).
    pub distance_m: i64,
}

/// One van's route.
#[derive(Debug, Clone, PartialEq)]
pub struct SolvedRoute {
    pub vehicle_id: String,
    pub stops: Vec<SolvedStop>,
    pub distance_m: i64,
    pub duration_s: i64,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub units: i64,
}

/// Why a stop is in no route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unassigned {
    /// It does not fit any van.
    Capacity,
    /// It does not fit any shift.
    Shift,
}

/// The solution.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Routing {
    pub routes: Vec<SolvedRoute>,
    pub unassigned: Vec<(String, Unassigned)>,
}

const PROFILE: &str = "van";

/// Road metres and seconds between two points.
pub fn leg(a: Point, b: Point, road_factor: f64, speed_kmh: f64) -> (i64, i64) {
    let metres = haversine_m(a, b) * road_factor;
    let secs = metres / (speed_kmh.max(1.0) * 1000.0 / 3600.0);
    (metres.round() as i64, secs.round() as i64)
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn parse(t: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(t)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| format!("solver time {t}: {e}"))
}

/// Solves a routing problem. Blocking (seconds of CPU): call it from a blocking task.
/// The skill a van has and a stop it may take asks for.
fn reach_skill(vehicle_id: &str) -> String {
    format!("reach:{vehicle_id}")
}

pub fn solve(input: &RoutingInput) -> Result<Routing, String> {
    if input.stops.is_empty() || input.vehicles.is_empty() {
        return Ok(Routing {
            routes: Vec::new(),
            unassigned: input
                .stops
                .iter()
                .map(|s| (s.id.clone(), Unassigned::Capacity))
                .collect(),
        });
    }
    let n = input.stops.len();
    // Matrix locations: the stops, then the depot (a place zero away from everything when
    // there is none, so a route costs nothing to open or close).
    let size = n + 1;
    let mut distances = Vec::with_capacity(size * size);
    let mut times = Vec::with_capacity(size * size);
    for i in 0..size {
        for j in 0..size {
            let point = |k: usize| {
                if k < n {
                    Some(input.stops[k].point)
                } else {
                    input.depot
                }
            };
            let (d, t) = match (point(i), point(j)) {
                (Some(a), Some(b)) if i != j => leg(a, b, input.road_factor, input.speed_kmh),
                _ => (0, 0),
            };
            distances.push(d);
            times.push(t);
        }
    }
    let jobs: Vec<Job> = input
        .stops
        .iter()
        .enumerate()
        .map(|(i, s)| Job {
            id: s.id.clone(),
            pickups: None,
            deliveries: Some(vec![JobTask {
                places: vec![JobPlace {
                    location: Location::Reference { index: i },
                    duration: input.service_secs as f64,
                    times: None,
                    tag: None,
                }],
                demand: Some(vec![s.units.clamp(0, i32::MAX as i64) as i32]),
                order: None,
            }]),
            replacements: None,
            services: None,
            skills: (!s.reachable_by.is_empty()).then(|| JobSkills {
                all_of: None,
                one_of: Some(s.reachable_by.iter().map(|v| reach_skill(v)).collect()),
                none_of: None,
            }),
            value: None,
            group: None,
            compatibility: None,
        })
        .collect();
    let depot = Location::Reference { index: n };
    let vehicles: Vec<VehicleType> = input
        .vehicles
        .iter()
        .map(|v| VehicleType {
            type_id: format!("van-{}", v.id),
            vehicle_ids: vec![v.id.clone()],
            profile: VehicleProfile {
                matrix: PROFILE.into(),
                scale: None,
            },
            costs: VehicleCosts {
                fixed: Some(0.0),
                distance: 0.001,
                time: 0.002,
            },
            shifts: vec![VehicleShift {
                start: ShiftStart {
                    earliest: rfc3339(input.shift_start),
                    latest: None,
                    location: depot.clone(),
                },
                end: Some(ShiftEnd {
                    earliest: None,
                    latest: rfc3339(input.shift_end),
                    location: depot.clone(),
                }),
                breaks: None,
                reloads: None,
                recharges: None,
            }],
            capacity: vec![v.capacity.clamp(0, i32::MAX as i64) as i32],
            skills: Some(vec![reach_skill(&v.id)]),
            limits: None,
        })
        .collect();
    let problem = Problem {
        plan: Plan {
            jobs,
            relations: None,
            clustering: None,
        },
        fleet: Fleet {
            vehicles,
            profiles: vec![MatrixProfile {
                name: PROFILE.into(),
                speed: None,
            }],
            resources: None,
        },
        objectives: None,
    };
    let matrix = Matrix {
        profile: Some(PROFILE.into()),
        timestamp: None,
        travel_times: times,
        distances,
        error_codes: None,
    };
    let core: CoreProblem = (problem, vec![matrix])
        .read_pragmatic()
        .map_err(|e| format!("routing problem: {e}"))?;
    let core = Arc::new(core);
    // Repeatable randomness: the same input gives the same routes.
    let environment = Arc::new(Environment::new(
        Arc::new(DefaultRandom::new_repeatable()),
        None,
        Parallelism::new_with_cpus(1),
        Arc::new(|_: &str| {}),
        false,
    ));
    let config = VrpConfigBuilder::new(core.clone())
        .set_environment(environment)
        .set_telemetry_mode(TelemetryMode::None)
        .prebuild()
        .map_err(|e| format!("solver: {e}"))?
        .with_max_generations(Some(input.generations))
        .with_max_time(Some(input.max_secs))
        .build()
        .map_err(|e| format!("solver: {e}"))?;
    let solution = Solver::new(core.clone(), config)
        .solve()
        .map_err(|e| format!("solver: {e}"))?;
    let mut buf = Vec::new();
    {
        let mut w = BufWriter::new(&mut buf);
        write_pragmatic(&core, &solution, PragmaticOutputType::OnlyPragmatic, &mut w)
            .map_err(|e| format!("solution: {e}"))?;
    }
    let solution: Solution = serde_json::from_slice(&buf).map_err(|e| format!("solution: {e}"))?;
    read_solution(input, &solution)
}

fn read_solution(input: &RoutingInput, solution: &Solution) -> Result<Routing, String> {
    let units: HashMap<&str, i64> = input
        .stops
        .iter()
        .map(|s| (s.id.as_str(), s.units))
        .collect();
    let mut out = Routing::default();
    for tour in &solution.tours {
        let mut stops = Vec::new();
        let mut last_distance = 0i64;
        let mut start = None;
        let mut end = None;
        for stop in &tour.stops {
            let Stop::Point(p) = stop else {
                continue;
            };
            let arrival = parse(&p.time.arrival)?;
            let departure = parse(&p.time.departure)?;
            start.get_or_insert(departure);
            end = Some(arrival);
            for a in &p.activities {
                if units.contains_key(a.job_id.as_str()) {
                    stops.push(SolvedStop {
                        id: a.job_id.clone(),
                        arrival,
                        departure,
                        distance_m: p.distance - last_distance,
                    });
                }
            }
            last_distance = p.distance;
        }
        let route_units = stops.iter().map(|s| units[s.id.as_str()]).sum();
        out.routes.push(SolvedRoute {
            vehicle_id: tour.vehicle_id.clone(),
            distance_m: tour.statistic.distance,
            duration_s: tour.statistic.duration,
            start: start.unwrap_or(input.shift_start),
            end: end.unwrap_or(input.shift_start),
            units: route_units,
            stops,
        });
    }
    for u in solution.unassigned.iter().flatten() {
        let capacity = u.reasons.iter().any(|r| r.code.contains("CAPACITY"));
        out.unassigned.push((
            u.job_id.clone(),
            if capacity {
                Unassigned::Capacity
            } else {
                Unassigned::Shift
            },
        ));
    }
    out.routes.sort_by(|a, b| a.vehicle_id.cmp(&b.vehicle_id));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    fn input(stops: Vec<StopInput>, vehicles: Vec<VehicleInput>) -> RoutingInput {
        RoutingInput {
            stops,
            vehicles,
            depot: Some(Point {
                latitude: 45.0,
                longitude: 7.0,
            }),
            shift_start: t("2026-11-24T07:00:00Z"),
            shift_end: t("2026-11-24T15:00:00Z"),
            service_secs: 600,
            road_factor: 1.3,
            speed_kmh: 40.0,
            generations: 100,
            max_secs: 5,
        }
    }

    fn stop(id: &str, km_east: f64, units: i64) -> StopInput {
        // About 78.7 km per degree of longitude at 45°N.
        StopInput {
            id: id.into(),
            point: Point {
                latitude: 45.0,
                longitude: 7.0 + km_east / 78.7,
            },
            units,
            reachable_by: Vec::new(),
        }
    }

    #[test]
    fn a_line_of_stops_is_visited_in_order_once_within_capacity_and_shift() {
        let stops = vec![
            stop("c", 6.0, 10),
            stop("a", 2.0, 10),
            stop("d", 8.0, 10),
            stop("b", 4.0, 10),
        ];
        // No depot: the route opens at its first stop, so only the line's two ends are best.
        let mut open = input(
            stops,
            vec![VehicleInput {
                id: "u1".into(),
                capacity: 100,
            }],
        );
        open.depot = None;
        let r = solve(&open).unwrap();
        assert!(r.unassigned.is_empty(), "{:?}", r.unassigned);
        assert_eq!(r.routes.len(), 1);
        let order: Vec<&str> = r.routes[0].stops.iter().map(|s| s.id.as_str()).collect();
        assert!(
            order == ["a", "b", "c", "d"] || order == ["d", "c", "b", "a"],
            "{order:?}"
        );
        let route = &r.routes[0];
        assert_eq!(route.units, 40);
        // From one end to the other: 6 km × 1.3.
        assert!(
            (route.distance_m - 7_800).abs() < 100,
            "{}",
            route.distance_m
        );
        for s in &route.stops {
            assert!(
                s.arrival >= t("2026-11-24T07:00:00Z") && s.departure <= t("2026-11-24T15:00:00Z")
            );
            assert_eq!((s.departure - s.arrival).num_seconds(), 600);
        }
    }

    #[test]
    fn capacity_splits_the_stops_between_vans_and_too_big_a_stop_is_left_out() {
        let stops = vec![
            stop("a", 2.0, 30),
            stop("b", 4.0, 30),
            stop("c", -2.0, 30),
            stop("d", -4.0, 30),
            stop("huge", 1.0, 500),
        ];
        let vans = vec![
            VehicleInput {
                id: "u1".into(),
                capacity: 60,
            },
            VehicleInput {
                id: "u2".into(),
                capacity: 60,
            },
        ];
        let r = solve(&input(stops, vans)).unwrap();
        assert_eq!(
            r.unassigned,
            vec![("huge".to_string(), Unassigned::Capacity)]
        );
        let mut seen: Vec<&str> = Vec::new();
        for route in &r.routes {
            assert!(route.units <= 60, "{route:?}");
            seen.extend(route.stops.iter().map(|s| s.id.as_str()));
        }
        seen.sort();
        assert_eq!(seen, ["a", "b", "c", "d"]);
    }

    #[test]
    fn a_stop_beyond_the_shift_is_left_out() {
        // 300 km away: 390 road km at 40 km/h is far more than an 8-hour shift there and back.
        let r = solve(&input(
            vec![stop("near", 1.0, 5), stop("far", 300.0, 5)],
            vec![VehicleInput {
                id: "u1".into(),
                capacity: 100,
            }],
        ))
        .unwrap();
        assert_eq!(r.unassigned, vec![("far".to_string(), Unassigned::Shift)]);
        assert_eq!(r.routes[0].stops.len(), 1);
    }
}
