//! An intake step's effects worked out in memory (`Draft`): stock, ledger rows, refill log,
//! encashments, audit reads judged against the machine's line, status and receipts — then
//! committed all or nothing by the service (see `intake.rs` for the step and its retries).

use super::audits::AuditLine;
use super::intake::{Context, Unit};
use super::model::{AuditRead, AuditState, Encashment, MachineStatus};
use crate::fleet::MachineStamp;
use crate::machines::{RefillEntry, SalesSource, Selection};
use crate::ports::sales::{Commit, EventReceipt};
use crate::ports::{Condition, StoreError, Write};
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use vendfleet_domain::events::{EventKind, Payment, VendClass};
use vendfleet_domain::sales::VendFact;

/// The effects worked out so far, and what the store holds.
#[derive(Clone)]
pub(crate) struct Draft<'c> {
    ctx: &'c Context,
    selections: HashMap<String, Selection>,
    /// Version of each selection in the store.
    stored: HashMap<String, u64>,
    touched: BTreeSet<String>,
    status: MachineStatus,
    /// Version of the status item in the store, `None` when there is none.
    status_stored: Option<u64>,
    status_touched: bool,
    receipts: Vec<EventReceipt>,
    vends: Vec<VendFact>,
    rows: Vec<Write>,
    audits: AuditLine,
    /// Audit reads to write, by sort key, with the version the store holds (`None`: new).
    reads: BTreeMap<String, (AuditRead, Option<u64>)>,
}

impl<'c> Draft<'c> {
    pub fn new(ctx: &'c Context) -> Self {
        let selections: HashMap<String, Selection> = ctx
            .machine
            .selections
            .iter()
            .map(|s| (s.selection.clone(), s.clone()))
            .collect();
        let stored = selections
            .iter()
            .map(|(k, s)| (k.clone(), s.version))
            .collect();
        let (status, status_stored) = match &ctx.status {
            Some(s) => (s.clone(), Some(s.version)),
            None => (
                MachineStatus {
                    machine_id: ctx.machine.machine.id.clone(),
                    ..MachineStatus::default()
                },
                None,
            ),
        };
        Draft {
            ctx,
            selections,
            stored,
            touched: BTreeSet::new(),
            status,
            status_stored,
            status_touched: false,
            receipts: Vec::new(),
            vends: Vec::new(),
            rows: Vec::new(),
            audits: ctx.audits.clone(),
            reads: BTreeMap::new(),
        }
    }

    /// Adds a receipt of something other than a machine event (a review of a held read).
    pub fn receipt(&mut self, event_id: String, kind: &str, at: DateTime<Utc>) {
        self.receipts.push(EventReceipt {
            machine_id: self.ctx.machine.machine.id.clone(),
            event_id,
            kind: kind.to_string(),
            at,
            received_at: self.ctx.received_at,
            fingerprint: None,
            payload: None,
        });
    }

    /// Adds an unconditional put (a log row keyed by its event) to the pending commit.
    fn put_row(&mut self, item: crate::ports::Item) {
        self.rows.push(Write::Put {
            item,
            condition: None,
        });
    }

    /// Books an audit read's difference: per selection that moved, a ledger row for its cash
    /// and one for its cashless sales (the audit's own split), one for its free and one for its
    /// test vends; every unit leaves stock.
    pub fn count_read(&mut self, read: &AuditRead) {
        let Some(diff) = &read.diff else { return };
        let ctx = self.ctx;
        let machine = &ctx.machine.machine;
        let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let money = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        for (code, d) in &diff.deltas {
            let product_id = self
                .selections
                .get(code)
                .map(|s| s.product_id.clone())
                .unwrap_or_default();
            let vat = ctx.products.get(&product_id).map_or(0, |p| p.vat_bps);
            if let Some(s) = self.selections.get_mut(code) {
                s.current -= i64::try_from(d.units()).unwrap_or(i64::MAX);
                if d.vends > 0 && s.last_purchase.is_none_or(|l| l < read.at) {
                    s.last_purchase = Some(read.at);
                }
                self.touched.insert(code.clone());
            }
            let rows = [
                (
                    "",
                    d.cash_vends,
                    d.cash_minor,
                    Payment::Cash,
                    VendClass::Sale,
                ),
                (
                    "#cashless",
                    d.cashless_vends,
                    d.cashless_minor,
                    Payment::Cashless,
                    VendClass::Sale,
                ),
                ("#free", d.free_vends, 0, Payment::Cash, VendClass::Free),
                ("#test", d.test_vends, 0, Payment::Cash, VendClass::Test),
            ];
            for (suffix, quantity, revenue, payment, class) in rows {
                if quantity == 0 && revenue == 0 {
                    continue;
                }
                let revenue = money(revenue);
                self.vends.push(VendFact {
                    machine_id: machine.id.clone(),
                    event_id: format!("{}#{code}{suffix}", read.id),
                    at: read.at,
                    local_date: read.local_date,
                    location_id: machine.location_id.clone(),
                    selection: code.clone(),
                    product_id: product_id.clone(),
                    quantity: count(quantity),
                    revenue_minor: revenue,
                    net_minor: vendfleet_domain::events::net_of_vat(revenue, vat),
                    payment,
                    class,
                    vat_bps: Some(vat),
                });
            }
        }
        if diff.vends() > 0 {
            self.status.sold(read.at);
        }
        // Every booking moves the status, so that intake and reviews of a machine never
        // decide from the same reads at once.
        self.status_touched = true;
    }

