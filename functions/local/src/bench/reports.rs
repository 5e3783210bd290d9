//! The reports benchmark: a demo fleet (1,000 machines × 365 days by default, about 15 million
//! vends) seeded once and kept in `target/bench-fleet/`, then measured through the HTTP API on
//! the embedded store, medians and p95 over repeated requests:
//! 1. the current year to date by month, all machines;
//! 2. last month by product for a user scoped by location to about 50 machines;
//! 3. a transaction-log page deep in the year, and the dashboard;
//! 4. planning: the route-planning list of every machine, and a picklist with routes solved
//!    for the 40 machines nearest one another and 3 refillers.
//!
//! Beside 1 and 2 it prints DuckDB's answer over the same ledger as Parquet (infra/
//! bench_duckdb.py, run by the Python of `.venv-bench`), its times, the ratio, and whether the
//! figures are equal to the cent.

use crate::error::BoxError;
use chrono::{Datelike, NaiveDate};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use vendfleet_app::users::{RoleInput, UserInput};
use vendfleet_http::AppState;

pub(super) use super::harness::{duckdb, export_ledger, show, Api, Stats, REPEAT};

pub(super) const ADMIN: (&str, &str) = ("admin@bench.local", "bench-password");
const SCOPED: (&str, &str) = ("scoped@bench.local", "bench-password");

/// The fleet's size: `VENDFLEET_BENCH_MACHINES` and `VENDFLEET_BENCH_DAYS` (1,000 × 365).
pub(super) fn size() -> (usize, u32) {
    let get = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    (
        get("VENDFLEET_BENCH_MACHINES", 1000) as usize,
        get("VENDFLEET_BENCH_DAYS", 365) as u32,
    )
}

/// The fleet's directory, seeded on first use (or when its size changed).
async fn fleet(dir: &Path, machines: usize, days: u32) -> Result<(), BoxError> {
    let marker = dir.join("READY");
    let want = format!("{machines} machines x {days} days, seed 1\n");
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(want.as_str()) {
        println!("reusing the fleet of {}", dir.display());
        return Ok(());
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    println!(
        "seeding {machines} machines x {days} days into {} (once; minutes) …",
        dir.display()
    );
    let started = Instant::now();
    crate::server::create_admin(dir, ADMIN.0, ADMIN.1).await?;
    let opts = crate::demo::Options {
        machines,
        days,
        seed: 1,
    };
    crate::server::seed_demo(dir, Some(ADMIN.0), opts).await?;
    println!("seeded in {:.0} s", started.elapsed().as_secs_f64());
    std::fs::write(marker, want)?;
    Ok(())
}

/// Compares our (key → quantity, revenue) with DuckDB's rows.
fn compare(name: &str, ours: &BTreeMap<String, (i64, i64)>, duck: &Value) {
    let theirs: BTreeMap<String, (i64, i64)> = duck["rows"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    (
                        r[0].as_str().unwrap_or_default().to_string(),
                        (r[1].as_i64().unwrap_or(0), r[2].as_i64().unwrap_or(0)),
                    )
                })
                .filter(|(_, v)| *v != (0, 0))
                .collect()
        })
        .unwrap_or_default();
    let ours: BTreeMap<String, (i64, i64)> = ours
        .iter()
        .filter(|(_, v)| **v != (0, 0))
        .map(|(k, v)| (k.clone(), *v))
        .collect();
    let revenue: i64 = ours.values().map(|v| v.1).sum();
    if ours == theirs {
        println!(
            "  {name}: equal to the cent ({} rows, {} minor units in all)",
            ours.len(),
            revenue
        );
    } else {
        let diff = ours
            .iter()
            .find(|(k, v)| theirs.get(*k) != Some(*v))
            .map(|(k, v)| format!("{k}: ours {v:?}, DuckDB {:?}", theirs.get(k)));
        println!(
            "  {name}: DIFFERENT from DuckDB ({} rows vs {}; {})",
            ours.len(),
            theirs.len(),
            diff.unwrap_or_else(|| "DuckDB has more rows".into())
        );
    }
}

