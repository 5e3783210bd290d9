//! Reading a spreadsheet export (CSV or XLSX) into cells, row by row, and its cells into our
//! values (amounts in minor units, dates, times): the one reader of every import — card
//! settlements and sales history — each reading it through its own saved column mapping.

use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use std::io::{BufRead, Read};

/// A cell as the file holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Number(f64),
    Date(NaiveDate),
    /// A workbook date-and-time cell.
    DateTime(NaiveDateTime),
    Empty,
}

/// What reads a file: its header row, then each row with its line in the file. An `Err` from
/// either stops the reading with that message.
pub trait Rows {
    fn headers(&mut self, headers: &[String]) -> Result<(), String>;
    fn row(&mut self, line: u32, cells: &[Cell]) -> Result<(), String>;
}

/// The rows of a file held whole: the header names and each row (with its line) by column.
pub struct Table {
    pub headers: Vec<String>,
    pub rows: Vec<(u32, Vec<Cell>)>,
    max_rows: usize,
}

impl Rows for Table {
    fn headers(&mut self, headers: &[String]) -> Result<(), String> {
        self.headers = headers.to_vec();
        Ok(())
    }

    fn row(&mut self, line: u32, cells: &[Cell]) -> Result<(), String> {
        self.rows.push((line, cells.to_vec()));
        if self.rows.len() > self.max_rows {
            return Err(format!(
                "The file has more than {} rows: split it.",
                self.max_rows
            ));
        }
        Ok(())
    }
}

/// True when `name` or the first bytes say the file is an XLSX workbook (a zip).
pub fn is_xlsx(name: &str, first_bytes: &[u8]) -> bool {
    first_bytes.starts_with(b"PK\x03\x04") || name.to_lowercase().ends_with(".xlsx")
}

/// Reads a CSV or XLSX file held whole, at most `max_rows` rows.
pub fn read_table(name: &str, bytes: &[u8], max_rows: usize) -> Result<Table, String> {
    let mut table = Table {
        headers: Vec::new(),
        rows: Vec::new(),
        max_rows,
    };
    if is_xlsx(name, bytes) {
        read_xlsx(bytes, &mut table)?;
    } else {
        read_csv(bytes, &mut table)?;
    }
    Ok(table)
}

/// Reads a CSV file as it streams: `,`, `;` or tab (the first line says which), with or without
/// a byte-order mark, UTF-8 or else Windows-1252 (a spreadsheet's "CSV" on Windows). Blank
/// rows are skipped.
pub fn read_csv(input: impl Read, out: &mut impl Rows) -> Result<(), String> {
    // Every record ends with a line break (a row is named by its first line, counted back from
    // the line after it: the reader's own start line counts the blank lines skipped before it).
    let input = input.chain(&b"\n"[..]);
    let mut input = std::io::BufReader::with_capacity(1 << 16, input);
    let head = input.fill_buf().map_err(|e| e.to_string())?;
    let bom = head.starts_with(b"\xEF\xBB\xBF");
    let body = if bom { &head[3..] } else { head };
    let first = body.split(|b| *b == b'\n').next().unwrap_or(&[]);
    let count = |c: u8| first.iter().filter(|b| **b == c).count();
    let delimiter = [b';', b'\t']
        .into_iter()
        .find(|d| count(*d) > count(b','))
        .unwrap_or(b',');
    if bom {
        input.consume(3);
    }
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(false)
        .from_reader(input);
    let mut record = csv::ByteRecord::new();
    let mut line = 0u32;
    let mut cells: Vec<Cell> = Vec::new();
    let mut headers = false;
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(format!("Line {}: {e}", line + 1)),
        }
        let inside = record.as_slice().iter().filter(|b| **b == b'\n').count() as u64;
        line =
            u32::try_from(reader.position().line().saturating_sub(1 + inside)).unwrap_or(u32::MAX);
        if !headers {
            let names: Vec<String> = record
                .iter()
                .map(|c| decode(c).trim().to_string())
                .collect();
            out.headers(&names)?;
            headers = true;
            continue;
        }
        cells.clear();
        cells.extend(record.iter().map(|c| match decode(c).trim() {
            "" => Cell::Empty,
            t => Cell::Text(t.to_string()),
        }));
        if cells.iter().all(|c| *c == Cell::Empty) {
            continue;
        }
        out.row(line, &cells)?;
    }
    if !headers {
        out.headers(&[])?;
    }
    Ok(())
}

/// A CSV field's text: UTF-8, else Windows-1252.
fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => {
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
        }
    }
}

