//! Sales area: the sales overview's figures, drawn from the sales store's rollups (never the
//! ledger), for the machines the user may see.
//!
//! A sale is counted where its machine stands now: grouping or filtering by location, client,
//! region or machine tag uses the machine's current location and tags (as the machine scope
//! does), so a scoped user's figures are exactly those of their machines.

use crate::auth::Principal;
use crate::fleet::{FleetService, Location};
use crate::listing::{page_of, paging, ListPage, ListParams, Paging};
use crate::machines::{Machine, MachinesService};
use crate::ports::{Grain, RollupQuery, RollupRow, SalesStore};
use crate::products::{Product, ProductsService};
use crate::records::{Shared, Touched};
use crate::{AppResult, Calendar};
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::calendar::comparison_span;
use vendfleet_domain::report::{Cube, GroupBy, Grouping};
use vendfleet_domain::sales::split_range;
use vendfleet_domain::FieldErrors;

mod cells;
mod engine;
mod from_engine;
mod hours;
mod ledger;
mod levels;
mod log;
mod packed;
mod query;
mod slots;
mod transactions;
pub use query::{SalesFilters, SalesParams, SalesQuery, FILTER_KEYS};
pub use transactions::{Transaction, TransactionCursor};

/// The longest span a sales query covers, in days (about three years).
pub const MAX_SPAN_DAYS: i64 = 1100;

/// The key and name of the group of sales that have none (no location, no tag …).
pub const NO_GROUP: &str = "";

/// A sales report: the chosen span and the one it is compared with (`comparison_span`).
#[derive(Debug, Clone)]
pub struct SalesReport {
    pub query: SalesQuery,
    pub current: Cube,
    /// What the span is compared with: `comparison_span(from, to)`.
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
    pub previous: Cube,
    /// The name of every group key of either cube (the empty key: no such group).
    pub names: BTreeMap<String, String>,
}

impl SalesReport {
    /// Group keys by the chosen value over the span, largest first, then by name.
    pub fn ranked_groups(&self) -> Vec<&String> {
        let value = self.query.value;
        let mut keys: Vec<(i64, &str, &String)> = self
            .current
            .groups
            .iter()
            .map(|(k, f)| (value.of(f), self.name(k), k))
            .collect();
        keys.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        keys.into_iter().map(|(_, _, k)| k).collect()
    }

    /// The name of a group key.
    pub fn name<'a>(&'a self, key: &'a str) -> &'a str {
        self.names.get(key).map_or(key, String::as_str)
    }
}

/// One row of the detail table: a group's value in each bucket of the span, and in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailRow {
    pub key: String,
    pub name: String,
    /// The value in each bucket of [`SalesReport::buckets`], in order.
    pub values: Vec<i64>,
    pub total: i64,
}

impl SalesReport {
    /// The first days of the buckets of the span, in order.
    pub fn buckets(&self) -> Vec<NaiveDate> {
        self.query.grouping.buckets(self.query.from, self.query.to)
    }

    /// Every detail row: searched by name, ordered by `name` or `total` (default: `-total`).
    pub fn detail_rows(&self, list: &ListParams) -> AppResult<(Vec<DetailRow>, Paging)> {
        let (mut rows, pg) = self.detail_order(list)?;
        self.fill_values(&mut rows);
        Ok((rows, pg))
    }

    /// A page of the detail table (the values by bucket found for its rows only).
    pub fn detail(&self, list: &ListParams) -> AppResult<ListPage<DetailRow>> {
        let (rows, pg) = self.detail_order(list)?;
        let mut page = page_of(rows, &pg);
        self.fill_values(&mut page.items);
        Ok(page)
    }

