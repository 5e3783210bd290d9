//! The sales store port: machine-event receipts, the vend ledger and its rollups, committed
//! together with the item-store writes of the same events so that intake is exactly-once.
//!
//! Sales figures do not live in the generic item store: an adapter keeps them in the shape that
//! answers aggregates fast (typed SQLite tables; month and day items on DynamoDB), and derives
//! the rollups from the ledger rows it is given, in the same all-or-nothing step.

use super::store::{StoreError, Write};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::{BTreeSet, HashMap, HashSet};
use vendfleet_domain::events::VendClass;
use vendfleet_domain::sales::{log_order, Figures, Month, VendFact};

/// Where a sale stands in the transaction log: what the sales engine's log index keeps of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaleTime {
    pub machine_id: String,
    pub local_date: NaiveDate,
    pub at: DateTime<Utc>,
    pub product_id: String,
}

/// A vend's key short of its event id: the machine, the local day and the instant.
pub type VendInstant = (String, NaiveDate, DateTime<Utc>);

/// The dedupe record of one machine event (or of one part of a large one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventReceipt {
    pub machine_id: String,
    /// The event id, with `#part` appended for the parts of an event split to fit a commit.
    pub event_id: String,
    /// The event's type (`vend`, `refill` …).
    pub kind: String,
    pub at: DateTime<Utc>,
    pub received_at: DateTime<Utc>,
    /// The event's content fingerprint (`domain::events::reuse::fingerprint`), to tell a retry from an
    /// id reused with other content; `None` for a receipt of no machine event (a review).
    pub fingerprint: Option<String>,
    /// The event as received (its wire JSON), when small enough to keep.
    pub payload: Option<String>,
}

/// A stored receipt, as dedupe reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredReceipt {
    /// `None` for receipts stored before fingerprints were kept, or of no machine event.
    pub fingerprint: Option<String>,
    pub payload: Option<String>,
    pub received_at: DateTime<Utc>,
}

/// Everything one step of intake changes, applied all or nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Commit {
    /// Written only if absent: one that exists fails the commit with
    /// `StoreError::ConditionFailed { index }`, `index` counting receipts first.
    pub receipts: Vec<EventReceipt>,
    /// Ledger rows; the adapter adds them into its rollups in the same step.
    pub vends: Vec<VendFact>,
    /// Item-store writes (stock, refill log, encashments, machine status), conditions checked;
    /// a failing one gives `ConditionFailed { index: receipts.len() + i }`.
    pub writes: Vec<Write>,
}

impl Commit {
    /// True when there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.receipts.is_empty() && self.vends.is_empty() && self.writes.is_empty()
    }
}

/// Which rollup a query reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    /// Machine × day.
    Day,
    /// Machine × product × day.
    DayProduct,
    /// Machine × month.
    Month,
    /// Machine × product × month.
    MonthProduct,
}

/// One rollup row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollupRow {
    pub machine_id: String,
    /// The day, or the first day of the month for month grains.
    pub date: NaiveDate,
    /// The product for product grains (empty for vends of no known product).
    pub product_id: Option<String>,
    pub figures: Figures,
}

/// A rollup read: the machines (at least one), a range of local dates (whole months for month
/// grains: `from` and `to` are taken as their months) and the grain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollupQuery {
    pub machine_ids: Vec<String>,
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub grain: Grain,
}

impl RollupQuery {
    /// The months a month-grain query covers.
    pub fn months(&self) -> (Month, Month) {
        (Month::of(self.from), Month::of(self.to))
    }
}

/// The whole fleet's rollups of a span.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FleetRollups {
    /// Rows with an empty machine id, by product for product grains (rows of the same date
    /// and product add up).
    pub rows: Vec<RollupRow>,
    /// The machines whose vends the rows hold: at least every one with a vend in them.
    pub machines: BTreeSet<String>,
}

/// Units that left a machine's product (sold, free and test) on each weekday of a span
/// (index 0 is Monday).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeekdayUnits {
    pub machine_id: String,
    pub product_id: String,
    pub units: [i64; 7],
}