fn ratio(name: &str, ours: Stats, duck: &Value) {
    let m = duck["median_ms"].as_f64().unwrap_or(f64::NAN);
    let p = duck["p95_ms"].as_f64().unwrap_or(f64::NAN);
    println!(
        "{:<64} median {m:>8.2} ms  p95 {p:>8.2} ms  -> ours is {:.1}x faster (medians)",
        format!("  DuckDB over Parquet: {name}"),
        m / Stats::ms(ours.median)
    );
}

/// The scoped user (made once): sales and transaction-log access to the machines of the first
/// locations that together hold at least 50 machines.
async fn scoped_user(
    app: &vendfleet_app::App,
    admin: &vendfleet_app::auth::Principal,
) -> Result<Vec<String>, BoxError> {
    let machines = app
        .machines
        .visible(admin)
        .await
        .map_err(|e| e.to_string())?;
    let mut by_location: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in machines {
        if let Some(l) = m.location_id {
            by_location.entry(l).or_default().push(m.id);
        }
    }
    let mut locations = Vec::new();
    let mut chosen = Vec::new();
    for (l, ms) in by_location {
        if chosen.len() >= 50 {
            break;
        }
        locations.push(l);
        chosen.extend(ms);
    }
    sales_user(
        app,
        admin,
        UserInput {
            name: "Scoped".into(),
            email: SCOPED.0.into(),
            location_ids: locations,
            ..Default::default()
        },
    )
    .await?;
    Ok(chosen)
}

/// Makes a user of the sales and transaction-log reports (role "Bench sales") with the scope,
/// name and e-mail of `input` and the bench's password, unless one has its e-mail.
pub(super) async fn sales_user(
    app: &vendfleet_app::App,
    admin: &vendfleet_app::auth::Principal,
    input: UserInput,
) -> Result<(), BoxError> {
    const ROLE: &str = "Bench sales";
    let directory = app.users.directory();
    let err = |e: vendfleet_app::AppError| e.to_string();
    if directory
        .user_by_email(&input.email)
        .await
        .map_err(err)?
        .is_some()
    {
        return Ok(());
    }
    let role = match directory
        .all_roles()
        .await
        .map_err(err)?
        .into_iter()
        .find(|r| r.name == ROLE)
    {
        Some(role) => role.id,
        None => {
            app.users
                .create_role(
                    admin,
                    RoleInput {
                        name: ROLE.into(),
                        modules: vec![
                            "reports.sales_overview.full_access".into(),
                            "reports.transaction_log.full_access".into(),
                        ],
                        version: None,
                    },
                )
                .await
                .map_err(err)?
                .role
                .id
        }
    };
    app.users
        .create_user(
            admin,
            UserInput {
                password: Some(ADMIN.1.into()),
                role_id: Some(role),
                ..input
            },
        )
        .await
        .map_err(err)?;
    Ok(())
}

