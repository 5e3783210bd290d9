//! A machine's audit reads for people: the history with what each held read would book, the
//! review of held reads (accept books what the preview said, once; reject books nothing), and
//! an audit file uploaded by hand.

use super::super::audits::AuditLine;
use super::super::draft::Draft;
use super::super::intake::{self, Prepared};
use super::super::model::{AuditRead, AuditState};
use super::EventsService;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::ports::{query_all, Index, Query, SortKey, StoreError};
use std::collections::HashMap;
use vendfleet_domain::audit::ReadDiff;
use vendfleet_domain::events::{EventKind, MachineEvent};

/// What accepting a held read would book, against the machine's baseline as it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditPreview {
    pub read_id: String,
    /// The read it counts from (`None`: the machine has no baseline yet).
    pub baseline_id: Option<String>,
    /// Accepting makes it the baseline and books nothing (a first read, a meter reset,
    /// another board).
    pub new_baseline: bool,
    /// What it books per selection, and every finding.
    pub diff: ReadDiff,
}

/// A read of the history, with its preview when it is held.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    pub read: AuditRead,
    pub preview: Option<AuditPreview>,
}

/// How a person decides on a held read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Review {
    Accept,
    Reject,
}

/// The preview of `read` against `line` (`None` when it is older than the baseline).
fn preview(line: &AuditLine, read: &AuditRead) -> Option<AuditPreview> {
    let own = vendfleet_domain::audit::counters(&read.audit);
    let j = line.judge(read.order(), &read.audit, &own, None)?;
    let mut diff = j.diff;
    if j.new_baseline {
        diff.deltas.clear();
    }
    Some(AuditPreview {
        read_id: read.id.clone(),
        baseline_id: line.baseline.as_ref().map(|b| b.id.clone()),
        new_baseline: j.new_baseline,
        diff,
    })
}

impl EventsService {
    /// The machine's baseline read and the reads after it (the reads newest first, read until
    /// the baseline).
    pub(super) async fn audit_line(&self, machine_id: &str) -> AppResult<AuditLine> {
        let mut newest = Vec::new();
        let mut cursor = None;
        loop {
            let q = Query::partition(
                Index::Primary,
                crate::machines::Machine::partition(machine_id),
            )
            .sk(SortKey::BeginsWith(AuditRead::PREFIX.into()))
            .backward()
            .limit(25)
            .after(cursor);
            let page = self.store.query(q).await?;
            for item in &page.items {
                let read = AuditRead::from_item(item)?;
                let done = read.is_baseline();
                newest.push(read);
                if done {
                    return Ok(AuditLine::from_newest(newest));
                }
            }
            match page.cursor {
                Some(c) => cursor = Some(c),
                None => return Ok(AuditLine::from_newest(newest)),
            }
        }
    }

    /// The audit reads of a machine the user may see, newest first; each held one with what
    /// accepting it would book now.
    pub async fn audits(&self, p: &Principal, machine_id: &str) -> AppResult<Vec<AuditEntry>> {
        self.machines.machine_for(p, machine_id).await?;
        let reads = self.audit_reads(machine_id).await?;
        let line = AuditLine::from_newest(reads.iter().rev().cloned());
        Ok(reads
            .into_iter()
            .rev()
            .map(|read| AuditEntry {
                preview: (read.state == AuditState::Held)
                    .then(|| preview(&line, &read))
                    .flatten(),
                read,
            })
            .collect())
    }

    /// What accepting a held read would book now.
    pub async fn audit_preview(
        &self,
        p: &Principal,
        machine_id: &str,
        read_id: &str,
    ) -> AppResult<AuditPreview> {
        self.machines.machine_for(p, machine_id).await?;
        let reads = self.audit_reads(machine_id).await?;
        let read = find(&reads, read_id)?;
        held_or_explain(read, &reads)?;
        let line = AuditLine::from_newest(reads.iter().rev().cloned());
        preview(&line, read).ok_or_else(|| superseded(read, &line))
    }