/// [`WeekdayUnits`] summed from machine × product × day rollup rows.
pub fn weekday_units_of(rows: &[RollupRow]) -> Vec<WeekdayUnits> {
    use chrono::Datelike;
    let mut by: std::collections::BTreeMap<(String, String), [i64; 7]> = Default::default();
    for r in rows {
        let units = r.figures.quantity + r.figures.free_quantity + r.figures.test_quantity;
        if units == 0 {
            continue;
        }
        let key = (
            r.machine_id.clone(),
            r.product_id.clone().unwrap_or_default(),
        );
        by.entry(key).or_default()[r.date.weekday().num_days_from_monday() as usize] += units;
    }
    by.into_iter()
        .map(|((machine_id, product_id), units)| WeekdayUnits {
            machine_id,
            product_id,
            units,
        })
        .collect()
}

/// Rollup rows summed across their machines: one per date and product, in that order, with an
/// empty `machine_id`.
pub fn sum_over_machines(rows: Vec<RollupRow>) -> Vec<RollupRow> {
    let mut by: std::collections::BTreeMap<(NaiveDate, Option<String>), Figures> =
        Default::default();
    for r in rows {
        by.entry((r.date, r.product_id))
            .or_default()
            .add(&r.figures);
    }
    by.into_iter()
        .map(|((date, product_id), figures)| RollupRow {
            machine_id: String::new(),
            date,
            product_id,
            figures,
        })
        .collect()
}

