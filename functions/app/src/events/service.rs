//! The machine-events service: the webhook's checks (machine, signature, body), intake, and
//! the reads other areas make of what events left (status, encashments, audit reads).

use super::draft::Draft;
use super::intake::{self, reused_ids, Applied, Context, Prepared, INTAKE_BUDGET};
use super::model::{Encashment, IntakeAnomaly, MachineStatus, SeenEvent};
use crate::error::{AppError, AppResult};
use crate::machines::MachinesService;
use crate::ports::{query_all, Index, ItemStore, JobQueue, Key, Query, SortKey, StoreError};
use crate::products::ProductLookup;
use crate::users::Directory;
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use vendfleet_domain::events::{
    parse_batch, verify_signature, BatchError, EventKind, MachineEvent, Receipt, Rejected,
};
use vendfleet_domain::FieldErrors;

mod anomalies;
mod review;

pub use review::{AuditEntry, AuditPreview, Review};

/// One webhook request as it arrived.
#[derive(Debug, Clone, Copy)]
pub struct Delivery<'a> {
    pub machine_id: &'a str,
    /// `X-Vendfleet-Timestamp`, when sent.
    pub timestamp: Option<&'a str>,
    /// `X-Vendfleet-Signature`, when sent.
    pub signature: Option<&'a str>,
    /// The raw body, as signed.
    pub body: &'a [u8],
}

/// Events of one machine handed from the webhook to the worker (AWS): a queue job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EventsJob {
    pub machine_id: String,
    pub events: Vec<MachineEvent>,
}

/// Most bytes of one queued job (SQS takes 256 KiB per message).
pub const MAX_JOB_BYTES: usize = 200 * 1024;

/// The service.
#[derive(Clone)]
pub struct EventsService {
    pub(super) store: Arc<dyn ItemStore>,
    pub(super) sales: crate::sales::SalesService,
    pub(super) machines: MachinesService,
    pub(super) products: ProductLookup,
    pub(super) directory: Directory,
    pub(super) calendar: crate::Calendar,
    /// Set on AWS: the webhook queues valid events for the worker instead of applying them.
    pub(super) handoff: Option<Arc<dyn JobQueue>>,
    /// One turn per machine: this process's intake steps and reviews of a machine run one at
    /// a time, so that concurrent batches queue rather than collide.
    turns: Arc<std::sync::Mutex<HashMap<String, std::sync::Weak<tokio::sync::Mutex<()>>>>>,
}

/// The pause before the `attempt`-th retry of a commit: 10 ms doubling up to 320 ms, with up to
/// as much again at random so that processes retrying together drift apart.
fn backoff(attempt: u32) -> std::time::Duration {
    use rand::Rng;
    let base = 10u64 << attempt.min(5);
    std::time::Duration::from_millis(base + rand::rng().random_range(0..=base))
}

fn unauthorized() -> AppError {
    AppError::Unauthorized("Unknown or inactive machine.".into())
}

impl EventsService {
    /// A service applying events itself (embedded), or handing them to a queue (`handoff`).
    pub fn new(
        store: Arc<dyn ItemStore>,
        sales: crate::sales::SalesService,
        machines: MachinesService,
        directory: Directory,
        calendar: crate::Calendar,
        handoff: Option<Arc<dyn JobQueue>>,
    ) -> Self {
        EventsService {
            products: ProductLookup::new(store.clone()),
            store,
            sales,
            machines,
            directory,
            calendar,
            handoff,
            turns: Arc::default(),
        }
    }

    /// Waits for the machine's turn (see [`EventsService::turns`]), at most `budget`.
    pub(super) async fn turn_within(
        &self,
        machine_id: &str,
        budget: std::time::Duration,
    ) -> AppResult<tokio::sync::OwnedMutexGuard<()>> {
        let lock = {
            let mut turns = self.turns.lock().unwrap_or_else(|e| e.into_inner());
            if turns.len() > 4096 {
                turns.retain(|_, w| w.strong_count() > 0);
            }
            match turns.get(machine_id).and_then(std::sync::Weak::upgrade) {
                Some(lock) => lock,
                None => {
                    let lock = Arc::new(tokio::sync::Mutex::new(()));
                    turns.insert(machine_id.to_string(), Arc::downgrade(&lock));
                    lock
                }
            }
        };
        tokio::time::timeout(budget, lock.lock_owned())
            .await
            .map_err(|_| intake::too_busy())
    }

