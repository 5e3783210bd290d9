//! The sales overview's service: a query's machines, products and catalogue chosen, its figures
//! asked of the sources in turn (`service/sources.rs`), the report built; the engine's way in
//! (`service/engine.rs`), the packed fleet items (`service/packed.rs`), the ledger and commits
//! (`service/ledger.rs`) and the transaction log (`service/transactions.rs`).

use super::ask::{chosen_products, Ask, Catalogue, ChosenMachines};
use super::engine::Engine;
use super::model::{SalesReport, NO_GROUP};
use super::query::{SalesParams, SalesQuery};
use crate::auth::Principal;
use crate::fleet::{FleetService, Location};
use crate::machines::{Machine, MachinesService};
use crate::ports::SalesStore;
use crate::products::ProductsService;
use crate::records::{Shared, Touched};
use crate::{AppResult, Calendar};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use vendfleet_domain::calendar::comparison_span;
use vendfleet_domain::report::GroupBy;

mod engine;
mod ledger;
mod packed;
mod sources;
mod transactions;

pub use transactions::{Transaction, TransactionCursor};

/// The sales overview's figures.
#[derive(Clone)]
pub struct SalesService {
    sales: Arc<dyn SalesStore>,
    /// The figures by machine and day in memory, where this process is the store's only
    /// writer (`sales::engine`).
    engine: Option<Arc<Engine>>,
    machines: MachinesService,
    fleet: FleetService,
    products: ProductsService,
    calendar: Calendar,
    /// Marks the machines a commit's item writes touch (`records::touched`), where anyone
    /// reads the marks.
    touched: Option<Arc<Touched>>,
}

impl SalesService {
    pub fn new(
        sales: Arc<dyn SalesStore>,
        machines: MachinesService,
        fleet: FleetService,
        products: ProductsService,
        calendar: Calendar,
        touched: Option<Arc<Touched>>,
    ) -> Self {
        SalesService {
            touched,
            engine: sales.sole_writer().then(|| Arc::new(Engine::new())),
            sales,
            machines,
            fleet,
            products,
            calendar,
        }
    }

    /// The report of a query for the machines `p` may see, by group and period.
    pub async fn report(&self, p: &Principal, params: &SalesParams) -> AppResult<SalesReport> {
        self.build(p, params, true, true).await
    }

    /// The report by group and period of the span alone: its `previous` cube is empty (the
    /// detail table shows no comparison, so the span before is not summed).
    pub async fn current(&self, p: &Principal, params: &SalesParams) -> AppResult<SalesReport> {
        self.build_spans(p, params, true, true, false).await
    }

    /// The report by period only, without groups (the line chart): where the chosen machines
    /// are most of the fleet, drawn from the fleet's rollups less the machines left out.
    pub async fn series(&self, p: &Principal, params: &SalesParams) -> AppResult<SalesReport> {
        self.build(p, params, true, false).await
    }

    /// The report's totals only (one bucket, no groups), as [`SalesService::series`] draws them.
    pub async fn figures(&self, p: &Principal, params: &SalesParams) -> AppResult<SalesReport> {
        self.build(p, params, false, false).await
    }

    /// The report's totals and groups only: its one bucket is the span's first day, so whole
    /// months are read from month rollups whatever the grouping period (the total table, the
    /// bar chart and the dashboard need no periods).
    pub async fn totals(&self, p: &Principal, params: &SalesParams) -> AppResult<SalesReport> {
        self.build(p, params, false, true).await
    }

    async fn build(
        &self,
        p: &Principal,
        params: &SalesParams,
        by_period: bool,
        groups: bool,
    ) -> AppResult<SalesReport> {
        self.build_spans(p, params, by_period, groups, true).await
    }

    /// [`SalesService::build`], the span before summed only when `compared`.
    async fn build_spans(
        &self,
        p: &Principal,
        params: &SalesParams,
        by_period: bool,
        groups: bool,
        compared: bool,
    ) -> AppResult<SalesReport> {
        let query = params.check(self.calendar.today())?;
        let cat = self.catalogue(p, &query, groups).await?;
        let (previous_from, previous_to) = comparison_span(query.from, query.to);
        // Not compared: an empty span (no day from `query.from` to the day before).
        let before = match compared {
            true => (previous_from, previous_to),
            false => (query.from, query.from - chrono::Days::new(1)),
        };
        let (current, previous) = self
            .cubes(Ask {
                q: &query,
                cat: &cat,
                spans: [(query.from, query.to), before],
                by_period,
                groups,
            })
            .await?;
        let mut names = cat.names;
        if query.group_by == GroupBy::Product {
            // Only the products of the groups: a fleet's catalogue may hold many more.
            for key in current.groups.keys().chain(previous.groups.keys()) {
                if let Some(product) = cat.all_products.get(key) {
                    names.insert(key.clone(), product.name.clone());
                }
            }
        }
        Ok(SalesReport {
            query,
            current,
            previous_from,
            previous_to,
            previous,
            names,
        })
    }