    /// Writes `read` with the pending commit: new when the store has no version of it.
    pub fn stage_read(&mut self, mut read: AuditRead, stored: Option<u64>) {
        let sk = read.key().sk;
        match self.reads.get_mut(&sk) {
            Some((pending, _)) => {
                read.version = pending.version;
                *pending = read;
            }
            None => {
                if let Some(v) = stored {
                    read.version = v + 1;
                }
                self.reads.insert(sk, (read, stored));
            }
        }
    }

    /// Makes `read` the machine's baseline, superseding the held reads older than it; answers
    /// the read with its counters (carried from the old baseline with `carry`).
    pub fn advance(&mut self, read: AuditRead, carry: bool) -> AuditRead {
        for gone in self.audits.advance(read, carry) {
            let stored = gone.version;
            self.stage_read(gone, Some(stored));
        }
        self.audits
            .baseline
            .clone()
            .expect("advance sets the baseline")
    }

    /// Replaces the machine's baseline line (a review reads the whole history itself).
    pub fn replace_audits(&mut self, line: AuditLine) {
        self.audits = line;
    }

    /// Writes the status with the commit, so that the commit fails if another step of the
    /// machine committed since this one read it.
    pub fn touch_status(&mut self) {
        self.status_touched = true;
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.receipts.is_empty()
    }

