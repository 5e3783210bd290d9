//! The sales overview against a brute-force recomputation from the ledger: random periods,
//! groupings, values, filters and scopes over a small random fleet, on SQLite and DynamoDB;
//! time-zone edges; permissions and the machine scope on every endpoint.

use crate::common::{create, Backend, Harness, Seeded};
use axum::http::{Method, StatusCode};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use vendfleet_domain::calendar::{comparison_span, Period};
use vendfleet_domain::events::{MachineEvent, Payment, VendClass};
use vendfleet_domain::report::{Choice, GroupBy, Grouping, Value as Shown};
use vendfleet_domain::sales::{Figures, VendFact};

const SALES_PERMISSIONS: [&str; 5] = [
    "reports.transaction_log.list",
    "reports.sales_overview.graph",
    "reports.sales_overview.list",
    "reports.sales_overview.total_list",
    "reports.sales_overview.export",
];

/// What the test knows of a machine, to group and filter the ledger itself.
#[derive(Debug, Clone)]
struct MachineFacts {
    id: String,
    location: String,
    client: Option<String>,
    region: String,
    tags: Vec<String>,
}

#[derive(Clone)]
struct Fleet {
    admin: String,
    machines: Vec<MachineFacts>,
    /// Product id → its tags.
    products: BTreeMap<String, Vec<String>>,
    locations: Vec<String>,
    clients: Vec<String>,
    machine_tags: Vec<String>,
    product_tags: Vec<String>,
}

/// Two clients, three locations in Paris, Auckland and Los Angeles, five machines with tags,
/// four products (one untagged), and `vends` random vends a machine over the 70 days before now.
async fn fleet(h: &Harness, seed: u64, vends: usize) -> Fleet {
    let mut rng = StdRng::seed_from_u64(seed);
    let admin = h.admin().await;
    let clients = vec![
        create(h, &admin, "/api/clients/", json!({"name": "Acme"})).await,
        create(h, &admin, "/api/clients/", json!({"name": "Bolt"})).await,
    ];
    let places = [
        ("Gare", "Europe/Paris", Some(0), "North"),
        ("Quay", "Pacific/Auckland", Some(1), "South"),
        ("Pier", "America/Los_Angeles", None, "South"),
    ];
    let mut locations = Vec::new();
    for (name, zone, client, region) in places {
        let body = json!({"name": name, "time_zone": zone, "region": region,
                          "client_id": client.map(|c: usize| clients[c].clone())});
        locations.push(create(h, &admin, "/api/locations/", body).await);
    }
    let machine_tags = vec![
        create(h, &admin, "/api/machines/tags/", json!({"name": "Route A"})).await,
        create(h, &admin, "/api/machines/tags/", json!({"name": "Route B"})).await,
    ];
    let product_tags = vec![
        create(h, &admin, "/api/products/tags/", json!({"name": "Hot"})).await,
        create(h, &admin, "/api/products/tags/", json!({"name": "Promo"})).await,
    ];
    let mut products = BTreeMap::new();
    for (i, (vat, tags)) in [
        (1000, vec![0]),
        (550, vec![1]),
        (2200, vec![0, 1]),
        (0, vec![]),
    ]
    .into_iter()
    .enumerate()
    {
        let tags: Vec<String> = tags.iter().map(|t| product_tags[*t].clone()).collect();
        let body = json!({"name": format!("P{i}"), "price_minor": 100, "vat_bps": vat,
                          "units": "pcs", "tag_ids": tags});
        products.insert(create(h, &admin, "/api/products/", body).await, tags);
    }
    let product_ids: Vec<String> = products.keys().cloned().collect();
    let mut machines = Vec::new();
    for i in 0..5usize {
        let location = i % 3;
        let tags: Vec<String> = match i {
            0 => vec![machine_tags[0].clone()],
            1 => vec![machine_tags[0].clone(), machine_tags[1].clone()],
            3 => vec![machine_tags[1].clone()],
            _ => vec![],
        };
        let body = json!({"name": format!("M{i}"), "location_id": locations[location],
                          "tag_ids": tags});
        let id = create(h, &admin, "/api/machines/", body).await;
        for (j, p) in product_ids.iter().enumerate() {
            let body = json!({"machine_id": id, "selection": format!("S{j}"), "product_id": p,
                              "max": 1000, "price_minor": 100 + 10 * j as i64, "current": 500});
            let r = h.post("/api/machines/products/", &admin, body).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        }
        sell(h, &mut rng, &id, "v", vends).await;
        machines.push(MachineFacts {
            id,
            location: locations[location].clone(),
            client: places[location].2.map(|c| clients[c].clone()),
            region: places[location].3.into(),
            tags,
        });
    }
    Fleet {
        admin,
        machines,
        products,
        locations,
        clients,
        machine_tags,
        product_tags,
    }
}

/// `vends` random vends (some free, some test) of machine `id` over the last 70 days, with ids
/// `{prefix}0`, `{prefix}1` …, applied as intake applies them.
async fn sell(h: &Harness, rng: &mut StdRng, id: &str, prefix: &str, vends: usize) {
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    let events: Vec<MachineEvent> = (0..vends)
        .map(|k| {
            let at = now - Duration::seconds(rng.random_range(60..70 * 86_400));
            let mut v = json!({"id": format!("{prefix}{k}"), "type": "vend", "at": at.to_rfc3339(),
                    "selection": format!("S{}", rng.random_range(0..4)),
                    "price_minor": rng.random_range(5..40i64) * 10,
                    "quantity": rng.random_range(1..4u32),
                    "payment": if rng.random_bool(0.5) { "cash" } else { "cashless" }});
            match rng.random_range(0..12) {
                0 => v["free"] = json!(true),
                1 => v["test"] = json!(true),
                _ => {}
            }
            serde_json::from_value(v).unwrap()
        })
        .collect();
    for chunk in events.chunks(100) {
        h.app.events.apply(id, chunk).await.unwrap();
    }
}

/// One random query: its parameters, and the same as the test reads them.
#[derive(Debug, Clone)]
struct Q {
    from: NaiveDate,
    to: NaiveDate,
    group_by: GroupBy,
    grouping: Grouping,
    value: Shown,
    machines: BTreeSet<String>,
    locations: BTreeSet<String>,
    clients: BTreeSet<String>,
    regions: BTreeSet<String>,
    machine_tags: BTreeSet<String>,
    products: BTreeSet<String>,
    product_tags: BTreeSet<String>,
}