/// Reads an XLSX workbook's first sheet (its first row the headers).
pub fn read_xlsx(bytes: &[u8], out: &mut impl Rows) -> Result<(), String> {
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
    out.headers(&headers)?;
    let first = range.start().map_or(0, |(r, _)| r);
    let mut cells: Vec<Cell> = Vec::new();
    for (i, r) in it {
        let line = i as u32 + 1 + first;
        cells.clear();
        cells.extend(r.iter().map(|c| {
            match c {
                Data::Empty => Cell::Empty,
                Data::String(s) if s.trim().is_empty() => Cell::Empty,
                Data::String(s) => Cell::Text(s.trim().to_string()),
                Data::Float(f) => Cell::Number(*f),
                Data::Int(n) => Cell::Number(*n as f64),
                Data::Bool(b) => Cell::Text(b.to_string()),
                Data::DateTime(d) => serial(d.as_f64()).map_or(Cell::Text(c.to_string()), |t| {
                    if t.time() == NaiveTime::MIN && d.as_f64().fract() == 0.0 {
                        Cell::Date(t.date())
                    } else {
                        Cell::DateTime(t)
                    }
                }),
                Data::DateTimeIso(s) => NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f")
                    .map(Cell::DateTime)
                    .or_else(|_| {
                        NaiveDate::parse_from_str(&s[..s.len().min(10)], "%Y-%m-%d").map(Cell::Date)
                    })
                    .unwrap_or(Cell::Text(s.clone())),
                other => Cell::Text(other.to_string()),
            }
        }));
        if cells.iter().all(|c| *c == Cell::Empty) {
            continue;
        }
        out.row(line, &cells)?;
    }
    Ok(())
}

/// A workbook's serial day and time (days since 30 December 1899), between 1950 and 2150, to
/// the millisecond.
fn serial(serial: f64) -> Option<NaiveDateTime> {
    if !(18_264.0..91_311.0).contains(&serial) {
        return None;
    }
    let day = NaiveDate::from_ymd_opt(1899, 12, 30)?
        .checked_add_signed(chrono::Duration::days(serial.floor() as i64))?;
    let ms = (serial.fract() * 86_400_000.0).round() as i64;
    day.and_hms_opt(0, 0, 0)?
        .checked_add_signed(chrono::Duration::milliseconds(ms))
}

/// The decimal separator a mapping names: `.` (also when none) or `,`; another is a field error.
pub fn decimal_separator(errors: &mut vendfleet_domain::FieldErrors, given: Option<&str>) -> char {
    match given.map(str::trim) {
        None | Some("") | Some(".") => '.',
        Some(",") => ',',
        Some(_) => {
            errors.add("decimal_separator", "Choose . or ,");
            '.'
        }
    }
}

/// `at` written as the chrono format `format`; `None` when the format is not one (an unknown
/// `%` specifier), which chrono's `Display` would refuse with a panic in `to_string`.
pub fn formatted(at: &NaiveDateTime, format: &str) -> Option<String> {
    use chrono::format::{Item, StrftimeItems};
    if StrftimeItems::new(format).any(|i| matches!(i, Item::Error)) {
        return None;
    }
    let mut out = String::new();
    std::fmt::Write::write_fmt(&mut out, format_args!("{}", at.format(format))).ok()?;
    Some(out)
}

