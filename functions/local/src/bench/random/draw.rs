//! What a random query is: its kind, its user and scope, its span and the span before, and the catalogue it draws from.

use super::super::reports::Api;
use crate::error::BoxError;
use chrono::NaiveDate;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use vendfleet_app::auth::Principal;
use vendfleet_app::machines::Machine;

/// The scoped users: how many machines each may see.
pub(super) const SCOPES: [usize; 3] = [1, 50, 500];

/// A figure set as the API serves it: quantity, sales, sales excl. tax, cash, cashless.
pub(super) const FIGURES: [&str; 5] = [
    "quantity",
    "sales_minor",
    "sales_excl_tax_minor",
    "cash_minor",
    "cashless_minor",
];

/// What a query asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    TotalTable,
    DetailTable,
    LineChart,
    BarChart,
    TransactionCount,
    Dashboard,
}

impl Kind {
    /// The kinds with their weight in the draw (the dashboard takes no parameters).
    pub(super) const DRAW: [(Kind, u32); 6] = [
        (Kind::TotalTable, 4),
        (Kind::DetailTable, 4),
        (Kind::LineChart, 4),
        (Kind::BarChart, 4),
        (Kind::TransactionCount, 3),
        (Kind::Dashboard, 1),
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::TotalTable => "total table",
            Kind::DetailTable => "detail table",
            Kind::LineChart => "line chart",
            Kind::BarChart => "bar chart",
            Kind::TransactionCount => "transaction-log count",
            Kind::Dashboard => "dashboard",
        }
    }

    pub(super) fn path(self) -> &'static str {
        match self {
            Kind::TotalTable => "/api/sales-journal/total-table/",
            Kind::DetailTable => "/api/sales-journal/detail-table/",
            Kind::LineChart => "/api/sales-journal/graphs/line-chart/",
            Kind::BarChart => "/api/sales-journal/graphs/bar-chart/",
            Kind::TransactionCount => "/api/transaction-logs/",
            Kind::Dashboard => "/api/dashboard/",
        }
    }
}

/// A signed-in user of the bench and the machines it may see.
pub(super) struct Who {
    /// "admin", or the scope's table in DuckDB: `scope_N`.
    pub(super) label: String,
    pub(super) api: Api,
    /// `None`: every machine (the administrator).
    pub(super) scope: Option<Vec<String>>,
}

/// The fleet's catalogue as the reports see it now.
pub(super) struct Catalogue {
    pub(super) machines: Vec<Machine>,
    /// Location id → (client, region).
    pub(super) locations: BTreeMap<String, (Option<String>, String)>,
    pub(super) clients: Vec<String>,
    pub(super) regions: Vec<String>,
    pub(super) machine_tags: Vec<String>,
    pub(super) products: Vec<String>,
    pub(super) product_tags: Vec<String>,
    /// The names of the groups, by `group_by` key and id.
    pub(super) names: BTreeMap<&'static str, BTreeMap<String, String>>,
}

/// One drawn query: its parameters as sent, and what DuckDB needs to answer it.
pub(super) struct Drawn {
    pub(super) kind: Kind,
    pub(super) who: usize,
    /// The query string's pairs (values as sent, before encoding).
    pub(super) params: Vec<(&'static str, String)>,
    pub(super) from: NaiveDate,
    pub(super) to: NaiveDate,
    pub(super) group_by: &'static str,
    pub(super) grouping: &'static str,
    pub(super) value: &'static str,
    /// The machine and product filters: (parameter, ids).
    pub(super) filters: Vec<(&'static str, Vec<String>)>,
    pub(super) page: usize,
    pub(super) page_size: usize,
}

impl Drawn {
    pub(super) fn uri(&self) -> String {
        let query: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| {
                let ids: Vec<String> = v.split(',').map(encode).collect();
                format!("{k}={}", ids.join(","))
            })
            .collect();
        format!("{}?{}", self.kind.path(), query.join("&"))
    }

    pub(super) fn describe(&self, who: &[Who]) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!(
            "{} as {} [{} .. {}] {}",
            self.kind.name(),
            who[self.who].label,
            self.from,
            self.to,
            params.join("&")
        )
    }
}

/// The span `from..=to` is compared with: the app's rule (`comparison_span`: the calendar
/// period before, else the span before aligned by weekday), whose spans
/// `functions/http/tests/api/comparisons.rs` checks against dates written by hand. It always
/// ends before `from`, so a day of the query is current when `d >= from`.
pub(super) fn previous(from: NaiveDate, to: NaiveDate) -> (NaiveDate, NaiveDate) {
    vendfleet_domain::calendar::comparison_span(from, to)
}

