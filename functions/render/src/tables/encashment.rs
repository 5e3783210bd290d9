//! The encashment report: every collection with what it should have held.

use crate::table::{col, titles, Column, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::reports::EncashmentParams;
use vendfleet_app::{App, AppResult};

/// The encashment report's columns.
pub const ENCASHMENT_COLUMNS: [Column; 16] = [
    col("date", "Date", "Date", "Data"),
    col("machine", "Machine", "Machine", "Macchina"),
    col("location", "Location", "Emplacement", "Ubicazione"),
    col("bag_no", "Bag no", "N° de sac", "N. sacchetto"),
    col("employee", "Employee", "Employé", "Dipendente"),
    col("cash_box", "Cash box", "Caisse", "Cassa"),
    col("bill_stacker", "Bill stacker", "Billets", "Banconote"),
    col(
        "collected",
        "Cash collected",
        "Espèces collectées",
        "Contanti raccolti",
    ),
    col(
        "tubes",
        "Value of tubes",
        "Valeur des tubes",
        "Valore dei tubi",
    ),
    col(
        "ejected",
        "Ejected coins",
        "Pièces éjectées",
        "Monete espulse",
    ),
    col(
        "refilled_coins",
        "Refilled coins",
        "Pièces rechargées",
        "Monete ricaricate",
    ),
    col("taken", "Taken", "Encaissé", "Incassato"),
    col("expected", "Expected", "Attendu", "Previsto"),
    col("over_short", "Over/short", "Écart", "Differenza"),
    col(
        "counted",
        "Counted (audit)",
        "Compté (audit)",
        "Contato (audit)",
    ),
    col(
        "counted_over_short",
        "Over/short (audit)",
        "Écart (audit)",
        "Differenza (audit)",
    ),
];

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
                c.row.machine_name.clone().into(),
                c.row.location_name.clone().unwrap_or_default().into(),
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
        header: titles(lang, &ENCASHMENT_COLUMNS),
        rows: table_rows,
    })
}
