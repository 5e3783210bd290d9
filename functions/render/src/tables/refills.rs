//! The refill log: every stock change, by users and by machines.

use crate::table::{titles, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::machines::RefillListParams;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::{App, AppResult};

/// Names the refill log's columns in `columns.json` ([`super::columns`]).
pub const REFILLS: &str = "refills";

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
                e.stamp.machine_name.into(),
                e.stamp.location_name.unwrap_or_default().into(),
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
        header: titles(lang, super::columns(REFILLS)),
        rows,
    })
}
