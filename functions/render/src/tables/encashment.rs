//! The encashment report: every collection with what it should have held.

use crate::table::{titles, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::reports::EncashmentParams;
use vendfleet_app::{App, AppResult};

/// Names the encashment report's columns in `columns.json` ([`super::columns`]).
pub const ENCASHMENT: &str = "encashment";

/// The encashment report of a query as a table (every collection; paging ignored).
pub async fn encashment_table(
    app: &App,
    p: &Principal,
    params: &EncashmentParams,
) -> AppResult<Table> {
    let lang = p.user.language;
    let rows = app.reports.all_encashments(p, params).await?;
    let table_rows = rows
        .into_iter()
        .map(|c| {
            let money = |minor: i64| Cell::Money {
                minor,
                exponent: 2,
                currency: c.row.currency.clone(),
            };
            let maybe = |v: Option<i64>| v.map_or(Cell::Empty, money);
            vec![
                c.row.at.into(),
                c.row.stamp.machine_name.clone().into(),
                c.row.stamp.location_name.clone().unwrap_or_default().into(),
                c.row.bag_no.clone().into(),
                c.row.employee_name.clone().unwrap_or_default().into(),
                money(c.row.cash_box_minor),
                money(c.row.bill_stacker_minor),
                money(c.row.collected_minor),
                money(c.row.tubes_minor),
                money(c.row.ejected_minor),
                money(c.row.refilled_coins_minor),
                maybe(c.taken_minor),
                maybe(c.expected_minor),
                maybe(c.over_short_minor),
                maybe(c.counted_minor),
                maybe(c.counted_over_short_minor),
            ]
        })
        .collect();
    Ok(Table {
        sheet: tr(lang, "Encashment", "Encaissement", "Incasso"),
        header: titles(lang, super::columns(ENCASHMENT)),
        rows: table_rows,
    })
}
