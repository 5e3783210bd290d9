//! Seeding on the embedded store with a manual clock: determinism, consistency of the history
//! with the stock, ledger, rollups, refill log and encashments, and no event after now.

use super::options::*;
use super::*;
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::events::AuditState;
use vendfleet_app::machines::{RefillEntry, RefillListParams, SalesSource};
use vendfleet_app::ports::sales::{Grain, RollupQuery};
use vendfleet_app::ports::ManualClock;
use vendfleet_domain::calendar::latest_date_anywhere;
use vendfleet_domain::events::{parse_batch, Payment};
use vendfleet_domain::sales::{Figures, VendFact};

struct Seeded {
    app: App,
    admin: Principal,
    summary: Summary,
    now: DateTime<Utc>,
    _dir: tempfile::TempDir,
}

async fn seeded(at: &str, opts: Options) -> Seeded {
    let now: DateTime<Utc> = at.parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let embedded = vendfleet_adapters_embedded::Embedded::open(dir.path(), b"t").unwrap();
    let app = App::new(
        embedded.adapters(),
        Arc::new(ManualClock::new(now)),
        AuthSettings::with_secret(Secret::new("x".repeat(32))),
        Default::default(),
    );
    app.auth
        .ensure_admin("admin@demo.test", "demo-password-1")
        .await
        .unwrap();
    let user = app
        .users
        .directory()
        .user_by_email("admin@demo.test")
        .await
        .unwrap()
        .unwrap();
    let admin = app.auth.principal(user).await.unwrap();
    assert!(fleet_is_empty(&app).await.unwrap());
    let summary = seed(&app, &admin, opts).await.unwrap();
    eprintln!("{summary}");
    assert!(!fleet_is_empty(&app).await.unwrap());
    Seeded {
        app,
        admin,
        summary,
        now,
        _dir: dir,
    }
}

fn wide() -> (NaiveDate, NaiveDate) {
    (
        NaiveDate::from_ymd_opt(2000, 1, 1).unwrap(),
        NaiveDate::from_ymd_opt(2100, 1, 1).unwrap(),
    )
}

/// The first local day of any history these tests seed.
fn recent(now: DateTime<Utc>) -> NaiveDate {
    latest_date_anywhere(now) - chrono::Duration::days(41)
}