    /// The detail rows without their values by bucket, searched and ordered.
    fn detail_order(&self, list: &ListParams) -> AppResult<(Vec<DetailRow>, Paging)> {
        let mut errors = FieldErrors::new();
        let pg = paging(list, &["name", "total"], &mut errors);
        errors.into_result()?;
        let value = self.query.value;
        let mut rows: Vec<DetailRow> = self
            .current
            .groups
            .iter()
            .map(|(key, f)| DetailRow {
                key: key.clone(),
                name: self.name(key).to_string(),
                values: Vec::new(),
                total: value.of(f),
            })
            .filter(|r| pg.search.is_empty() || r.name.to_lowercase().contains(&pg.search))
            .collect();
        let (field, desc) = pg.ordering.clone().unwrap_or(("total".into(), true));
        rows.sort_by(|a, b| {
            let o = if field == "name" {
                a.name.to_lowercase().cmp(&b.name.to_lowercase())
            } else {
                a.total.cmp(&b.total)
            };
            let o = if desc { o.reverse() } else { o };
            o.then_with(|| a.key.cmp(&b.key))
        });
        Ok((rows, pg))
    }

    /// Each row's value in each bucket, in order (zero where the group sold nothing).
    fn fill_values(&self, rows: &mut [DetailRow]) {
        let value = self.query.value;
        let buckets = self.buckets();
        for row in rows {
            let cells = self.current.cells.get(&row.key);
            row.values = buckets
                .iter()
                .map(|b| cells.and_then(|c| c.get(b)).map_or(0, |f| value.of(f)))
                .collect();
        }
    }
}

/// The ids of a comma-separated list (400 on `field` for more than 1000, or overlong ones).
pub(crate) fn ids(errors: &mut FieldErrors, field: &str, v: &Option<String>) -> BTreeSet<String> {
    let set: BTreeSet<String> = v
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if set.len() > 1000 || set.iter().any(|s| s.len() > 255) {
        errors.add(field, "Give at most 1000 ids of at most 255 characters.");
    }
    set
}

/// The machines a query chose: the user's visible machines, shared between requests (not
/// cloned for each), and which of them.
pub(crate) struct ChosenMachines {
    visible: Arc<Vec<Machine>>,
    picked: Vec<u32>,
}

impl ChosenMachines {
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Machine> + Clone {
        self.picked.iter().map(|&i| &self.visible[i as usize])
    }

    pub fn len(&self) -> usize {
        self.picked.len()
    }

    pub fn is_empty(&self) -> bool {
        self.picked.is_empty()
    }
}

/// What a report needs to know of the catalogue.
struct Catalogue {
    machines: ChosenMachines,
    /// How many machines the fleet has.
    fleet_size: usize,
    locations: Arc<Shared<Location>>,
    /// Product filter: `None` for every product.
    products: Option<BTreeSet<String>>,
    /// Every product by id (their tags, and the names of product groups).
    all_products: Arc<Shared<Product>>,
    /// The names of the groups other than by product (those are named from `all_products`).
    names: BTreeMap<String, String>,
}

/// The sales overview's figures.
#[derive(Clone)]
pub struct SalesService {
    sales: Arc<dyn SalesStore>,
    /// The figures by machine and day in memory, where this process is the store's only
    /// writer (`engine.rs`).
    engine: Option<Arc<engine::Engine>>,
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
            engine: sales.sole_writer().then(|| Arc::new(engine::Engine::new())),
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

