//! Writes a generated report's file row by row into a temporary file: CSV in the reader's
//! spreadsheet dialect, or XLSX with typed cells, a frozen header and, when asked, a native
//! chart. A large XLSX is written in constant-memory mode (each row goes to disk as it comes)
//! and continues on a new sheet when one is full.

use crate::cell::{defuse, Cell, CsvDialect};
use crate::xlsx::{end_sheet, start_sheet, write_cell, xlsx_error, XlsxFormats};
use rust_xlsxwriter::{Chart, ChartType, Workbook};
use std::io::{BufWriter, Write};
use vendfleet_app::generator::{FileFormat, Graph};
use vendfleet_app::{AppError, AppResult};
use vendfleet_domain::Language;

/// Data rows of one XLSX sheet (Excel's limit is 1,048,576 rows, the header included).
pub const XLSX_SHEET_ROWS: u32 = 1_048_575;

fn io_error(e: std::io::Error) -> AppError {
    AppError::Internal(format!("report file: {e}"))
}

fn csv_error(e: csv::Error) -> AppError {
    AppError::Internal(format!("csv: {e}"))
}

enum Sink {
    Csv(Box<csv::Writer<BufWriter<std::fs::File>>>),
    Xlsx(Box<Workbook>),
}

/// The file being written.
pub struct ReportWriter {
    sink: Sink,
    file: tempfile::NamedTempFile,
    dialect: CsvDialect,
    formats: XlsxFormats,
    constant_memory: bool,
    sheet_name: String,
    header: Vec<String>,
    /// The current sheet (XLSX).
    sheet: usize,
    sheets: usize,
    /// Data rows on the current sheet.
    sheet_rows: u32,
    /// Data rows written in all.
    pub rows: u64,
}

impl ReportWriter {
    /// A file with its first sheet (`sheet_name`, `header`). `large` writes an XLSX in
    /// constant-memory mode (no column fitting).
    pub fn new(
        format: FileFormat,
        lang: Language,
        sheet_name: &str,
        header: Vec<String>,
        large: bool,
    ) -> AppResult<Self> {
        let file = tempfile::NamedTempFile::new().map_err(io_error)?;
        let dialect = CsvDialect::of(lang);
        let sink = match format {
            FileFormat::Csv => {
                let mut out = BufWriter::new(file.reopen().map_err(io_error)?);
                out.write_all(b"\xEF\xBB\xBF").map_err(io_error)?;
                let mut w = csv::WriterBuilder::new()
                    .delimiter(dialect.separator)
                    .from_writer(out);
                let titles: Vec<String> = header.iter().map(|h| defuse(h)).collect();
                w.write_record(&titles).map_err(csv_error)?;
                Sink::Csv(Box::new(w))
            }
            FileFormat::Xlsx => Sink::Xlsx(Box::new(Workbook::new())),
        };
        let mut w = ReportWriter {
            sink,
            file,
            dialect,
            formats: XlsxFormats::new(),
            constant_memory: large,
            sheet_name: sheet_name.to_string(),
            header,
            sheet: 0,
            sheets: 0,
            sheet_rows: 0,
            rows: 0,
        };
        if matches!(w.sink, Sink::Xlsx(_)) {
            w.add_sheet(sheet_name.to_string(), w.header.clone())?;
        }
        Ok(w)
    }

    /// Starts a new XLSX sheet (a CSV has one table: nothing happens).
    pub fn add_sheet(&mut self, name: String, header: Vec<String>) -> AppResult<()> {
        let Sink::Xlsx(book) = &mut self.sink else {
            return Ok(());
        };
        if self.sheets > 0 {
            let previous = book.worksheet_from_index(self.sheet).map_err(xlsx_error)?;
            end_sheet(previous, self.sheet_rows, self.header.len()).map_err(xlsx_error)?;
            if !self.constant_memory {
                previous.autofit();
            }
        }
        let sheet = if self.constant_memory {
            book.add_worksheet_with_constant_memory()
        } else {
            Ok(book.add_worksheet())
        }
        .map_err(xlsx_error)?;
        start_sheet(sheet, &name, &header, &self.formats).map_err(xlsx_error)?;
        self.sheet = self.sheets;
        self.sheets += 1;
        self.sheet_rows = 0;
        self.header = header;
        Ok(())
    }