/// Planning on the bench fleet: the ranked list of every machine (for tomorrow), and the
/// picklist with the solver for the 40 machines nearest the first one, 3 refillers.
async fn planning(
    app: &vendfleet_app::App,
    admin: &vendfleet_app::auth::Principal,
    api: &Api,
) -> Result<(), BoxError> {
    let (s, list) = api.time("/api/route-planning/?page_size=50").await?;
    show(
        &format!(
            "4. route planning, {} machines ranked by need (page of 50)",
            list["pagination"]["count"]
        ),
        s,
    );
    let (s, _) = api.time("/api/route-planning/map/").await?;
    show("   route planning map, every machine", s);
    // Three refillers who reach every machine.
    let directory = app.users.directory();
    let mut employees = vec![admin.user.id.clone()];
    for n in 1..=2 {
        let email = format!("refiller{n}@bench.local");
        let user = match directory
            .user_by_email(&email)
            .await
            .map_err(|e| e.to_string())?
        {
            Some(u) => u,
            None => {
                app.users
                    .create_user(
                        admin,
                        UserInput {
                            name: format!("Refiller {n}"),
                            email: email.clone(),
                            password: Some("bench-password".into()),
                            access_all_machines: true,
                            ..Default::default()
                        },
                    )
                    .await
                    .map_err(|e| e.to_string())?
                    .user
            }
        };
        employees.push(user.id);
    }
    let map = api.get("/api/route-planning/map/").await?;
    let placed: Vec<(String, f64, f64)> = map["data"]["machines"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|m| {
            Some((
                m["id"].as_str()?.to_string(),
                m["latitude"].as_f64()?,
                m["longitude"].as_f64()?,
            ))
        })
        .collect();
    let Some(first) = placed.first().cloned() else {
        println!("   no machine with coordinates: solver skipped");
        return Ok(());
    };
    let mut near = placed.clone();
    near.sort_by(|a, b| {
        let d = |m: &(String, f64, f64)| (m.1 - first.1).powi(2) + (m.2 - first.2).powi(2);
        d(a).total_cmp(&d(b))
    });
    let ids: Vec<String> = near.into_iter().take(40).map(|m| m.0).collect();
    let input = vendfleet_app::planning::PicklistInput {
        machine_ids: ids.clone(),
        employee_ids: employees,
        van_capacity: Some(5_000),
        ..Default::default()
    };
    let mut samples = Vec::new();
    let mut last = None;
    for _ in 0..5 {
        let t = Instant::now();
        last = Some(
            app.planning
                .generate(admin, &input)
                .await
                .map_err(|e| e.to_string())?,
        );
        samples.push(t.elapsed());
    }
    show(
        &format!(
            "   picklist and solver, {} machines, 3 refillers",
            ids.len()
        ),
        Stats::of(samples),
    );
    if let Some(plan) = last {
        let stops: usize = plan.routes.iter().map(|r| r.stops.len()).sum();
        let km: i64 = plan.routes.iter().map(|r| r.distance_m).sum::<i64>() / 1000;
        println!(
            "   {} routes, {stops} stops, {} left out, {km} km in all",
            plan.routes.len(),
            plan.unassigned.len()
        );
    }
    Ok(())
}

/// Our line chart's months (value sales and quantity) as key → (quantity, revenue).
fn by_month(sales: &Value, quantity: &Value) -> BTreeMap<String, (i64, i64)> {
    let dates = sales["data"]["dates"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    dates
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let d: NaiveDate = d.as_str().unwrap_or_default().parse().unwrap_or_default();
            (
                format!("{}", d.year() * 100 + d.month() as i32),
                (
                    quantity["data"]["current"][i].as_i64().unwrap_or(0),
                    sales["data"]["current"][i].as_i64().unwrap_or(0),
                ),
            )
        })
        .collect()
}

/// The bench fleet, seeded on first use and opened, with the router and the administrator.
pub(super) struct Fleet {
    pub(super) dir: PathBuf,
    pub(super) local: crate::server::Local,
    pub(super) router: axum::Router,
    /// The ledger's last day.
    pub(super) end: NaiveDate,
    pub(super) admin: vendfleet_app::auth::Principal,
    pub(super) admin_api: Api,
}

