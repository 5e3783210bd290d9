//! A machine's EVA-DTS audit reads (part of the machines area): the read-to-read differences
//! with their findings, the review of held reads, and a user's upload of an audit file.

use crate::kit::dto::{Data, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{machines_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::events::{AuditEntry, AuditPreview, AuditRead, AuditState, Review};
use vendfleet_domain::audit::{Flag, ReadDiff};

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_audits))
        .routes(routes!(preview_audit))
        .routes(routes!(accept_audit))
        .routes(routes!(reject_audit))
        .routes(routes!(upload_audit))
}

/// What one selection books between a read and its baseline: paid vends and value split into
/// cash and cashless, and free and test vends (stock only).
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditDeltaDto {
    pub selection: String,
    pub vends: u64,
    pub value_minor: u64,
    pub cash_vends: u64,
    pub cash_minor: u64,
    pub cashless_vends: u64,
    pub cashless_minor: u64,
    pub free_vends: u64,
    pub test_vends: u64,
}

/// A finding on a read: why it is held, or (when `holds` is false) what it says.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditFindingDto {
    /// bad_checksum, truncated, counter_reset, wrap, negative_delta, implausible_jump (held);
    /// gap_in_reads, meter_reset, board_change, new_selection (shown only).
    pub flag: String,
    /// Whether it holds the read for review.
    pub holds: bool,
    pub selection: Option<String>,
    pub reason: String,
}

/// What a difference books in total: paid vends and value, cash and cashless value, free and
/// test vends.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct AuditTotalsDto {
    pub vends: u64,
    pub value_minor: u64,
    pub cash_minor: u64,
    pub cashless_minor: u64,
    pub free_vends: u64,
    pub test_vends: u64,
}

impl From<vendfleet_domain::audit::Delta> for AuditTotalsDto {
    fn from(d: vendfleet_domain::audit::Delta) -> Self {
        AuditTotalsDto {
            vends: d.vends,
            value_minor: d.value_minor,
            cash_minor: d.cash_minor,
            cashless_minor: d.cashless_minor,
            free_vends: d.free_vends,
            test_vends: d.test_vends,
        }
    }
}

/// What a difference books, per selection and in total.
struct Booked {
    deltas: Vec<AuditDeltaDto>,
    findings: Vec<AuditFindingDto>,
    total: AuditTotalsDto,
}

fn flag_name(f: Flag) -> String {
    serde_json::to_value(f)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

fn booked(diff: Option<ReadDiff>) -> Booked {
    let Some(d) = diff else {
        return Booked {
            deltas: Vec::new(),
            findings: Vec::new(),
            total: AuditTotalsDto::default(),
        };
    };
    let total = d.total().into();
    Booked {
        deltas: d
            .deltas
            .into_iter()
            .map(|(selection, d)| AuditDeltaDto {
                selection,
                vends: d.vends,
                value_minor: d.value_minor,
                cash_vends: d.cash_vends,
                cash_minor: d.cash_minor,
                cashless_vends: d.cashless_vends,
                cashless_minor: d.cashless_minor,
                free_vends: d.free_vends,
                test_vends: d.test_vends,
            })
            .collect(),
        findings: d
            .findings
            .into_iter()
            .map(|f| AuditFindingDto {
                flag: flag_name(f.flag),
                holds: f.flag.holds(),
                selection: f.selection,
                reason: f.reason,
            })
            .collect(),
        total,
    }
}

/// What accepting a held read would book now, against the machine's baseline as it stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditPreviewDto {
    pub read_id: String,
    /// The read it counts from (null: the machine has no baseline yet).
    pub baseline_id: Option<String>,
    /// Accepting makes it the baseline and books nothing (a first read, a meter reset, another
    /// board).
    pub new_baseline: bool,
    pub deltas: Vec<AuditDeltaDto>,
    pub findings: Vec<AuditFindingDto>,
    #[serde(flatten)]
    pub totals: AuditTotalsDto,
}

impl From<AuditPreview> for AuditPreviewDto {
    fn from(p: AuditPreview) -> Self {
        let b = booked(Some(p.diff));
        AuditPreviewDto {
            read_id: p.read_id,
            baseline_id: p.baseline_id,
            new_baseline: p.new_baseline,
            totals: b.total,
            deltas: b.deltas,
            findings: b.findings,
        }
    }
}

/// One audit read.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditReadDto {
    pub id: String,
    pub at: DateTime<Utc>,
    pub local_date: NaiveDate,
    pub state: AuditState,
    /// The baseline read its difference is taken from.
    pub previous_id: Option<String>,
    /// ok, bad or absent (the file's G85 checksum).
    pub checksum: String,
    /// The line ends of the form G85 matched (crlf, lf, cr, mixed); null unless ok.
    pub checksum_line_ends: Option<String>,
    /// The file was cut off (no DXE).
    pub truncated: bool,
    /// Why it is held (the flags of the findings that hold it), each once.
    pub held_for: Vec<String>,
    pub warnings: Vec<String>,
    pub deltas: Vec<AuditDeltaDto>,
    pub findings: Vec<AuditFindingDto>,
    #[serde(flatten)]
    pub totals: AuditTotalsDto,
    pub reviewed_by: Option<String>,
    pub reviewed_at: Option<DateTime<Utc>>,
    /// For a held read: what accepting it would book now.
    pub preview: Option<AuditPreviewDto>,
}