impl Q {
    /// Every machine and product of `from..=to`, by machine and day, in sales.
    fn whole(from: NaiveDate, to: NaiveDate) -> Q {
        Q {
            from,
            to,
            group_by: GroupBy::Machine,
            grouping: Grouping::Day,
            value: Shown::Sales,
            machines: BTreeSet::new(),
            locations: BTreeSet::new(),
            clients: BTreeSet::new(),
            regions: BTreeSet::new(),
            machine_tags: BTreeSet::new(),
            products: BTreeSet::new(),
            product_tags: BTreeSet::new(),
        }
    }

    fn query_string(&self) -> String {
        let list = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(",");
        let mut parts = vec![
            format!("date_from={}", self.from),
            format!("date_to={}", self.to),
            format!("group_by={}", self.group_by.key()),
            format!("grouping_period={}", self.grouping.key()),
            format!("value={}", self.value.key()),
        ];
        for (k, v) in [
            ("machines", &self.machines),
            ("locations", &self.locations),
            ("clients", &self.clients),
            ("regions", &self.regions),
            ("machine_tags", &self.machine_tags),
            ("products", &self.products),
            ("product_tags", &self.product_tags),
        ] {
            if !v.is_empty() {
                parts.push(format!("{k}={}", list(v)));
            }
        }
        parts.join("&")
    }
}

fn some<T: Clone + Ord>(rng: &mut StdRng, items: &[T], p: f64) -> BTreeSet<T> {
    if !rng.random_bool(p) {
        return BTreeSet::new();
    }
    items
        .iter()
        .filter(|_| rng.random_bool(0.5))
        .cloned()
        .collect()
}

fn random_query(rng: &mut StdRng, f: &Fleet, today: NaiveDate) -> Q {
    let from = today - Duration::days(rng.random_range(0..80));
    let to = (from + Duration::days(rng.random_range(0..75))).min(today);
    let machine_ids: Vec<String> = f.machines.iter().map(|m| m.id.clone()).collect();
    let product_ids: Vec<String> = f.products.keys().cloned().collect();
    Q {
        from,
        to,
        group_by: GroupBy::ALL[rng.random_range(0..GroupBy::ALL.len())],
        grouping: Grouping::ALL[rng.random_range(0..Grouping::ALL.len())],
        value: Shown::ALL[rng.random_range(0..Shown::ALL.len())],
        machines: some(rng, &machine_ids, 0.2),
        locations: some(rng, &f.locations, 0.15),
        clients: some(rng, &f.clients, 0.15),
        regions: some(rng, &["North".to_string(), "South".to_string()], 0.15),
        machine_tags: some(rng, &f.machine_tags, 0.15),
        products: some(rng, &product_ids, 0.2),
        product_tags: some(rng, &f.product_tags, 0.15),
    }
}

/// Each machine with its ledger.
type Ledgers = Vec<(MachineFacts, Vec<VendFact>)>;

/// The ledger of every machine (the fleet's sales lie in the 70 days before now; on DynamoDB a
/// ledger read costs a query a machine-day, so the range stays narrow).
async fn ledgers(h: &Harness, f: &Fleet) -> Ledgers {
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    let b = vendfleet_domain::calendar::latest_date_anywhere(now);
    let a = b - Duration::days(75);
    let mut out = Vec::new();
    for m in &f.machines {
        out.push((
            m.clone(),
            h.app.sales.store().ledger(&m.id, a, b).await.unwrap(),
        ));
    }
    out
}

/// What the report should say, from the ledger: totals, by group, by group and bucket, by bucket.
#[derive(Debug, Default, PartialEq)]
struct Brute {
    total: Figures,
    groups: BTreeMap<String, Figures>,
    cells: BTreeMap<(String, NaiveDate), Figures>,
    buckets: BTreeMap<NaiveDate, Figures>,
    /// The sales in the transaction log's order: newest local day first, then newest first,
    /// machine id, event id.
    sales: Vec<VendFact>,
}

fn brute(
    q: &Q,
    f: &Fleet,
    ledgers: &[(MachineFacts, Vec<VendFact>)],
    visible: &BTreeSet<String>,
    from: NaiveDate,
    to: NaiveDate,
) -> Brute {
    let mut out = Brute::default();
    let within = |set: &BTreeSet<String>, v: Option<&String>| {
        set.is_empty() || v.is_some_and(|v| set.contains(v))
    };
    for (m, ledger) in ledgers {
        let chosen = visible.contains(&m.id)
            && within(&q.machines, Some(&m.id))
            && within(&q.locations, Some(&m.location))
            && within(&q.clients, m.client.as_ref())
            && within(&q.regions, Some(&m.region))
            && (q.machine_tags.is_empty() || m.tags.iter().any(|t| q.machine_tags.contains(t)));
        if !chosen {
            continue;
        }
        for v in ledger {
            if v.local_date < from || v.local_date > to {
                continue;
            }
            let tags = &f.products[&v.product_id];
            let product_filter = !q.products.is_empty() || !q.product_tags.is_empty();
            if product_filter
                && !q.products.contains(&v.product_id)
                && !tags.iter().any(|t| q.product_tags.contains(t))
            {
                continue;
            }
            let fig = Figures::of(v);
            let or_none = |t: &[String]| {
                if t.is_empty() {
                    vec![String::new()]
                } else {
                    t.to_vec()
                }
            };
            let groups = match q.group_by {
                GroupBy::Machine => vec![m.id.clone()],
                GroupBy::Location => vec![m.location.clone()],
                GroupBy::Client => vec![m.client.clone().unwrap_or_default()],
                GroupBy::Product => vec![v.product_id.clone()],
                GroupBy::ProductTag => or_none(tags),
                GroupBy::MachineTag => or_none(&m.tags),
            };
            let bucket = q.grouping.bucket(v.local_date);
            if v.class == VendClass::Sale {
                out.sales.push(v.clone());
            }
            out.total.add(&fig);
            out.buckets.entry(bucket).or_default().add(&fig);
            for g in groups {
                out.groups.entry(g.clone()).or_default().add(&fig);
                out.cells.entry((g, bucket)).or_default().add(&fig);
            }
        }
    }
    out.sales.sort_by(|a, b| {
        (b.local_date, b.at)
            .cmp(&(a.local_date, a.at))
            .then_with(|| (&a.machine_id, &a.event_id).cmp(&(&b.machine_id, &b.event_id)))
    });
    out
}

