//! The refill log: every stock change, by users and by machines.

use crate::table::{col, titles, Column, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::machines::RefillListParams;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::{App, AppResult};

/// The refill log's columns.
pub const REFILL_COLUMNS: [Column; 10] = [
    col("date", "Date", "Date", "Data"),
    col("local_day", "Local day", "Jour local", "Giorno locale"),
    col("machine", "Machine", "Machine", "Macchina"),
    col("location", "Location", "Emplacement", "Ubicazione"),
    col("employee", "Employee", "Employé", "Dipendente"),
    col("source", "Source", "Source", "Origine"),
    col("selection", "Selection", "Sélection", "Selezione"),
    col("product", "Product", "Produit", "Prodotto"),
    col("added", "Added", "Ajouté", "Aggiunto"),
    col("removed", "Removed", "Retiré", "Rimosso"),
];

/// The refill log of a query as a table (every line; paging ignored).
pub async fn refill_table(
    app: &App,
    p: &Principal,
    own: RefillListParams,
    shared: &SalesParams,
) -> AppResult<Table> {
    let lang = p.user.language;
    let params = app.reports.refill_params(p, shared, own).await?;
    let (entries, _) = app.machines.refill_entries(p, &params).await?;
    let rows = entries
        .into_iter()
        .map(|e| {
            vec![
                e.at.into(),
                Cell::Date(e.local_date),
                e.machine_name.into(),
                e.location_name.unwrap_or_default().into(),
                e.employee_name.into(),
                e.source.into(),
                e.selection.into(),
                e.product_name.into(),
                e.added.into(),
                e.removed.into(),
            ]
        })
        .collect();
    Ok(Table {
        sheet: tr(
            lang,
            "Refill log",
            "Journal des réassorts",
            "Registro rifornimenti",
        ),
        header: titles(lang, &REFILL_COLUMNS),
        rows,
    })
}
