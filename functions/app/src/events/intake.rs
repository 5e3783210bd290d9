//! Intake: a machine's valid events applied exactly once.
//!
//! One step reads the machine (location, zone, planogram), its status and the receipts of the
//! events; works out every effect in memory; and commits receipts, ledger rows (the sales
//! store adds its rollups), stock, refill log, encashments, audit reads and status all or
//! nothing. A commit that meets a changed item (a user edited the planogram meanwhile, or the
//! same event arrived twice at once) fails as a whole and the step runs again from the reads;
//! the second time the receipts tell what is stored already. So a retry, a crash or a duplicate
//! delivery never counts twice, and an answered event is stored.
//!
//! Stock is plain arithmetic — refills add and remove, every vend (free and test too) removes —
//! without clamping, so the stock left does not depend on the order events arrive in.

use super::audits::AuditLine;
use super::model::{MachineStatus, ReusedId};
use crate::error::AppError;
use crate::machines::{Machine, MachineContext};
use crate::ports::sales::StoredReceipt;
use crate::ports::StoreError;
use crate::products::ProductRef;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use vendfleet_domain::dex::DexFile;
use vendfleet_domain::events::reuse::fingerprint;
use vendfleet_domain::events::{EventKind, MachineEvent};

/// Refill lines per part when the sales store bounds a commit (DynamoDB: 100 records).
pub const REFILL_LINES_PER_PART: usize = 40;

/// How long an intake step of a machine may wait for its turn and retry commits that met a
/// changed item (another process, a user's edit) before it answers 503: within the 30 s a
/// machine's HTTP client commonly waits, and API Gateway's 29 s.
pub const INTAKE_BUDGET: std::time::Duration = std::time::Duration::from_secs(15);

/// What a 503 of intake asks the sender to wait, in seconds.
pub const RETRY_AFTER_SECS: u64 = 2;

/// How many times a review is run again after its commit met a changed item.
const MAX_ATTEMPTS: usize = 8;

/// What a step did with the events it was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// Events stored now.
    pub stored: usize,
    /// Events whose receipts were there already with the same content (retries and duplicate
    /// deliveries).
    pub already: usize,
    /// Events whose id is stored with other content: not applied, kept as intake anomalies.
    pub reused: Vec<ReusedId>,
}

/// One unit of exactly-once: an event, or one part of a refill too large for one commit.
#[derive(Debug, Clone)]
pub(crate) struct Unit<'e> {
    /// The receipt id: the event id, `{id}#{n}` for part `n` of a split refill.
    pub receipt_id: String,
    /// Index of the event in the step's list.
    pub event: usize,
    pub at: &'e MachineEvent,
    /// The refill lines of this part (all of them for an unsplit refill).
    pub lines: Option<std::ops::Range<usize>>,
}

/// The units of `events`, refills split into parts of `part` lines when `split` is set.
pub(crate) fn units(events: &[MachineEvent], split: bool) -> Vec<Unit<'_>> {
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match &e.kind {
            EventKind::Refill(r) if split && r.lines.len() > REFILL_LINES_PER_PART => {
                let parts = r.lines.len().div_ceil(REFILL_LINES_PER_PART);
                for n in 0..parts {
                    let start = n * REFILL_LINES_PER_PART;
                    let end = (start + REFILL_LINES_PER_PART).min(r.lines.len());
                    out.push(Unit {
                        receipt_id: format!("{}#{}", e.id, n + 1),
                        event: i,
                        at: e,
                        lines: Some(start..end),
                    });
                }
            }
            EventKind::Refill(r) => out.push(Unit {
                receipt_id: e.id.clone(),
                event: i,
                at: e,
                lines: Some(0..r.lines.len()),
            }),
            _ => out.push(Unit {
                receipt_id: e.id.clone(),
                event: i,
                at: e,
                lines: None,
            }),
        }
    }
    out
}

