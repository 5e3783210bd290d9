//! Table exports as CSV and XLSX files.

use crate::error::ApiError;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use vendfleet_domain::FieldErrors;

/// Content type of a CSV export.
pub const CSV_TYPE: &str = "text/csv; charset=utf-8";
/// Content type of an XLSX export.
pub const XLSX_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

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

/// A file format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Xlsx,
}

impl Format {
    /// Parses `?format=` (default CSV).
    pub fn parse(v: Option<&str>) -> Result<Format, ApiError> {
        match v.map(str::trim).unwrap_or("csv") {
            "" | "csv" => Ok(Format::Csv),
            "xlsx" => Ok(Format::Xlsx),
            _ => Err(ApiError::fields(
                "Invalid input",
                FieldErrors::single("format", "Choose csv or xlsx."),
            )),
        }
    }
}

/// A table: header row and text rows.
pub struct Table {
    pub sheet: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Renders the table as a downloadable file named `base.csv` / `base.xlsx`.
    pub fn into_download(self, format: Format, base: &str) -> Result<Response, ApiError> {
        let (bytes, ctype, ext) = match format {
            Format::Csv => (self.csv()?, CSV_TYPE, "csv"),
            Format::Xlsx => (self.xlsx()?, XLSX_TYPE, "xlsx"),
        };
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

    fn csv(&self) -> Result<Vec<u8>, ApiError> {
        let internal = |e: csv::Error| vendfleet_app::AppError::Internal(format!("csv: {e}"));
        // A BOM so spreadsheet programs read UTF-8 names correctly.
        let mut w = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
        w.write_record(&self.header).map_err(internal)?;
        for row in &self.rows {
            // A cell starting with = + - @ would run as a formula in a spreadsheet.
            let safe: Vec<String> = row
                .iter()
                .map(|c| {
                    if c.starts_with(['=', '+', '-', '@']) {
                        format!("'{c}")
                    } else {
                        c.clone()
                    }
                })
                .collect();
            w.write_record(&safe).map_err(internal)?;
        }
        w.into_inner()
            .map_err(|e| vendfleet_app::AppError::Internal(format!("csv: {e}")).into())
    }

    fn xlsx(&self) -> Result<Vec<u8>, ApiError> {
        use rust_xlsxwriter::{Format as XFormat, Workbook};
        let internal = |e: rust_xlsxwriter::XlsxError| {
            ApiError::from(vendfleet_app::AppError::Internal(format!("xlsx: {e}")))
        };
        let mut book = Workbook::new();
        let sheet = book.add_worksheet();
        sheet.set_name(&self.sheet).map_err(internal)?;
        let bold = XFormat::new().set_bold();
        for (c, h) in self.header.iter().enumerate() {
            sheet
                .write_string_with_format(0, c as u16, h, &bold)
                .map_err(internal)?;
        }
        for (r, row) in self.rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                sheet
                    .write_string(r as u32 + 1, c as u16, cell)
                    .map_err(internal)?;
            }
        }
        sheet.autofit();
        book.save_to_buffer().map_err(internal)
    }
}