    /// The machine's turn, waited for within [`INTAKE_BUDGET`].
    pub(super) async fn intake_turn(
        &self,
        machine_id: &str,
    ) -> AppResult<tokio::sync::OwnedMutexGuard<()>> {
        self.turn_within(machine_id, INTAKE_BUDGET).await
    }

    /// A webhook request: 401 unless the machine exists, is active and signed the body within
    /// the window; 413/400 for a body that is no batch; else each event is stored or rejected on
    /// its own, and the answer counts them.
    pub async fn receive(&self, d: Delivery<'_>) -> AppResult<Receipt> {
        let now = self.calendar.now();
        let machine = self
            .machines
            .machines()
            .get(d.machine_id)
            .await?
            .filter(|m| !m.inactive)
            .ok_or_else(unauthorized)?;
        verify_signature(
            machine.webhook_secret.as_bytes(),
            d.timestamp,
            d.signature,
            d.body,
            now.timestamp(),
        )
        .map_err(|e| AppError::Unauthorized(e.to_string()))?;
        let mut batch = parse_batch(d.body, now).map_err(batch_error)?;
        let mut prepared = self.check_references(&mut batch).await?;
        // Ids used twice with other content in the body: the first stands, the others are kept
        // as anomalies.
        let in_body: Vec<IntakeAnomaly> = batch
            .reused
            .iter()
            .filter_map(|r| {
                let first = batch.events.iter().find(|e| e.index == r.first_index)?;
                Some(IntakeAnomaly::reused(
                    &machine.id,
                    &r.event,
                    SeenEvent::of(&first.event, now),
                    now,
                ))
            })
            .collect();
        self.record_anomalies(&in_body).await?;
        let events: Vec<MachineEvent> = batch.events.iter().map(|e| e.event.clone()).collect();
        let applied = match &self.handoff {
            Some(queue) => self.hand_off(queue.as_ref(), &machine.id, events).await?,
            None => {
                let machine_id = machine.id.clone();
                prepared.machine = Some(machine);
                self.apply_events(&machine_id, &events, true, prepared)
                    .await?
            }
        };
        let reused = applied
            .reused
            .iter()
            .map(|r| {
                vendfleet_domain::events::rejection(
                    batch.events[r.event].index,
                    &r.id,
                    Some(r.first.received_at),
                )
            })
            .collect();
        Ok(batch.receipt(applied.already, reused))
    }

    /// Rejects the valid events that name what does not exist: an audit file that cannot be
    /// read, a product that is not in the catalogue. What it read is kept for the intake: the
    /// products named and each audit file parsed (by the kept event's index).
    async fn check_references(
        &self,
        batch: &mut vendfleet_domain::events::Batch,
    ) -> AppResult<Prepared> {
        let named: BTreeSet<String> = batch
            .events
            .iter()
            .filter_map(|e| match &e.event.kind {
                EventKind::Vend(v) => v.product_id.clone(),
                _ => None,
            })
            .collect();
        let products = self.products.refs(named).await?;
        let mut files = HashMap::new();
        let mut kept = Vec::with_capacity(batch.events.len());
        for e in std::mem::take(&mut batch.events) {
            let mut errors = FieldErrors::new();
            let mut file = None;
            match &e.event.kind {
                EventKind::Vend(v) => {
                    if let Some(p) = &v.product_id {
                        if !products.contains_key(p) {
                            errors.add("product_id", "Unknown product.");
                        }
                    }
                }
                EventKind::Dex { content } => match vendfleet_domain::dex::parse(content) {
                    Ok(parsed) => file = Some(parsed),
                    Err(err) => errors.add("content", format!("Not a readable audit file: {err}.")),
                },
                _ => {}
            }
            if errors.is_empty() {
                if let Some(file) = file {
                    files.insert(kept.len(), file);
                }
                kept.push(e);
            } else {
                batch.rejected.push(Rejected {
                    index: e.index,
                    id: Some(e.event.id.clone()),
                    errors,
                });
            }
        }
        batch.rejected.sort_by_key(|r| r.index);
        batch.events = kept;
        Ok(Prepared {
            machine: None,
            products,
            files: Arc::new(files),
            history: false,
        })
    }