async fn refill_log(s: &Seeded, machine: &str) -> Vec<RefillEntry> {
    let mut out = Vec::new();
    for page in 1.. {
        let p = s
            .app
            .machines
            .refills(
                &s.admin,
                &RefillListParams {
                    page: Some(page),
                    page_size: Some(200),
                    machine: Some(machine.into()),
                    from: Some(recent(s.now).to_string()),
                    to: Some(latest_date_anywhere(s.now).to_string()),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        let n = p.items.len();
        out.extend(p.items);
        if out.len() >= p.count || n == 0 {
            break;
        }
    }
    out
}

/// A machine's day rollups, oldest first.
async fn day_rollups(s: &Seeded, machine_id: &str) -> Vec<(NaiveDate, Figures)> {
    let (from, to) = wide();
    let q = RollupQuery {
        machine_ids: vec![machine_id.to_string()],
        from,
        to,
        grain: Grain::Day,
    };
    let rows = s.app.sales.store().rollups(&q).await.unwrap();
    rows.into_iter().map(|r| (r.date, r.figures)).collect()
}

/// Status text, cash box and last sale of a machine's status.
type StatusSheet = (Option<String>, Option<i64>, Option<DateTime<Utc>>);

/// Everything a machine's figures are, keyed by names and codes (ids differ between runs).
#[derive(Debug, PartialEq)]
struct Figuresheet {
    days: BTreeMap<NaiveDate, Figures>,
    ledger_rows: usize,
    refill_lines: usize,
    encashments: Vec<(DateTime<Utc>, String, i64, i64, i64)>,
    audits: usize,
    stock: BTreeMap<String, (i64, i64, i64)>,
    status: Option<StatusSheet>,
}

async fn figuresheets(s: &Seeded) -> BTreeMap<String, Figuresheet> {
    let (from, to) = wide();
    let mut out = BTreeMap::new();
    for m in s.app.machines.machines().all().await.unwrap() {
        let days = day_rollups(s, &m.id).await.into_iter().collect();
        let ledger_rows = s
            .app
            .sales
            .store()
            .ledger(&m.id, from, to)
            .await
            .unwrap()
            .len();
        let ids = [m.id.clone()].into_iter().collect();
        let encashments = s
            .app
            .events
            .encashments(&ids, recent(s.now), latest_date_anywhere(s.now))
            .await
            .unwrap()
            .into_iter()
            .map(|e| {
                (
                    e.at,
                    e.bag_no,
                    e.cash_box_minor,
                    e.tubes_minor,
                    e.collected_minor,
                )
            })
            .collect();
        let stock = s
            .app
            .machines
            .selections(&s.admin, &m.id)
            .await
            .unwrap()
            .into_iter()
            .map(|v| {
                let sel = v.selection;
                (sel.selection, (sel.current, sel.max, sel.price_minor))
            })
            .collect();
        let status = s
            .app
            .events
            .status(&m.id)
            .await
            .unwrap()
            .map(|st| (st.text("status"), st.int("cash_box_minor"), st.last_sale));
        out.insert(
            m.name.clone(),
            Figuresheet {
                days,
                ledger_rows,
                refill_lines: refill_log(s, &m.id).await.len(),
                encashments,
                audits: s.app.events.audit_reads(&m.id).await.unwrap().len(),
                stock,
                status,
            },
        );
    }
    out
}

#[tokio::test]
async fn the_same_seed_and_instant_give_the_same_figures_and_another_seed_others() {
    let opts = Options {
        machines: 5,
        days: 6,
        seed: 7,
    };
    let at = "2026-03-29T09:15:00Z";
    let a = seeded(at, opts).await;
    let b = seeded(at, opts).await;
    assert_eq!(a.summary.history, b.summary.history);
    assert!(a.summary.history.sales > 0);
    let (fa, fb) = (figuresheets(&a).await, figuresheets(&b).await);
    assert_eq!(fa.len(), 5);
    assert_eq!(fa, fb);
    let c = seeded(at, Options { seed: 8, ..opts }).await;
    assert_ne!(figuresheets(&c).await, fa);
}

#[tokio::test]
async fn the_history_agrees_with_stock_rollups_refill_log_and_encashments() {
    // Across the change to summer time in Paris and Rome (29 March 2026).
    let opts = Options {
        machines: 6,
        days: 12,
        seed: 3,
    };
    let s = seeded("2026-03-31T16:40:00Z", opts).await;
    // The same history again, outside the store, to compare with what the store made of it.
    let plan = catalogue::plan(&opts, s.now);
    let mut audit_machines = 0;
    let h = &s.summary.history;
    assert!(h.refills > 6, "{h:?}");
    assert!(h.collections > 0, "{h:?}");
    // A reading every night but the first (before the route opens the machine).
    assert!(h.telemetry >= 6 * 11, "{h:?}");
    let (from, to) = wide();
    let sales = s.app.sales.store();
    let machines = s.app.machines.machines().all().await.unwrap();
    let mut cash = 0;
    let mut revenue = 0;
    for m in &machines {
        let ledger: Vec<VendFact> = sales.ledger(&m.id, from, to).await.unwrap();
        assert!(!ledger.is_empty(), "{}", m.name);
        assert!(ledger.iter().all(|v| v.at <= s.now), "a vend after now");
        let (l, p) = plan.machines().find(|(_, p)| p.name == m.name).unwrap();
        let mut sim = catalogue::simulator(opts.seed, l, p, "refiller");
        let events = history::events(&mut sim, opts.days, s.now);
        assert_eq!(m.sales_source == SalesSource::Audit, p.audits, "{}", m.name);
        audit_machines += usize::from(p.audits);
        // What the store counts: every vend of an `events` machine; on an `audit` machine, the
        // vends its reads counted (sales, free and test vends alike): those between its first
        // read (as the route opened it) and its last one. The rest is still in the machine.
        let reads: Vec<DateTime<Utc>> = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Dex { .. }))
            .map(|e| e.at_utc())
            .collect();
        let counted = |at: DateTime<Utc>| {
            !p.audits
                || (reads.first().is_some_and(|&r| r < at)
                    && reads.last().is_some_and(|&r| at <= r))
        };
        let mut uncounted: HashMap<String, i64> = HashMap::new();
        let mut counted_revenue = 0;
        let mut counted_cash = 0;
        for e in &events {
            if let EventKind::Vend(v) = &e.kind {
                if counted(e.at_utc()) {
                    if v.class() == VendClass::Sale {
                        counted_revenue += v.revenue_minor();
                        if v.payment == vendfleet_domain::events::Payment::Cash {
                            counted_cash += v.revenue_minor();
                        }
                    }
                } else {
                    *uncounted.entry(v.selection.clone()).or_default() += i64::from(v.quantity);
                }
            }
        }
        let ledger_revenue: i64 = ledger
            .iter()
            .filter(|v| v.class == VendClass::Sale)
            .map(|v| v.revenue_minor)
            .sum();
        assert_eq!(ledger_revenue, counted_revenue, "{}", m.name);
        // Cash to the cent: an audit machine's from its CA2 counter, split over its selections.
        let ledger_cash: i64 = ledger
            .iter()
            .filter(|v| {
                v.class == VendClass::Sale && v.payment == vendfleet_domain::events::Payment::Cash
            })
            .map(|v| v.revenue_minor)
            .sum();
        assert_eq!(ledger_cash, counted_cash, "{}", m.name);
        if p.audits {
            assert!(reads.len() >= 2, "{}: {} reads", m.name, reads.len());
            assert!(ledger.iter().all(|v| reads.contains(&v.at)), "{}", m.name);
            let states: Vec<AuditState> = s
                .app
                .events
                .audit_reads(&m.id)
                .await
                .unwrap()
                .into_iter()
                .map(|r| r.state)
                .collect();
            assert_eq!(states[0], AuditState::Baseline, "{}", m.name);
            assert!(
                states[1..].iter().all(|&st| st == AuditState::Counted),
                "{states:?}"
            );
        }
        // The store's stock is the machine's, but for the units it has not counted yet.
        for view in s.app.machines.selections(&s.admin, &m.id).await.unwrap() {
            let sel = view.selection;
            let slot = sim.slots.iter().find(|x| x.code == sel.selection).unwrap();
            let pending = uncounted.get(&sel.selection).copied().unwrap_or(0);
            assert_eq!(
                sel.current,
                slot.current + pending,
                "{} {}",
                m.name,
                sel.selection
            );
        }
        // Stock: it started empty; refills added and removed, every vend took units.
        let log = refill_log(&s, &m.id).await;
        assert!(log.iter().all(|e| e.at <= s.now && e.source == "machine"));
        let mut expected: HashMap<String, i64> = HashMap::new();
        for e in &log {
            *expected.entry(e.selection.clone()).or_default() += e.added - e.removed;
        }
        for v in &ledger {
            *expected.entry(v.selection.clone()).or_default() -= i64::from(v.quantity);
        }
        for view in s.app.machines.selections(&s.admin, &m.id).await.unwrap() {
            let sel = view.selection;
            let want = expected.get(&sel.selection).copied().unwrap_or(0);
            assert_eq!(sel.current, want, "{} {}", m.name, sel.selection);
            assert!((0..=sel.max).contains(&sel.current));
        }
        // Day rollups are the ledger summed by local day.
        let mut brute: BTreeMap<NaiveDate, Figures> = BTreeMap::new();
        for v in &ledger {
            brute.entry(v.local_date).or_default().add(&Figures::of(v));
            if v.class == VendClass::Sale {
                revenue += v.revenue_minor;
                if v.payment == Payment::Cash {
                    cash += v.revenue_minor;
                }
            }
        }
        let rolled: BTreeMap<NaiveDate, Figures> = day_rollups(&s, &m.id)
            .await
            .into_iter()
            .filter(|(_, f)| !f.is_zero())
            .collect();
        assert_eq!(rolled, brute, "{}", m.name);
        // Each collection holds the cash sales since the previous one, net of tube movements.
        let ids = [m.id.clone()].into_iter().collect();
        let mut cash_rows = s
            .app
            .events
            .encashments(&ids, recent(s.now), latest_date_anywhere(s.now))
            .await
            .unwrap();
        cash_rows.sort_by_key(|e| e.at);
        for pair in cash_rows.windows(2) {
            let (prev, cur) = (&pair[0], &pair[1]);
            assert!(cur.at <= s.now);
            let left_in_tubes = prev.tubes_minor - prev.ejected_minor + prev.refilled_coins_minor;
            let sold: i64 = events
                .iter()
                .filter(|e| e.at_utc() > prev.at && e.at_utc() <= cur.at)
                .filter_map(|e| match &e.kind {
                    EventKind::Vend(v) if v.class() == VendClass::Sale => Some(v),
                    _ => None,
                })
                .filter(|v| v.payment == Payment::Cash)
                .map(|v| v.revenue_minor())
                .sum();
            assert_eq!(
                cur.cash_box_minor + cur.bill_stacker_minor + cur.tubes_minor - left_in_tubes,
                sold,
                "{} bag {}",
                m.name,
                cur.bag_no
            );
        }
        // The encashment report finds no over or short on a machine whose every vend counts.
        if !p.audits {
            let params = vendfleet_app::reports::EncashmentParams {
                sales: vendfleet_app::sales::SalesParams {
                    machines: Some(m.id.clone()),
                    date_from: Some(recent(s.now).to_string()),
                    date_to: Some(latest_date_anywhere(s.now).to_string()),
                    ..Default::default()
                },
                ..Default::default()
            };
            let rows = s
                .app
                .reports
                .all_encashments(&s.admin, &params)
                .await
                .unwrap();
            assert_eq!(rows.len(), cash_rows.len(), "{}", m.name);
            let compared = rows.iter().filter(|r| r.expected_minor.is_some()).count();
            assert!(
                compared + 1 >= rows.len(),
                "{}: {compared} compared",
                m.name
            );
            for r in rows.iter().filter(|r| r.expected_minor.is_some()) {
                assert_eq!(
                    r.over_short_minor,
                    Some(0),
                    "{} bag {}",
                    m.name,
                    r.row.bag_no
                );
            }
            // The visit ledger's cash sales (its rollups read once a request, edge days once)
            // are the encashment report's, line for line; its variance is the bag's count.
            let visits = vendfleet_app::reports::VisitParams {
                sales: params.sales.clone(),
                ..Default::default()
            };
            let lines = s.app.reports.visit_lines(&s.admin, &visits).await.unwrap();
            assert_eq!(lines.len(), rows.len(), "{}", m.name);
            for (l, r) in lines.iter().zip(&rows) {
                assert_eq!(l.collection.id, r.row.id);
                assert_eq!(
                    l.cash_sales_minor, r.expected_minor,
                    "{} bag {}",
                    m.name, r.row.bag_no
                );
                let bag = r.row.collected_minor
                    - r.row.cash_box_minor
                    - r.row.bill_stacker_minor
                    - r.row.ejected_minor;
                assert_eq!(
                    l.variance_minor,
                    r.over_short_minor.map(|v| v + bag),
                    "{} bag {}",
                    m.name,
                    r.row.bag_no
                );
            }
        }
        let status = s.app.events.status(&m.id).await.unwrap().unwrap();
        assert!(status.last_updated.is_some_and(|t| t <= s.now));
        assert!(status.int("signal").is_some());
    }
    assert!(audit_machines > 0, "the fleet has a machine read by audits");
    assert!(audit_machines < machines.len());
    assert!(revenue < h.revenue_minor);
    let share = 1.0 - cash as f64 / revenue as f64;
    assert!((0.4..=0.7).contains(&share), "cashless share {share}");
}