    /// The figures of the chosen span and the span before: whole months from month rollups
    /// where the buckets are months (or there are no periods: one bucket, the span's first
    /// day), every other day from day rollups; product rollups when products matter. The
    /// rollups of both spans are read together.
    async fn cubes(&self, ask: Ask<'_>) -> AppResult<(Cube, Cube)> {
        let Ask {
            q,
            cat,
            spans,
            by_period,
            groups,
        } = ask;
        if cat.machines.is_empty() {
            return Ok((Cube::default(), Cube::default()));
        }
        // Without groups, every product's figures are every vend's: the rollups by machine.
        let by_product = (groups && q.group_by.by_product()) || cat.products.is_some();
        if let Some(cubes) = self.engine_cubes(ask).await? {
            return Ok(cubes);
        }
        let (day, month) = if by_product {
            (Grain::DayProduct, Grain::MonthProduct)
        } else {
            (Grain::Day, Grain::Month)
        };
        let reads = spans.map(|(from, to)| {
            let mut reads: Vec<(Grain, NaiveDate, NaiveDate)> = Vec::new();
            if from > to {
                // A span not asked for (see `build_spans`).
            } else if q.grouping == Grouping::Month || !by_period {
                let (months, edges) = split_range(from, to);
                if let (Some(a), Some(b)) = (months.first(), months.last()) {
                    reads.push((month, a.first_day(), b.last_day()));
                }
                reads.extend(edges.into_iter().map(|(a, b)| (day, a, b)));
            } else {
                reads.push((day, from, to));
            }
            reads
        });
        let machines: HashMap<&str, &Machine> =
            cat.machines.iter().map(|m| (m.id.as_str(), m)).collect();
        let bucket = |span: usize, date: NaiveDate| {
            if by_period {
                q.grouping.bucket(date)
            } else {
                spans[span].0
            }
        };
        // Figures by period, product or product tag need no machine: the fleet's rollups (less
        // the machines left out) when the chosen machines are most of the fleet, else the
        // chosen machines' rollups summed by the store.
        let machine_free = !groups || q.group_by.by_product();
        if machine_free && 2 * cat.machines.len() > cat.fleet_size {
            let (bucket0, bucket1) = (|d| bucket(0, d), |d| bucket(1, d));
            if let (Some(current), Some(previous)) = tokio::try_join!(
                self.fleet_cube(q, cat, &reads[0], &machines, groups, &bucket0),
                self.fleet_cube(q, cat, &reads[1], &machines, groups, &bucket1),
            )? {
                return Ok((current, previous));
            }
        }
        // Figures of no product: the machines' rows inside the packed fleet items (DynamoDB)
        // when those are fewer to read than the machines' own rollups.
        if !by_product {
            let packed = self
                .packed_cubes(q, cat, &reads, &machines, groups, bucket)
                .await?;
            if let Some(cubes) = packed {
                return Ok(cubes);
            }
        }
        let machine_ids: Vec<String> = machines.keys().map(|s| s.to_string()).collect();
        let queries: Vec<RollupQuery> = reads
            .iter()
            .flatten()
            .map(|&(grain, from, to)| RollupQuery {
                machine_ids: machine_ids.clone(),
                from,
                to,
                grain,
            })
            .collect();
        let mut answers = self
            .sales
            .rollups_many(&queries, machine_free)
            .await?
            .into_iter();
        let mut cubes = [Cube::default(), Cube::default()];
        for (span, reads) in reads.iter().enumerate() {
            for rows in answers.by_ref().take(reads.len()) {
                for r in &rows {
                    let machine = if machine_free {
                        None
                    } else {
                        match machines.get(r.machine_id.as_str()) {
                            Some(m) => Some(*m),
                            None => continue,
                        }
                    };
                    let b = bucket(span, r.date);
                    add_row(&mut cubes[span], q, cat, machine, r, groups, b, false);
                }
            }
        }
        let [current, previous] = cubes;
        Ok((current, previous))
    }

    /// The figures of `reads` for the `chosen` machines by period, and by product or product
    /// tag when `groups`, from the fleet's rollups less those of the machines left out, when
    /// they are fewer than the chosen ones: `None` when they are not, or the store keeps no
    /// fleet rollups of the grain.
    async fn fleet_cube(
        &self,
        q: &SalesQuery,
        cat: &Catalogue,
        reads: &[(Grain, NaiveDate, NaiveDate)],
        chosen: &HashMap<&str, &Machine>,
        groups: bool,
        bucket: &impl Fn(NaiveDate) -> NaiveDate,
    ) -> AppResult<Option<Cube>> {
        let mut cube = Cube::default();
        for &(grain, from, to) in reads {
            let query = RollupQuery {
                machine_ids: Vec::new(),
                from,
                to,
                grain,
            };
            let Some(fleet) = self.sales.fleet_rollups(&query).await? else {
                return Ok(None);
            };
            let left_out: Vec<String> = fleet
                .machines
                .into_iter()
                .filter(|m| !chosen.contains_key(m.as_str()))
                .collect();
            if left_out.len() >= chosen.len() {
                return Ok(None);
            }
            for r in fleet.rows {
                add_row(&mut cube, q, cat, None, &r, groups, bucket(r.date), false);
            }
            if !left_out.is_empty() {
                let query = RollupQuery {
                    machine_ids: left_out,
                    ..query
                };
                for r in self.sales.rollups(&query).await? {
                    add_row(&mut cube, q, cat, None, &r, groups, bucket(r.date), true);
                }
            }
        }
        Ok(Some(cube))
    }
}

