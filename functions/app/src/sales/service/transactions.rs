//! The transaction log: every sale of the chosen machines, newest local day first and newest
//! first within a day (then by machine and event id, a total order).
//!
//! A page is found without reading what lies before it: the rollups count each span's sales
//! (`Figures::transactions`), so a request sums month counts to find the month its first row
//! lies in, then that month's day counts to find the day, and reads the ledger of that day and
//! the days after it that the page needs. The cost of a page does not grow with its depth, and
//! the count is the rollups' exact one. Free and test vends are not transactions.

use super::super::ask::Catalogue;
use super::super::engine::{By, Products};
use super::super::model::bucket_starts;
use super::super::query::{SalesParams, SalesQuery};
use super::SalesService;
use crate::auth::Principal;
use crate::listing::{paging, ListPage, ListParams};
use crate::machines::Machine;
use crate::ports::sales::VendInstant;
use crate::ports::{Grain, RollupQuery};
use crate::records::Shared;
use crate::AppResult;
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::report::GroupBy;
use vendfleet_domain::sales::{log_order, split_range, Month, VendFact};
use vendfleet_domain::FieldErrors;

/// One sale of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transaction {
    /// The machine, and where it stood when it sold.
    pub stamp: crate::fleet::MachineStamp,
    pub event_id: String,
    pub at: DateTime<Utc>,
    pub local_date: NaiveDate,
    pub selection: String,
    pub product_id: String,
    /// The product's name ("—" for a vend of no known product).
    pub product_name: String,
    pub quantity: u32,
    pub revenue_minor: i64,
    pub net_minor: i64,
    pub payment: Payment,
    /// The machine's currency (ISO 4217).
    pub currency: String,
}

/// Under this many chosen machines, the days a page takes whole are read in one go.
const RANGE_MACHINES: usize = 64;

/// A span of days and its number of sales; `day` when it is one day.
#[derive(Debug, Clone, Copy)]
struct Block {
    from: NaiveDate,
    to: NaiveDate,
    count: i64,
    day: bool,
}

/// The chosen machines and products of a transaction query, with the names a row shows.
struct Chosen {
    query: SalesQuery,
    cat: Catalogue,
    /// Every machine by id (a row's name and currency).
    all_machines: Arc<Shared<Machine>>,
}

impl Chosen {
    fn machine_ids(&self) -> Vec<String> {
        self.cat.machines.iter().map(|m| m.id.clone()).collect()
    }

    fn wants_product(&self, product: &str) -> bool {
        self.cat
            .products
            .as_ref()
            .is_none_or(|set| set.contains(product))
    }

    fn grains(&self) -> (Grain, Grain) {
        if self.cat.products.is_some() {
            (Grain::DayProduct, Grain::MonthProduct)
        } else {
            (Grain::Day, Grain::Month)
        }
    }

    fn row(&self, v: VendFact) -> Transaction {
        let (machine_name, currency) = self
            .all_machines
            .get(&v.machine_id)
            .map(|m| (m.name.clone(), m.currency.clone()))
            .unwrap_or_default();
        let location_name = v
            .location_id
            .as_ref()
            .and_then(|l| self.cat.locations.get(l))
            .map(|l| l.name.clone());
        let product_name = self
            .cat
            .all_products
            .get(&v.product_id)
            .map_or_else(|| "—".into(), |p| p.name.clone());
        Transaction {
            stamp: crate::fleet::MachineStamp {
                machine_id: v.machine_id,
                machine_name,
                location_id: v.location_id,
                location_name,
            },
            event_id: v.event_id,
            at: v.at,
            local_date: v.local_date,
            selection: v.selection,
            product_id: v.product_id,
            product_name,
            quantity: v.quantity,
            revenue_minor: v.revenue_minor,
            net_minor: v.net_minor,
            payment: v.payment,
            currency,
        }
    }
}

impl SalesService {
    async fn chosen(&self, p: &Principal, params: &SalesParams) -> AppResult<Chosen> {
        let query = params.check(self.calendar.today())?;
        // Rows are named from the catalogue's products; no other group needs names.
        let named = SalesQuery {
            group_by: GroupBy::Product,
            ..query.clone()
        };
        let cat = self.catalogue(p, &named, true).await?;
        let all_machines = self.machines.machines().all_shared().await?;
        Ok(Chosen {
            query,
            cat,
            all_machines,
        })
    }