    /// Queues events for the worker, in jobs small enough for the queue; answers how many had
    /// receipts already and which reuse a stored id with other content (a hint for the answer:
    /// the worker's receipts decide, and keep the anomalies of reuses racing their first).
    async fn hand_off(
        &self,
        queue: &dyn JobQueue,
        machine_id: &str,
        events: Vec<MachineEvent>,
    ) -> AppResult<Applied> {
        let ids: Vec<Vec<String>> = events.iter().map(|e| vec![e.id.clone()]).collect();
        let flat: Vec<String> = ids.iter().flatten().cloned().collect();
        let stored = self.sales.receipts(machine_id, &flat).await?;
        let reused = reused_ids(&events, &ids, &stored);
        let now = self.calendar.now();
        let anomalies: Vec<IntakeAnomaly> = reused
            .iter()
            .map(|r| IntakeAnomaly::reused(machine_id, &events[r.event], (&r.first).into(), now))
            .collect();
        self.record_anomalies(&anomalies).await?;
        let already = events.iter().filter(|e| stored.contains_key(&e.id)).count() - reused.len();
        let fresh: Vec<MachineEvent> = events
            .into_iter()
            .filter(|e| !stored.contains_key(&e.id))
            .collect();
        let mut job = EventsJob {
            machine_id: machine_id.to_string(),
            events: Vec::new(),
        };
        let mut size = 0;
        for e in fresh {
            let bytes = serde_json::to_vec(&e).map_or(0, |b| b.len());
            if !job.events.is_empty() && size + bytes > MAX_JOB_BYTES {
                enqueue(queue, &job).await?;
                job.events.clear();
                size = 0;
            }
            size += bytes;
            job.events.push(e);
        }
        if !job.events.is_empty() {
            enqueue(queue, &job).await?;
        }
        Ok(Applied {
            stored: 0,
            already,
            reused,
        })
    }

    /// Applies a queued job (the worker).
    pub async fn run_job(&self, payload: &str) -> AppResult<Applied> {
        let job: EventsJob = serde_json::from_str(payload)
            .map_err(|e| AppError::Internal(format!("events job: {e}")))?;
        self.apply(&job.machine_id, &job.events).await
    }

    /// Applies valid events of a machine exactly once (see [`intake`]): in the machine's turn,
    /// a step that met a changed item runs again after a pause, within [`INTAKE_BUDGET`]; past
    /// it, 503 with [`intake::RETRY_AFTER_SECS`]. An event whose id is stored with other content is not
    /// applied: it is answered in [`Applied::reused`] and kept as an intake anomaly.
    pub async fn apply(&self, machine_id: &str, events: &[MachineEvent]) -> AppResult<Applied> {
        self.apply_events(machine_id, events, true, Prepared::default())
            .await
    }

    /// Books imported sales history of a machine exactly once, as [`Self::apply`] does, except
    /// that its vends move neither stock nor the machine's live status (what it last sold, when
    /// it was last seen): they happened before the machine's life in Vendfleet. An id stored
    /// already is a duplicate.
    pub async fn apply_history(
        &self,
        machine_id: &str,
        events: &[MachineEvent],
    ) -> AppResult<Applied> {
        let prepared = Prepared {
            history: true,
            ..Prepared::default()
        };
        // An id stored already is the same sale, whatever its content: the feed's message and
        // the export's row of one transaction are written differently.
        self.apply_events(machine_id, events, false, prepared).await
    }

