//! Writing typed cells into an XLSX sheet: the formats, the header row, the frozen panes and
//! autofilter, one cell at a time (shared by the exports and the report generator's writer).

use crate::cell::Cell;
use vendfleet_app::AppError;

/// An XLSX error as an internal failure (nothing a client sent makes one).
pub fn xlsx_error(e: rust_xlsxwriter::XlsxError) -> AppError {
    AppError::Internal(format!("xlsx: {e}"))
}

/// The cell formats of an XLSX file.
pub struct XlsxFormats {
    bold: rust_xlsxwriter::Format,
    bold_date: rust_xlsxwriter::Format,
    bold_month: rust_xlsxwriter::Format,
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
            bold_date: Format::new().set_bold().set_num_format("yyyy-mm-dd"),
            bold_month: Format::new().set_bold().set_num_format("mmm yyyy"),
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

/// A header naming a day (`2026-11-01`) or a month (`2026-11`): the day it stands for, and
/// whether it is a month. Such headers are written as dates, so that a spreadsheet sorts, filters
/// and charts the period columns as dates, not text.
fn header_date(h: &str) -> Option<(chrono::NaiveDate, bool)> {
    let day = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
    match h.len() {
        10 => day(h).map(|d| (d, false)),
        7 => day(&format!("{h}-01")).map(|d| (d, true)),
        _ => None,
    }
}

/// Names a sheet and writes its bold header row (days and months as dates).
pub fn start_sheet(
    sheet: &mut rust_xlsxwriter::Worksheet,
    name: &str,
    header: &[String],
    f: &XlsxFormats,
) -> Result<(), rust_xlsxwriter::XlsxError> {
    use chrono::Datelike;
    sheet.set_name(name)?;
    for (c, h) in header.iter().enumerate() {
        match header_date(h) {
            Some((d, month)) => {
                let x = rust_xlsxwriter::ExcelDateTime::from_ymd(
                    d.year() as u16,
                    d.month() as u8,
                    d.day() as u8,
                )?;
                let format = if month { &f.bold_month } else { &f.bold_date };
                sheet.write_datetime_with_format(0, c as u16, &x, format)?;
            }
            None => {
                sheet.write_string_with_format(0, c as u16, h, &f.bold)?;
            }
        }
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
