//! The sales store on the DynamoDB table, beside the item store's items:
//! - receipts `RECEIPT#{machine}` / `{event id}` (written on `attribute_not_exists`);
//! - ledger rows `LEDGER#{machine}#{day}` / `{at ms}#{event id}`, fleet-wide by day in GSI1
//!   (`LEDGERDAY#{day}`);
//! - rollups `ROLLUP#{machine}` / `D#{day}` and `M#{yyyy-mm}`: one item per machine and day or
//!   month, holding the totals (`t_{figure}`) and each product's figures
//!   (`p_{product}_{figure}`) as numbers that `ADD` updates in place;
//! - the whole fleet's rollups `FLEETROLLUP#{shard}` / `M#{yyyy-mm}`: one item per shard and
//!   month, holding the month's totals (`t_{figure}`), each day's (`d{dd}_{figure}`) and the set
//!   of machines whose vends it holds (`machines`). A machine always writes to the same one of
//!   [`FLEET_SHARDS`] shards, so that concurrent commits of different machines rarely touch the
//!   same item, and a year of the fleet is about a dozen items per shard.
//!
//! One commit is one `TransactWriteItems` (at most 100 items): intake sizes its commits by
//! [`SalesStore::cost`].

use crate::dynamo::{transact_item, DynamoItemStore};
use async_trait::async_trait;
use aws_sdk_dynamodb::types::TransactWriteItem;
use chrono::NaiveDate;
use rollup::{
    deltas, fleet_partition, ledger_item, ledger_partition, month_sk, parse_sk, read_fleet,
    read_rollup, receipt_key, rollup_partition, rollup_update, AddUpdate, FLEET_SHARDS,
};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use vendfleet_app::ports::sales::{
    ledger_machine_by_machine, Commit, FleetRollups, Grain, RollupQuery, RollupRow, SalesStore,
    StoredReceipt,
};
use vendfleet_app::ports::{
    query_all, Condition, Index, Item, ItemStore, Key, Query, SortKey, StoreError, Write,
    MAX_BATCH, MAX_TRANSACTION_WRITES,
};
use vendfleet_domain::sales::VendFact;

mod packed;
mod rollup;

/// The sales store on the item store's table.
#[derive(Debug, Clone)]
pub struct DynamoSalesStore {
    items: DynamoItemStore,
    /// Whether reads use the packed fleet items (`packed.rs`); they are written either way.
    packed_reads: bool,
}

impl DynamoSalesStore {
    /// A sales store on the table of `items`.
    pub fn new(items: DynamoItemStore) -> Self {
        DynamoSalesStore {
            items,
            packed_reads: true,
        }
    }

    /// The same store reading as before the packed items (the machines' own rollups, the
    /// fleet's month items by period only): the benchmark's "before".
    pub fn without_packed_reads(self) -> Self {
        DynamoSalesStore {
            packed_reads: false,
            ..self
        }
    }
}

/// The longest expression [`DynamoSalesStore::load`] sends: moto's expression parser recurses
/// once per clause and fails past about 200 clauses, well within DynamoDB's 4 KB.
const LOAD_EXPRESSION: usize = 1_500;

impl DynamoSalesStore {
    /// Writes vends outside intake's commits, for seeding a benchmark's fleet: their ledger
    /// rows by batch, and the sum of their additions to each rollup and fleet item in one `ADD`
    /// (cut into several where its expression would pass [`LOAD_EXPRESSION`]), in transactions of up to 25
    /// items. The items end as commits of the same vends would leave them; no receipts are
    /// written, so this is not exactly-once and not for live data.
    pub async fn load(&self, vends: &[VendFact]) -> Result<(), StoreError> {
        for chunk in vends.chunks(MAX_BATCH) {
            let rows = chunk.iter().map(ledger_item).collect::<Result<_, _>>()?;
            self.items.batch_put(rows).await?;
        }
        let table = self.items.table().to_string();
        let mut batch: Vec<TransactWriteItem> = Vec::new();
        let mut keys: HashSet<Key> = HashSet::new();
        for whole in updates(vends) {
            for u in whole.split(LOAD_EXPRESSION) {
                if batch.len() == 25 || keys.contains(&u.key) {
                    self.items
                        .transact_items(std::mem::take(&mut batch))
                        .await?;
                    keys.clear();
                }
                keys.insert(u.key.clone());
                batch.push(u.write(&table)?);
            }
        }
        if !batch.is_empty() {
            self.items.transact_items(batch).await?;
        }
        Ok(())
    }
}

/// Up to this many machines, a ledger read queries each machine's day partitions; beyond, the
/// fleet-wide day index.
const FEW_MACHINES: usize = 8;

/// DynamoDB's limit on an expression's length, in bytes.
pub(crate) const MAX_EXPRESSION: usize = 4096;