/// A cell's text: a number typed in a spreadsheet (a terminal id, a reference) as written.
pub fn text(cell: &Cell) -> Option<String> {
    match cell {
        Cell::Text(t) => Some(t.clone()),
        Cell::Number(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(format!("{}", *f as i64)),
        Cell::Number(f) => Some(f.to_string()),
        Cell::Date(d) => Some(d.to_string()),
        Cell::DateTime(d) => Some(d.format("%Y-%m-%d %H:%M:%S").to_string()),
        Cell::Empty => None,
    }
}

/// A cell's date: a workbook date, or text as `format` (a date-and-time text as
/// `format %H:%M:%S` too).
pub fn date(cell: &Cell, format: &str) -> Result<NaiveDate, String> {
    match cell {
        Cell::Date(d) => Ok(*d),
        Cell::DateTime(d) => Ok(d.date()),
        Cell::Text(t) => NaiveDate::parse_from_str(t, format)
            .or_else(|_| {
                NaiveDateTime::parse_from_str(t, &format!("{format} %H:%M:%S")).map(|d| d.date())
            })
            .map_err(|_| format!("\"{t}\" is not a date as {format}")),
        // A workbook date cell without a date format.
        Cell::Number(f) => serial(*f)
            .map(|d| d.date())
            .ok_or_else(|| format!("{f} is not a date")),
        Cell::Empty => Err("empty".into()),
    }
}

/// A cell's date and time: a workbook date-time, or text as `format` (fractions of a second
/// after `%S` allowed), else a date alone (midnight) when `format` has no time.
pub fn date_time(cell: &Cell, format: &str) -> Result<NaiveDateTime, String> {
    match cell {
        Cell::DateTime(d) => Ok(*d),
        Cell::Date(d) => Ok(d.and_time(NaiveTime::MIN)),
        Cell::Text(t) => NaiveDateTime::parse_from_str(t, format)
            .or_else(|_| NaiveDateTime::parse_from_str(t, &format.replace("%S", "%S%.f")))
            .or_else(|_| NaiveDate::parse_from_str(t, format).map(|d| d.and_time(NaiveTime::MIN)))
            .map_err(|_| format!("\"{t}\" is not a date and time as {format}")),
        Cell::Number(f) => serial(*f).ok_or_else(|| format!("{f} is not a date")),
        Cell::Empty => Err("empty".into()),
    }
}

/// A cell's time of day: a workbook time (a fraction of a day), or text as `format`.
pub fn time(cell: &Cell, format: &str) -> Result<NaiveTime, String> {
    match cell {
        Cell::DateTime(d) => Ok(d.time()),
        Cell::Number(f) if (0.0..1.0).contains(f) => {
            let ms = (f * 86_400_000.0).round() as i64;
            Ok(NaiveTime::MIN + chrono::Duration::milliseconds(ms.min(86_399_999)))
        }
        Cell::Text(t) => NaiveTime::parse_from_str(t, format)
            .or_else(|_| NaiveTime::parse_from_str(t, &format.replace("%S", "%S%.f")))
            .map_err(|_| format!("\"{t}\" is not a time as {format}")),
        Cell::Empty => Err("empty".into()),
        other => Err(format!("{} is not a time", text(other).unwrap_or_default())),
    }
}

/// An amount in minor units of a currency of `places` decimals: a decimal in major units with
/// `separator` (thousands spaces and apostrophes allowed), or, `in_minor`, a whole number of
/// minor units; never more decimals than the currency has.
pub fn amount(cell: &Cell, separator: char, in_minor: bool, places: u8) -> Result<i64, String> {
    let scale = 10i64.pow(u32::from(places));
    match cell {
        Cell::Number(f) => {
            let v = if in_minor { *f } else { f * scale as f64 };
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
            let (int, frac) = if in_minor {
                (digits, "")
            } else {
                digits.split_once(separator).unwrap_or((digits, ""))
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
            let v = if in_minor {
                int
            } else {
                int * scale + frac_minor
            };
            Ok(if neg { -v } else { v })
        }
        Cell::Date(_) | Cell::DateTime(_) => Err("a date is not an amount".into()),
        Cell::Empty => Err("empty".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_stream_with_their_lines_in_any_delimiter_and_encoding() {
        let file = b"\xEF\xBB\xBFa;b\n1;caf\xC3\xA9\n\n\"x\ny\";2\n";
        let t = read_table("f.csv", file, 10).unwrap();
        assert_eq!(t.headers, ["a", "b"]);
        assert_eq!(
            t.rows[0],
            (2, vec![Cell::Text("1".into()), Cell::Text("café".into())])
        );
        // The quoted field spans two lines: the row is named by the line it starts on.
        assert_eq!(t.rows[1].0, 4);
        let latin = b"a\tb\nx\tcaf\xE9\n";
        let t = read_table("f.csv", latin, 10).unwrap();
        assert_eq!(t.rows[0].1[1], Cell::Text("café".into()));
        assert!(read_table("f.csv", b"a\n1\n2\n3\n", 2).is_err());
    }

    #[test]
    fn amounts_dates_and_times() {
        let t = |s: &str| Cell::Text(s.into());
        assert_eq!(amount(&t("1 234,50"), ',', false, 2), Ok(123_450));
        assert_eq!(amount(&t("-0.5"), '.', false, 2), Ok(-50));
        assert!(amount(&t("0.505"), '.', false, 2).is_err());
        assert_eq!(amount(&Cell::Number(1.2), '.', false, 2), Ok(120));
        assert_eq!(amount(&t("120"), '.', true, 2), Ok(120));
        let at = date_time(&t("30/10/2021 23:56:34"), "%d/%m/%Y %H:%M:%S").unwrap();
        assert_eq!(at.to_string(), "2021-10-30 23:56:34");
        let at = date_time(&t("2020-04-20T10:34:05.063"), "%Y-%m-%dT%H:%M:%S").unwrap();
        assert_eq!(at.and_utc().timestamp_subsec_millis(), 63);
        assert_eq!(
            time(&Cell::Number(0.5), "%H:%M").unwrap().to_string(),
            "12:00:00"
        );
        assert_eq!(
            date(&Cell::Number(45_000.0), "%Y").unwrap().to_string(),
            "2023-03-15"
        );
    }
}
