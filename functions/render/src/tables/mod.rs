//! The report tables: what turns a report's results into a [`Table`], for the report screens'
//! exports and the report generator alike. [`module_table`] runs a report module with the
//! parameters a report runs with ([`ReportParams`]).

pub mod encashment;
pub mod inventory;
pub mod money;
pub mod refills;
pub mod routes;
pub mod sales;
pub mod transactions;

use crate::params::ReportParams;
use crate::table::{titles, Table};
use vendfleet_app::auth::Principal;
use vendfleet_app::generator::Module;
use vendfleet_app::sales::SalesReport;
use vendfleet_app::{App, AppResult};

/// A module's whole table, with the sales report behind the sales overview's; the transaction
/// log holds at most `max_rows` (more is a 400 that says how many there are).
pub async fn module_table(
    app: &App,
    p: &Principal,
    module: Module,
    params: &ReportParams,
    max_rows: usize,
) -> AppResult<(Table, Option<SalesReport>)> {
    Ok(match module {
        Module::SalesOverview => {
            let (t, r) = sales::overview_table(app, p, &params.sales, &params.list).await?;
            (t, Some(r))
        }
        Module::Encashment => (
            encashment::encashment_table(app, p, &params.encashment()).await?,
            None,
        ),
        Module::RefillLog => (
            refills::refill_table(app, p, params.refills.clone(), &params.filters()).await?,
            None,
        ),
        Module::Inventory => (
            inventory::inventory_table(app, p, &params.sales, params.tab.as_deref()).await?,
            None,
        ),
        Module::TransactionLog => {
            let lang = p.user.language;
            let rows = app
                .sales
                .all_transactions(p, &params.sales, max_rows)
                .await?;
            (
                Table {
                    sheet: transactions::sheet_name(lang),
                    header: titles(lang, &transactions::COLUMNS),
                    rows: rows
                        .into_iter()
                        .map(|r| transactions::cells(r, lang))
                        .collect(),
                },
                None,
            )
        }
    })
}