    /// [`Self::apply`]; with `check_reuse` false an id already stored is a duplicate whatever
    /// its content (an upload, whose id is its content's digest). What the caller read is
    /// `prepared` (the first attempt uses it); each audit file is parsed once, before the
    /// attempts.
    pub(super) async fn apply_events(
        &self,
        machine_id: &str,
        events: &[MachineEvent],
        check_reuse: bool,
        mut prepared: Prepared,
    ) -> AppResult<Applied> {
        let started = tokio::time::Instant::now();
        prepared.parse_files(events)?;
        let _turn = self.intake_turn(machine_id).await?;
        let limit = self.sales.commit_limit();
        let units = intake::units(events, limit != usize::MAX);
        let ids: Vec<String> = units.iter().map(|u| u.receipt_id.clone()).collect();
        let mut parts: Vec<Vec<String>> = vec![Vec::new(); events.len()];
        for u in &units {
            parts[u.event].push(u.receipt_id.clone());
        }
        let mut first_known: Option<HashSet<String>> = None;
        let mut attempt = 0;
        loop {
            let ctx = self
                .context(machine_id, events, &mut prepared, attempt == 0)
                .await?;
            let stored = self.sales.receipts(machine_id, &ids).await?;
            let reused = if check_reuse {
                reused_ids(events, &parts, &stored)
            } else {
                Vec::new()
            };
            // A reused id's event is left alone, as if stored.
            let mut known: HashSet<String> = stored.into_keys().collect();
            for r in &reused {
                known.extend(parts[r.event].iter().cloned());
            }
            let first = first_known.get_or_insert_with(|| known.clone()).clone();
            match self.commit_pending(&ctx, &units, &known, limit).await {
                Ok(()) => {
                    let now = ctx.received_at;
                    let anomalies: Vec<IntakeAnomaly> = reused
                        .iter()
                        .map(|r| {
                            IntakeAnomaly::reused(
                                machine_id,
                                &events[r.event],
                                (&r.first).into(),
                                now,
                            )
                        })
                        .collect();
                    self.record_anomalies(&anomalies).await?;
                    // Reused ids count apart: neither stored nor already there.
                    let mut before = first;
                    for r in &reused {
                        before.extend(parts[r.event].iter().cloned());
                    }
                    let mut applied = intake::tally(&units, &before, events.len());
                    applied.already -= reused.len().min(applied.already);
                    applied.reused = reused;
                    return Ok(applied);
                }
                Err(StoreError::ConditionFailed { .. }) => {}
                Err(e) => return Err(e.into()),
            }
            let pause = backoff(attempt);
            if started.elapsed() + pause >= INTAKE_BUDGET {
                return Err(intake::too_busy());
            }
            tokio::time::sleep(pause).await;
            attempt += 1;
        }
    }

