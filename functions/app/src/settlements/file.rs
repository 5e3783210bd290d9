//! Reading a processor's settlement file (CSV or XLSX) through its mapping into checked lines:
//! every cell error named by its row and column, nothing returned when any row is wrong.

use super::model::{Columns, SettlementLine, SettlementMapping};
use crate::fleet::Machine;
use chrono::NaiveDate;
use std::collections::HashMap;
use vendfleet_domain::FieldErrors;

/// Rows a file may hold (a month of a 1,000-machine fleet's machine-days is 30,000).
pub const MAX_ROWS: usize = 50_000;

/// Errors reported at most (the rest are counted).
const MAX_ERRORS: usize = 50;

/// A cell as the file holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
    Date(NaiveDate),
    Empty,
}

/// The rows of a file: the header names and each row (with its number in the file) by column.
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<(u32, Vec<Cell>)>,
}

/// Reads a CSV (`,` or `;`, with or without a byte-order mark) or XLSX (first sheet) file.
pub fn read_table(name: &str, bytes: &[u8]) -> Result<Table, String> {
    if bytes.starts_with(b"PK\x03\x04") || name.to_lowercase().ends_with(".xlsx") {
        read_xlsx(bytes)
    } else {
        read_csv(bytes)
    }
}

fn read_csv(bytes: &[u8]) -> Result<Table, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| "The file is neither UTF-8 text (CSV) nor an XLSX workbook.".to_string())?;
    let text = text.trim_start_matches('\u{feff}');
    let first = text.lines().next().unwrap_or("");
    let delimiter = if first.matches(';').count() > first.matches(',').count() {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| format!("Row 1: {e}"))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let row = i as u32 + 2;
        let record = record.map_err(|e| format!("Row {row}: {e}"))?;
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        rows.push((
            row,
            record
                .iter()
                .map(|c| match c.trim() {
                    "" => Cell::Empty,
                    t => Cell::Text(t.to_string()),
                })
                .collect(),
        ));
        if rows.len() > MAX_ROWS {
            return Err(format!("The file has more than {MAX_ROWS} rows: split it."));
        }
    }
    Ok(Table { headers, rows })
}

fn read_xlsx(bytes: &[u8]) -> Result<Table, String> {
    use calamine::{Data, Reader};
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes))
        .map_err(|e| format!("The workbook cannot be read: {e}"))?;
    let range = book
        .worksheet_range_at(0)
        .ok_or("The workbook has no sheet.")?
        .map_err(|e| format!("The first sheet cannot be read: {e}"))?;
    let mut it = range.rows().enumerate();
    let headers: Vec<String> = match it.next() {
        Some((_, r)) => r.iter().map(|c| c.to_string().trim().to_string()).collect(),
        None => Vec::new(),
    };
    let mut rows = Vec::new();
    for (i, r) in it {
        let row = i as u32 + 1 + range.start().map_or(0, |(r, _)| r);
        let cells: Vec<Cell> = r
            .iter()
            .map(|c| match c {
                Data::Empty => Cell::Empty,
                Data::String(s) if s.trim().is_empty() => Cell::Empty,
                Data::String(s) => Cell::Text(s.trim().to_string()),
                Data::Float(f) => Cell::Number(*f),
                Data::Int(n) => Cell::Number(*n as f64),
                Data::DateTime(d) => {
                    serial_date(d.as_f64()).map_or(Cell::Text(c.to_string()), Cell::Date)
                }
                Data::DateTimeIso(s) => {
                    NaiveDate::parse_from_str(&s[..s.len().min(10)], "%Y-%m-%d")
                        .map_or(Cell::Text(s.clone()), Cell::Date)
                }
                other => Cell::Text(other.to_string()),
            })
            .collect();
        if cells.iter().all(|c| *c == Cell::Empty) {
            continue;
        }
        rows.push((row, cells));
        if rows.len() > MAX_ROWS {
            return Err(format!("The file has more than {MAX_ROWS} rows: split it."));
        }
    }
    Ok(Table { headers, rows })
}

