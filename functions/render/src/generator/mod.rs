//! The report generator's rendering: what a saved definition (`ReportSpec`) may hold for its
//! module (parameters and columns), its preview, its file writer ([`writer`]) and the worker's
//! step that turns a claimed report into a file ([`run`]).

pub mod run;
pub mod writer;

use crate::params::ReportParams;
use crate::table::{titles, Column};
use crate::tables::{self, module_table};
use vendfleet_app::auth::Principal;
use vendfleet_app::generator::{Module, ReportSpec};
use vendfleet_app::sales::FILTER_KEYS;
use vendfleet_app::{App, AppError, AppResult};
use vendfleet_domain::FieldErrors;

/// The period keys every sales-based screen takes, before its filters.
const PERIOD_KEYS: [&str; 3] = ["period", "date_from", "date_to"];
/// What the sales overview adds after the filters.
const VIEW_KEYS: [&str; 3] = ["value", "group_by", "grouping_period"];

/// The parameters a module's screen takes.
pub fn module_keys(m: Module) -> Vec<&'static str> {
    let mut keys: Vec<&str> = match m {
        // The shared period and filters, and the log's own older ones.
        Module::RefillLog => PERIOD_KEYS
            .into_iter()
            .chain(FILTER_KEYS)
            .chain(["machine", "location", "from", "to"])
            .collect(),
        _ => PERIOD_KEYS
            .into_iter()
            .chain(FILTER_KEYS)
            .chain(VIEW_KEYS)
            .collect(),
    };
    match m {
        Module::SalesOverview => keys.extend(["search", "ordering"]),
        Module::Encashment => keys.push("employees"),
        Module::Inventory => keys.push("tab"),
        _ => {}
    }
    keys
}

/// The selectable columns of a module (none for the sales overview, whose columns are its
/// periods); the inventory's depend on its tab.
pub fn module_columns(m: Module, tab: Option<&str>) -> AppResult<&'static [Column]> {
    Ok(match m {
        Module::SalesOverview => &[],
        Module::Encashment => tables::columns(tables::encashment::ENCASHMENT),
        Module::RefillLog => tables::columns(tables::refills::REFILLS),
        Module::TransactionLog => tables::columns(tables::transactions::TRANSACTIONS),
        Module::Inventory => {
            if tables::inventory::component_tab(tab)? {
                tables::columns(tables::inventory::COMPONENT_STOCK)
            } else {
                tables::columns(tables::inventory::PRODUCT_STOCK)
            }
        }
    })
}

/// Checks a definition's parameters and columns against its module: unknown keys, and the
/// module's own rules (dates, choices) as its screen applies them today.
pub fn check_params(app: &App, spec: &ReportSpec) -> AppResult<()> {
    let keys = module_keys(spec.module);
    let mut errors = FieldErrors::new();
    for k in spec.params.keys() {
        if !keys.contains(&k.as_str()) {
            errors.add(
                "params",
                format!(
                    "“{k}” is not a parameter of this report ({}).",
                    keys.join(", ")
                ),
            );
        }
    }
    let columns = module_columns(spec.module, spec.params.get("tab").map(String::as_str))?;
    for c in &spec.columns {
        if !columns.iter().any(|k| k.key == c) {
            errors.add("columns", format!("“{c}” is not a column of this report."));
        }
    }
    errors.into_result().map_err(AppError::from)?;
    ReportParams::from_map(&spec.params)
        .sales
        .check(app.calendar.today())
        .map_err(AppError::from)?;
    Ok(())
}

/// Indexes of the kept columns (`None`: all).
fn kept(spec: &ReportSpec) -> AppResult<Option<Vec<usize>>> {
    if spec.columns.is_empty() {
        return Ok(None);
    }
    let columns = module_columns(spec.module, spec.params.get("tab").map(String::as_str))?;
    Ok(Some(
        spec.columns
            .iter()
            .filter_map(|k| columns.iter().position(|c| c.key == k))
            .collect(),
    ))
}

/// Rows of a preview.
pub const PREVIEW_ROWS: usize = 20;

/// The first rows of a definition's report for `p`, as text in `p`'s spreadsheet dialect: the
/// header, the rows and how many rows the whole report has.
pub async fn preview(
    app: &App,
    p: &Principal,
    spec: &ReportSpec,
) -> AppResult<(Vec<String>, Vec<Vec<String>>, u64)> {
    let keep = kept(spec)?;
    let dialect = crate::cell::CsvDialect::of(p.user.language);
    let params = ReportParams::from_map(&spec.params);
    let (header, rows, total) = if spec.module == Module::TransactionLog {
        let mut cursor = app.sales.transaction_cursor(p, &params.sales).await?;
        let total = u64::try_from(cursor.total).unwrap_or(0);
        let mut rows = Vec::new();
        while rows.len() < PREVIEW_ROWS {
            let Some(day) = app.sales.next_transactions(&mut cursor).await? else {
                break;
            };
            rows.extend(
                day.into_iter()
                    .take(PREVIEW_ROWS - rows.len())
                    .map(|r| tables::transactions::cells(r, p.user.language)),
            );
        }
        (
            titles(
                p.user.language,
                tables::columns(tables::transactions::TRANSACTIONS),
            ),
            rows,
            total,
        )
    } else {
        let (t, _) = module_table(app, p, spec.module, &params, PREVIEW_ROWS).await?;
        let total = t.rows.len() as u64;
        (
            t.header,
            t.rows.into_iter().take(PREVIEW_ROWS).collect(),
            total,
        )
    };
    let pick = |cells: Vec<String>| match &keep {
        Some(k) => k.iter().filter_map(|i| cells.get(*i).cloned()).collect(),
        None => cells,
    };
    Ok((
        pick(header),
        rows.into_iter()
            .map(|r| pick(r.iter().map(|c| c.csv_text(dialect)).collect()))
            .collect(),
        total,
    ))
}
