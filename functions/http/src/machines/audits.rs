//! A machine's EVA-DTS audit reads (part of the machines area): the read-to-read differences
//! with their findings, the review of held reads, and a user's upload of an audit file.

use crate::dto::{Data, MessageData};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{machines_perm as perm, Authorized, Json};
use crate::reply::updated;
use crate::state::AppState;
use axum::extract::{Path, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::events::{AuditRead, AuditState};

/// The routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_audits))
        .routes(routes!(accept_audit))
        .routes(routes!(reject_audit))
        .routes(routes!(upload_audit))
}

/// How a read's difference counts.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AuditStateDto {
    Baseline,
    Counted,
    Held,
    Accepted,
    Rejected,
    Reconcile,
    Late,
}

/// One selection's sales between two reads.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditDeltaDto {
    pub selection: String,
    pub vends: u64,
    pub value_minor: u64,
}

/// A reason a difference was held.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditFindingDto {
    /// counter_reset, wrap, negative_delta, implausible_jump, gap_in_reads.
    pub flag: String,
    pub selection: Option<String>,
    pub reason: String,
}

/// One audit read.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditReadDto {
    pub id: String,
    pub at: DateTime<Utc>,
    pub local_date: NaiveDate,
    pub state: AuditStateDto,
    pub previous_id: Option<String>,
    /// ok, bad or absent (the file's G85 checksum).
    pub checksum: String,
    pub warnings: Vec<String>,
    pub deltas: Vec<AuditDeltaDto>,
    pub findings: Vec<AuditFindingDto>,
    pub vends: u64,
    pub value_minor: u64,
    pub reviewed_by: Option<String>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

impl From<AuditRead> for AuditReadDto {
    fn from(r: AuditRead) -> Self {
        let (deltas, findings) = match r.diff {
            Some(d) => (
                d.deltas
                    .into_iter()
                    .map(|(selection, d)| AuditDeltaDto {
                        selection,
                        vends: d.vends,
                        value_minor: d.value_minor,
                    })
                    .collect::<Vec<_>>(),
                d.findings
                    .into_iter()
                    .map(|f| AuditFindingDto {
                        flag: serde_json::to_value(f.flag)
                            .ok()
                            .and_then(|v| v.as_str().map(String::from))
                            .unwrap_or_default(),
                        selection: f.selection,
                        reason: f.reason,
                    })
                    .collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        AuditReadDto {
            vends: deltas.iter().map(|d| d.vends).sum(),
            value_minor: deltas.iter().map(|d| d.value_minor).sum(),
            id: r.id,
            at: r.at,
            local_date: r.local_date,
            state: match r.state {
                AuditState::Baseline => AuditStateDto::Baseline,
                AuditState::Counted => AuditStateDto::Counted,
                AuditState::Held => AuditStateDto::Held,
                AuditState::Accepted => AuditStateDto::Accepted,
                AuditState::Rejected => AuditStateDto::Rejected,
                AuditState::Reconcile => AuditStateDto::Reconcile,
                AuditState::Late => AuditStateDto::Late,
            },
            previous_id: r.previous_id,
            checksum: serde_json::to_value(r.audit.checksum)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
            warnings: r.audit.warnings,
            deltas,
            findings,
            reviewed_by: r.reviewed_by,
            reviewed_at: r.reviewed_at,
        }
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

/// Accepts a held read: its sales enter the figures.
#[utoipa::path(post, path = "/api/machines/{id}/audits/{read_id}/accept/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path), ("read_id" = String, Path)),
    responses((status = 200, body = MessageData<AuditReadDto>), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn accept_audit(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Path((id, read_id)): Path<(String, String)>,
) -> ApiResult<axum::Json<MessageData<AuditReadDto>>> {
    review(&s, &a, &id, &read_id, true).await
}

/// Rejects a held read: it is never counted.
#[utoipa::path(post, path = "/api/machines/{id}/audits/{read_id}/reject/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path), ("read_id" = String, Path)),
    responses((status = 200, body = MessageData<AuditReadDto>), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn reject_audit(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Path((id, read_id)): Path<(String, String)>,
) -> ApiResult<axum::Json<MessageData<AuditReadDto>>> {
    review(&s, &a, &id, &read_id, false).await
}

async fn review(
    s: &AppState,
    a: &Authorized<perm::MachinesEdit>,
    id: &str,
    read_id: &str,
    accept: bool,
) -> ApiResult<axum::Json<MessageData<AuditReadDto>>> {
    let r = s
        .app
        .events
        .review_audit(a.principal(), id, read_id, accept)
        .await?;
    let message = if accept {
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