/// An amount in minor units: a decimal in major units with the mapping's separator (thousands
/// spaces and apostrophes allowed), or in minor units; never more decimals than the currency's.
pub fn amount(cell: &Cell, m: &SettlementMapping, places: u8) -> Result<i64, String> {
    let scale = 10i64.pow(u32::from(places));
    match cell {
        Cell::Number(f) => {
            let v = if m.amounts_in_minor {
                *f
            } else {
                f * scale as f64
            };
            if (v - v.round()).abs() > 1e-6 || !v.is_finite() || v.abs() > 1e15 {
                return Err(format!("{f} is not an amount of this currency"));
            }
            Ok(v.round() as i64)
        }
        Cell::Text(t) => {
            let cleaned: String = t
                .chars()
                .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}' | '\''))
                .collect();
            let (neg, digits) = match cleaned.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, cleaned.as_str()),
            };
            let bad = || format!("\"{t}\" is not an amount");
            let (int, frac) = if m.amounts_in_minor {
                (digits, "")
            } else {
                match digits.split_once(m.decimal_separator) {
                    Some((i, f)) => (i, f),
                    None => (digits, ""),
                }
            };
            if int.is_empty()
                || !int.chars().all(|c| c.is_ascii_digit())
                || !frac.chars().all(|c| c.is_ascii_digit())
                || int.len() > 13
            {
                return Err(bad());
            }
            let frac = frac.trim_end_matches('0');
            if frac.len() > usize::from(places) {
                return Err(format!(
                    "\"{t}\" has more decimals than the currency's {places}"
                ));
            }
            let int: i64 = int.parse().map_err(|_| bad())?;
            let frac_minor: i64 = if frac.is_empty() {
                0
            } else {
                frac.parse::<i64>().map_err(|_| bad())?
                    * 10i64.pow(u32::from(places) - frac.len() as u32)
            };
            let v = if m.amounts_in_minor {
                int
            } else {
                int * scale + frac_minor
            };
            Ok(if neg { -v } else { v })
        }
        Cell::Date(_) => Err("a date is not an amount".into()),
        Cell::Empty => Err("empty".into()),
    }
}

fn text(cell: &Cell) -> Option<String> {
    match cell {
        Cell::Text(t) => Some(t.clone()),
        // A terminal id or payout reference typed as a number in a spreadsheet.
        Cell::Number(f) if f.fract() == 0.0 => Some(format!("{}", *f as i64)),
        Cell::Number(f) => Some(f.to_string()),
        Cell::Date(d) => Some(d.to_string()),
        Cell::Empty => None,
    }
}

/// A workbook's serial day (days since 30 December 1899), between 1950 and 2150.
fn serial_date(serial: f64) -> Option<NaiveDate> {
    if !(18_264.0..91_311.0).contains(&serial) {
        return None;
    }
    NaiveDate::from_ymd_opt(1899, 12, 30)?
        .checked_add_signed(chrono::Duration::days(serial.floor() as i64))
}

fn date(cell: &Cell, format: &str) -> Result<NaiveDate, String> {
    match cell {
        Cell::Date(d) => Ok(*d),
        Cell::Text(t) => NaiveDate::parse_from_str(t, format)
            .or_else(|_| {
                chrono::NaiveDateTime::parse_from_str(t, &format!("{format} %H:%M:%S"))
                    .map(|d| d.date())
            })
            .map_err(|_| format!("\"{t}\" is not a date as {format}")),
        // A workbook date cell without a date format.
        Cell::Number(f) => serial_date(*f).ok_or_else(|| format!("{f} is not a date")),
        Cell::Empty => Err("empty".into()),
    }
}

