//! Reading a processor's settlement file (CSV or XLSX) through its mapping into checked lines:
//! every cell error named by its row and column, nothing returned when any row is wrong.

use super::model::{Columns, SettlementLine, SettlementMapping};
use crate::fleet::Machine;
use crate::tabular::{self, date, text, Cell, Table};
use std::collections::HashMap;
use vendfleet_domain::FieldErrors;

/// Rows a file may hold (a month of a 1,000-machine fleet's machine-days is 30,000).
pub const MAX_ROWS: usize = 50_000;

/// Errors reported at most (the rest are counted).
const MAX_ERRORS: usize = 50;

/// Reads a CSV or XLSX settlement file, at most [`MAX_ROWS`] rows.
pub fn read_table(name: &str, bytes: &[u8]) -> Result<Table, String> {
    tabular::read_table(name, bytes, MAX_ROWS)
}

/// An amount in minor units through the mapping's separator and unit.
pub fn amount(cell: &Cell, m: &SettlementMapping, places: u8) -> Result<i64, String> {
    tabular::amount(cell, m.decimal_separator, m.amounts_in_minor, places)
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