/// The products `q`'s product and product-tag filters choose (`None`: no filter): the ids it
/// names (a product since deleted keeps its sales), and those of `all` with one of its tags.
fn chosen_products(q: &SalesQuery, all: &[Product]) -> Option<BTreeSet<String>> {
    (!q.products.is_empty() || !q.product_tags.is_empty()).then(|| {
        let tagged = all
            .iter()
            .filter(|p| p.tag_ids.iter().any(|t| q.product_tags.contains(t)));
        let mut chosen = q.products.clone();
        chosen.extend(tagged.map(|p| p.id.clone()));
        chosen
    })
}

/// Adds a rollup row to a cube in `bucket` (or takes it off: `negate`) if its product is chosen,
/// and to its groups when `groups`. The machine is needed for groups other than by product or
/// product tag (`None`: a fleet row, or one taken off the fleet's).
#[allow(clippy::too_many_arguments)]
fn add_row<'a>(
    cube: &mut Cube,
    q: &SalesQuery,
    cat: &'a Catalogue,
    machine: Option<&'a Machine>,
    r: &'a RollupRow,
    groups: bool,
    bucket: NaiveDate,
    negate: bool,
) {
    let product = r.product_id.as_deref().unwrap_or(NO_GROUP);
    if cat
        .products
        .as_ref()
        .is_some_and(|set| !set.contains(product))
    {
        return;
    }
    let keys = if groups {
        group_keys(q, cat, machine, product)
    } else {
        Vec::new()
    };
    let figures = if negate {
        r.figures.negated()
    } else {
        r.figures
    };
    cube.add(bucket, keys, &figures);
}

/// What a report asks of the figures: the query, its machines and products, the span and the
/// span before, and whether by period and by group.
#[derive(Clone, Copy)]
struct Ask<'a> {
    q: &'a SalesQuery,
    cat: &'a Catalogue,
    spans: [(NaiveDate, NaiveDate); 2],
    by_period: bool,
    groups: bool,
}

/// The first days of the buckets of the days `from..=to`, in order (a bucket is a run of days).
pub(crate) fn bucket_starts(
    from: NaiveDate,
    to: NaiveDate,
    bucket: impl Fn(NaiveDate) -> NaiveDate,
) -> Vec<NaiveDate> {
    let mut starts: Vec<NaiveDate> = from
        .iter_days()
        .take_while(|d| *d <= to)
        .map(bucket)
        .collect();
    starts.dedup();
    starts
}

/// The groups of `q` a row of `machine` (`None`: a fleet row) and `product` counts in.
fn group_keys<'a>(
    q: &SalesQuery,
    cat: &'a Catalogue,
    machine: Option<&'a Machine>,
    product: &'a str,
) -> Vec<&'a str> {
    let or_none = |tags: &'a [String]| -> Vec<&'a str> {
        if tags.is_empty() {
            vec![NO_GROUP]
        } else {
            tags.iter().map(String::as_str).collect()
        }
    };
    match (q.group_by, machine) {
        (GroupBy::Product, _) => vec![product],
        (GroupBy::ProductTag, _) => or_none(
            cat.all_products
                .get(product)
                .map_or(&[][..], |p| &p.tag_ids),
        ),
        (GroupBy::Machine, Some(m)) => vec![m.id.as_str()],
        (GroupBy::Location, Some(m)) => vec![m.location_id.as_deref().unwrap_or(NO_GROUP)],
        (GroupBy::Client, Some(m)) => {
            let location = m.location_id.as_ref().and_then(|l| cat.locations.get(l));
            vec![location
                .and_then(|l| l.client_id.as_deref())
                .unwrap_or(NO_GROUP)]
        }
        (GroupBy::MachineTag, Some(m)) => or_none(&m.tag_ids),
        (_, None) => Vec::new(),
    }
}