/// The lines of `table` through mapping `m`, each matched to a machine by terminal id
/// (`machines`: the ones the importer may see, by terminal id). Every problem is reported as
/// `rows.<row>.<field>`; with any, no line.
pub fn lines(
    table: &Table,
    m: &SettlementMapping,
    machines: &HashMap<String, &Machine>,
) -> Result<Vec<SettlementLine>, FieldErrors> {
    let mut errors = FieldErrors::new();
    let find = |h: &str| {
        table
            .headers
            .iter()
            .position(|x| x.eq_ignore_ascii_case(h.trim()))
    };
    let c: &Columns = &m.columns;
    let mut col = |field: &str, header: Option<&String>| -> Option<usize> {
        let header = header?;
        let at = find(header);
        if at.is_none() {
            errors.add(
                format!("columns.{field}"),
                format!("The file has no column \"{header}\"."),
            );
        }
        at
    };
    let date_at = col("date", Some(&c.date));
    let terminal_at = col("terminal", Some(&c.terminal));
    let gross_at = col("gross", Some(&c.gross));
    let fees_at = col("fees", c.fees.as_ref());
    let net_at = col("net", c.net.as_ref());
    let count_at = col("count", c.count.as_ref());
    let payout_at = col("payout_reference", Some(&c.payout_reference));
    let currency_at = col("currency", c.currency.as_ref());
    if !errors.is_empty() {
        return Err(errors);
    }
    if table.rows.is_empty() {
        errors.add("file", "The file has no rows.");
        return Err(errors);
    }
    let mut out = Vec::with_capacity(table.rows.len());
    let mut problems = 0usize;
    let empty = Cell::Empty;
    for (row, cells) in &table.rows {
        let cell = |i: Option<usize>| i.and_then(|i| cells.get(i)).unwrap_or(&empty);
        let mut bad = |field: &str, header: &str, message: String| {
            problems += 1;
            if problems <= MAX_ERRORS {
                errors.add(
                    format!("rows.{row}.{field}"),
                    format!("Row {row}, column \"{header}\": {message}."),
                );
            }
        };
        let terminal = text(cell(terminal_at));
        let machine = match &terminal {
            None => {
                bad("terminal", &c.terminal, "empty".into());
                None
            }
            Some(t) => match machines.get(t.as_str()) {
                Some(m) => Some(*m),
                None => {
                    bad(
                        "terminal",
                        &c.terminal,
                        format!("no machine has terminal id \"{t}\""),
                    );
                    None
                }
            },
        };
        let places = machine.map_or(2, |m| m.decimal_places);
        let day = date(cell(date_at), &m.date_format)
            .map_err(|e| bad("date", &c.date, e))
            .ok();
        let mut money = |field: &str, header: Option<&String>, at: Option<usize>| -> Option<i64> {
            let header = header?;
            match amount(cell(at), m, places) {
                Ok(v) => Some(v),
                Err(e) => {
                    bad(field, header, e);
                    None
                }
            }
        };
        let gross = money("gross", Some(&c.gross), gross_at);
        let fees = money("fees", c.fees.as_ref(), fees_at);
        let net = money("net", c.net.as_ref(), net_at);
        let count = match (c.count.as_ref(), cell(count_at)) {
            (None, _) => Some(0),
            (Some(_), Cell::Number(f)) if f.fract() == 0.0 && *f >= 0.0 => Some(*f as i64),
            (Some(h), Cell::Text(t)) => match t.parse::<i64>() {
                Ok(n) if n >= 0 => Some(n),
                _ => {
                    bad("count", h, format!("\"{t}\" is not a count"));
                    None
                }
            },
            (Some(h), other) => {
                bad("count", h, format!("{other:?} is not a count"));
                None
            }
        };
        let payout = text(cell(payout_at));
        if payout.is_none() {
            bad("payout_reference", &c.payout_reference, "empty".into());
        }
        let currency = match (c.currency.as_ref(), text(cell(currency_at)), machine) {
            (_, _, None) => None,
            (None, _, Some(mc)) | (Some(_), None, Some(mc)) => Some(mc.currency.clone()),
            (Some(h), Some(cur), Some(mc)) => {
                let cur = cur.to_uppercase();
                if cur != mc.currency {
                    bad(
                        "currency",
                        h,
                        format!("{cur}, but the machine sells in {}", mc.currency),
                    );
                }
                Some(cur)
            }
        };
        // Fees and net, when both are given, must add up to the gross.
        if let (Some(g), Some(f), Some(n)) = (gross, fees, net) {
            if c.fees.is_some() && c.net.is_some() && g - f != n {
                bad(
                    "net",
                    c.net.as_deref().unwrap_or("net"),
                    format!("gross − fees is {}, not {n}", g - f),
                );
            }
        }
        if let (Some(machine), Some(date), Some(g), Some(count), Some(payout), Some(currency)) =
            (machine, day, gross, count, payout, currency)
        {
            let fees = fees.unwrap_or(0);
            out.push(SettlementLine {
                row: *row,
                machine_id: machine.id.clone(),
                terminal_id: terminal.unwrap_or_default(),
                date,
                gross_minor: g,
                fees_minor: fees,
                net_minor: net.unwrap_or(g - fees),
                count,
                payout_reference: payout,
                currency,
            });
        }
    }
    if problems > MAX_ERRORS {
        errors.add(
            "file",
            format!("{} more problems not listed.", problems - MAX_ERRORS),
        );
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
