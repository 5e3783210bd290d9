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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// One cell of an export, typed: numbers stay numbers, money and dates keep their kind.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cell {
    Text(String),
    Int(i64),
    /// A decimal number that is no money (coordinates).
    Number(f64),
    /// Money in minor units, with its currency's decimal places and ISO code.
    Money {
        minor: i64,
        exponent: u32,
        currency: String,
    },
    /// A percentage in basis points (550 = 5.5 %).
    PercentBps(i64),
    Date(chrono::NaiveDate),
    /// An instant, written in UTC.
    DateTime(chrono::DateTime<chrono::Utc>),
    Empty,
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Self {
        v.map(Into::into).unwrap_or(Cell::Empty)
    }
}

impl From<i64> for Cell {
    fn from(v: i64) -> Self {
        Cell::Int(v)
    }
}

impl From<f64> for Cell {
    fn from(v: f64) -> Self {
        Cell::Number(v)
    }
}

impl From<chrono::DateTime<chrono::Utc>> for Cell {
    fn from(v: chrono::DateTime<chrono::Utc>) -> Self {
        Cell::DateTime(v)
    }
}

/// How a language writes a CSV that its spreadsheets open in columns: the field separator and
/// the decimal mark (French and Italian spreadsheets use `;` and `,`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsvDialect {
    pub separator: u8,
    pub decimal: char,
}

impl CsvDialect {
    /// The dialect of `lang`.
    pub fn of(lang: vendfleet_domain::Language) -> Self {
        match lang.code() {
            "fr" | "it" => CsvDialect {
                separator: b';',
                decimal: ',',
            },
            _ => CsvDialect {
                separator: b',',
                decimal: '.',
            },
        }
    }
}

/// A number of minor units as a decimal text with `exp` places (`-1234`, 2 → `-12.34`).
fn scaled(minor: i64, exp: u32, decimal: char) -> String {
    if exp == 0 {
        return minor.to_string();
    }
    let scale = 10u64.pow(exp);
    let abs = minor.unsigned_abs();
    let sign = if minor < 0 { "-" } else { "" };
    format!(
        "{sign}{}{decimal}{:0width$}",
        abs / scale,
        abs % scale,
        width = exp as usize
    )
}

/// A text cell that a spreadsheet would run as a formula (= + - @, or a leading tab or carriage
/// return that some programs strip first) gets a leading apostrophe.
pub fn defuse(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

impl Cell {
    /// The cell as CSV text in `dialect`.
    pub fn csv_text(&self, dialect: CsvDialect) -> String {
        match self {
            Cell::Text(t) => defuse(t),
            Cell::Int(v) => v.to_string(),
            Cell::Number(v) => v.to_string().replace('.', &dialect.decimal.to_string()),
            Cell::Money {
                minor, exponent, ..
            } => scaled(*minor, *exponent, dialect.decimal),
            Cell::PercentBps(bps) => {
                let text = scaled(*bps, 2, dialect.decimal);
                let trimmed = text.trim_end_matches('0');
                trimmed
                    .strip_suffix(dialect.decimal)
                    .unwrap_or(trimmed)
                    .to_string()
            }
            Cell::Date(d) => d.format("%Y-%m-%d").to_string(),
            Cell::DateTime(t) => t.format("%Y-%m-%d %H:%M").to_string(),
            Cell::Empty => String::new(),
        }
    }
}

/// A column of a report table: its stable key (templates keep columns by key) and its title in
/// each language.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub key: &'static str,
    pub en: &'static str,
    pub fr: &'static str,
    pub it: &'static str,
}

/// A column: `col("date", "Date", "Date", "Data")`.
pub const fn col(
    key: &'static str,
    en: &'static str,
    fr: &'static str,
    it: &'static str,
) -> Column {
    Column { key, en, fr, it }
}

/// The titles of `columns` in `lang`.
pub fn titles(lang: vendfleet_domain::Language, columns: &[Column]) -> Vec<String> {
    columns
        .iter()
        .map(|c| crate::reply::tr(lang, c.en, c.fr, c.it))
        .collect()
}

/// A table: header row and typed rows.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Table {
    pub sheet: String,
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

/// An export rendered later by the jobs worker: the table as the request built it (the same
/// list, filters, scope and columns), the format and the language.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct ExportJob {
    pub table: Table,
    pub format: Format,
    pub lang: vendfleet_domain::Language,
}