    async fn commit_pending(
        &self,
        ctx: &Context,
        units: &[intake::Unit<'_>],
        known: &HashSet<String>,
        limit: usize,
    ) -> Result<(), StoreError> {
        let now = ctx.received_at;
        let mut draft = Draft::new(ctx);
        for u in units.iter().filter(|u| !known.contains(&u.receipt_id)) {
            if limit == usize::MAX {
                draft.apply(u)?;
                continue;
            }
            let mut trial = draft.clone();
            trial.apply(u)?;
            if !draft.is_empty() && self.sales.cost(&trial.commit(now)?) > limit {
                self.sales.commit(draft.commit(now)?).await?;
                draft.committed();
                draft.apply(u)?;
            } else {
                draft = trial;
            }
        }
        if !draft.is_empty() {
            self.sales.commit(draft.commit(now)?).await?;
            draft.committed();
        }
        Ok(())
    }

    /// What a step reads before it works out effects; the first attempt takes what the caller
    /// read already from `prepared` (the machine, the products it named).
    pub(super) async fn context(
        &self,
        machine_id: &str,
        events: &[MachineEvent],
        prepared: &mut Prepared,
        first: bool,
    ) -> AppResult<Context> {
        let machine = match prepared.machine.take().filter(|_| first) {
            Some(machine) => self.machines.intake_context_of(machine).await?,
            None => self
                .machines
                .intake_context(machine_id)
                .await?
                .ok_or_else(|| AppError::NotFound("Machine not found".into()))?,
        };
        let mut product_ids: BTreeSet<String> = machine
            .selections
            .iter()
            .map(|s| s.product_id.clone())
            .collect();
        let mut employee_ids = BTreeSet::new();
        for e in events {
            match &e.kind {
                EventKind::Vend(v) => product_ids.extend(v.product_id.clone()),
                EventKind::Refill(r) => employee_ids.extend(r.employee_id.clone()),
                EventKind::CashCollection(c) => employee_ids.extend(c.employee_id.clone()),
                _ => {}
            }
        }
        let products = if first {
            let mut products = prepared.products.clone();
            product_ids.retain(|id| !products.contains_key(id));
            products.extend(self.products.refs(product_ids).await?);
            products
        } else {
            self.products.refs(product_ids).await?
        };
        let mut employees = HashMap::new();
        for id in employee_ids {
            if let Some(u) = self.directory.user(&id).await? {
                employees.insert(id, u.name);
            }
        }
        let status = self.status(machine_id).await?;
        // The latest read's local day: what the machine usually sold before it judges a jump.
        let read_day = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Dex { .. }))
            .map(|e| e.local_date(machine.zone))
            .max();
        let (audits, usual) = match read_day {
            Some(day) => (
                self.audit_line(machine_id).await?,
                self.usual(machine_id, day).await?,
            ),
            None => Default::default(),
        };
        Ok(Context {
            files: prepared.files.clone(),
            machine,
            products,
            employees,
            status,
            audits,
            usual,
            received_at: self.calendar.now(),
            history: prepared.history,
        })
    }

    /// What the machine usually sold in the days before `read_day` (see [`Usual::over`]).
    ///
    /// [`Usual::over`]: vendfleet_domain::audit::Usual::over
    pub(super) async fn usual(
        &self,
        machine_id: &str,
        read_day: chrono::NaiveDate,
    ) -> AppResult<Option<vendfleet_domain::audit::Usual>> {
        use vendfleet_domain::audit::{Usual, USUAL_DAYS};
        let rows = self
            .sales
            .rollups(&crate::ports::RollupQuery {
                machine_ids: vec![machine_id.to_string()],
                from: read_day - chrono::Duration::days(USUAL_DAYS),
                to: read_day - chrono::Duration::days(1),
                grain: crate::ports::Grain::Day,
            })
            .await?;
        Ok(Usual::over(
            rows.iter().map(|r| (r.date, r.figures.quantity)),
            read_day,
        ))
    }

    /// The live status of a machine (no access check: the caller checked the machine).
    pub async fn status(&self, machine_id: &str) -> AppResult<Option<MachineStatus>> {
        match self.store.get(&MachineStatus::key(machine_id)).await? {
            Some(item) => Ok(Some(MachineStatus::from_item(&item)?)),
            None => Ok(None),
        }
    }

    /// The machine overview: the machine's settings, overlaid with what its events reported
    /// (telemetry by latest reading; last sale, refill, encashment and update).
    pub async fn overview(
        &self,
        p: &crate::auth::Principal,
        machine_id: &str,
    ) -> AppResult<crate::machines::Overview> {
        let mut o = self.machines.overview(p, machine_id).await?;
        let Some(st) = self.status(machine_id).await? else {
            return Ok(o);
        };
        let latest = |a: Option<DateTime<Utc>>, b: Option<DateTime<Utc>>| a.max(b);
        if let Some(v) = st.text("connection_method") {
            o.machine.connection_method = v;
        }
        if let Some(v) = st.text("protocol") {
            o.machine.protocol = v;
        }
        if let Some(v) = st.text("firmware") {
            o.machine.firmware = v;
        }
        if !o.machine.inactive {
            if let Some(v) = st.text("status") {
                o.status = v;
            }
        }
        o.last_sale = latest(o.last_sale, st.last_sale);
        o.last_refill = latest(o.last_refill, st.last_refill);
        o.last_encashment = latest(o.last_encashment, st.last_encashment);
        o.last_updated = latest(o.last_updated, st.last_updated);
        o.cash_box_minor = st.int("cash_box_minor").or(o.cash_box_minor);
        o.bill_stacker_minor = st.int("bill_stacker_minor").or(o.bill_stacker_minor);
        o.tubes_minor = st.int("tubes_minor").or(o.tubes_minor);
        o.power = st.text("power").or(o.power);
        o.signal = st.int("signal").or(o.signal);
        Ok(o)
    }

    /// The cash collections of the given machines over local days `from..=to`, newest first
    /// (no access check: the caller passes the machines the user may see).
    pub async fn encashments(
        &self,
        machine_ids: &BTreeSet<String>,
        from: NaiveDate,
        to: NaiveDate,
    ) -> AppResult<Vec<Encashment>> {
        let mut out = Vec::new();
        let mut day = from;
        while day <= to {
            let q = Query::partition(Index::Gsi1, Encashment::day_partition(day));
            for item in query_all(self.store.as_ref(), q).await? {
                let row: Encashment = item.to_value()?;
                if machine_ids.contains(&row.stamp.machine_id) {
                    out.push(row);
                }
            }
            day += chrono::Duration::days(1);
        }
        out.sort_by(|a, b| b.at.cmp(&a.at).then_with(|| b.id.cmp(&a.id)));
        Ok(out)
    }

    /// The machine's collection before `row` (in time), if any.
    pub async fn previous_encashment(&self, row: &Encashment) -> AppResult<Option<Encashment>> {
        let item = row.to_item()?;
        let q = Query::partition(Index::Primary, item.key.pk.clone())
            .sk(SortKey::Between(
                Encashment::PREFIX.to_string(),
                item.key.sk.clone(),
            ))
            .backward()
            .limit(2);
        let page = self.store.query(q).await?;
        page.items
            .iter()
            .find(|i| i.key.sk != item.key.sk)
            .map(|i| i.to_value().map_err(AppError::from))
            .transpose()
    }

    /// The machine's latest cash collection, if any.
    pub async fn last_encashment(
        &self,
        machine_id: &str,
    ) -> AppResult<Option<crate::events::Encashment>> {
        let q = Query::partition(
            Index::Primary,
            crate::machines::Machine::partition(machine_id),
        )
        .sk(SortKey::BeginsWith(
            crate::events::Encashment::PREFIX.into(),
        ))
        .backward()
        .limit(1);
        let page = self.store.query(q).await?;
        page.items
            .first()
            .map(|i| i.to_value().map_err(AppError::from))
            .transpose()
    }

    /// The status of each of these machines that has one.
    pub async fn statuses(
        &self,
        machine_ids: &[String],
    ) -> AppResult<HashMap<String, MachineStatus>> {
        let mut out = HashMap::new();
        for chunk in machine_ids.chunks(crate::ports::MAX_BATCH) {
            let keys: Vec<Key> = chunk.iter().map(|id| MachineStatus::key(id)).collect();
            for item in self.store.batch_get(&keys).await? {
                let st = MachineStatus::from_item(&item)?;
                out.insert(st.machine_id.clone(), st);
            }
        }
        Ok(out)
    }

    /// The current instant of the service's clock.
    pub fn now(&self) -> DateTime<Utc> {
        self.calendar.now()
    }
}

async fn enqueue(queue: &dyn JobQueue, job: &EventsJob) -> AppResult<()> {
    let payload =
        serde_json::to_string(job).map_err(|e| AppError::Internal(format!("events job: {e}")))?;
    queue.enqueue(&payload).await?;
    Ok(())
}

fn batch_error(e: BatchError) -> AppError {
    match e {
        BatchError::TooLarge { .. } => AppError::TooLarge(e.to_string()),
        other => AppError::Validation {
            message: other.to_string(),
            errors: FieldErrors::single("events", other.to_string()),
        },
    }
}