    /// Works out the effects of one unit.
    pub fn apply(&mut self, unit: &Unit<'_>) -> Result<(), StoreError> {
        let ctx = self.ctx;
        let e = unit.at;
        let at = e.at_utc();
        let machine = &ctx.machine.machine;
        let local_date = e.local_date(ctx.machine.zone);
        // The event is kept with its first (or only) part's receipt, its fingerprint with each.
        let first_part = unit.lines.as_ref().is_none_or(|r| r.start == 0);
        self.receipts.push(EventReceipt {
            machine_id: machine.id.clone(),
            event_id: unit.receipt_id.clone(),
            kind: e.kind.type_name().to_string(),
            at,
            received_at: ctx.received_at,
            fingerprint: Some(vendfleet_domain::events::reuse::fingerprint(e)),
            payload: first_part
                .then(|| vendfleet_domain::events::reuse::kept_payload(e))
                .flatten(),
        });
        if !ctx.history {
            self.status.seen(at);
            self.status_touched = true;
        }
        match &e.kind {
            // An `audit` machine's sales (and the stock they take) come from its audits' differences;
            // its vend events are received and noted, never counted a second time.
            EventKind::Vend(_) if machine.sales_source == SalesSource::Audit => {}
            EventKind::Vend(v) => {
                let class = v.class();
                let planned = self.selections.get(&v.selection);
                let product_id = v
                    .product_id
                    .clone()
                    .or_else(|| planned.map(|s| s.product_id.clone()))
                    .unwrap_or_default();
                let vat = ctx.products.get(&product_id).map_or(0, |p| p.vat_bps);
                let revenue = v.revenue_minor();
                match self.selections.get_mut(&v.selection) {
                    Some(_) if ctx.history => {}
                    Some(s) => {
                        s.current -= i64::from(v.quantity);
                        if class == VendClass::Sale && s.last_purchase.is_none_or(|l| l < at) {
                            s.last_purchase = Some(at);
                        }
                        self.touched.insert(v.selection.clone());
                    }
                    None => {}
                }
                if class == VendClass::Sale && !ctx.history {
                    self.status.sold(at);
                }
                self.vends.push(VendFact {
                    machine_id: machine.id.clone(),
                    event_id: unit.receipt_id.clone(),
                    at,
                    local_date,
                    location_id: machine.location_id.clone(),
                    selection: v.selection.clone(),
                    product_id,
                    quantity: v.quantity,
                    revenue_minor: revenue,
                    net_minor: vendfleet_domain::events::net_of_vat(revenue, vat),
                    payment: v.payment,
                    class,
                    vat_bps: Some(vat),
                });
            }
            EventKind::Refill(r) => {
                let range = unit.lines.clone().unwrap_or(0..r.lines.len());
                let employee_id = r.employee_id.clone().unwrap_or_default();
                let employee_name = ctx.employees.get(&employee_id).cloned().unwrap_or_default();
                for (n, line) in r.lines[range.clone()].iter().enumerate() {
                    let (product_id, product_name) = match self.selections.get_mut(&line.selection)
                    {
                        Some(s) => {
                            s.current += i64::from(line.added) - i64::from(line.removed);
                            self.touched.insert(line.selection.clone());
                            let name = ctx
                                .products
                                .get(&s.product_id)
                                .map(|p| p.name.clone())
                                .unwrap_or_default();
                            (s.product_id.clone(), name)
                        }
                        None => (String::new(), String::new()),
                    };
                    let entry = RefillEntry {
                        id: refill_entry_id(at, &unit.receipt_id, range.start + n),
                        at,
                        local_date,
                        stamp: MachineStamp::of(machine, ctx.machine.location.as_ref()),
                        employee_id: employee_id.clone(),
                        employee_name: employee_name.clone(),
                        source: "machine".into(),
                        selection: line.selection.clone(),
                        product_id,
                        product_name,
                        added: i64::from(line.added),
                        removed: i64::from(line.removed),
                    };
                    self.put_row(entry.to_item()?);
                }
                self.status.refilled(at);
            }
            EventKind::CashCollection(c) => {
                let row = Encashment {
                    id: unit.receipt_id.clone(),
                    at,
                    local_date,
                    stamp: MachineStamp::of(machine, ctx.machine.location.as_ref()),
                    bag_no: c.bag_no.clone(),
                    employee_id: c.employee_id.clone(),
                    employee_name: c
                        .employee_id
                        .as_ref()
                        .and_then(|id| ctx.employees.get(id).cloned()),
                    cash_box_minor: c.cash_box_minor,
                    bill_stacker_minor: c.bill_stacker_minor,
                    collected_minor: c.collected_minor,
                    tubes_minor: c.tubes_minor,
                    ejected_minor: c.ejected_minor,
                    refilled_coins_minor: c.refilled_coins_minor,
                    currency: machine.currency.clone(),
                };
                self.put_row(row.to_item()?);
                self.status.encashed(at);
            }
            EventKind::Telemetry(t) => {
                let fields: [(&str, Option<Value>); 9] = [
                    (
                        "connection_method",
                        t.connection_method.clone().map(Value::from),
                    ),
                    ("protocol", t.protocol.clone().map(Value::from)),
                    ("firmware", t.firmware.clone().map(Value::from)),
                    ("status", t.status.clone().map(Value::from)),
                    ("power", t.power.clone().map(Value::from)),
                    ("signal", t.signal.map(Value::from)),
                    ("cash_box_minor", t.cash_box_minor.map(Value::from)),
                    ("bill_stacker_minor", t.bill_stacker_minor.map(Value::from)),
                    ("tubes_minor", t.tubes_minor.map(Value::from)),
                ];
                for (name, value) in fields {
                    if let Some(v) = value {
                        self.status.report(name, v, at);
                    }
                }
            }
            EventKind::Dex { .. } => {
                // Parsed once before the step (`Prepared::parse_files`).
                let ctx = self.ctx;
                let file = ctx.files.get(&unit.event).ok_or_else(|| {
                    StoreError::Invalid(format!("audit {} was not read", unit.receipt_id))
                })?;
                let many = file.audits.len() > 1;
                for (n, audit) in file.audits.iter().enumerate() {
                    let id = if many {
                        format!("{}#{}", unit.receipt_id, n + 1)
                    } else {
                        unit.receipt_id.clone()
                    };
                    // The audit's coin-tube float feeds the overview's value of tubes.
                    if let Some(v) = audit
                        .tube_contents
                        .as_ref()
                        .and_then(|t| t.value_minor)
                        .and_then(|v| i64::try_from(v).ok())
                    {
                        self.status.report("tubes_minor", Value::from(v), at);
                    }
                    let read = self.read(id, at, local_date, audit.clone());
                    if read.state == AuditState::Counted {
                        self.count_read(&read);
                    }
                    let read = if read.is_baseline() {
                        let carry = read.state != AuditState::Baseline;
                        self.advance(read, carry)
                    } else {
                        self.audits.add(read.clone());
                        read
                    };
                    self.stage_read(read, None);
                }
                self.status.audited(at);
            }
        }
        Ok(())
    }