/// The sales store.
#[async_trait]
pub trait SalesStore: Send + Sync {
    /// Whether every commit to the store passes through this process (the embedded store, which
    /// its server alone writes): then the sales service may keep the figures in memory, in
    /// step with its own commits.
    fn sole_writer(&self) -> bool {
        false
    }
    /// How many stored records one commit may touch (receipts, ledger rows, rollup records and
    /// writes, as [`SalesStore::cost`] counts them); `usize::MAX` when unbounded.
    fn commit_limit(&self) -> usize;
    /// The records `commit` would touch, in the unit of [`SalesStore::commit_limit`].
    fn cost(&self, commit: &Commit) -> usize;
    /// Applies a commit all or nothing.
    async fn commit(&self, commit: Commit) -> Result<(), StoreError>;
    /// The receipts these event ids of a machine have already.
    async fn receipts(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashMap<String, StoredReceipt>, StoreError>;
    /// Which of these event ids of a machine have a receipt already.
    async fn known_events(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashSet<String>, StoreError> {
        Ok(self
            .receipts(machine_id, event_ids)
            .await?
            .into_keys()
            .collect())
    }
    /// Ledger rows of a machine over local days `from..=to`, in time order.
    async fn ledger(
        &self,
        machine_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError>;
    /// Ledger rows of several machines over local days `from..=to`, in no particular order.
    /// The default reads machine by machine; an adapter with a fleet-wide day index overrides it.
    async fn ledger_of(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        ledger_machine_by_machine(self, machine_ids, from, to).await
    }
    /// One day's sales (class sale) of several machines, of the given products only when
    /// `products` is given, in the transaction log's order (`domain::sales::log_order`): `take`
    /// of them after the first `skip`.
    async fn sales_page(
        &self,
        machine_ids: &[String],
        day: NaiveDate,
        products: Option<&BTreeSet<String>>,
        skip: usize,
        take: usize,
    ) -> Result<Vec<VendFact>, StoreError> {
        let mut sales: Vec<VendFact> = self
            .ledger_of(machine_ids, day, day)
            .await?
            .into_iter()
            .filter(|v| {
                v.class == VendClass::Sale && products.is_none_or(|p| p.contains(&v.product_id))
            })
            .collect();
        sales.sort_by(log_order);
        Ok(sales.into_iter().skip(skip).take(take).collect())
    }
    /// Every sale (class sale) of `machine_ids`, in no particular order: where each stands in
    /// the transaction log (the sales engine's log index is built from these). The default
    /// reads each machine's whole ledger.
    async fn sale_times(&self, machine_ids: &[String]) -> Result<Vec<SaleTime>, StoreError> {
        let first = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap_or_default();
        let last = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap_or_default();
        Ok(self
            .ledger_of(machine_ids, first, last)
            .await?
            .into_iter()
            .filter(|v| v.class == VendClass::Sale)
            .map(|v| SaleTime {
                machine_id: v.machine_id,
                local_date: v.local_date,
                at: v.at,
                product_id: v.product_id,
            })
            .collect())
    }
    /// The vends (of any class) of each of `keys`, key after key, each key's in event id order.
    /// The default reads each key's machine and day.
    async fn vends_at(&self, keys: &[VendInstant]) -> Result<Vec<VendFact>, StoreError> {
        let mut out = Vec::new();
        for (machine_id, day, at) in keys {
            let mut found: Vec<VendFact> = self
                .ledger(machine_id, *day, *day)
                .await?
                .into_iter()
                .filter(|v| v.at == *at)
                .collect();
            found.sort_by(|a, b| a.event_id.cmp(&b.event_id));
            out.extend(found);
        }
        Ok(out)
    }
    /// Rollup rows of a grain (rows with all-zero figures may be left out).
    async fn rollups(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError>;
    /// The rollup rows of `query`'s machines summed across them: one row per date (and product,
    /// for product grains), its `machine_id` empty. For figures that need no machine (by
    /// period, product or product tag). The default sums [`SalesStore::rollups`].
    async fn rollups_summed(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        Ok(sum_over_machines(self.rollups(query).await?))
    }
    /// The answers of several rollup reads, in order: each [`SalesStore::rollups_summed`]
    /// when `summed`, else [`SalesStore::rollups`]. The default runs them concurrently; a
    /// store may read them in one go.
    async fn rollups_many(
        &self,
        queries: &[RollupQuery],
        summed: bool,
    ) -> Result<Vec<Vec<RollupRow>>, StoreError> {
        futures_util::future::try_join_all(queries.iter().map(|q| async move {
            if summed {
                self.rollups_summed(q).await
            } else {
                self.rollups(q).await
            }
        }))
        .await
    }
    /// Units out of each machine's products by weekday over local days `from..=to` (planning's
    /// velocities); machines × products with none may be left out. The default sums the
    /// machine × product × day rollups.
    async fn weekday_units(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<WeekdayUnits>, StoreError> {
        if machine_ids.is_empty() || from > to {
            return Ok(Vec::new());
        }
        let rows = self
            .rollups(&RollupQuery {
                machine_ids: machine_ids.to_vec(),
                from,
                to,
                grain: Grain::DayProduct,
            })
            .await?;
        Ok(weekday_units_of(&rows))
    }
    /// The whole fleet's rollups of a span at a grain (`machine_ids` is not read): every
    /// machine's vends together, whatever machines exist now. `None` where the store keeps none
    /// of the grain.
    async fn fleet_rollups(&self, query: &RollupQuery) -> Result<Option<FleetRollups>, StoreError> {
        let _ = query;
        Ok(None)
    }
    /// How many packed fleet items [`SalesStore::machine_rollups`] reads for `machine_ids` per
    /// item of the span (a month or a day) where [`SalesStore::rollups`] reads one per machine;
    /// `None` where the store keeps no packed items (DynamoDB: one per fleet shard the machines
    /// write to).
    fn packed_items(&self, machine_ids: &[String]) -> Option<usize> {
        let _ = machine_ids;
        None
    }
    /// The rows of `query`'s machines at a `Day` or `Month` grain (machine set, no product),
    /// as [`SalesStore::rollups`] gives them, read from packed fleet items that hold every
    /// machine's figures; `None` where the store keeps none (or for product grains).
    async fn machine_rollups(
        &self,
        query: &RollupQuery,
    ) -> Result<Option<Vec<RollupRow>>, StoreError> {
        let _ = query;
        Ok(None)
    }
}

/// The ledger of several machines read one machine at a time (`SalesStore::ledger_of`'s
/// default, and an adapter's choice for few machines).
pub async fn ledger_machine_by_machine<S: SalesStore + ?Sized>(
    store: &S,
    machine_ids: &[String],
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<VendFact>, StoreError> {
    let mut out = Vec::new();
    for m in machine_ids {
        out.extend(store.ledger(m, from, to).await?);
    }
    Ok(out)
}