#[test]
fn a_history_is_valid_wire_events_in_time_order_never_after_now_and_busy_enough() {
    let now: DateTime<Utc> = "2026-11-30T10:20:00Z".parse().unwrap();
    let opts = Options {
        machines: 200,
        days: 14,
        seed: 1,
    };
    let plan = catalogue::plan(&opts, now);
    let mut totals = Counts::default();
    let mut sold_out = 0;
    let mut office = (0.0, 0.0);
    for (l, m) in plan.machines() {
        let mut sim = catalogue::simulator(opts.seed, l, m, "refiller");
        let events = history::events(&mut sim, opts.days, now);
        assert!(events.windows(2).all(|w| w[0].at_utc() <= w[1].at_utc()));
        assert!(events.iter().all(|e| e.at_utc() <= now));
        let mut ids: Vec<&str> = events.iter().map(|e| e.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), events.len(), "ids are unique");
        if m.index < 20 {
            // What the webhook would accept, byte for byte.
            for chunk in events.chunks(MAX_EVENTS) {
                let body = serde_json::to_vec(&serde_json::json!({ "events": chunk })).unwrap();
                let batch = parse_batch(&body, now).unwrap();
                assert!(batch.rejected.is_empty(), "{:?}", batch.rejected);
                assert_eq!(batch.events.len(), chunk.len());
            }
        }
        sold_out += sim.slots.iter().filter(|s| s.current == 0).count();
        let c = Counts::of(&events);
        if l.site == sim::Site::Office {
            for e in &events {
                if let EventKind::Vend(_) = e.kind {
                    let local = e.at.date_naive();
                    let weekend = chrono::Datelike::weekday(&local).num_days_from_monday() >= 5;
                    if weekend {
                        office.1 += 1.0;
                    } else {
                        office.0 += 1.0;
                    }
                }
            }
        }
        totals.add(&c);
    }
    let per_day = totals.sales as f64 / (200.0 * 14.0);
    assert!(
        (25.0..=40.0).contains(&per_day),
        "{per_day} vends a machine a day"
    );
    assert!(totals.refills > 200 && totals.collections > 100 && totals.audits > 0);
    assert!(totals.free_vends > 0 && totals.test_vends > 0);
    assert!(sold_out > 0, "some selections run empty");
    // Offices: 10 weekdays against 4 weekend days, and weekends nearly empty.
    assert!(office.1 * 10.0 < office.0, "office weekends {office:?}");
}

