//! The table every export and report is made of (a header row and typed cells) and its files:
//! CSV in the reader's spreadsheet dialect, XLSX with typed cells.

use vendfleet_app::{AppError, AppResult};
use vendfleet_domain::FieldErrors;

pub use crate::cell::{defuse, Cell, CsvDialect};

/// Content type of a CSV export.
pub const CSV_TYPE: &str = "text/csv; charset=utf-8";
/// Content type of an XLSX export.
pub const XLSX_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// A file format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Format {
    Csv,
    Xlsx,
}

impl Format {
    /// Parses `?format=` (default CSV).
    pub fn parse(v: Option<&str>) -> AppResult<Format> {
        match v.map(str::trim).unwrap_or("csv") {
            "" | "csv" => Ok(Format::Csv),
            "xlsx" => Ok(Format::Xlsx),
            _ => Err(AppError::invalid(FieldErrors::single(
                "format",
                "Choose csv or xlsx.",
            ))),
        }
    }

    /// The content type and file extension.
    pub fn file_kind(self) -> (&'static str, &'static str) {
        match self {
            Format::Csv => (CSV_TYPE, "csv"),
            Format::Xlsx => (XLSX_TYPE, "xlsx"),
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
        .map(|c| crate::tr(lang, c.en, c.fr, c.it))
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
    pub fn render(&self) -> AppResult<Vec<u8>> {
        self.table.render(self.format, self.lang)
    }
}

impl Table {
    /// The file's bytes in `format` (a CSV the way `lang`'s spreadsheets read it).
    pub fn render(&self, format: Format, lang: vendfleet_domain::Language) -> AppResult<Vec<u8>> {
        match format {
            Format::Csv => self.csv(CsvDialect::of(lang)),
            Format::Xlsx => self.xlsx(),
        }
    }

    /// UTF-8 with a BOM, so spreadsheet programs read accented names correctly.
    pub fn csv(&self, dialect: CsvDialect) -> AppResult<Vec<u8>> {
        let internal = |e: csv::Error| AppError::Internal(format!("csv: {e}"));
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
            .map_err(|e| AppError::Internal(format!("csv: {e}")))
    }

    /// Typed cells (numbers, money in its currency's format, dates), a bold frozen header row
    /// with an autofilter, and column widths fitted to the content.
    pub fn xlsx(&self) -> AppResult<Vec<u8>> {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        let formats = crate::xlsx::XlsxFormats::new();
        crate::xlsx::start_sheet(sheet, &self.sheet, &self.header, &formats)
            .map_err(crate::xlsx::xlsx_error)?;
        for (r, row) in self.rows.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                crate::xlsx::write_cell(sheet, r as u32 + 1, c as u16, cell, &formats)
                    .map_err(crate::xlsx::xlsx_error)?;
            }
        }
        crate::xlsx::end_sheet(sheet, self.rows.len() as u32, self.header.len())
            .map_err(crate::xlsx::xlsx_error)?;
        sheet.autofit();
        book.save_to_buffer().map_err(crate::xlsx::xlsx_error)
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