impl Fleet {
    /// Seeds the fleet when missing (`VENDFLEET_BENCH_FLEET`, default `target/bench-fleet`),
    /// opens it and signs the administrator in.
    pub(super) async fn open() -> Result<Fleet, BoxError> {
        let (machines, days) = size();
        let dir = PathBuf::from(
            std::env::var("VENDFLEET_BENCH_FLEET").unwrap_or("target/bench-fleet".into()),
        );
        fleet(&dir, machines, days).await?;
        let local = crate::server::open(&dir)?;
        let (end, vends): (i64, i64) = local
            .embedded
            .database
            .read(|c| {
                c.query_row("SELECT max(day), count(*) FROM sales_ledger", [], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
            })
            .await??;
        let end = vendfleet_domain::sales::day_from_number(end).ok_or("empty ledger")?;
        println!(
            "\nReports on {machines} machines x {days} days: {vends} ledger rows, last day {end}"
        );
        // As `vendfleet serve` does at its start: the engine's columns, then the log's index.
        let started = Instant::now();
        local.app.sales.warm().await?;
        println!(
            "sales engine built in {:.1} s (the transaction log's index: {} MB)",
            started.elapsed().as_secs_f64(),
            local.app.sales.log_index_bytes().unwrap_or(0) / 1_000_000
        );
        let router = vendfleet_http::router(AppState::new(local.app.clone()));
        let (admin_api, admin) = Fleet::sign_in_to(&local.app, &router, ADMIN.0).await?;
        Ok(Fleet {
            dir,
            local,
            router,
            end,
            admin,
            admin_api,
        })
    }

    /// A bench user signed in (every bench user has the bench's password).
    pub(super) async fn sign_in(
        &self,
        email: &str,
    ) -> Result<(Api, vendfleet_app::auth::Principal), BoxError> {
        Fleet::sign_in_to(&self.local.app, &self.router, email).await
    }

    async fn sign_in_to(
        app: &vendfleet_app::App,
        router: &axum::Router,
        email: &str,
    ) -> Result<(Api, vendfleet_app::auth::Principal), BoxError> {
        let (tokens, principal) = app
            .auth
            .login(email, ADMIN.1, "bench")
            .await
            .map_err(|e| e.to_string())?;
        let api = Api {
            router: router.clone(),
            token: tokens.access,
        };
        Ok((api, principal))
    }
}

/// Runs the reports benchmark.
pub async fn run() -> Result<(), BoxError> {
    let fleet = Fleet::open().await?;
    let (app, end, dir) = (fleet.local.app.clone(), fleet.end, fleet.dir.clone());
    let chosen = scoped_user(&app, &fleet.admin).await?;
    let (scoped, _) = fleet.sign_in(SCOPED.0).await?;
    let (api, admin) = (&fleet.admin_api, &fleet.admin);

    // 1. The year to date by month, all machines.
    let year_start = NaiveDate::from_ymd_opt(end.year(), 1, 1).ok_or("bad year")?;
    let ytd = format!("date_from={year_start}&date_to={end}");
    let (line, line_sales) = api
        .time(&format!(
            "/api/sales-journal/graphs/line-chart/?{ytd}&grouping_period=month"
        ))
        .await?;
    show("1. year to date by month, all machines: line chart", line);
    let line_quantity = api
        .get(&format!(
            "/api/sales-journal/graphs/line-chart/?{ytd}&grouping_period=month&value=quantity"
        ))
        .await?;
    let (s, _) = api
        .time(&format!(
            "/api/sales-journal/detail-table/?{ytd}&grouping_period=month&group_by=machine&page_size=50"
        ))
        .await?;
    show("   detail table, machine x month, page of 50", s);
    let (s, _) = api
        .time(&format!(
            "/api/sales-journal/total-table/?{ytd}&group_by=machine"
        ))
        .await?;
    show("   total table by machine (with the span before)", s);

    // 2. Last month by product, a user scoped to about 50 machines.
    let first = NaiveDate::from_ymd_opt(end.year(), end.month(), 1).ok_or("bad month")?;
    let last_to = first.pred_opt().ok_or("bad month")?;
    let last_from =
        NaiveDate::from_ymd_opt(last_to.year(), last_to.month(), 1).ok_or("bad month")?;
    let lm = format!("date_from={last_from}&date_to={last_to}&group_by=product");
    let (products, table) = scoped
        .time(&format!("/api/sales-journal/total-table/?{lm}"))
        .await?;
    // For profiling (`perf record -p`): query 2 `VENDFLEET_BENCH_Q2_LOOP` times, then stop.
    if let Ok(n) = std::env::var("VENDFLEET_BENCH_Q2_LOOP") {
        let n: usize = n.parse().unwrap_or(1000);
        let t = Instant::now();
        for _ in 0..n {
            scoped
                .get_body(&format!("/api/sales-journal/total-table/?{lm}"))
                .await?;
        }
        println!(
            "query 2 looped: {:.3} ms each",
            t.elapsed().as_secs_f64() * 1000.0 / n as f64
        );
        std::process::exit(0);
    }
    show(
        &format!(
            "2. last month by product, {} machines (scoped user): total table",
            chosen.len()
        ),
        products,
    );
    let (s, _) = scoped
        .time(&format!("/api/sales-journal/graphs/bar-chart/?{lm}"))
        .await?;
    show("   bar chart by product", s);
    let (s, _) = scoped
        .time(&format!(
            "/api/sales-journal/detail-table/?{lm}&grouping_period=day&page_size=50"
        ))
        .await?;
    show("   detail table, product x day", s);
    let rows = table["data"]["rows"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let figures = |f: &Value| {
        (
            f["quantity"].as_i64().unwrap_or(0),
            f["sales_minor"].as_i64().unwrap_or(0),
        )
    };
    let by_product: BTreeMap<String, (i64, i64)> = rows
        .iter()
        .map(|r| (r["id"].as_str().unwrap_or_default().to_string(), figures(r)))
        .collect();
    // The total table answers the span before too: both, as DuckDB's second query keys them.
    let both_spans: BTreeMap<String, (i64, i64)> = rows
        .iter()
        .flat_map(|r| {
            let id = r["id"].as_str().unwrap_or_default();
            [
                (format!("current:{id}"), figures(r)),
                (format!("previous:{id}"), figures(&r["previous"])),
            ]
        })
        .collect();
    let previous_from: NaiveDate = table["data"]["previous_from"]
        .as_str()
        .unwrap_or_default()
        .parse()
        .unwrap_or(last_from);

    // 3. A transaction-log page deep in the year, and the dashboard.
    let count = api
        .get(&format!("/api/transaction-logs/?{ytd}&page_size=50"))
        .await?["pagination"]["count"]
        .as_u64()
        .unwrap_or(0);
    let deep = (count / 50 / 2).max(1);
    let (s, _) = api
        .time(&format!(
            "/api/transaction-logs/?{ytd}&page={deep}&page_size=50"
        ))
        .await?;
    show(
        &format!(
            "3. transaction log, page {deep} of {} (50 a page)",
            count.div_ceil(50)
        ),
        s,
    );
    let (s, _) = scoped
        .time(&format!(
            "/api/transaction-logs/?{ytd}&page=200&page_size=50"
        ))
        .await?;
    show("   the same, scoped user, page 200", s);
    let (s, _) = api.time("/api/dashboard/").await?;
    show("   dashboard, all machines", s);
    let (s, _) = scoped.time("/api/dashboard/").await?;
    show("   dashboard, scoped user", s);

    planning(&app, admin, api).await?;

    // DuckDB over the same ledger.
    export_ledger(&dir, &fleet.local.embedded).await?;
    let number = |d: NaiveDate| vendfleet_domain::sales::day_number(d);
    let queries = json!({
        "ytd": {"from": number(year_start), "to": number(end), "by": "month", "machines": null},
        "last_month": {"from": number(last_from), "to": number(last_to), "by": "product",
                       "machines": chosen},
        "last_month_both": {"from": number(last_from), "to": number(last_to), "by": "product",
                            "machines": chosen, "previous_from": number(previous_from)},
    });
    let request = json!({"repeat": REPEAT, "queries": queries});
    match duckdb("infra/bench_duckdb.py", &dir, request) {
        Ok(duck) => {
            ratio("1. year to date by month", line, &duck["ytd"]);
            compare("1", &by_month(&line_sales, &line_quantity), &duck["ytd"]);
            ratio(
                "2. last month by product, scoped",
                products,
                &duck["last_month"],
            );
            compare("2", &by_product, &duck["last_month"]);
            ratio(
                "2. the same and the span before (as the total table)",
                products,
                &duck["last_month_both"],
            );
            compare("2, both spans", &both_spans, &duck["last_month_both"]);
        }
        Err(e) => println!("DuckDB comparison skipped: {e}"),
    }
    Ok(())
}