#[tokio::test]
async fn seeding_works_around_local_midnight_and_on_new_years_day() {
    for at in [
        "2026-11-22T22:59:00Z",
        "2026-11-22T23:30:00Z",
        "2026-12-31T23:30:00Z",
        "2027-01-01T05:10:00Z",
    ] {
        let s = seeded(
            at,
            Options {
                machines: 2,
                days: 2,
                seed: 4,
            },
        )
        .await;
        let (from, to) = wide();
        for m in s.app.machines.machines().all().await.unwrap() {
            let ledger = s.app.sales.store().ledger(&m.id, from, to).await.unwrap();
            assert!(ledger.iter().all(|v| v.at <= s.now), "{at}");
            let status = s.app.events.status(&m.id).await.unwrap().unwrap();
            assert!(status.last_updated.is_some_and(|t| t <= s.now), "{at}");
            assert!(status.last_refill.is_some_and(|t| t <= s.now), "{at}");
        }
    }
}

#[tokio::test]
async fn last_months_settlement_file_is_imported_and_reconciles_with_a_few_mismatches() {
    let s = seeded(
        "2026-11-20T10:00:00Z",
        Options {
            machines: 12,
            days: 40,
            seed: 5,
        },
    )
    .await;
    let (name, rows) = &s.summary.settlement;
    assert_eq!(name, "nayax-2026-10.csv");
    // October from the 11th: about 20 days of each machine.
    assert!(*rows > 12 * 15, "{rows} rows");
    let machines = s.app.machines.machines().all().await.unwrap();
    assert!(machines.iter().all(|m| m.terminal_id.is_some()));
    let rec = s
        .app
        .settlements
        .reconcile(
            &s.admin,
            &vendfleet_app::sales::SalesParams {
                period: Some("custom".into()),
                date_from: Some("2026-10-01".into()),
                date_to: Some("2026-10-31".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let count = |k: &str| rec.totals.by_status.get(k).copied().unwrap_or(0);
    // Most machine-days match; the month's realistic mismatches are there too.
    assert!(
        count("matched") * 10 > rec.rows.len() * 9,
        "{:?}",
        rec.totals
    );
    assert_eq!(count("settled_no_sales"), 1, "{:?}", rec.totals);
    assert!(count("not_settled") >= 1, "{:?}", rec.totals);
    assert!(count("short") + count("over") >= 1, "{:?}", rec.totals);
    assert_eq!(
        rec.totals.gross_minor - rec.totals.sales_minor,
        rec.totals.difference_minor
    );
    let payouts: Vec<&str> = rec.payouts.iter().map(|p| p.reference.as_str()).collect();
    assert_eq!(payouts.len(), 5, "{payouts:?}");
    assert!(payouts.iter().all(|p| p.starts_with("NYX-202610-W")));
}