impl ExportJob {
    /// The file's bytes (blocking work: call it off the async threads).
    pub fn render(&self) -> Result<Vec<u8>, ApiError> {
        self.table.render(self.format, self.lang)
    }
}

impl Format {
    /// The content type and file extension.
    pub fn file_kind(self) -> (&'static str, &'static str) {
        match self {
            Format::Csv => (CSV_TYPE, "csv"),
            Format::Xlsx => (XLSX_TYPE, "xlsx"),
        }
    }
}

impl Table {
    /// Answers an export: the file itself when the table is small; else a background job that
    /// renders it (202 with the job, whose `GET /api/jobs/{id}/` gives progress and, when done,
    /// a download link). The list, filters, scope and columns are the request's either way, and
    /// the audit trail records the export (who, the request, the machines it covers).
    pub async fn answer(
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
    pub fn into_download(
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

    /// The file's bytes in `format` (a CSV the way `lang`'s spreadsheets read it).
    pub fn render(
        &self,
        format: Format,
        lang: vendfleet_domain::Language,
    ) -> Result<Vec<u8>, ApiError> {
        match format {
            Format::Csv => self.csv(CsvDialect::of(lang)),
            Format::Xlsx => self.xlsx(),
        }
    }

    /// UTF-8 with a BOM, so spreadsheet programs read accented names correctly.
    pub fn csv(&self, dialect: CsvDialect) -> Result<Vec<u8>, ApiError> {
        let internal = |e: csv::Error| vendfleet_app::AppError::Internal(format!("csv: {e}"));
        let mut w = csv::WriterBuilder::new()
            .delimiter(dialect.separator)
            .from_writer(b"\xEF\xBB\xBF".to_vec());
        let header: Vec<String> = self.header.iter().map(|h| defuse(h)).collect();
        w.write_record(&header).map_err(internal)?;
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(|c| c.csv_text(dialect)).collect();
            w.write_record(&cells).map_err(internal)?;
        }
        w.into_inner()
            .map_err(|e| vendfleet_app::AppError::Internal(format!("csv: {e}")).into())
    }

    /// Typed cells (numbers, money in its currency's format, dates), a bold frozen header row
    /// with an autofilter, and column widths fitted to the content.
    pub fn xlsx(&self) -> Result<Vec<u8>, ApiError> {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        let formats = XlsxFormats::new();
        start_sheet(sheet, &self.sheet, &self.header, &formats).map_err(xlsx_error)?;
        for (r, row) in self.rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                write_cell(sheet, r as u32 + 1, c as u16, cell, &formats).map_err(xlsx_error)?;
            }
        }
        end_sheet(sheet, self.rows.len() as u32, self.header.len()).map_err(xlsx_error)?;
        sheet.autofit();
        book.save_to_buffer().map_err(xlsx_error)
    }

    /// Keeps the columns at `indexes`, in that order.
    pub fn keep_columns(&mut self, indexes: &[usize]) {
        self.header = indexes
            .iter()
            .filter_map(|i| self.header.get(*i).cloned())
            .collect();
        for row in &mut self.rows {
            *row = indexes
                .iter()
                .map(|i| row.get(*i).cloned().unwrap_or(Cell::Empty))
                .collect();
        }
    }
}

/// An XLSX error as a 500 (nothing a client sent makes one).
pub fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> ApiError {
    ApiError::from(vendfleet_app::AppError::Internal(format!("xlsx: {e}")))
}

/// The cell formats of an XLSX file.
pub struct XlsxFormats {
    bold: rust_xlsxwriter::Format,
    date: rust_xlsxwriter::Format,
    date_time: rust_xlsxwriter::Format,
    percent: rust_xlsxwriter::Format,
}

impl XlsxFormats {
    /// The formats every export uses.
    pub fn new() -> Self {
        use rust_xlsxwriter::Format;
        XlsxFormats {
            bold: Format::new().set_bold(),
            date: Format::new().set_num_format("yyyy-mm-dd"),
            date_time: Format::new().set_num_format("yyyy-mm-dd hh:mm"),
            percent: Format::new().set_num_format("0.00%"),
        }
    }

    /// The bold header format.
    pub fn bold(&self) -> &rust_xlsxwriter::Format {
        &self.bold
    }
}

impl Default for XlsxFormats {
    fn default() -> Self {
        Self::new()
    }
}