fn figures_json(f: &Figures) -> Value {
    json!({"quantity": f.quantity, "sales_minor": f.sales_minor,
           "sales_excl_tax_minor": f.sales_excl_tax_minor, "cash_minor": f.cash_minor,
           "cashless_minor": f.cashless_minor})
}

/// Every sales endpoint of `q` answers what the ledger says, for a user who sees `visible`.
async fn check(
    h: &Harness,
    token: &str,
    q: &Q,
    f: &Fleet,
    ledgers: &[(MachineFacts, Vec<VendFact>)],
    visible: &BTreeSet<String>,
) {
    let (qs, want, before) = check_figures(h, token, q, f, ledgers, visible).await;
    check_transaction_log(h, token, &qs, &want, &before).await;
}

/// [`check`] of the `i`-th draw of a test: on DynamoDB, where the transaction log reads the
/// ledger a query a machine and day of the span, the log is walked for every other draw (the
/// figures for all); on SQLite for every draw.
async fn check_draw(
    (b, i): (Backend, usize),
    h: &Harness,
    token: &str,
    q: &Q,
    f: &Fleet,
    ledgers: &[(MachineFacts, Vec<VendFact>)],
    visible: &BTreeSet<String>,
) {
    if b == Backend::Sqlite || i % 2 == 1 {
        check(h, token, q, f, ledgers, visible).await;
    } else {
        check_figures(h, token, q, f, ledgers, visible).await;
    }
}