    /// Accepts (it books what its preview says, and becomes the baseline) or rejects (it books
    /// nothing) a held read. Deciding again as decided answers the read unchanged.
    pub async fn review_audit(
        &self,
        p: &Principal,
        machine_id: &str,
        read_id: &str,
        review: Review,
    ) -> AppResult<AuditRead> {
        self.machines.machine_for(p, machine_id).await?;
        let _turn = self.intake_turn(machine_id).await?;
        for _ in 0..intake::ATTEMPTS {
            let reads = self.audit_reads(machine_id).await?;
            let read = find(&reads, read_id)?;
            match (read.state, review) {
                (AuditState::Accepted, Review::Accept) | (AuditState::Rejected, Review::Reject) => {
                    return Ok(read.clone())
                }
                _ => held_or_explain(read, &reads)?,
            }
            let line = AuditLine::from_newest(reads.iter().rev().cloned());
            let ctx = self
                .context(machine_id, &[], &mut Prepared::default(), false)
                .await?;
            let now = ctx.received_at;
            let mut draft = Draft::new(&ctx);
            draft.receipt(format!("{}#reviewed", read.id), "audit_review", now);
            let mut next = read.clone();
            next.reviewed_by = Some(p.user.name.clone());
            next.reviewed_at = Some(now);
            match review {
                Review::Reject => next.state = AuditState::Rejected,
                Review::Accept => {
                    let preview = preview(&line, read).ok_or_else(|| superseded(read, &line))?;
                    next.state = AuditState::Accepted;
                    next.previous_id = preview.baseline_id;
                    next.diff = Some(preview.diff);
                    draft.count_read(&next);
                    draft.replace_audits(line);
                    next = draft.advance(next, !preview.new_baseline);
                }
            }
            draft.touch_status();
            draft.stage_read(next, Some(read.version));
            match self.sales.commit(draft.commit(now)?).await {
                Ok(()) => {
                    let reads = self.audit_reads(machine_id).await?;
                    return find(&reads, read_id).cloned();
                }
                Err(StoreError::ConditionFailed { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(intake::too_busy())
    }

    /// Takes in an audit file a user read by hand, as a `dex` event of the machine at this
    /// instant whose id is the file's SHA-256 (so the same file twice is taken in once); answers
    /// the reads it made (none when the file was taken in before).
    pub async fn upload_audit(
        &self,
        p: &Principal,
        machine_id: &str,
        content: &str,
    ) -> AppResult<Vec<AuditRead>> {
        use sha2::Digest;
        self.machines.machine_for(p, machine_id).await?;
        if content.trim().is_empty() {
            return Err(AppError::invalid_field(
                "content",
                "This field is required.",
            ));
        }
        if content.len() > vendfleet_domain::events::MAX_DEX_BYTES {
            return Err(AppError::invalid_field(
                "content",
                "Must be at most 512 KiB.",
            ));
        }
        let file = vendfleet_domain::dex::parse(content).map_err(|e| {
            AppError::invalid_field("content", &format!("Not a readable audit file: {e}."))
        })?;
        let digest = hex::encode(sha2::Sha256::digest(content.as_bytes()));
        let id = format!("upload-{}", &digest[..32]);
        let event = MachineEvent {
            id: id.clone(),
            at: self.calendar.now().fixed_offset(),
            kind: EventKind::Dex {
                content: content.to_string(),
            },
        };
        let applied = self
            .apply_events(
                machine_id,
                std::slice::from_ref(&event),
                false,
                Prepared {
                    files: std::sync::Arc::new(HashMap::from([(0, file)])),
                    ..Prepared::default()
                },
            )
            .await?;
        if applied.stored == 0 {
            return Ok(Vec::new());
        }
        let part = format!("{id}#");
        Ok(self
            .audit_reads(machine_id)
            .await?
            .into_iter()
            .filter(|r| r.id == id || r.id.starts_with(&part))
            .collect())
    }

    /// How many reads each machine has held for review, fleet-wide (one index read).
    pub async fn held_audit_counts(&self) -> AppResult<HashMap<String, usize>> {
        let q = Query::partition(Index::Gsi2, AuditRead::HELD);
        let mut out = HashMap::new();
        for item in query_all(self.store.as_ref(), q).await? {
            let read = AuditRead::from_item(&item)?;
            if read.state == AuditState::Held {
                *out.entry(read.machine_id).or_insert(0) += 1;
            }
        }
        Ok(out)
    }

    /// The audit reads of a machine, oldest first (no access check).
    pub async fn audit_reads(&self, machine_id: &str) -> AppResult<Vec<AuditRead>> {
        let q = Query::partition(
            Index::Primary,
            crate::machines::Machine::partition(machine_id),
        )
        .sk(SortKey::BeginsWith(AuditRead::PREFIX.into()));
        query_all(self.store.as_ref(), q)
            .await?
            .iter()
            .map(|i| AuditRead::from_item(i).map_err(AppError::from))
            .collect()
    }
}

fn find<'a>(reads: &'a [AuditRead], read_id: &str) -> AppResult<&'a AuditRead> {
    reads
        .iter()
        .find(|r| r.id == read_id)
        .ok_or_else(|| AppError::NotFound("Audit read not found".into()))
}

/// `Ok` for a held read; else the 409 that says why it cannot be reviewed.
fn held_or_explain(read: &AuditRead, reads: &[AuditRead]) -> AppResult<()> {
    match read.state {
        AuditState::Held => Ok(()),
        AuditState::Superseded => {
            let line = AuditLine::from_newest(reads.iter().rev().cloned());
            Err(superseded(read, &line))
        }
        AuditState::Accepted => Err(AppError::conflict(
            "This read was accepted already: it cannot be rejected.",
        )),
        AuditState::Rejected => Err(AppError::conflict(
            "This read was rejected already: it cannot be accepted.",
        )),
        _ => Err(AppError::conflict(
            "Only a held read can be accepted or rejected.",
        )),
    }
}

/// The 409 of a read a later baseline covers.
fn superseded(read: &AuditRead, line: &AuditLine) -> AppError {
    let by = line
        .baseline
        .as_ref()
        .map(|b| format!(" (read {})", b.id))
        .unwrap_or_default();
    AppError::conflict(format!(
        "Read {} is superseded: a later read{by} became the baseline and its difference holds these sales.",
        read.id
    ))
}