/// What an intake reads and works out once, whatever its attempts: the machine as the webhook
/// read it to check the signature (the first attempt's; a retry reads it again), the products
/// the events name (fetched with their check), and each audit file parsed (by the event's index).
#[derive(Default)]
pub(crate) struct Prepared {
    pub machine: Option<Machine>,
    pub products: HashMap<String, ProductRef>,
    pub files: Arc<HashMap<usize, DexFile>>,
    /// Imported history: its vends count in the ledger but move neither stock nor the
    /// machine's live status.
    pub history: bool,
}

impl Prepared {
    /// Each audit file of `events` parsed, unless parsed already (an event's file was checked
    /// readable before intake: one that is not is refused whole).
    pub fn parse_files(&mut self, events: &[MachineEvent]) -> Result<(), StoreError> {
        let mut files = HashMap::new();
        for (i, e) in events.iter().enumerate() {
            if let EventKind::Dex { content } = &e.kind {
                if !self.files.contains_key(&i) {
                    let file = vendfleet_domain::dex::parse(content)
                        .map_err(|e| StoreError::Invalid(format!("audit: {e}")))?;
                    files.insert(i, file);
                }
            }
        }
        if !files.is_empty() {
            let files_map = Arc::make_mut(&mut self.files);
            files_map.extend(files);
        }
        Ok(())
    }
}

/// What a step reads before it works out effects.
pub(crate) struct Context {
    /// Each audit file of the step's events, parsed once (by the event's index).
    pub files: Arc<HashMap<usize, DexFile>>,
    pub machine: MachineContext,
    pub products: HashMap<String, ProductRef>,
    /// Names of the employees the events name, by id.
    pub employees: HashMap<String, String>,
    pub status: Option<MachineStatus>,
    /// The machine's baseline read and the reads after it, to judge new reads against.
    pub audits: AuditLine,
    /// What the machine usually sells, to judge an audit's jump.
    pub usual: Option<vendfleet_domain::audit::Usual>,
    pub received_at: DateTime<Utc>,
    /// See [`Prepared::history`].
    pub history: bool,
}

/// Counts what a step did: an event is stored when any of its units was stored now, already
/// there when all of its units were.
pub(crate) fn tally(units: &[Unit<'_>], known: &HashSet<String>, events: usize) -> Applied {
    let mut any_new = vec![false; events];
    let mut seen = vec![false; events];
    for u in units {
        seen[u.event] = true;
        if !known.contains(&u.receipt_id) {
            any_new[u.event] = true;
        }
    }
    let stored = any_new.iter().filter(|b| **b).count();
    let already = seen
        .iter()
        .zip(&any_new)
        .filter(|(s, n)| **s && !**n)
        .count();
    Applied {
        stored,
        already,
        reused: Vec::new(),
    }
}

/// The error of a step that could not get its turn or kept meeting changed items within its
/// budget: 503; the same events again later are safe (receipts keep what was stored once).
pub(crate) fn too_busy() -> AppError {
    AppError::Unavailable {
        message: "The machine's data is busy: send the same events again after the Retry-After \
                  delay (what was stored of them is never counted twice)."
            .into(),
        retry_after_secs: RETRY_AFTER_SECS,
    }
}

/// Attempts of a step.
pub(crate) const ATTEMPTS: usize = MAX_ATTEMPTS;

/// The events whose id a receipt holds with another fingerprint (receipts from before
/// fingerprints cannot tell: they are duplicates, as before). `receipt_ids[i]` are event `i`'s
/// receipt ids (its parts).
pub(crate) fn reused_ids(
    events: &[MachineEvent],
    receipt_ids: &[Vec<String>],
    stored: &HashMap<String, StoredReceipt>,
) -> Vec<ReusedId> {
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let fp = fingerprint(e);
        let other = receipt_ids[i]
            .iter()
            .filter_map(|id| stored.get(id))
            .find(|r| r.fingerprint.as_ref().is_some_and(|f| *f != fp));
        if let Some(first) = other {
            out.push(ReusedId {
                event: i,
                id: e.id.clone(),
                first: first.clone(),
            });
        }
    }
    out
}