/// [`check`] but the transaction log: the totals, the detail table, its header and count, and
/// the charts. Answers the query string and the ledger's figures of the span and of the span
/// before.
async fn check_figures(
    h: &Harness,
    token: &str,
    q: &Q,
    f: &Fleet,
    ledgers: &[(MachineFacts, Vec<VendFact>)],
    visible: &BTreeSet<String>,
) -> (String, Brute, Brute) {
    let qs = q.query_string();
    let want = brute(q, f, ledgers, visible, q.from, q.to);
    let (pf, pt) = comparison_span(q.from, q.to);
    let before = brute(q, f, ledgers, visible, pf, pt);
    let value = |x: &Figures| q.value.of(x);

    let r = h
        .get(&format!("/api/sales-journal/total-table/?{qs}"), token)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{qs}: {}", r.json());
    let d = &r.json()["data"];
    assert_eq!(d["total"], figures_json(&want.total), "{qs}");
    assert_eq!(d["previous"], figures_json(&before.total), "{qs}");
    assert_eq!(d["previous_from"], json!(pf), "{qs}");
    let rows = d["rows"].as_array().unwrap();
    assert_eq!(rows.len(), want.groups.len(), "{qs}: {d}");
    for row in rows {
        let id = row["id"].as_str().unwrap();
        let mut fig = figures_json(&want.groups[id]);
        fig["id"] = row["id"].clone();
        fig["name"] = row["name"].clone();
        fig["previous"] = figures_json(&before.groups.get(id).copied().unwrap_or_default());
        assert_eq!(row, &fig, "{qs}");
    }
    let ranked: Vec<i64> = rows
        .iter()
        .map(|r| value(&want.groups[r["id"].as_str().unwrap()]))
        .collect();
    assert!(
        ranked.windows(2).all(|w| w[0] >= w[1]),
        "largest first: {ranked:?}"
    );

    let r = h
        .get(
            &format!("/api/sales-journal/detail-table/?{qs}&page_size=200"),
            token,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{qs}: {}", r.json());
    let body = r.json();
    assert_eq!(body["pagination"]["count"], want.groups.len(), "{qs}");
    let header = h
        .get(&format!("/api/table/header/?{qs}"), token)
        .await
        .json();
    let periods: Vec<String> = header["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "period")
        .map(|c| c["field"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        periods,
        q.grouping
            .buckets(q.from, q.to)
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
    );
    for row in body["data"].as_array().unwrap() {
        let id = row["id"].as_str().unwrap().to_string();
        assert_eq!(row["total"], value(&want.groups[&id]), "{qs}");
        for p in &periods {
            let day: NaiveDate = p.parse().unwrap();
            let cell = want.cells.get(&(id.clone(), day)).map_or(0, value);
            assert_eq!(row["values"][p], cell, "{qs} {id} {p}");
        }
    }
    let count = h
        .get(
            &format!("/api/sales-journal/detail-table/count/?{qs}"),
            token,
        )
        .await;
    assert_eq!(count.json()["data"]["count"], want.groups.len());

    let r = h
        .get(
            &format!("/api/sales-journal/graphs/line-chart/?{qs}"),
            token,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{qs}: {}", r.json());
    let d = &r.json()["data"];
    let line: Vec<i64> = q
        .grouping
        .buckets(q.from, q.to)
        .iter()
        .map(|b| want.buckets.get(b).map_or(0, value))
        .collect();
    assert_eq!(d["current"], json!(line), "{qs}");
    let previous: Vec<i64> = q
        .grouping
        .buckets(pf, pt)
        .iter()
        .map(|b| before.buckets.get(b).map_or(0, value))
        .collect();
    assert_eq!(d["previous"], json!(previous), "{qs}");

    let r = h
        .get(&format!("/api/sales-journal/graphs/bar-chart/?{qs}"), token)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{qs}: {}", r.json());
    let bars = r.json()["data"].as_array().unwrap().clone();
    assert_eq!(bars.len(), want.groups.len());
    for b in bars {
        let id = b["id"].as_str().unwrap();
        assert_eq!(b["current"], value(&want.groups[id]), "{qs}");
    }
    (qs, want, before)
}

/// The transaction log of the query: every sale in order over its pages, the exact count on
/// each, the totals beside the span before.
async fn check_transaction_log(h: &Harness, token: &str, qs: &str, want: &Brute, before: &Brute) {
    let expected: Vec<Value> = want
        .sales
        .iter()
        .map(|v| {
            json!({"id": format!("{}/{}", v.machine_id, v.event_id), "quantity": v.quantity,
                   "revenue_minor": v.revenue_minor, "local_date": v.local_date,
                   "payment": if v.payment == Payment::Cash { "cash" } else { "cashless" },
                   "product_id": v.product_id, "machine_id": v.machine_id})
        })
        .collect();
    // Pages of 13 on SQLite. On DynamoDB each page also reads the span's daily counts again
    // and the ledger of its first and last days by machine and day: there the walk takes the
    // log in at most three pages (of 13 at least), boundaries still inside days.
    let size = match h.dynamo {
        None => 13,
        Some(_) => expected.len().div_ceil(3).max(13),
    };
    let mut got = Vec::new();
    for page in 1..=expected.len().div_ceil(size) + 1 {
        let r = h
            .get(
                &format!("/api/transaction-logs/?{qs}&page={page}&page_size={size}"),
                token,
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{qs}: {}", r.json());
        let body = r.json();
        assert_eq!(body["pagination"]["count"], expected.len(), "{qs}");
        let rows = body["data"].as_array().unwrap();
        assert!(rows.len() <= size);
        got.extend(rows.iter().map(|t| {
            json!({"id": t["id"], "quantity": t["quantity"], "revenue_minor": t["revenue_minor"],
                   "local_date": t["local_date"], "payment": t["payment"],
                   "product_id": t["product_id"], "machine_id": t["machine_id"]})
        }));
    }
    assert_eq!(got, expected, "{qs}");
    let r = h
        .get(&format!("/api/transaction-logs/total-table/?{qs}"), token)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{qs}: {}", r.json());
    let d = &r.json()["data"];
    for (side, b) in [("total", want), ("previous", before)] {
        let mut fig = figures_json(&b.total);
        fig["transactions"] = json!(b.total.transactions);
        assert_eq!(d[side], fig, "{qs} {side}");
    }
    assert_eq!(d["total"]["transactions"], expected.len(), "{qs}");
}

/// The fleet of these tests (40 vends a machine) and its ledgers, seeded once on DynamoDB.
static FLEET_WITH_LEDGERS: Seeded<(Fleet, Ledgers)> = Seeded::new();

/// A harness with the fleet of these tests (40 vends a machine), its ledgers and its machines.
async fn fleet_with_ledgers(b: Backend) -> (Harness, Fleet, Ledgers, BTreeSet<String>) {
    let (h, (f, ledgers)) = FLEET_WITH_LEDGERS
        .harness(b, async |h| {
            let f = fleet(h, 11, 40).await;
            let ledgers = ledgers(h, &f).await;
            (f, ledgers)
        })
        .await;
    assert!(ledgers.iter().all(|(_, l)| l.len() == 40));
    let everyone: BTreeSet<String> = f.machines.iter().map(|m| m.id.clone()).collect();
    (h, f, ledgers, everyone)
}

/// `q` asking for `machines` by id, with no other filter.
fn only_machines(q: Q, machines: BTreeSet<String>) -> Q {
    Q {
        machines,
        locations: BTreeSet::new(),
        clients: BTreeSet::new(),
        regions: BTreeSet::new(),
        machine_tags: BTreeSet::new(),
        products: BTreeSet::new(),
        product_tags: BTreeSet::new(),
        ..q
    }
}

async fn reports_equal_the_ledger_recomputed(b: Backend) {
    let (h, f, ledgers, everyone) = fleet_with_ledgers(b).await;
    // As a server's start does: the engine and the transaction log's index built (on SQLite;
    // the other tests here read the log's pages from the store).
    h.app.sales.warm().await.unwrap();
    if b == Backend::Sqlite {
        assert!(h.app.sales.log_index_bytes().is_some_and(|n| n > 0));
    }
    let today = h.app.calendar.today();
    let mut rng = StdRng::seed_from_u64(5);
    // On DynamoDB the log is walked for the clients, machines, whole-fleet and machine-tag
    // draws (the other tests here walk it for theirs).
    for i in 0..8 {
        let q = random_query(&mut rng, &f, today);
        check_draw((b, i), &h, &f.admin, &q, &f, &ledgers, &everyone).await;
    }
}

/// Reports read, then more sales, then reports again: the figures follow every event (the
/// embedded store's in-memory columns take each commit's vends as it is stored).
async fn reports_follow_the_sales_after_the_first_report(b: Backend) {
    let (h, f, ledgers_before, everyone) = fleet_with_ledgers(b).await;
    // The log's index built before the sales below: they reach it through their commits.
    h.app.sales.warm().await.unwrap();
    let today = h.app.calendar.today();
    let mut rng = StdRng::seed_from_u64(8);
    for i in 0..2 {
        let q = random_query(&mut rng, &f, today);
        check_draw((b, i), &h, &f.admin, &q, &f, &ledgers_before, &everyone).await;
    }
    for m in &f.machines {
        sell(&h, &mut rng, &m.id, "w", 15).await;
    }
    let ledgers_after = ledgers(&h, &f).await;
    assert!(ledgers_after.iter().all(|(_, l)| l.len() == 55));
    for i in 0..4 {
        let q = random_query(&mut rng, &f, today);
        check_draw((b, i), &h, &f.admin, &q, &f, &ledgers_after, &everyone).await;
    }
}

/// Every machine but one, asked for by id: the line chart and totals draw on the fleet's
/// rollups less that machine's.
async fn the_fleet_less_one_machine_equals_the_ledger(b: Backend) {
    let (h, f, ledgers, everyone) = fleet_with_ledgers(b).await;
    let today = h.app.calendar.today();
    let mut rng = StdRng::seed_from_u64(6);
    let mut most = everyone.clone();
    most.pop_first().unwrap();
    for _ in 0..2 {
        let q = only_machines(random_query(&mut rng, &f, today), most.clone());
        check(&h, &f.admin, &q, &f, &ledgers, &everyone).await;
    }
}

/// A user scoped to one location and one machine tag sees their machines' figures only,
/// whatever they ask for; asking for a machine outside the scope by id gives nothing of it.
async fn a_scoped_user_sees_their_machines_figures_only(b: Backend) {
    let (h, f, ledgers, everyone) = fleet_with_ledgers(b).await;
    // The log's pages chosen by the index: only the scope's machines are merged.
    h.app.sales.warm().await.unwrap();
    let today = h.app.calendar.today();
    let mut rng = StdRng::seed_from_u64(7);
    let role = h.role(&f.admin, "Sales", &SALES_PERMISSIONS).await;
    let body = json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                      "role_id": role, "location_ids": [f.locations[1]],
                      "machine_tag_ids": [f.machine_tags[0]]});
    let r = h.post("/api/users/", &f.admin, body).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped = h.token("scoped@example.com", "password-123").await;
    let visible: BTreeSet<String> = f
        .machines
        .iter()
        .filter(|m| m.location == f.locations[1] || m.tags.contains(&f.machine_tags[0]))
        .map(|m| m.id.clone())
        .collect();
    assert!(!visible.is_empty() && visible.len() < everyone.len());
    for _ in 0..4 {
        let q = random_query(&mut rng, &f, today);
        check(&h, &scoped, &q, &f, &ledgers, &visible).await;
    }
    let outside = everyone.difference(&visible).next().unwrap().clone();
    let q = Q {
        machines: [outside.clone()].into(),
        group_by: GroupBy::Machine,
        ..random_query(&mut rng, &f, today)
    };
    let r = h
        .get(
            &format!("/api/sales-journal/total-table/?{}", q.query_string()),
            &scoped,
        )
        .await;
    assert_eq!(r.json()["data"]["total"]["quantity"], 0);
    assert_eq!(r.json()["data"]["rows"], json!([]));
}

/// A machine deleted with its sales: no report counts them any more, the fleet's included.
async fn a_deleted_machines_sales_leave_every_report(b: Backend) {
    let (h, f, ledgers, everyone) = fleet_with_ledgers(b).await;
    let today = h.app.calendar.today();
    let mut rng = StdRng::seed_from_u64(8);
    let mut most = everyone.clone();
    let gone = most.pop_first().unwrap();
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/{gone}/"),
            Some(&f.admin),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    for _ in 0..2 {
        let q = only_machines(random_query(&mut rng, &f, today), BTreeSet::new());
        check(&h, &f.admin, &q, &f, &ledgers, &most).await;
    }
}

async fn presets_bad_input_and_permissions(b: Backend) {
    let (h, f, _, _) = fleet_with_ledgers(b).await;
    let today = h.app.calendar.today();
    // A preset is the same as its dates.
    let (a, z) = Period::CurrentAndPreviousMonth.range(today).unwrap();
    let preset = h
        .get(
            "/api/sales-journal/total-table/?period=current_and_previous_month",
            &f.admin,
        )
        .await
        .json();
    let custom = h
        .get(
            &format!("/api/sales-journal/total-table/?date_from={a}&date_to={z}"),
            &f.admin,
        )
        .await
        .json();
    assert_eq!(preset, custom);
    assert_eq!(preset["data"]["date_from"], json!(a));
    // Bad input: 400 naming the field.
    for (qs, field) in [
        ("group_by=colour", "group_by"),
        ("value=profit", "value"),
        ("grouping_period=hour", "grouping_period"),
        ("period=someday", "period"),
        ("date_from=2026-13-01&date_to=2026-12-01", "date_from"),
        ("date_from=2026-05-02&date_to=2026-05-01", "date_to"),
        ("date_from=2020-01-01&date_to=2026-01-01", "date_to"),
        ("period=custom&date_from=2026-01-01", "date_to"),
    ] {
        for path in [
            "sales-journal/total-table",
            "sales-journal/detail-table",
            "table/header",
        ] {
            let r = h.get(&format!("/api/{path}/?{qs}"), &f.admin).await;
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}?{qs}");
            assert!(
                r.json()["errors"][field].is_array(),
                "{path}?{qs}: {}",
                r.json()
            );
        }
    }
    // Each endpoint needs its permission (or the full access); without, 403.
    let endpoints = [
        ("sales-journal/graphs/line-chart", "graph"),
        ("sales-journal/graphs/bar-chart", "graph"),
        ("sales-journal/detail-table", "list"),
        ("sales-journal/detail-table/count", "list"),
        ("table/header", "list"),
        ("sales-journal/total-table", "total_list"),
        ("sales-journal/detail-table/export", "export"),
    ];
    let mut tokens = BTreeMap::new();
    for (i, perm) in ["graph", "list", "total_list", "export", "full_access"]
        .iter()
        .enumerate()
    {
        let key = format!("reports.sales_overview.{perm}");
        let role = h.role(&f.admin, &format!("R{i}"), &[key.as_str()]).await;
        let email = format!("u{i}@example.com");
        let body = json!({"name": "U", "email": email, "password": "password-123",
                          "role_id": role, "access_all_machines": true});
        assert_eq!(
            h.post("/api/users/", &f.admin, body).await.status,
            StatusCode::CREATED
        );
        tokens.insert(*perm, h.token(&email, "password-123").await);
    }
    let none = h.role(&f.admin, "None", &["settings.machines.list"]).await;
    h.user(&f.admin, "none@example.com", Some(&none)).await;
    tokens.insert("none", h.token("none@example.com", "password-123").await);
    for (path, needs) in endpoints {
        for (who, token) in &tokens {
            let r = h
                .get(&format!("/api/{path}/?period=current_month"), token)
                .await;
            let allowed = *who == needs || *who == "full_access";
            assert_eq!(
                r.status == StatusCode::OK,
                allowed,
                "{who} on {path}: {}",
                r.status
            );
            if !allowed {
                assert_eq!(r.status, StatusCode::FORBIDDEN, "{who} on {path}");
            }
        }
        assert_eq!(
            h.get(&format!("/api/{path}/"), "").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    // The export carries the detail table's numbers.
    let r = h
        .get(
            "/api/sales-journal/detail-table/export/?period=current_and_previous_month&value=quantity&format=csv",
            &tokens["export"],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let csv = String::from_utf8(r.bytes.clone()).unwrap();
    let table = h
        .get(
            "/api/sales-journal/detail-table/?period=current_and_previous_month&value=quantity&page_size=200",
            &f.admin,
        )
        .await
        .json();
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(
        lines.len(),
        1 + table["data"].as_array().unwrap().len(),
        "{csv}"
    );
    for (line, row) in lines[1..].iter().zip(table["data"].as_array().unwrap()) {
        let total = line.rsplit([',', ';']).next().unwrap();
        assert_eq!(total, row["total"].to_string(), "{line}");
    }
}

async fn transaction_log_permissions_export_and_bad_input(b: Backend) {
    let (h, f, ledgers, _) = fleet_with_ledgers(b).await;
    // The last day with sales: the permissions and the XLSX are asked of it alone (an export
    // reads the ledger of each machine and day it spans; on DynamoDB a query each).
    let day = ledgers
        .iter()
        .flat_map(|(_, l)| l)
        .filter(|v| v.class == VendClass::Sale)
        .map(|v| v.local_date)
        .max()
        .unwrap();
    let one_day = format!("date_from={day}&date_to={day}");
    let long_id = format!("machines={}", "x".repeat(300));
    for (qs, field, paths) in [
        ("page=0", "page", &[""][..]),
        ("page_size=500", "page_size", &[""][..]),
        (
            "date_from=2026-02-30&date_to=2026-03-01",
            "date_from",
            &["", "total-table/", "export/"][..],
        ),
        (
            long_id.as_str(),
            "machines",
            &["", "total-table/", "export/"][..],
        ),
    ] {
        for path in paths {
            let r = h
                .get(&format!("/api/transaction-logs/{path}?{qs}"), &f.admin)
                .await;
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}?{qs}");
            assert!(
                r.json()["errors"][field].is_array(),
                "{path}?{qs}: {}",
                r.json()
            );
        }
    }
    let mut tokens = BTreeMap::new();
    for (i, perm) in [
        "transaction_log.list",
        "transaction_log.export",
        "transaction_log.full_access",
        "sales_overview.full_access",
    ]
    .iter()
    .enumerate()
    {
        let key = format!("reports.{perm}");
        let role = h.role(&f.admin, &format!("T{i}"), &[key.as_str()]).await;
        let email = format!("t{i}@example.com");
        let body = json!({"name": "T", "email": email, "password": "password-123",
                          "role_id": role, "access_all_machines": true});
        assert_eq!(
            h.post("/api/users/", &f.admin, body).await.status,
            StatusCode::CREATED
        );
        tokens.insert(*perm, h.token(&email, "password-123").await);
    }
    for (path, needs) in [
        ("", "transaction_log.list"),
        ("total-table/", "transaction_log.list"),
        ("export/", "transaction_log.export"),
    ] {
        for (who, token) in &tokens {
            let r = h
                .get(&format!("/api/transaction-logs/{path}?{one_day}"), token)
                .await;
            let allowed = *who == needs || *who == "transaction_log.full_access";
            let want = if allowed {
                StatusCode::OK
            } else {
                StatusCode::FORBIDDEN
            };
            assert_eq!(r.status, want, "{who} on {path}");
        }
        assert_eq!(
            h.get(&format!("/api/transaction-logs/{path}"), "")
                .await
                .status,
            StatusCode::UNAUTHORIZED
        );
    }
    // The export holds every row of the log, in its order, with the same quantities.
    let qs = "period=current_and_previous_month";
    let count = h
        .get(
            &format!("/api/transaction-logs/?{qs}&page_size=1"),
            &f.admin,
        )
        .await
        .json()["pagination"]["count"]
        .as_u64()
        .unwrap() as usize;
    assert!(count > 0);
    let mut rows = Vec::new();
    for page in 1..=count.div_ceil(200) {
        let r = h
            .get(
                &format!("/api/transaction-logs/?{qs}&page={page}&page_size=200"),
                &f.admin,
            )
            .await;
        rows.extend(r.json()["data"].as_array().unwrap().clone());
    }
    let r = h
        .get(
            &format!("/api/transaction-logs/export/?{qs}&format=csv"),
            &tokens["transaction_log.export"],
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let csv = String::from_utf8(r.bytes.clone()).unwrap();
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(lines.len(), 1 + count, "{csv}");
    for (line, row) in lines[1..].iter().zip(&rows) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[5], row["quantity"].to_string(), "{line}");
        assert_eq!(cells[1], row["machine"].as_str().unwrap(), "{line}");
    }
    let r = h
        .get(
            &format!("/api/transaction-logs/export/?{one_day}&format=xlsx"),
            &f.admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.bytes.starts_with(b"PK"), "an XLSX is a zip");
    // A user scoped to one location exports and lists only its machines' sales, whatever
    // machines it names.
    let role = h
        .role(
            &f.admin,
            "Scoped log",
            &["reports.transaction_log.full_access"],
        )
        .await;
    let body = json!({"name": "S", "email": "scoped-log@example.com", "password": "password-123",
                      "role_id": role, "location_ids": [f.locations[0]]});
    assert_eq!(
        h.post("/api/users/", &f.admin, body).await.status,
        StatusCode::CREATED
    );
    let scoped = h.token("scoped-log@example.com", "password-123").await;
    let all: Vec<&str> = f.machines.iter().map(|m| m.id.as_str()).collect();
    let qs = format!("{qs}&machines={}", all.join(","));
    let mine: BTreeSet<&str> = f
        .machines
        .iter()
        .filter(|m| m.location == f.locations[0])
        .map(|m| m.id.as_str())
        .collect();
    let list = h
        .get(
            &format!("/api/transaction-logs/?{qs}&page_size=200"),
            &scoped,
        )
        .await
        .json();
    let count = list["pagination"]["count"].as_u64().unwrap() as usize;
    assert!(count > 0 && count < rows.len(), "{count} of {}", rows.len());
    for t in list["data"].as_array().unwrap() {
        assert!(mine.contains(t["machine_id"].as_str().unwrap()), "{t}");
    }
    let csv = h
        .get(
            &format!("/api/transaction-logs/export/?{qs}&format=csv"),
            &scoped,
        )
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let csv = String::from_utf8(csv.bytes).unwrap();
    assert_eq!(
        csv.trim_start_matches('\u{feff}').lines().count(),
        1 + count
    );
}

/// One vend at `at` on machine `m` (selection S0).
fn vend(id: &str, at: DateTime<Utc>) -> MachineEvent {
    serde_json::from_value(json!({"id": id, "type": "vend", "at": at.to_rfc3339(),
        "selection": "S0", "price_minor": 250, "quantity": 1, "payment": "cash"}))
    .unwrap()
}

async fn local_days_months_and_daylight_saving(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h, 9, 0).await;
    // Machine 1 stands in Auckland: 23:30 local on 31 October 2026 (NZDT, UTC+13) is
    // 10:30 UTC that day; it belongs to October. 00:30 local on 1 November belongs to November.
    let auckland = &f.machines[1].id;
    let events = vec![
        vend("oct-last", "2026-10-31T10:30:00Z".parse().unwrap()),
        vend("nov-first", "2026-10-31T11:30:00Z".parse().unwrap()),
    ];
    h.app.events.apply(auckland, &events).await.unwrap();
    // Machine 0 stands in Paris: on 25 October 2026 the clocks go back (25 hours). 00:30 and
    // 23:30 local that day are 22:30 UTC the day before and 22:30 UTC that day.
    let paris = &f.machines[0].id;
    let events = vec![
        vend("dst-early", "2026-10-24T22:30:00Z".parse().unwrap()),
        vend("dst-late", "2026-10-25T22:30:00Z".parse().unwrap()),
        vend("dst-next", "2026-10-25T23:30:00Z".parse().unwrap()),
    ];
    h.app.events.apply(paris, &events).await.unwrap();
    let get = |qs: String| {
        let h = &h;
        let admin = f.admin.clone();
        async move {
            let r = h
                .get(
                    &format!("/api/sales-journal/graphs/line-chart/?{qs}"),
                    &admin,
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
            r.json()["data"].clone()
        }
    };
    let months = get(format!(
        "date_from=2026-10-01&date_to=2026-11-30&grouping_period=month&value=quantity&machines={auckland}"
    ))
    .await;
    assert_eq!(months["current"], json!([1, 1]), "{months}");
    let days = get(format!(
        "date_from=2026-10-24&date_to=2026-10-26&value=quantity&machines={paris}"
    ))
    .await;
    assert_eq!(days["current"], json!([0, 2, 1]), "{days}");
    // The same days a week later have nothing; they are compared with these days (the same
    // weekdays a week before, across the change of time).
    let later = get(format!(
        "date_from=2026-10-31&date_to=2026-11-02&value=quantity&machines={paris}"
    ))
    .await;
    assert_eq!(later["current"], json!([0, 0, 0]));
    assert_eq!(later["previous"], json!([0, 2, 1]));
    assert_eq!(later["previous_dates"][0], "2026-10-24");
    // Week buckets start on Monday.
    let weeks = get(format!(
        "date_from=2026-10-24&date_to=2026-10-26&grouping_period=week&value=quantity&machines={paris}"
    ))
    .await;
    assert_eq!(weeks["dates"], json!(["2026-10-19", "2026-10-26"]));
    assert_eq!(weeks["current"], json!([2, 1]));
}

async fn the_dashboard_agrees_with_the_reports_and_the_scope(b: Backend) {
    // The ledgers stay as seeded: stock and telemetry below write no vend.
    let (h, f, ledgers, _) = fleet_with_ledgers(b).await;
    // Machine 2 runs out of S0 and reports a full cash box.
    let m2 = &f.machines[2].id;
    let r = h
        .put(
            &format!("/api/machines/{m2}/products/S0/stock/"),
            &f.admin,
            json!({"current": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    let telemetry: MachineEvent = serde_json::from_value(json!({"id": "t1", "type": "telemetry",
        "at": (now - Duration::minutes(5)).to_rfc3339(), "cash_box_minor": 25_000}))
    .unwrap();
    h.app.events.apply(m2, &[telemetry]).await.unwrap();
    let d = h.get("/api/dashboard/", &f.admin).await;
    assert_eq!(d.status, StatusCode::OK, "{}", d.json());
    let d = d.json()["data"].clone();
    let month = h
        .get(
            "/api/sales-journal/total-table/?period=current_month&group_by=product",
            &f.admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(d["month"]["figures"], month["total"]);
    assert_eq!(d["month"]["previous"], month["previous"]);
    let top: Vec<&Value> = month["rows"].as_array().unwrap().iter().take(5).collect();
    assert_eq!(d["top_products"].as_array().unwrap().len(), top.len());
    for (got, want) in d["top_products"].as_array().unwrap().iter().zip(top) {
        assert_eq!(got["id"], want["id"]);
        assert_eq!(got["sales_minor"], want["sales_minor"]);
    }
    let today = h.app.calendar.today();
    let day = h
        .get(
            &format!("/api/sales-journal/total-table/?date_from={today}&date_to={today}"),
            &f.admin,
        )
        .await
        .json()["data"]
        .clone();
    assert_eq!(d["today"]["figures"], day["total"]);
    let attention = d["attention"].as_array().unwrap();
    let reasons = |id: &str| -> Vec<String> {
        attention
            .iter()
            .find(|a| a["machine_id"] == id)
            .map(|a| {
                a["findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["reason"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        reasons(m2),
        vec!["sold_out", "cash_box_full"],
        "{attention:?}"
    );
    // A refiller scoped to machine 0's location sees only its machines, and no sales figures
    // without a sales permission.
    let role = h.role(&f.admin, "Crew", &["settings.machines.list"]).await;
    let body = json!({"name": "Crew", "email": "crew@example.com", "password": "password-123",
                      "role_id": role, "location_ids": [f.locations[0]]});
    assert_eq!(
        h.post("/api/users/", &f.admin, body).await.status,
        StatusCode::CREATED
    );
    let crew = h.token("crew@example.com", "password-123").await;
    let d = h.get("/api/dashboard/", &crew).await.json()["data"].clone();
    assert_eq!(d["today"], Value::Null);
    assert_eq!(d["top_machines"], Value::Null);
    let mine: BTreeSet<&str> = f
        .machines
        .iter()
        .filter(|m| m.location == f.locations[0])
        .map(|m| m.id.as_str())
        .collect();
    for a in d["attention"].as_array().unwrap() {
        assert!(mine.contains(a["machine_id"].as_str().unwrap()), "{a}");
    }
    // With the sales permission too, the figures are those of their machines only.
    let role = h
        .role(
            &f.admin,
            "Crew+",
            &["settings.machines.list", "reports.sales_overview.graph"],
        )
        .await;
    let body = json!({"name": "Crew2", "email": "crew2@example.com", "password": "password-123",
                      "role_id": role, "location_ids": [f.locations[0]]});
    assert_eq!(
        h.post("/api/users/", &f.admin, body).await.status,
        StatusCode::CREATED
    );
    let crew2 = h.token("crew2@example.com", "password-123").await;
    let d = h.get("/api/dashboard/", &crew2).await.json()["data"].clone();
    let q = Q::whole(
        d["month"]["date_from"].as_str().unwrap().parse().unwrap(),
        d["month"]["date_to"].as_str().unwrap().parse().unwrap(),
    );
    let visible: BTreeSet<String> = mine.iter().map(|s| s.to_string()).collect();
    let want = brute(&q, &f, &ledgers, &visible, q.from, q.to);
    assert_eq!(d["month"]["figures"], figures_json(&want.total));
    for m in d["top_machines"].as_array().unwrap() {
        assert!(mine.contains(m["id"].as_str().unwrap()));
    }
    // Nobody signed out sees it.
    assert_eq!(
        h.get("/api/dashboard/", "").await.status,
        StatusCode::UNAUTHORIZED
    );
}

/// Two users scoped to different locations each get their own machines' figures, again on the
/// next request (the visible machines are worked out once per scope and catalogue), and a
/// machine moved from one location to the other moves its sales at once.
async fn scoped_figures_follow_the_catalogue_at_once(b: Backend) {
    // The ledgers stay as seeded: a machine moved keeps its vends.
    let (h, f, ledgers, _) = fleet_with_ledgers(b).await;
    let role = h
        .role(&f.admin, "Sales", &["reports.sales_overview.total_list"])
        .await;
    let mut tokens = Vec::new();
    for (email, at) in [("a@example.com", 0usize), ("b@example.com", 1)] {
        let body = json!({"name": email, "email": email, "password": "password-123",
                          "role_id": role, "location_ids": [f.locations[at]]});
        let r = h.post("/api/users/", &f.admin, body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
        tokens.push(h.token(email, "password-123").await);
    }
    let today = h.app.calendar.today();
    let from = today - Duration::days(80);
    let q = Q::whole(from, today);
    let path = format!("/api/sales-journal/total-table/?date_from={from}&date_to={today}");
    let at = |loc: usize| -> BTreeSet<String> {
        f.machines
            .iter()
            .filter(|m| m.location == f.locations[loc])
            .map(|m| m.id.clone())
            .collect()
    };
    let check = async |token: &str, visible: &BTreeSet<String>, when: &str| {
        let want = brute(&q, &f, &ledgers, visible, q.from, q.to);
        for _ in 0..2 {
            let got = h.get(&path, token).await.json()["data"].clone();
            assert_eq!(got["total"], figures_json(&want.total), "{when}");
            let ids: BTreeSet<String> = got["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string())
                .collect();
            assert!(ids.is_subset(visible), "{when}: {ids:?}");
        }
    };
    let (mut a, mut b) = (at(0), at(1));
    assert!(!a.is_empty() && b.len() >= 2);
    check(&tokens[0], &a, "before, location 0").await;
    check(&tokens[1], &b, "before, location 1").await;

    let moved = b.pop_first().unwrap();
    let name = format!(
        "M{}",
        f.machines.iter().position(|m| m.id == moved).unwrap()
    );
    let r = h
        .put(
            &format!("/api/machines/{moved}/settings/"),
            &f.admin,
            json!({"name": name, "location_id": f.locations[0]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    a.insert(moved);
    check(&tokens[0], &a, "after the move, location 0").await;
    check(&tokens[1], &b, "after the move, location 1").await;
}

/// The attention list follows stock and machine events written after it was first shown
/// (on SQLite each machine's facts are kept in memory, read again once the machine is written).
async fn the_attention_list_follows_what_is_written_after_it(b: Backend) {
    let (h, f, _, _) = fleet_with_ledgers(b).await;
    let m2 = f.machines[2].id.clone();
    let reasons = |d: Value| -> Vec<String> {
        d["data"]["attention"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["machine_id"] == m2.as_str())
            .map(|a| {
                let found = a["findings"].as_array().unwrap().iter();
                found
                    .map(|f| f["reason"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert!(
        !reasons(h.get("/api/dashboard/", &f.admin).await.json()).contains(&"sold_out".to_string())
    );
    // A stock write (the item store).
    let r = h
        .put(
            &format!("/api/machines/{m2}/products/S0/stock/"),
            &f.admin,
            json!({"current": 0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert!(
        reasons(h.get("/api/dashboard/", &f.admin).await.json()).contains(&"sold_out".to_string())
    );
    // Machine events (the sales commits' item writes): the cash box fills, then is emptied.
    let now = vendfleet_app::ports::Clock::now(h.clock.as_ref());
    let telemetry = |id: &str, cash: i64, ago: i64| -> MachineEvent {
        serde_json::from_value(json!({"id": id, "type": "telemetry",
            "at": (now - Duration::minutes(ago)).to_rfc3339(), "cash_box_minor": cash}))
        .unwrap()
    };
    h.app
        .events
        .apply(&m2, &[telemetry("t1", 25_000, 5)])
        .await
        .unwrap();
    let now_shown = reasons(h.get("/api/dashboard/", &f.admin).await.json());
    assert_eq!(now_shown, vec!["sold_out", "cash_box_full"]);
    h.app
        .events
        .apply(&m2, &[telemetry("t2", 0, 1)])
        .await
        .unwrap();
    assert_eq!(
        reasons(h.get("/api/dashboard/", &f.admin).await.json()),
        vec!["sold_out"]
    );
}

on_both_stores!(
    scoped_figures_follow_the_catalogue_at_once,
    the_dashboard_agrees_with_the_reports_and_the_scope,
    the_attention_list_follows_what_is_written_after_it,
    transaction_log_permissions_export_and_bad_input,
    reports_equal_the_ledger_recomputed,
    reports_follow_the_sales_after_the_first_report,
    the_fleet_less_one_machine_equals_the_ledger,
    a_scoped_user_sees_their_machines_figures_only,
    a_deleted_machines_sales_leave_every_report,
    presets_bad_input_and_permissions,
    local_days_months_and_daylight_saving
);
