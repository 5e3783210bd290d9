//! Answering an export: the file itself when the table is small, else a background job; the
//! table, its cells and its files are `vendfleet_render`'s.

use crate::kit::error::ApiError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use vendfleet_app::jobs::{JobRecord, JobStatus};

pub use vendfleet_render::table::{
    col, defuse, titles, Cell, Column, CsvDialect, ExportJob, Format, Table, CSV_TYPE, XLSX_TYPE,
};

/// The 200 answer of an export in the document: the file in the asked format.
pub struct Download;

impl<'s> utoipa::ToResponse<'s> for Download {
    fn response() -> (
        &'s str,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    ) {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaFormat, Type};
        use utoipa::openapi::{ContentBuilder, KnownFormat, ResponseBuilder};
        let file = |binary: bool| {
            let s = ObjectBuilder::new().schema_type(Type::String);
            let s = if binary {
                s.format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            } else {
                s
            };
            ContentBuilder::new().schema(Some(s.build())).build()
        };
        (
            "Download",
            ResponseBuilder::new()
                .description("The file (attachment): CSV for `format=csv`, XLSX for `format=xlsx`")
                .header(
                    "Content-Disposition",
                    utoipa::openapi::header::HeaderBuilder::new()
                        .schema(ObjectBuilder::new().schema_type(Type::String))
                        .build(),
                )
                .content(CSV_TYPE, file(false))
                .content(XLSX_TYPE, file(true))
                .build()
                .into(),
        )
    }
}

/// `?format=` of an export (the list's filters come with it).
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// csv (default) or xlsx.
    #[param(value_type = Option<crate::kit::contract::ExportFormat>, inline)]
    pub format: Option<String>,
}

/// Answers an export: the file itself when the table is small; else a background job that renders
/// it (202 with the job, whose `GET /api/jobs/{id}/` gives progress and, when done, a download
/// link). The list, filters, scope and columns are the request's either way, and the audit trail
/// records the export (who, the request, the machines it covers).
pub async fn answer(
    table: Table,
    s: &crate::kit::state::AppState,
    who: crate::kit::extract::Requester<'_>,
    format: Format,
    base: &str,
) -> Result<Response, ApiError> {
    use vendfleet_app::audit::{ExitKind, NewExit};
    let p = who.principal;
    let lang = p.user.language;
    let (content_type, ext) = format.file_kind();
    let file_name = format!("{base}.{ext}");
    let inline = table.rows.len() <= s.inline_export_rows;
    let exit = NewExit {
        kind: if inline {
            ExitKind::Export
        } else {
            ExitKind::ExportJob
        },
        user_id: p.user.id.clone(),
        what: who.request.to_string(),
        file_name: file_name.clone(),
        reach: s.app.generator.scope_of(p).await?,
        recipients: Vec::new(),
        rows: Some(table.rows.len() as u64),
        report_id: None,
        task_id: None,
    };
    if inline {
        let answer = download(table, format, base, lang)?;
        s.app.audit.record(exit).await?;
        return Ok(answer);
    }
    let total = table.rows.len() as u64;
    let job = ExportJob {
        table,
        format,
        lang,
    };
    let input = serde_json::to_vec(&job)
        .map_err(|e| vendfleet_app::AppError::Internal(format!("export job: {e}")))?;
    let record = s
        .app
        .jobs
        .submit(
            p,
            vendfleet_app::jobs::NewJob {
                kind: "export".into(),
                file_name,
                content_type: content_type.into(),
                total,
                input,
            },
        )
        .await?;
    s.app
        .audit
        .record(NewExit {
            what: format!("{} (job {})", exit.what, record.id),
            ..exit
        })
        .await?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(crate::kit::dto::MessageData::new(
            "Export queued",
            JobDto::from_record(record, None),
        )),
    )
        .into_response())
}

/// The table as a downloadable file named `base.csv` / `base.xlsx`; a CSV is written the way
/// `lang`'s spreadsheets read it.
pub fn download(
    table: Table,
    format: Format,
    base: &str,
    lang: vendfleet_domain::Language,
) -> Result<Response, ApiError> {
    let bytes = table.render(format, lang)?;
    let (ctype, ext) = format.file_kind();
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, ctype.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{base}.{ext}\""),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// A report screen's export: the report module run with the parameters its query string gives
/// (the same run as a generated report's), answered as [`answer`] does.
pub async fn report(
    s: &crate::kit::state::AppState,
    who: crate::kit::extract::Requester<'_>,
    module: vendfleet_app::generator::Module,
    params: &vendfleet_render::ReportParams,
    query: ExportQuery,
    base: &str,
) -> Result<Response, ApiError> {
    let format = Format::parse(query.format.as_deref())?;
    let max = vendfleet_render::tables::transactions::MAX_EXPORT_ROWS;
    let (table, _) =
        vendfleet_render::tables::module_table(&s.app, who.principal, module, params, max).await?;
    answer(table, s, who, format, base).await
}

/// Where a job is.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobStatusDto {
    Queued,
    Running,
    Done,
    Failed,
}

/// A background job.
#[derive(Debug, Serialize, ToSchema)]
pub struct JobDto {
    pub id: String,
    /// `export`.
    pub kind: String,
    pub status: JobStatusDto,
    /// 0 to 100.
    pub progress: u8,
    pub file_name: String,
    /// Rows the job handles.
    pub total: u64,
    /// When done: where to download the file (valid 15 minutes; ask again for a fresh one).
    pub download_url: Option<String>,
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl JobDto {
    /// The DTO of a record, with its link when there is one.
    pub fn from_record(r: JobRecord, download_url: Option<String>) -> Self {
        JobDto {
            id: r.id,
            kind: r.kind,
            status: match r.status {
                JobStatus::Queued => JobStatusDto::Queued,
                JobStatus::Running => JobStatusDto::Running,
                JobStatus::Done => JobStatusDto::Done,
                JobStatus::Failed => JobStatusDto::Failed,
            },
            progress: r.progress,
            file_name: r.file_name,
            total: r.total,
            download_url,
            error: r.error,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}