/// Every `ADD` update a set of vends makes: each machine's day and month rollups, and the
/// fleet's month and day items of the machines' shards (`packed.rs`).
pub(crate) fn updates(vends: &[VendFact]) -> Vec<AddUpdate> {
    let mut out: Vec<AddUpdate> = deltas(vends)
        .iter()
        .map(|((machine, sk), (totals, products))| rollup_update(machine, sk, totals, products))
        .collect();
    out.extend(packed::fleet_updates(vends));
    out
}

#[async_trait]
impl SalesStore for DynamoSalesStore {
    fn commit_limit(&self) -> usize {
        MAX_TRANSACTION_WRITES
    }

    /// Items, one each; a commit with an update expression longer than DynamoDB's 4 KB counts
    /// as one over the limit, so that intake splits it (the expressions only grow as vends are
    /// added: the same attributes, more of them).
    fn cost(&self, commit: &Commit) -> usize {
        let updates = updates(&commit.vends);
        if updates.iter().any(|u| u.expression_len() > MAX_EXPRESSION) {
            return MAX_TRANSACTION_WRITES + 1;
        }
        commit.receipts.len() + commit.vends.len() + updates.len() + commit.writes.len()
    }

    async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        if commit.is_empty() {
            return Ok(());
        }
        let updates = updates(&commit.vends);
        if let Some(u) = updates.iter().find(|u| u.expression_len() > MAX_EXPRESSION) {
            return Err(StoreError::Invalid(format!(
                "a sales commit's update of {}/{} is {} bytes long; DynamoDB takes \
                 {MAX_EXPRESSION}",
                u.key.pk,
                u.key.sk,
                u.expression_len()
            )));
        }
        let cost = commit.receipts.len() + commit.vends.len() + updates.len() + commit.writes.len();
        if cost > MAX_TRANSACTION_WRITES {
            return Err(StoreError::Invalid(format!(
                "a sales commit touches at most {MAX_TRANSACTION_WRITES} items, got {cost}"
            )));
        }
        let table = self.items.table().to_string();
        let mut items = Vec::with_capacity(cost);
        for r in &commit.receipts {
            let mut attrs = serde_json::Map::new();
            attrs.insert("kind".into(), Value::from(r.kind.clone()));
            attrs.insert("at".into(), Value::from(r.at.to_rfc3339()));
            attrs.insert(
                "received_at".into(),
                Value::from(r.received_at.to_rfc3339()),
            );
            if let Some(f) = &r.fingerprint {
                attrs.insert("fingerprint".into(), Value::from(f.clone()));
            }
            if let Some(p) = &r.payload {
                attrs.insert("payload".into(), Value::from(p.clone()));
            }
            items.push(transact_item(
                Write::Put {
                    item: Item::new(receipt_key(&r.machine_id, &r.event_id), attrs),
                    condition: Some(Condition::NotExists),
                },
                &table,
            )?);
        }
        let unconditioned_start = items.len();
        for v in &commit.vends {
            items.push(transact_item(
                Write::Put {
                    item: ledger_item(v)?,
                    condition: None,
                },
                &table,
            )?);
        }
        for u in updates {
            items.push(u.write(&table)?);
        }
        let unconditioned = items.len() - unconditioned_start;
        for w in commit.writes {
            items.push(transact_item(w, &table)?);
        }
        let receipts = commit.receipts.len();
        match self.items.transact_items(items).await {
            Err(StoreError::ConditionFailed { index }) if index >= receipts => {
                Err(StoreError::ConditionFailed {
                    index: index - unconditioned,
                })
            }
            other => other,
        }
    }

    async fn receipts(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashMap<String, StoredReceipt>, StoreError> {
        let mut found = HashMap::new();
        let unique: Vec<&String> = event_ids
            .iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        for chunk in unique.chunks(MAX_BATCH) {
            let keys: Vec<Key> = chunk.iter().map(|id| receipt_key(machine_id, id)).collect();
            for item in self.items.batch_get(&keys).await? {
                let text = |name: &str| {
                    item.attrs
                        .get(name)
                        .and_then(Value::as_str)
                        .map(str::to_string)
                };
                let received_at = text("received_at")
                    .and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok())
                    .map(|t| t.with_timezone(&chrono::Utc))
                    .unwrap_or_default();
                found.insert(
                    item.key.sk.clone(),
                    StoredReceipt {
                        fingerprint: text("fingerprint"),
                        payload: text("payload"),
                        received_at,
                    },
                );
            }
        }
        Ok(found)
    }

    async fn ledger(
        &self,
        machine_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        let mut out = Vec::new();
        let mut day = from;
        while day <= to {
            let q = Query::partition(Index::Primary, ledger_partition(machine_id, day));
            for item in query_all(&self.items, q).await? {
                out.push(item.to_value::<VendFact>()?);
            }
            day = match day.succ_opt() {
                Some(d) => d,
                None => break,
            };
        }
        Ok(out)
    }

    /// Few machines: their day partitions; many: the fleet-wide day index, filtered.
    async fn ledger_of(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        if machine_ids.len() <= FEW_MACHINES {
            return ledger_machine_by_machine(self, machine_ids, from, to).await;
        }
        let wanted: HashSet<&str> = machine_ids.iter().map(String::as_str).collect();
        let mut out = Vec::new();
        for day in from.iter_days().take_while(|d| *d <= to) {
            let q = Query::partition(Index::Gsi1, format!("LEDGERDAY#{day}"));
            for item in query_all(&self.items, q).await? {
                let v = item.to_value::<VendFact>()?;
                if wanted.contains(v.machine_id.as_str()) {
                    out.push(v);
                }
            }
        }
        Ok(out)
    }

    async fn rollups(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        if query.from > query.to {
            return Ok(Vec::new());
        }
        let (lo, hi, by_product, monthly) = match query.grain {
            Grain::Day | Grain::DayProduct => (
                format!("D#{}", query.from),
                format!("D#{}", query.to),
                query.grain == Grain::DayProduct,
                false,
            ),
            Grain::Month | Grain::MonthProduct => {
                let (a, b) = query.months();
                (
                    month_sk(a),
                    month_sk(b),
                    query.grain == Grain::MonthProduct,
                    true,
                )
            }
        };
        let mut out = Vec::new();
        let mut machines = query.machine_ids.clone();
        machines.sort();
        machines.dedup();
        for machine in machines {
            let q = Query::partition(Index::Primary, rollup_partition(&machine))
                .sk(SortKey::Between(lo.clone(), hi.clone()));
            for item in query_all(&self.items, q).await? {
                let date = parse_sk(&item.key.sk, monthly)?;
                let (totals, products) = read_rollup(&item);
                if by_product {
                    for (product_id, figures) in products {
                        out.push(RollupRow {
                            machine_id: machine.clone(),
                            date,
                            product_id: Some(product_id),
                            figures,
                        });
                    }
                } else {
                    out.push(RollupRow {
                        machine_id: machine.clone(),
                        date,
                        product_id: None,
                        figures: totals,
                    });
                }
            }
        }
        Ok(out)
    }

    /// The month items of every shard over the span's months (a day grain reads the days
    /// inside them); by product, the packed products of the month items or of the day items.
    async fn fleet_rollups(&self, query: &RollupQuery) -> Result<Option<FleetRollups>, StoreError> {
        let daily = match query.grain {
            Grain::Day => true,
            Grain::Month => false,
            Grain::DayProduct | Grain::MonthProduct if !self.packed_reads => return Ok(None),
            Grain::DayProduct | Grain::MonthProduct => {
                return Ok(Some(packed::fleet_products(&self.items, query).await?))
            }
        };
        let mut out = FleetRollups::default();
        if query.from > query.to {
            return Ok(Some(out));
        }
        let (a, b) = query.months();
        for shard in 0..FLEET_SHARDS {
            let q = Query::partition(Index::Primary, fleet_partition(shard))
                .sk(SortKey::Between(month_sk(a), month_sk(b)));
            for item in query_all(&self.items, q).await? {
                let month = parse_sk(&item.key.sk, true)?;
                let (totals, days, machines) = read_fleet(&item, month);
                out.machines.extend(machines);
                if daily {
                    out.rows.extend(
                        days.into_iter()
                            .filter(|(d, _)| (query.from..=query.to).contains(d))
                            .map(|(date, figures)| RollupRow {
                                machine_id: String::new(),
                                date,
                                product_id: None,
                                figures,
                            }),
                    );
                } else {
                    out.rows.push(RollupRow {
                        machine_id: String::new(),
                        date: month,
                        product_id: None,
                        figures: totals,
                    });
                }
            }
        }
        Ok(Some(out))
    }

    /// One a shard the machines write to.
    fn packed_items(&self, machine_ids: &[String]) -> Option<usize> {
        self.packed_reads
            .then(|| packed::shards_of(machine_ids).len())
    }

    /// From the packed month or day items of the machines' shards.
    async fn machine_rollups(
        &self,
        query: &RollupQuery,
    ) -> Result<Option<Vec<RollupRow>>, StoreError> {
        if !self.packed_reads {
            return Ok(None);
        }
        packed::machine_rows(&self.items, query).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollup_items_read_back_totals_and_products() {
        let mut attrs = serde_json::Map::new();
        attrs.insert("t_q".into(), Value::from(5));
        attrs.insert("t_rev".into(), Value::from(900));
        attrs.insert("p_01ABC_q".into(), Value::from(3));
        attrs.insert("p__q".into(), Value::from(2));
        let item = Item::new(Key::new("ROLLUP#m", "D#2026-11-01"), attrs);
        let (t, p) = read_rollup(&item);
        assert_eq!(t.quantity, 5);
        assert_eq!(t.sales_minor, 900);
        assert_eq!(p["01ABC"].quantity, 3);
        assert_eq!(p[""].quantity, 2);
        assert_eq!(
            parse_sk("M#2026-02", true).unwrap(),
            "2026-02-01".parse::<NaiveDate>().unwrap()
        );
    }

    fn vend(machine: &str, product: &str, day: NaiveDate, n: usize) -> VendFact {
        use vendfleet_domain::events::{Payment, VendClass};
        let class = [
            VendClass::Sale,
            VendClass::Sale,
            VendClass::Free,
            VendClass::Test,
        ][n % 4];
        VendFact {
            // Ids as long as ULIDs.
            machine_id: format!("{machine:0>26}"),
            event_id: format!("e{n}"),
            at: day.and_hms_opt(12, 0, 0).unwrap().and_utc(),
            local_date: day,
            location_id: None,
            selection: "1".into(),
            product_id: format!("{product:0>26}"),
            quantity: 1,
            revenue_minor: 120,
            net_minor: 100,
            payment: if n.is_multiple_of(2) {
                Payment::Cash
            } else {
                Payment::Cashless
            },
            class,
            vat_bps: None,
        }
    }

    /// Commits as intake cuts them: vends added one at a time while the commit's cost stays
    /// within the limit.
    fn commits_of(store: &DynamoSalesStore, vends: Vec<VendFact>) -> Vec<Commit> {
        let mut out = Vec::new();
        let mut draft = Commit::default();
        for v in vends {
            let mut trial = draft.clone();
            trial.vends.push(v.clone());
            if !draft.is_empty() && store.cost(&trial) > MAX_TRANSACTION_WRITES {
                out.push(std::mem::take(&mut draft));
                draft.vends.push(v);
            } else {
                draft = trial;
            }
        }
        out.push(draft);
        out
    }

    /// The worst case of an update expression: every figure of every vend non-zero somewhere
    /// (cash, cashless, free and test vends), a different product and day for each vend, one
    /// machine (intake's commits) or many (a bulk commit), ids as long as ULIDs. Every commit
    /// cut by the cost stays within 100 items and DynamoDB's 4 KB expressions, and the
    /// expression rule is what cuts the one-machine stream.
    #[tokio::test]
    async fn no_commit_cut_by_the_cost_passes_dynamodbs_limits() {
        let config = aws_config::SdkConfig::builder()
            .behavior_version(aws_config::BehaviorVersion::latest())
            .build();
        let client = aws_sdk_dynamodb::Client::new(&config);
        let store = DynamoSalesStore::new(DynamoItemStore::new(client, "t"));
        let day0 = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
        let streams = [
            // One machine: each vend a new product on one of the month's days.
            (0..600)
                .map(|n| {
                    vend(
                        "m",
                        &n.to_string(),
                        day0 + chrono::Days::new(n as u64 % 31),
                        n,
                    )
                })
                .collect::<Vec<_>>(),
            // One machine, one day, a new product each vend: the packed items' widest case.
            (0..600)
                .map(|n| vend("m", &n.to_string(), day0, n))
                .collect(),
            // Many machines, many products and days.
            (0..600)
                .map(|n| {
                    let day = day0 + chrono::Days::new(n as u64 % 45);
                    vend(&(n % 37).to_string(), &(n % 53).to_string(), day, n)
                })
                .collect(),
        ];
        for (i, vends) in streams.into_iter().enumerate() {
            let commits = commits_of(&store, vends);
            let mut longest = 0;
            for c in &commits {
                let updates = updates(&c.vends);
                let items = c.vends.len() + updates.len();
                assert!(items <= MAX_TRANSACTION_WRITES, "stream {i}: {items} items");
                for u in &updates {
                    let (expression, names, _) = u.expression();
                    assert_eq!(expression.len(), u.expression_len());
                    assert!(expression.len() <= MAX_EXPRESSION, "stream {i}");
                    assert_eq!(names.len(), u.clauses.len());
                    longest = longest.max(expression.len());
                }
            }
            if i == 1 {
                assert!(
                    longest > 3_500,
                    "the expression rule cut stream {i}: {longest}"
                );
            }
        }
        // One vend alone is far below either limit.
        let one = updates(&[vend("m", "p", day0, 0)]);
        assert!(one.iter().all(|u| u.expression_len() < 400));
        assert_eq!(
            one.len(),
            4,
            "day and month rollups, fleet month and day items"
        );
    }
}