impl Catalogue {
    pub(super) async fn load(
        app: &vendfleet_app::App,
        admin: &Principal,
    ) -> Result<Catalogue, BoxError> {
        let err = |e: vendfleet_app::AppError| e.to_string();
        let machines = app.machines.visible(admin).await.map_err(err)?;
        let locations = app.fleet.locations().all().await.map_err(err)?;
        let clients = app.fleet.clients().all().await.map_err(err)?;
        let machine_tags = app.machines.tags().all().await.map_err(err)?;
        let products = app.products.products().all().await.map_err(err)?;
        let product_tags = app.products.tags().all().await.map_err(err)?;
        let named = |v: Vec<(String, String)>| v.into_iter().collect::<BTreeMap<_, _>>();
        let names = BTreeMap::from([
            (
                "machine",
                named(
                    machines
                        .iter()
                        .map(|m| (m.id.clone(), m.name.clone()))
                        .collect(),
                ),
            ),
            (
                "location",
                named(
                    locations
                        .iter()
                        .map(|l| (l.id.clone(), l.name.clone()))
                        .collect(),
                ),
            ),
            (
                "client",
                named(
                    clients
                        .iter()
                        .map(|c| (c.id.clone(), c.name.clone()))
                        .collect(),
                ),
            ),
            (
                "product",
                named(
                    products
                        .iter()
                        .map(|p| (p.id.clone(), p.name.clone()))
                        .collect(),
                ),
            ),
            (
                "product_tag",
                named(
                    product_tags
                        .iter()
                        .map(|t| (t.id.clone(), t.name.clone()))
                        .collect(),
                ),
            ),
            (
                "machine_tag",
                named(
                    machine_tags
                        .iter()
                        .map(|t| (t.id.clone(), t.name.clone()))
                        .collect(),
                ),
            ),
        ]);
        let regions: BTreeSet<String> = locations
            .iter()
            .map(|l| l.region.clone())
            .filter(|r| !r.is_empty())
            .collect();
        Ok(Catalogue {
            locations: locations
                .iter()
                .map(|l| (l.id.clone(), (l.client_id.clone(), l.region.clone())))
                .collect(),
            clients: clients.into_iter().map(|c| c.id).collect(),
            regions: regions.into_iter().collect(),
            machine_tags: machine_tags.into_iter().map(|t| t.id).collect(),
            products: products.iter().map(|p| p.id.clone()).collect(),
            product_tags: product_tags.into_iter().map(|t| t.id).collect(),
            names,
            machines,
        })
    }

    /// The dimensions DuckDB joins the ledger with: each machine's current location, client,
    /// region and tags, each product's tags, and the names of the groups.
    pub(super) fn dims(&self, all_products: &[vendfleet_app::products::Product]) -> Value {
        let machines: Vec<Value> = self
            .machines
            .iter()
            .map(|m| {
                let at = m.location_id.as_ref().and_then(|l| self.locations.get(l));
                json!([
                    m.id,
                    m.location_id,
                    at.and_then(|a| a.0.clone()),
                    at.map(|a| a.1.clone()),
                    m.tag_ids
                ])
            })
            .collect();
        let products: Vec<Value> = all_products
            .iter()
            .map(|p| json!([p.id, p.tag_ids]))
            .collect();
        let names: Vec<Value> = self
            .names
            .iter()
            .flat_map(|(kind, names)| names.iter().map(move |(id, name)| json!([kind, id, name])))
            .collect();
        json!({"machines": machines, "products": products, "names": names})
    }

    /// A filter's ids: the first mostly that of the query's `anchor` machine (so that the
    /// filters of a query, and a scoped user's, often find something together), the others
    /// mostly of machines `who` sees, else any of the fleet's.
    pub(super) fn pick(
        &self,
        rng: &mut StdRng,
        kind: &str,
        anchor: Option<&Machine>,
        seen: &[&Machine],
    ) -> Vec<String> {
        let n = rng.random_range(1..=3);
        let mut out = BTreeSet::new();
        for _ in 0..n * 4 {
            if out.len() == n {
                break;
            }
            let m = if out.is_empty() && rng.random_bool(0.8) {
                anchor
            } else if rng.random_bool(0.7) {
                seen.choose(rng).copied()
            } else {
                self.machines.choose(rng)
            };
            let at = m
                .and_then(|m| m.location_id.as_ref())
                .and_then(|l| self.locations.get(l));
            let any = |v: &[String], rng: &mut StdRng| v.choose(rng).cloned();
            let id = match kind {
                "clients" => at
                    .and_then(|a| a.0.clone())
                    .or_else(|| any(&self.clients, rng)),
                "locations" => m.and_then(|m| m.location_id.clone()),
                "regions" => at
                    .map(|a| a.1.clone())
                    .filter(|r| !r.is_empty())
                    .or_else(|| any(&self.regions, rng)),
                "machine_tags" => m
                    .and_then(|m| m.tag_ids.choose(rng).cloned())
                    .or_else(|| any(&self.machine_tags, rng)),
                "machines" => m.map(|m| m.id.clone()),
                "products" => any(&self.products, rng),
                _ => any(&self.product_tags, rng),
            };
            out.extend(id);
        }
        out.into_iter().collect()
    }
}

/// Percent-encodes a query value (unreserved characters as they are).
pub(super) fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}