/// Names a sheet and writes its bold header row.
pub fn start_sheet(
    sheet: &mut rust_xlsxwriter::Worksheet,
    name: &str,
    header: &[String],
    f: &XlsxFormats,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    sheet.set_name(name)?;
    for (c, h) in header.iter().enumerate() {
        sheet.write_string_with_format(0, c as u16, h, &f.bold)?;
    }
    Ok(())
}

/// Freezes the header row and puts an autofilter over `rows` data rows.
pub fn end_sheet(
    sheet: &mut rust_xlsxwriter::Worksheet,
    rows: u32,
    columns: usize,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    if columns > 0 {
        sheet.set_freeze_panes(1, 0)?;
        sheet.autofilter(0, 0, rows, columns as u16 - 1)?;
    }
    Ok(())
}

/// Writes one typed cell: numbers stay numbers, money gets its currency's format, dates theirs.
pub fn write_cell(
    sheet: &mut rust_xlsxwriter::Worksheet,
    r: u32,
    c: u16,
    cell: &Cell,
    f: &XlsxFormats,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    use rust_xlsxwriter::{ExcelDateTime, Format as XFormat};
    match cell {
        Cell::Text(t) => sheet.write_string(r, c, t).map(|_| ()),
        Cell::Int(v) => sheet.write_number(r, c, *v as f64).map(|_| ()),
        Cell::Number(v) => sheet.write_number(r, c, *v).map(|_| ()),
        Cell::Money {
            minor,
            exponent,
            currency,
        } => {
            let places = "0".repeat(*exponent as usize);
            let pattern = if places.is_empty() {
                "#,##0".to_string()
            } else {
                format!("#,##0.{places}")
            };
            let code: String = currency
                .chars()
                .filter(|c| c.is_ascii_alphabetic())
                .collect();
            let fmt = XFormat::new().set_num_format(format!("{pattern} \"{code}\""));
            let value = *minor as f64 / 10f64.powi(*exponent as i32);
            sheet
                .write_number_with_format(r, c, value, &fmt)
                .map(|_| ())
        }
        Cell::PercentBps(bps) => sheet
            .write_number_with_format(r, c, *bps as f64 / 10_000.0, &f.percent)
            .map(|_| ()),
        Cell::Date(d) => {
            use chrono::Datelike;
            let x = ExcelDateTime::from_ymd(d.year() as u16, d.month() as u8, d.day() as u8)?;
            sheet
                .write_datetime_with_format(r, c, &x, &f.date)
                .map(|_| ())
        }
        Cell::DateTime(t) => {
            use chrono::{Datelike, Timelike};
            let x = ExcelDateTime::from_ymd(t.year() as u16, t.month() as u8, t.day() as u8)
                .and_then(|x| x.and_hms(t.hour() as u16, t.minute() as u8, t.second() as f64))?;
            sheet
                .write_datetime_with_format(r, c, &x, &f.date_time)
                .map(|_| ())
        }
        Cell::Empty => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_in_each_dialect() {
        let fr = CsvDialect::of(vendfleet_domain::Language::Fr);
        let en = CsvDialect::of(vendfleet_domain::Language::En);
        let money = Cell::Money {
            minor: -1234,
            exponent: 2,
            currency: "EUR".into(),
        };
        assert_eq!(money.csv_text(fr), "-12,34");
        assert_eq!(money.csv_text(en), "-12.34");
        let yen = Cell::Money {
            minor: 300,
            exponent: 0,
            currency: "JPY".into(),
        };
        assert_eq!(yen.csv_text(fr), "300");
        assert_eq!(Cell::PercentBps(550).csv_text(fr), "5,5");
        assert_eq!(Cell::PercentBps(2000).csv_text(en), "20");
        assert_eq!(Cell::PercentBps(1025).csv_text(en), "10.25");
        assert_eq!(Cell::Number(48.85).csv_text(fr), "48,85");
        assert_eq!(Cell::Int(-5).csv_text(fr), "-5", "numbers are not defused");
    }

    #[test]
    fn formulas_are_defused_including_tab_and_carriage_return() {
        for bad in ["=SUM(A1)", "+1", "-1", "@x", "\t=1", "\r=1"] {
            assert!(defuse(bad).starts_with('\''), "{bad:?}");
        }
        assert_eq!(defuse("Zoë"), "Zoë");
    }
}