impl From<AuditEntry> for AuditReadDto {
    fn from(e: AuditEntry) -> Self {
        let r = e.read;
        let held_for = r
            .diff
            .as_ref()
            .map(|d| d.held_for().into_iter().map(flag_name).collect())
            .unwrap_or_default();
        let b = booked(r.diff);
        AuditReadDto {
            totals: b.total,
            deltas: b.deltas,
            findings: b.findings,
            held_for,
            id: r.id,
            at: r.at,
            local_date: r.local_date,
            state: r.state,
            previous_id: r.previous_id,
            checksum: serde_json::to_value(r.audit.checksum)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            checksum_line_ends: r
                .audit
                .checksum_line_ends
                .and_then(|e| serde_json::to_value(e).ok())
                .and_then(|v| v.as_str().map(String::from)),
            truncated: r.audit.truncated,
            warnings: r.audit.warnings,
            reviewed_by: r.reviewed_by,
            reviewed_at: r.reviewed_at,
            preview: e.preview.map(Into::into),
        }
    }
}

impl From<AuditRead> for AuditReadDto {
    fn from(read: AuditRead) -> Self {
        AuditEntry {
            read,
            preview: None,
        }
        .into()
    }
}

/// A machine's audit reads, newest first, each with its difference from the previous read.
#[utoipa::path(get, path = "/api/machines/{id}/audits/", tag = "machines", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<AuditReadDto>>), (status = 404, body = ErrorBody)))]
async fn list_audits(
    State(s): State<AppState>,
    a: Authorized<perm::ReadEvaDts>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<AuditReadDto>>>> {
    let reads = s.app.events.audits(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: reads.into_iter().map(Into::into).collect(),
    }))
}

/// What accepting a held read would book now (nothing is booked).
#[utoipa::path(get, path = "/api/machines/{id}/audits/{read_id}/preview/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path), ("read_id" = String, Path)),
    responses((status = 200, body = Data<AuditPreviewDto>), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn preview_audit(
    State(s): State<AppState>,
    a: Authorized<perm::ReadEvaDts>,
    Path((id, read_id)): Path<(String, String)>,
) -> ApiResult<axum::Json<Data<AuditPreviewDto>>> {
    let p = s
        .app
        .events
        .audit_preview(a.principal(), &id, &read_id)
        .await?;
    Ok(axum::Json(Data { data: p.into() }))
}

/// Accepts a held read: it books what its preview says, once, and becomes the baseline.
/// Accepting an accepted read answers it unchanged.
#[utoipa::path(post, path = "/api/machines/{id}/audits/{read_id}/accept/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path), ("read_id" = String, Path)),
    responses((status = 200, body = MessageData<AuditReadDto>), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn accept_audit(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Path((id, read_id)): Path<(String, String)>,
) -> ApiResult<axum::Json<MessageData<AuditReadDto>>> {
    review(&s, &a, &id, &read_id, Review::Accept).await
}

/// Rejects (discards) a held read: it is never counted. Rejecting a rejected read answers it
/// unchanged.
#[utoipa::path(post, path = "/api/machines/{id}/audits/{read_id}/reject/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path), ("read_id" = String, Path)),
    responses((status = 200, body = MessageData<AuditReadDto>), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn reject_audit(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Path((id, read_id)): Path<(String, String)>,
) -> ApiResult<axum::Json<MessageData<AuditReadDto>>> {
    review(&s, &a, &id, &read_id, Review::Reject).await
}

async fn review(
    s: &AppState,
    a: &Authorized<perm::MachinesEdit>,
    id: &str,
    read_id: &str,
    review: Review,
) -> ApiResult<axum::Json<MessageData<AuditReadDto>>> {
    let r = s
        .app
        .events
        .review_audit(a.principal(), id, read_id, review)
        .await?;
    let message = if review == Review::Accept {
        "Audit read accepted"
    } else {
        "Audit read rejected"
    };
    Ok(updated(message, r.into()))
}

/// An audit file a user read from a machine by hand.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AuditUpload {
    #[schema(required = true)]
    pub machine_id: String,
    /// The EVA-DTS file as text, at most 512 KiB.
    #[schema(required = true, max_length = 524288)]
    pub content: String,
}

/// Takes in an audit file read by hand (`eva-dts/read`), as if the machine had sent it now; the
/// same file twice is taken in once.
#[utoipa::path(post, path = "/api/machines/eva-dts/read/", tag = "machines", security(("bearer" = [])), request_body = AuditUpload,
    responses((status = 200, body = MessageData<Vec<AuditReadDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn upload_audit(
    State(s): State<AppState>,
    a: Authorized<perm::ReadEvaDts>,
    Json(f): Json<AuditUpload>,
) -> ApiResult<axum::Json<MessageData<Vec<AuditReadDto>>>> {
    let reads = s
        .app
        .events
        .upload_audit(a.principal(), &f.machine_id, &f.content)
        .await?;
    Ok(updated(
        "Audit read taken in",
        reads.into_iter().map(Into::into).collect(),
    ))
}
