//! The sales store behind the sales service: the only holder of the ledger and its rollups. Intake
//! commits machine events through it, planning reads velocities and the ledger through it, the
//! encashment report asks it for the cash sold between two collections.

use super::super::engine::{Delta, Zones};
use super::SalesService;
use crate::auth::Principal;
use crate::ports::sales::{Commit, StoredReceipt, WeekdayUnits};
use crate::ports::{Grain, Key, RollupQuery, RollupRow, SalesStore, StoreError};
use crate::AppResult;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::calendar::within_same_hours;
use vendfleet_domain::events::{Payment, VendClass};
use vendfleet_domain::sales::{Figures, VendFact};

impl SalesService {
    /// The ledger and its rollups themselves, for checks and tools (the services ask the
    /// methods below).
    pub fn store(&self) -> &Arc<dyn SalesStore> {
        &self.sales
    }

    /// The fleet (clients, locations), for the services drawn on sales.
    pub(crate) fn fleet(&self) -> &crate::fleet::FleetService {
        &self.fleet
    }

    /// The locations (whose zones make sales' local days), for the services drawn on sales.
    pub(crate) fn locations(&self) -> &crate::records::Records<crate::fleet::Location> {
        self.fleet.locations()
    }

    /// How many writes one commit may hold, and what a commit costs of it.
    pub(crate) fn commit_limit(&self) -> usize {
        self.sales.commit_limit()
    }

    pub(crate) fn cost(&self, commit: &Commit) -> usize {
        self.sales.cost(commit)
    }

    /// Stores a commit of machine events: the only way vends reach the ledger.
    /// With the engine, its columns take the commit's vends in the same step (`engine.rs`).
    /// The machines its item writes touch are marked once it is stored, in the same task.
    pub(crate) async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        let keys: Vec<Key> = commit.writes.iter().map(|w| w.key().clone()).collect();
        let delta = self.engine.as_ref().map(|_| Delta::of(&commit.vends));
        let (store, touched) = (self.sales.clone(), self.touched.clone());
        let write = async move {
            let out = store.commit(commit).await;
            if let Some(touched) = touched {
                touched.mark(&keys);
            }
            out
        };
        match (&self.engine, delta) {
            (Some(engine), Some(delta)) => engine.commit(delta, write).await,
            _ => write.await,
        }
    }

    /// The receipts of events already taken from a machine, by event id.
    pub(crate) async fn receipts(
        &self,
        machine_id: &str,
        event_ids: &[String],
    ) -> Result<HashMap<String, StoredReceipt>, StoreError> {
        self.sales.receipts(machine_id, event_ids).await
    }

    /// A machine's vends of the days `from` to `to` (local), in time order.
    pub(crate) async fn ledger(
        &self,
        machine_id: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<VendFact>, StoreError> {
        self.sales.ledger(machine_id, from, to).await
    }

    /// Rollup rows of the query (machines × days or months).
    pub(crate) async fn rollups(&self, query: &RollupQuery) -> Result<Vec<RollupRow>, StoreError> {
        self.sales.rollups(query).await
    }

    /// Units out by machine, product and weekday over the days `from` to `to` (from the engine
    /// where there is one).
    pub(crate) async fn weekday_units(
        &self,
        machine_ids: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Vec<WeekdayUnits>> {
        if let Some(engine) = self.engine().await? {
            if let Some(units) = engine.weekday_units(machine_ids, from, to) {
                return Ok(units);
            }
        }
        Ok(self.sales.weekday_units(machine_ids, from, to).await?)
    }

    /// Cash sales of a machine after `from` up to and including `to` (instants with their local
    /// days): the ledger on the two edge days, the day rollups for the whole days between.
    pub async fn cash_sales(
        &self,
        machine_id: &str,
        from: (DateTime<Utc>, NaiveDate),
        to: (DateTime<Utc>, NaiveDate),
    ) -> AppResult<i64> {
        let sales = &self.sales;
        let cash = |v: &VendFact| {
            let counted = v.class == VendClass::Sale
                && v.payment == Payment::Cash
                && v.at > from.0
                && v.at <= to.0;
            if counted {
                v.revenue_minor
            } else {
                0
            }
        };
        let mut total = 0;
        let edges: BTreeSet<NaiveDate> = [from.1, to.1].into();
        for day in edges {
            total += sales
                .ledger(machine_id, day, day)
                .await?
                .iter()
                .map(cash)
                .sum::<i64>();
        }
        let (a, b) = (from.1 + Duration::days(1), to.1 - Duration::days(1));
        if a <= b {
            let rows = sales
                .rollups(&RollupQuery {
                    machine_ids: vec![machine_id.to_string()],
                    from: a,
                    to: b,
                    grain: Grain::Day,
                })
                .await?;
            total += rows.iter().map(|r| r.figures.cash_minor).sum::<i64>();
        }
        Ok(total)
    }

    /// The sales of each of `days` (before today) that `p` may see, up to the same wall-clock
    /// time as now in each sale's location's zone (`within_same_hours`): what "today so far" is
    /// compared with. From the engine's hours of the day where there is an engine (built from
    /// the whole fleet's ledger of the day once, until a commit touches it), else from the
    /// ledger (rollups hold whole days).
    pub async fn so_far(&self, p: &Principal, days: &[NaiveDate]) -> AppResult<Vec<Figures>> {
        let (now, today) = (self.calendar.now(), self.calendar.today());
        let query = super::SalesParams::default().check(today)?;
        let (machines, locations, _) = self.choose(p, &query).await?;
        let ids: Vec<&str> = machines.iter().map(|m| m.id.as_str()).collect();
        let zones = Zones {
            by_location: Arc::new(
                locations
                    .iter()
                    .map(|l| {
                        (
                            l.id.clone(),
                            self.calendar.zone_or_operator(Some(&l.time_zone)),
                        )
                    })
                    .collect(),
            ),
            operator: self.calendar.zone_or_operator(None),
        };
        let mut out = Vec::with_capacity(days.len());
        for &day in days {
            let days_back = (today - day).num_days();
            if let Some(engine) = self.engine().await? {
                let fleet = async {
                    let all =
                        self.machines.machines().all().await.map_err(|e| {
                            StoreError::Backend(format!("the fleet's machines: {e}"))
                        })?;
                    let all: Vec<String> = all.into_iter().map(|m| m.id).collect();
                    self.sales.ledger_of(&all, day, day).await
                };
                let hours = engine.hours(day, &zones, fleet).await?;
                out.push(hours.within(&ids, days_back, now));
                continue;
            }
            let mut figures = Figures::default();
            let owned: Vec<String> = ids.iter().map(|id| id.to_string()).collect();
            for v in self.sales.ledger_of(&owned, day, day).await? {
                if within_same_hours(v.at, days_back, now, zones.of(v.location_id.as_deref())) {
                    figures.add(&Figures::of(&v));
                }
            }
            out.push(figures);
        }
        Ok(out)
    }
}