    /// The machines `p` may see that the query's machine filters choose (by their current
    /// location, client, region and tags), and every location by id.
    pub async fn chosen_machines(
        &self,
        p: &Principal,
        q: &SalesQuery,
    ) -> AppResult<(Vec<Machine>, Arc<Shared<Location>>)> {
        let (machines, locations, _) = self.choose(p, q).await?;
        Ok((machines.iter().cloned().collect(), locations))
    }

    /// [`SalesService::chosen_machines`], and how many machines the fleet has.
    async fn choose(
        &self,
        p: &Principal,
        q: &SalesQuery,
    ) -> AppResult<(ChosenMachines, Arc<Shared<Location>>, usize)> {
        let locations = self.fleet.locations().all_shared().await?;
        let location = |m: &Machine| m.location_id.as_ref().and_then(|l| locations.get(l));
        // A filter's value is looked up only when the filter is set.
        fn any<'a>(set: &BTreeSet<String>, v: impl FnOnce() -> Option<&'a String>) -> bool {
            set.is_empty() || v().is_some_and(|v| set.contains(v))
        }
        let (visible, fleet_size) = self.machines.visible_shared(p).await?;
        let picked = (0u32..)
            .zip(visible.iter())
            .filter(|(_, m)| any(&q.machines, || Some(&m.id)))
            .filter(|(_, m)| any(&q.locations, || m.location_id.as_ref()))
            .filter(|(_, m)| {
                any(&q.clients, || {
                    location(m).and_then(|l| l.client_id.as_ref())
                })
            })
            .filter(|(_, m)| any(&q.regions, || location(m).map(|l| &l.region)))
            .filter(|(_, m)| {
                q.machine_tags.is_empty() || m.tag_ids.iter().any(|t| q.machine_tags.contains(t))
            })
            .map(|(i, _)| i)
            .collect();
        let machines = ChosenMachines { visible, picked };
        Ok((machines, locations, fleet_size))
    }

    /// The products the query's product and product-tag filters choose: `None` for every
    /// product.
    pub async fn chosen_products(&self, q: &SalesQuery) -> AppResult<Option<BTreeSet<String>>> {
        if q.product_tags.is_empty() {
            return Ok(chosen_products(q, &[]));
        }
        let all_products = self.products.products().all_shared().await?;
        Ok(chosen_products(q, &all_products))
    }

    /// The catalogue a query reads: its machines and products, and the names of its groups
    /// (only when `named`: an answer without groups names none).
    async fn catalogue(&self, p: &Principal, q: &SalesQuery, named: bool) -> AppResult<Catalogue> {
        let (machines, locations, fleet_size) = self.choose(p, q).await?;
        let all_products = self.products.products().all_shared().await?;
        let products = chosen_products(q, &all_products);
        let mut names = BTreeMap::from([(NO_GROUP.to_string(), "—".to_string())]);
        match q.group_by {
            _ if !named => {}
            GroupBy::Machine => {
                names.extend(machines.iter().map(|m| (m.id.clone(), m.name.clone())));
            }
            GroupBy::Location => {
                names.extend(locations.iter().map(|l| (l.id.clone(), l.name.clone())));
            }
            GroupBy::Client => {
                let clients = self.fleet.clients().all().await?;
                names.extend(clients.into_iter().map(|c| (c.id, c.name)));
            }
            GroupBy::Product => {}
            GroupBy::ProductTag => {
                let tags = self.products.tags().all().await?;
                names.extend(tags.into_iter().map(|t| (t.id, t.name)));
            }
            GroupBy::MachineTag => {
                let tags = self.machines.tags().all().await?;
                names.extend(tags.into_iter().map(|t| (t.id, t.name)));
            }
        }
        Ok(Catalogue {
            fleet_size,
            machines,
            all_products,
            locations,
            products,
            names,
        })
    }
}
