//! Answering an export: the file itself when the table is small, else a background job; the
//! table, its cells and its files are `vendfleet_render`'s.

use crate::error::ApiError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

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
    #[param(value_type = Option<crate::contract::ExportFormat>, inline)]
    pub format: Option<String>,
}

/// How a [`Table`] is answered to the request that asked for it.
pub trait Answer: Sized {
    /// Answers an export: the file itself when the table is small; else a background job that
    /// renders it (202 with the job). The audit trail records the export.
    fn answer(
        self,
        s: &crate::state::AppState,
        who: crate::extract::Requester<'_>,
        format: Format,
        base: &str,
        lang: vendfleet_domain::Language,
    ) -> impl std::future::Future<Output = Result<Response, ApiError>> + Send;

    /// Renders the table as a downloadable file named `base.csv` / `base.xlsx`.
    fn into_download(
        self,
        format: Format,
        base: &str,
        lang: vendfleet_domain::Language,
    ) -> Result<Response, ApiError>;
}

impl Answer for Table {
    /// Answers an export: the file itself when the table is small; else a background job that
    /// renders it (202 with the job, whose `GET /api/jobs/{id}/` gives progress and, when done,
    /// a download link). The list, filters, scope and columns are the request's either way, and
    /// the audit trail records the export (who, the request, the machines it covers).
    async fn answer(
        self,
        s: &crate::state::AppState,
        who: crate::extract::Requester<'_>,
        format: Format,
        base: &str,
        lang: vendfleet_domain::Language,
    ) -> Result<Response, ApiError> {
        use vendfleet_app::audit::{ExitKind, NewExit};
        let p = who.principal;
        let (content_type, ext) = format.file_kind();
        let file_name = format!("{base}.{ext}");
        let inline = self.rows.len() <= s.inline_export_rows;
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
            rows: Some(self.rows.len() as u64),
            report_id: None,
            task_id: None,
        };
        if inline {
            let answer = self.into_download(format, base, lang)?;
            s.app.audit.record(exit).await?;
            return Ok(answer);
        }
        let total = self.rows.len() as u64;
        let job = ExportJob {
            table: self,
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
            axum::Json(crate::dto::MessageData::new(
                "Export queued",
                crate::jobs::JobDto::from_record(record, None),
            )),
        )
            .into_response())
    }

    /// Renders the table as a downloadable file named `base.csv` / `base.xlsx`; a CSV is written
    /// the way `lang`'s spreadsheets read it.
    fn into_download(
        self,
        format: Format,
        base: &str,
        lang: vendfleet_domain::Language,
    ) -> Result<Response, ApiError> {
        let bytes = self.render(format, lang)?;
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
}

/// A report screen's table for its export: the report module run with the parameters its query
/// string gives (the same run as a generated report's).
pub async fn report_table(
    s: &crate::state::AppState,
    p: &vendfleet_app::auth::Principal,
    module: vendfleet_app::generator::Module,
    params: &vendfleet_render::ReportParams,
) -> Result<Table, ApiError> {
    let max = vendfleet_render::tables::transactions::MAX_EXPORT_ROWS;
    let (table, _) = vendfleet_render::tables::module_table(&s.app, p, module, params, max).await?;
    Ok(table)
}