    /// Writes one row, keeping the cells at `keep` when given.
    pub fn row(&mut self, cells: &[Cell], keep: Option<&[usize]>) -> AppResult<()> {
        let picked: Vec<&Cell>;
        let cells: Vec<&Cell> = match keep {
            Some(k) => {
                picked = k.iter().filter_map(|i| cells.get(*i)).collect();
                picked
            }
            None => cells.iter().collect(),
        };
        if matches!(self.sink, Sink::Xlsx(_)) && self.sheet_rows == XLSX_SHEET_ROWS {
            let n = self.sheets + 1;
            let name = format!("{} ({n})", self.sheet_name);
            self.add_sheet(name, self.header.clone())?;
        }
        match &mut self.sink {
            Sink::Csv(w) => {
                let texts: Vec<String> = cells.iter().map(|c| c.csv_text(self.dialect)).collect();
                w.write_record(&texts).map_err(csv_error)?;
            }
            Sink::Xlsx(book) => {
                let sheet = book.worksheet_from_index(self.sheet).map_err(xlsx_error)?;
                let r = self.sheet_rows + 1;
                for (c, cell) in cells.iter().enumerate() {
                    write_cell(sheet, r, c as u16, cell, &self.formats).map_err(xlsx_error)?;
                }
            }
        }
        self.sheet_rows += 1;
        self.rows += 1;
        Ok(())
    }

    /// Draws `graph` on the first sheet (XLSX only): a line over the cells of row `row` from
    /// column 1 to `last_column` (the periods' totals), or bars of column `last_column` over the
    /// first `rows` data rows (each group's total), named by the header and the first column.
    pub fn chart(
        &mut self,
        graph: Graph,
        title: &str,
        row: u32,
        rows: u32,
        last_column: u16,
    ) -> AppResult<()> {
        let Sink::Xlsx(book) = &mut self.sink else {
            return Ok(());
        };
        if graph == Graph::None || last_column == 0 {
            return Ok(());
        }
        let name = book.worksheet_from_index(0).map_err(xlsx_error)?.name();
        let mut chart = match graph {
            Graph::Line => {
                let mut chart = Chart::new(ChartType::Line);
                chart
                    .add_series()
                    .set_categories((name.as_str(), 0, 1, 0, last_column.saturating_sub(1)))
                    .set_values((name.as_str(), row, 1, row, last_column.saturating_sub(1)))
                    .set_name(title);
                chart
            }
            _ => {
                let mut chart = Chart::new(ChartType::Column);
                chart
                    .add_series()
                    .set_categories((name.as_str(), 1, 0, rows.max(1), 0))
                    .set_values((name.as_str(), 1, last_column, rows.max(1), last_column))
                    .set_name(title);
                chart
            }
        };
        chart.title().set_name(title);
        chart.legend().set_hidden();
        let sheet = book.worksheet_from_index(0).map_err(xlsx_error)?;
        sheet.insert_chart(row + 2, 1, &chart).map_err(xlsx_error)?;
        Ok(())
    }

    /// Closes the file: its path (removed when dropped) and the data rows written.
    pub fn finish(mut self) -> AppResult<(tempfile::TempPath, u64)> {
        match self.sink {
            Sink::Csv(w) => {
                let mut out = (*w)
                    .into_inner()
                    .map_err(|e| AppError::Internal(format!("csv: {e}")))?;
                out.flush().map_err(io_error)?;
            }
            Sink::Xlsx(ref mut book) => {
                let sheet = book.worksheet_from_index(self.sheet).map_err(xlsx_error)?;
                end_sheet(sheet, self.sheet_rows, self.header.len()).map_err(xlsx_error)?;
                if !self.constant_memory {
                    sheet.autofit();
                }
                let out = BufWriter::new(self.file.reopen().map_err(io_error)?);
                book.save_to_writer(out).map_err(xlsx_error)?;
            }
        }
        Ok((self.file.into_temp_path(), self.rows))
    }
}
