//! A preview's tallies, row by row.

use super::model::{
    MonthRow, Preview, Unmatched, UnmatchedKind, MAX_ERRORS, MAX_MONTHS, MAX_UNMATCHED,
};
use super::reading::{Lookup, Row};
use std::collections::HashMap;
use vendfleet_domain::events::{EventKind, Payment};

/// The tallies of a preview, row by row.
#[derive(Default)]
pub struct Tally {
    pub preview: Preview,
    months: HashMap<(usize, String), MonthRow>,
    unmatched: HashMap<(UnmatchedKind, String), Unmatched>,
}

impl Tally {
    pub fn add(&mut self, line: u32, row: &Row, lookup: &Lookup) {
        let p = &mut self.preview;
        p.rows += 1;
        match row {
            Row::NotSale => p.not_sales += 1,
            Row::Bad(e) => {
                p.bad_rows += 1;
                if p.errors.len() < MAX_ERRORS {
                    p.errors.push(e.clone());
                }
            }
            Row::Unmatched(kind, value) => {
                p.unmatched_rows += 1;
                self.unmatched
                    .entry((*kind, value.clone()))
                    .or_insert_with(|| Unmatched {
                        kind: *kind,
                        value: value.clone(),
                        rows: 0,
                        first_line: line,
                    })
                    .rows += 1;
            }
            Row::Sale(s) => {
                p.sales += 1;
                let day = s.local.date();
                p.first_day = Some(p.first_day.map_or(day, |d| d.min(day)));
                p.last_day = Some(p.last_day.map_or(day, |d| d.max(day)));
                let EventKind::Vend(v) = &s.event.kind else {
                    return;
                };
                let month = s.local.format("%Y-%m").to_string();
                let ctx = &lookup.contexts[s.machine];
                let m = self
                    .months
                    .entry((s.machine, month.clone()))
                    .or_insert_with(|| MonthRow {
                        machine_id: ctx.machine.id.clone(),
                        machine_name: ctx.machine.name.clone(),
                        month,
                        currency: ctx.machine.currency.clone(),
                        decimal_places: ctx.machine.decimal_places,
                        ..MonthRow::default()
                    });
                let revenue = v.price_minor * i64::from(v.quantity);
                m.vends += 1;
                m.quantity += u64::from(v.quantity);
                m.revenue_minor += revenue;
                match v.payment {
                    Payment::Cash => m.cash_minor += revenue,
                    Payment::Cashless => m.cashless_minor += revenue,
                }
            }
        }
    }

    /// The preview: machine-months by machine name and month, unmatched values by rows.
    pub fn finish(mut self) -> Preview {
        let mut months: Vec<MonthRow> = self.months.into_values().collect();
        months.sort_by(|a, b| {
            (a.machine_name.to_lowercase(), &a.machine_id, &a.month).cmp(&(
                b.machine_name.to_lowercase(),
                &b.machine_id,
                &b.month,
            ))
        });
        months.truncate(MAX_MONTHS);
        let mut unmatched: Vec<Unmatched> = self.unmatched.into_values().collect();
        unmatched.sort_by(|a, b| b.rows.cmp(&a.rows).then(a.first_line.cmp(&b.first_line)));
        unmatched.truncate(MAX_UNMATCHED);
        self.preview.months = months;
        self.preview.unmatched = unmatched;
        self.preview
    }
}