    /// Sales per rollup row of a read, by date, for the chosen machines and products.
    async fn counts(
        &self,
        c: &Chosen,
        grain: Grain,
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<BTreeMap<NaiveDate, i64>> {
        if from <= to {
            let first = |d: NaiveDate| match grain {
                Grain::Month | Grain::MonthProduct => Month::of(d).first_day(),
                Grain::Day | Grain::DayProduct => d,
            };
            let starts = bucket_starts(from, to, first);
            let products = match c.cat.products.as_ref() {
                Some(set) => Products::Chosen(set),
                None => Products::Every,
            };
            let sums = self
                .engine_sums(
                    &c.cat.machines,
                    products,
                    By::Total,
                    (from, to),
                    &starts,
                    first,
                )
                .await?;
            if let Some(sums) = sums {
                let counts = starts.iter().zip(&sums.figures);
                return Ok(counts.map(|(d, f)| (*d, f.transactions)).collect());
            }
        }
        if let Some(counts) = self.store_counts(&c.cat, grain, from, to).await? {
            return Ok(counts);
        }
        let rows = self
            .sales
            .rollups(&RollupQuery {
                machine_ids: c.machine_ids(),
                from,
                to,
                grain,
            })
            .await?;
        let mut out = BTreeMap::new();
        for r in rows {
            if c.wants_product(r.product_id.as_deref().unwrap_or_default()) {
                *out.entry(r.date).or_insert(0) += r.figures.transactions;
            }
        }
        Ok(out)
    }

    /// The span's blocks, newest first: whole months from month rollups, edge days from day
    /// rollups.
    async fn blocks(&self, c: &Chosen) -> AppResult<Vec<Block>> {
        let (day, month) = c.grains();
        let (months, edges) = split_range(c.query.from, c.query.to);
        let mut blocks = Vec::new();
        if let (Some(a), Some(b)) = (months.first(), months.last()) {
            let counts = self.counts(c, month, a.first_day(), b.last_day()).await?;
            blocks.extend(months.iter().map(|m| Block {
                from: m.first_day(),
                to: m.last_day(),
                count: counts.get(&m.first_day()).copied().unwrap_or(0),
                day: false,
            }));
        }
        for (a, b) in edges {
            let counts = self.counts(c, day, a, b).await?;
            blocks.extend(a.iter_days().take_while(|d| *d <= b).map(|d| Block {
                from: d,
                to: d,
                count: counts.get(&d).copied().unwrap_or(0),
                day: true,
            }));
        }
        blocks.retain(|b| b.count > 0);
        blocks.sort_by_key(|b| std::cmp::Reverse(b.from));
        Ok(blocks)
    }

    /// The month's days with sales, newest first.
    async fn days_of(&self, c: &Chosen, month: Block) -> AppResult<Vec<Block>> {
        let counts = self.counts(c, c.grains().0, month.from, month.to).await?;
        Ok(counts
            .into_iter()
            .rev()
            .filter(|(_, n)| *n > 0)
            .map(|(d, count)| Block {
                from: d,
                to: d,
                count,
                day: true,
            })
            .collect())
    }

    /// The chosen machines with a chosen sale on `day` (from the engine), or every chosen
    /// machine where there is no engine.
    async fn selling(&self, c: &Chosen, day: NaiveDate) -> AppResult<Vec<String>> {
        if let Some(engine) = self.engine().await? {
            let slots = c.cat.machines.slots(engine);
            if let Some(selling) = engine.selling(&slots, c.cat.products.as_ref(), day) {
                let machines: Vec<&Machine> = c.cat.machines.iter().collect();
                return Ok(selling
                    .into_iter()
                    .map(|k| machines[k].id.clone())
                    .collect());
            }
        }
        Ok(c.machine_ids())
    }

    /// The chosen sales of a block's days, in no order.
    async fn sales_of(&self, c: &Chosen, b: Block) -> AppResult<Vec<VendFact>> {
        Ok(self
            .sales
            .ledger_of(&c.machine_ids(), b.from, b.to)
            .await?
            .into_iter()
            .filter(|v| v.class == VendClass::Sale && c.wants_product(&v.product_id))
            .collect())
    }

    /// The next day of `blocks` (popped newest first) holding a sale beyond the first `skip`:
    /// whole blocks skipped are taken off `skip`, a month's block is split into its days.
    async fn next_day(
        &self,
        c: &Chosen,
        blocks: &mut Vec<Block>,
        skip: &mut i64,
    ) -> AppResult<Option<Block>> {
        while let Some(b) = blocks.pop() {
            if *skip >= b.count {
                *skip -= b.count;
            } else if b.day {
                return Ok(Some(b));
            } else {
                let mut days = self.days_of(c, b).await?;
                days.reverse();
                blocks.extend(days);
            }
        }
        Ok(None)
    }

    /// Up to `take` sales after the first `skip` of the span, in the log's order.
    async fn slice(
        &self,
        c: &Chosen,
        mut skip: i64,
        take: usize,
    ) -> AppResult<(Vec<Transaction>, i64)> {
        let mut blocks = self.blocks(c).await?;
        let count: i64 = blocks.iter().map(|b| b.count).sum();
        blocks.reverse(); // popped newest first
        let mut out = Vec::new();
        while out.len() < take {
            let Some(b) = self.next_day(c, &mut blocks, &mut skip).await? else {
                break;
            };
            let skipped = usize::try_from(skip).unwrap_or(usize::MAX);
            // No more than the day holds after the skipped ones: a walk through the day's
            // sales stops at its last chosen one, not at the day's end.
            let left = usize::try_from(b.count - skip).unwrap_or(usize::MAX);
            skip = 0;
            let room = (take - out.len()).min(left);
            // A few machines: the days before that the page takes whole are read with this one
            // in one go (a machine selling a few sales a day, not a read a day).
            let mut oldest = b;
            let mut more = take - out.len() - room;
            if c.cat.machines.len() < RANGE_MACHINES {
                while let Some(next) = blocks.last().filter(|n| n.day && n.count > 0) {
                    match usize::try_from(next.count) {
                        Ok(n) if n <= more => more -= n,
                        _ => break,
                    }
                    oldest = blocks.pop().unwrap_or(oldest);
                }
            }
            if oldest.from < b.from {
                let span = Block {
                    from: oldest.from,
                    to: b.to,
                    ..b
                };
                let mut vends = self.sales_of(c, span).await?;
                vends.sort_by(|x, y| y.local_date.cmp(&x.local_date).then(log_order(x, y)));
                let wanted = take - out.len();
                out.extend(
                    vends
                        .into_iter()
                        .skip(skipped)
                        .take(wanted)
                        .map(|v| c.row(v)),
                );
                continue;
            }
            let page = self
                .sales
                .sales_page(
                    &self.selling(c, b.from).await?,
                    b.from,
                    c.cat.products.as_ref(),
                    skipped,
                    room,
                )
                .await?;
            out.extend(page.into_iter().map(|v| c.row(v)));
        }
        Ok((out, count))
    }

    /// [`Self::slice`] from the engine's log index: the page's sales chosen in memory, then
    /// only their rows read, by key. `None` where the index does not answer (no engine, not
    /// built yet) or a row read does not match it.
    async fn slice_from_log(
        &self,
        c: &Chosen,
        mut skip: i64,
        take: usize,
    ) -> AppResult<Option<(Vec<Transaction>, i64)>> {
        let Some(engine) = self.engine().await?.filter(|e| e.log_ready()) else {
            return Ok(None);
        };
        let mut blocks = self.blocks(c).await?;
        let count: i64 = blocks.iter().map(|b| b.count).sum();
        blocks.reverse(); // popped newest first
        let mut picks: Vec<(VendInstant, usize)> = Vec::new();
        while picks.len() < take {
            let Some(b) = self.next_day(c, &mut blocks, &mut skip).await? else {
                break;
            };
            let skipped = usize::try_from(skip).unwrap_or(usize::MAX);
            skip = 0;
            let room = (skipped, take - picks.len());
            let products = c.cat.products.as_ref();
            let slots = c.cat.machines.slots(engine);
            let Some(day) = engine.log_page(&slots, products, b.from, room) else {
                return Ok(None);
            };
            picks.extend(day.into_iter().map(|(m, at, nth)| ((m, b.from, at), nth)));
        }
        // Each instant's rows read once, then the page's sales taken from them in order.
        let mut keys: Vec<VendInstant> = Vec::with_capacity(picks.len());
        for (key, _) in &picks {
            if keys.last() != Some(key) && !keys.contains(key) {
                keys.push(key.clone());
            }
        }
        let mut rows: HashMap<VendInstant, Vec<VendFact>> = HashMap::new();
        for v in self.sales.vends_at(&keys).await? {
            if v.class == VendClass::Sale && c.wants_product(&v.product_id) {
                let key = (v.machine_id.clone(), v.local_date, v.at);
                rows.entry(key).or_default().push(v);
            }
        }
        let mut out = Vec::with_capacity(picks.len());
        for (key, nth) in &picks {
            let Some(v) = rows.get(key).and_then(|r| r.get(*nth)) else {
                // Never expected (the index is kept with every commit): said, then the store.
                tracing::warn!(?key, nth, "the log's index and the ledger differ");
                return Ok(None);
            };
            out.push(c.row(v.clone()));
        }
        Ok(Some((out, count)))
    }

    /// A page of the transaction log of the machines `p` may see (`page`/`page_size` of the
    /// list; search and ordering are not offered: the log's order is fixed).
    pub async fn transactions(
        &self,
        p: &Principal,
        params: &SalesParams,
        list: &ListParams,
    ) -> AppResult<ListPage<Transaction>> {
        let mut errors = FieldErrors::new();
        let pg = paging(list, &[], &mut errors);
        errors.into_result()?;
        let c = self.chosen(p, params).await?;
        let skip = (pg.page - 1).saturating_mul(pg.page_size);
        let skip = i64::try_from(skip).unwrap_or(i64::MAX);
        let (items, count) = match self.slice_from_log(&c, skip, pg.page_size).await? {
            Some(page) => page,
            None => self.slice(&c, skip, pg.page_size).await?,
        };
        Ok(ListPage {
            items,
            count: usize::try_from(count).unwrap_or(0),
            page: pg.page,
            page_size: pg.page_size,
        })
    }

    /// Every sale of the query, for an export: at most `limit`, else a 400 on `date_from` that
    /// says how many there are.
    pub async fn all_transactions(
        &self,
        p: &Principal,
        params: &SalesParams,
        limit: usize,
    ) -> AppResult<Vec<Transaction>> {
        let mut cursor = self.transaction_cursor(p, params).await?;
        let count = cursor.total;
        if usize::try_from(count).unwrap_or(usize::MAX) > limit {
            return Err(FieldErrors::single(
                "date_from",
                format!(
                    "The export would hold {count} transactions; at most {limit} fit in one \
                     file. Choose a shorter period or fewer machines."
                ),
            )
            .into());
        }
        let mut out = Vec::new();
        while let Some(rows) = self.next_transactions(&mut cursor).await? {
            out.extend(rows);
        }
        Ok(out)
    }

    /// A cursor over every sale of the query in the log's order, read a day at a time (a
    /// generated report of a year of a whole fleet never holds more than one day of it).
    pub async fn transaction_cursor(
        &self,
        p: &Principal,
        params: &SalesParams,
    ) -> AppResult<TransactionCursor> {
        let chosen = self.chosen(p, params).await?;
        let mut blocks = self.blocks(&chosen).await?;
        let total = blocks.iter().map(|b| b.count).sum();
        blocks.reverse(); // popped newest first
        Ok(TransactionCursor {
            chosen,
            blocks,
            total,
        })
    }

    /// The next day's sales of a cursor, in the log's order; `None` at the end.
    pub async fn next_transactions(
        &self,
        cursor: &mut TransactionCursor,
    ) -> AppResult<Option<Vec<Transaction>>> {
        while let Some(b) = cursor.blocks.pop() {
            if !b.day {
                let mut days = self.days_of(&cursor.chosen, b).await?;
                days.reverse();
                cursor.blocks.extend(days);
                continue;
            }
            let mut vends = self.sales_of(&cursor.chosen, b).await?;
            vends.sort_by(log_order);
            return Ok(Some(
                vends.into_iter().map(|v| cursor.chosen.row(v)).collect(),
            ));
        }
        Ok(None)
    }
}

/// Where a walk through the transaction log stands (see
/// [`SalesService::transaction_cursor`]).
pub struct TransactionCursor {
    chosen: Chosen,
    /// Spans still to read, the next one last.
    blocks: Vec<Block>,
    /// Sales of the whole query (the rollups' count).
    pub total: i64,
}