    /// An audit read judged against the machine's baseline, and how its difference counts.
    fn read(
        &self,
        id: String,
        at: DateTime<Utc>,
        local_date: chrono::NaiveDate,
        audit: vendfleet_domain::dex::Audit,
    ) -> AuditRead {
        use vendfleet_domain::audit::Verdict;
        let counters = vendfleet_domain::audit::counters(&audit);
        let judged = self
            .audits
            .judge((at, id.as_str()), &audit, &counters, self.ctx.usual);
        let mut read = AuditRead {
            id,
            machine_id: self.ctx.machine.machine.id.clone(),
            at,
            local_date,
            audit,
            counters,
            previous_id: self.audits.baseline.as_ref().map(|b| b.id.clone()),
            diff: None,
            state: AuditState::Late,
            reviewed_by: None,
            reviewed_at: None,
            version: 1,
        };
        let Some(judged) = judged else {
            read.previous_id = None;
            return read;
        };
        read.state = match (self.ctx.machine.machine.sales_source, judged.verdict()) {
            (_, Verdict::Baseline) => AuditState::Baseline,
            (SalesSource::Events, _) => AuditState::Reconcile,
            (SalesSource::Audit, Verdict::Count) => AuditState::Counted,
            (SalesSource::Audit, Verdict::Hold) => AuditState::Held,
        };
        let first_and_plain = read.previous_id.is_none() && judged.diff.findings.is_empty();
        read.diff = (!first_and_plain).then_some(judged.diff);
        read
    }

    /// The pending commit: receipts, vends, rows, then each changed selection and the status
    /// on the version the store holds.
    pub fn commit(&self, now: DateTime<Utc>) -> Result<Commit, StoreError> {
        let mut writes = self.rows.clone();
        for (read, stored) in self.reads.values() {
            writes.push(Write::Put {
                item: read.to_item()?,
                condition: Some(match stored {
                    Some(v) => Condition::VersionIs(*v),
                    None => Condition::NotExists,
                }),
            });
        }
        for code in &self.touched {
            let mut s = self.selections[code].clone();
            writes.push(s.stock_write(self.stored[code], now)?);
        }
        if self.status_touched {
            let mut s = self.status.clone();
            s.version = self.status_stored.map_or(1, |v| v + 1);
            writes.push(Write::Put {
                item: s.to_item()?,
                condition: Some(match self.status_stored {
                    Some(v) => Condition::VersionIs(v),
                    None => Condition::NotExists,
                }),
            });
        }
        Ok(Commit {
            receipts: self.receipts.clone(),
            vends: self.vends.clone(),
            // The sales store applies these itself, past the snapshot store: should intake
            // ever change a catalogue record, the catalogue's version moves with it.
            writes: crate::records::with_bump(writes),
        })
    }

    /// Marks the pending commit as stored: the next one starts from its versions.
    pub fn committed(&mut self) {
        for code in std::mem::take(&mut self.touched) {
            if let Some(v) = self.stored.get_mut(&code) {
                *v += 1;
            }
        }
        if self.status_touched {
            self.status_stored = Some(self.status_stored.map_or(1, |v| v + 1));
            self.status_touched = false;
        }
        self.receipts.clear();
        self.vends.clear();
        self.rows.clear();
        self.reads.clear();
    }
}

/// A refill-log id that sorts by the event's time (a ULID of `at`) and is the same on every
/// retry of the event.
fn refill_entry_id(at: DateTime<Utc>, receipt_id: &str, line: usize) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (receipt_id, line).hash(&mut h);
    let ms = u64::try_from(at.timestamp_millis()).unwrap_or(0);
    let random = (u128::from(h.finish()) << 16) | (line as u128 & 0xffff);
    ulid::Ulid::from_parts(ms, random).to_string()
}
