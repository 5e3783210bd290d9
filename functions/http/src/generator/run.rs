//! What a report module writes: the same query, scope and columns as its report screen's export,
//! read as the requester stands at run time. The transaction log is streamed a day at a time.

use super::writer::ReportWriter;
use crate::error::{ApiError, ApiResult};
use crate::export::{titles, Cell, Column, Table};
use crate::reply::tr;
use crate::sales::{value_cell, DetailPaging, SalesQuery};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use vendfleet_app::auth::Principal;
use vendfleet_app::generator::{ClaimedReport, GeneratedReport, Graph, Module, ReportSpec};
use vendfleet_app::{App, AppError, AppResult};
use vendfleet_domain::report::Choice;
use vendfleet_domain::{FieldErrors, Language};

/// The filter keys every sales-based screen takes.
const SALES_KEYS: [&str; 13] = [
    "period",
    "date_from",
    "date_to",
    "clients",
    "locations",
    "regions",
    "machine_tags",
    "machines",
    "products",
    "product_tags",
    "value",
    "group_by",
    "grouping_period",
];

/// The parameters a module's screen takes.
pub fn module_keys(m: Module) -> Vec<&'static str> {
    let mut keys = match m {
        // The shared period and filters, and the log's own older ones.
        Module::RefillLog => SALES_KEYS
            .iter()
            .copied()
            .filter(|k| !matches!(*k, "value" | "group_by" | "grouping_period"))
            .chain(["machine", "location", "from", "to"])
            .collect(),
        _ => SALES_KEYS.to_vec(),
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
pub fn module_columns(m: Module, tab: Option<&str>) -> ApiResult<&'static [Column]> {
    Ok(match m {
        Module::SalesOverview => &[],
        Module::Encashment => &crate::reports::ENCASHMENT_COLUMNS,
        Module::RefillLog => &crate::machines::refills::REFILL_COLUMNS,
        Module::TransactionLog => &crate::transaction_log::COLUMNS,
        Module::Inventory => {
            if crate::reports::component_tab(tab)? {
                &crate::reports::COMPONENT_STOCK_COLUMNS
            } else {
                &crate::reports::PRODUCT_STOCK_COLUMNS
            }
        }
    })
}

/// A module's query structure read from stored parameters, as its screen reads a query string.
fn query<T: DeserializeOwned>(params: &BTreeMap<String, String>) -> ApiResult<T> {
    let text = serde_urlencoded::to_string(params)
        .map_err(|e| AppError::Internal(format!("report parameters: {e}")))?;
    serde_urlencoded::from_str(&text).map_err(|e| {
        AppError::from(FieldErrors::single(
            "params",
            format!("Not a query of this report: {e}"),
        ))
        .into()
    })
}

/// Checks a definition's parameters and columns against its module: unknown keys, and the
/// module's own rules (dates, choices) as its screen applies them today.
pub fn check_params(app: &App, spec: &ReportSpec) -> ApiResult<()> {
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
    let q: SalesQuery = query(&spec.params)?;
    let params: vendfleet_app::sales::SalesParams = q.into();
    params.check(app.calendar.today()).map_err(AppError::from)?;
    if spec.module == Module::RefillLog {
        let _: crate::machines::refills::RefillsQuery = query(&spec.params)?;
    }
    Ok(())
}

/// Indexes of the kept columns (`None`: all).
fn kept(spec: &ReportSpec) -> ApiResult<Option<Vec<usize>>> {
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

/// A whole table of a module other than the transaction log, with the sales report behind the
/// sales overview's.
async fn table(
    app: &App,
    p: &Principal,
    spec: &ReportSpec,
) -> ApiResult<(Table, Option<vendfleet_app::sales::SalesReport>)> {
    let params = &spec.params;
    Ok(match spec.module {
        Module::SalesOverview => {
            let (t, r) = crate::sales::overview_table(
                app,
                p,
                query(params)?,
                query::<DetailPaging>(params)?,
            )
            .await?;
            (t, Some(r))
        }
        Module::Encashment => (
            crate::reports::encashment_table(app, p, query(params)?, query(params)?).await?,
            None,
        ),
        Module::RefillLog => (
            crate::machines::refills::refill_table(app, p, query(params)?, query(params)?).await?,
            None,
        ),
        Module::Inventory => (
            crate::reports::inventory_table(
                app,
                p,
                query(params)?,
                params.get("tab").map(String::as_str),
            )
            .await?,
            None,
        ),
        Module::TransactionLog => {
            let rows = app
                .sales
                .all_transactions(p, &query::<SalesQuery>(params)?.into(), PREVIEW_ROWS)
                .await
                .or_else(|_| Ok::<_, AppError>(Vec::new()))?;
            let lang = p.user.language;
            (
                Table {
                    sheet: crate::transaction_log::sheet_name(lang),
                    header: titles(lang, &crate::transaction_log::COLUMNS),
                    rows: rows
                        .into_iter()
                        .map(|r| crate::transaction_log::cells(r, lang))
                        .collect(),
                },
                None,
            )
        }
    })
}

/// Rows of a preview.
pub const PREVIEW_ROWS: usize = 20;

/// The first rows of a definition's report for `p`, as text in `p`'s spreadsheet dialect.
pub async fn preview(
    app: &App,
    p: &Principal,
    spec: &ReportSpec,
) -> ApiResult<(Vec<String>, Vec<Vec<String>>, u64)> {
    let keep = kept(spec)?;
    let dialect = crate::export::CsvDialect::of(p.user.language);
    let (header, rows, total) = if spec.module == Module::TransactionLog {
        let mut cursor = app
            .sales
            .transaction_cursor(p, &query::<SalesQuery>(&spec.params)?.into())
            .await?;
        let total = u64::try_from(cursor.total).unwrap_or(0);
        let mut rows = Vec::new();
        while rows.len() < PREVIEW_ROWS {
            let Some(day) = app.sales.next_transactions(&mut cursor).await? else {
                break;
            };
            rows.extend(
                day.into_iter()
                    .take(PREVIEW_ROWS - rows.len())
                    .map(|r| crate::transaction_log::cells(r, p.user.language)),
            );
        }
        (
            titles(p.user.language, &crate::transaction_log::COLUMNS),
            rows,
            total,
        )
    } else {
        let (t, _) = table(app, p, spec).await?;
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

/// Why an attempt failed, and whether trying again could help.
struct Failure {
    message: String,
    permanent: bool,
}

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        Failure {
            permanent: e.status.is_client_error(),
            message: if e.body.errors.is_empty() {
                e.body.message.clone()
            } else {
                let fields: Vec<String> = e
                    .body
                    .errors
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", v.join(" ")))
                    .collect();
                format!("{} ({})", e.body.message, fields.join("; "))
            },
        }
    }
}

impl From<AppError> for Failure {
    fn from(e: AppError) -> Self {
        ApiError::from(e).into()
    }
}

/// Writes a claimed report's file and finishes it: done with its file, or back to the queue
/// (failed for good after the last attempt, or at once when a retry would fail the same way).
pub async fn run(app: &App, mut c: ClaimedReport) -> AppResult<GeneratedReport> {
    let outcome = match write(app, &mut c).await {
        Ok((path, rows, scope)) => app
            .generator
            .finish(&c, &path, rows, scope)
            .await
            .map_err(Failure::from),
        Err(f) => Err(f),
    };
    match outcome {
        Ok(r) => {
            crate::scheduler::deliver(app, &r).await?;
            Ok(r)
        }
        Err(f) => {
            tracing::warn!(report = %c.report.id, error = %f.message, "report attempt failed");
            let r = app.generator.fail(c, &f.message, f.permanent).await?;
            if r.status == vendfleet_app::generator::ReportStatus::Queued {
                // Given back to the queue: the delivery did not succeed.
                return Err(AppError::Internal(format!(
                    "report attempt failed: {}",
                    f.message
                )));
            }
            Ok(r)
        }
    }
}

async fn write(
    app: &App,
    c: &mut ClaimedReport,
) -> Result<
    (
        tempfile::TempPath,
        u64,
        vendfleet_app::generator::ReportScope,
    ),
    Failure,
> {
    let p = app.generator.requester(&c.report).await?;
    let spec = c.report.spec.clone();
    vendfleet_app::generator::require_module(&p, spec.module)?;
    let scope = app.generator.scope_of(&p).await?;
    let lang = p.user.language;
    let keep = kept(&spec)?;
    let pick = |header: Vec<String>| match &keep {
        Some(k) => k.iter().filter_map(|i| header.get(*i).cloned()).collect(),
        None => header,
    };
    if spec.module == Module::TransactionLog {
        let mut cursor = app
            .sales
            .transaction_cursor(&p, &query::<SalesQuery>(&spec.params)?.into())
            .await?;
        let total = u64::try_from(cursor.total).unwrap_or(0).max(1);
        let mut w = ReportWriter::new(
            spec.format,
            lang,
            &crate::transaction_log::sheet_name(lang),
            pick(titles(lang, &crate::transaction_log::COLUMNS)),
            true,
        )?;
        let mut reported = 5u8;
        while let Some(day) = app.sales.next_transactions(&mut cursor).await? {
            for r in day {
                w.row(&crate::transaction_log::cells(r, lang), keep.as_deref())?;
            }
            let percent = (5 + w.rows * 90 / total).min(95) as u8;
            if percent >= reported + 5 {
                reported = percent;
                app.generator.progress(c, percent).await?;
            }
        }
        let (path, rows) = tokio::task::spawn_blocking(move || w.finish())
            .await
            .map_err(|e| AppError::Internal(format!("report file: {e}")))??;
        return Ok((path, rows, scope));
    }
    let (t, report) = table(app, &p, &spec).await?;
    app.generator.progress(c, 60).await?;
    let mut w = ReportWriter::new(spec.format, lang, &t.sheet, pick(t.header.clone()), false)?;
    for row in &t.rows {
        w.row(row, keep.as_deref())?;
    }
    let rows = w.rows;
    if let Some(r) = report {
        sales_extras(&mut w, &r, &spec, lang, rows as u32, t.header.len())?;
    }
    let (path, _) = tokio::task::spawn_blocking(move || w.finish())
        .await
        .map_err(|e| AppError::Internal(format!("report file: {e}")))??;
    Ok((path, rows, scope))
}

/// The sales overview's totals row (the report's own totals, not a sum of the rows: a product
/// may be in several tags), its chart, and a summary sheet with the period comparison.
fn sales_extras(
    w: &mut ReportWriter,
    r: &vendfleet_app::sales::SalesReport,
    spec: &ReportSpec,
    lang: Language,
    rows: u32,
    columns: usize,
) -> ApiResult<()> {
    let value = r.query.value;
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let mut total = vec![Cell::Text(t("Total", "Total", "Totale"))];
    total.extend(
        r.buckets()
            .iter()
            .map(|d| value_cell(value, r.current.buckets.get(d).map_or(0, |f| value.of(f)))),
    );
    total.push(value_cell(value, value.of(&r.current.total)));
    w.row(&total, None)?;
    let title = match value.key() {
        "quantity" => t("Quantity", "Quantité", "Quantità"),
        "sales_excl_tax" => t("Sales excl. tax", "Ventes HT", "Vendite IVA esclusa"),
        _ => t("Sales", "Ventes", "Vendite"),
    };
    let last = columns.saturating_sub(1) as u16;
    match spec.graph {
        Graph::Line => w.chart(Graph::Line, &title, rows + 1, rows, last)?,
        Graph::Bar => w.chart(Graph::Bar, &title, rows + 1, rows, last)?,
        Graph::None => {}
    }
    if spec.format != vendfleet_app::generator::FileFormat::Xlsx {
        return Ok(());
    }
    w.add_sheet(
        t("Summary", "Synthèse", "Riepilogo"),
        vec![
            t("Figure", "Indicateur", "Indicatore"),
            format!("{} – {}", r.query.from, r.query.to),
            format!("{} – {}", r.previous_from, r.previous_to),
        ],
    )?;
    let money = |minor: i64| value_cell(vendfleet_domain::report::Value::Sales, minor);
    let (c, p) = (&r.current.total, &r.previous.total);
    let lines = [
        (
            t("Sales", "Ventes", "Vendite"),
            money(c.revenue_minor),
            money(p.revenue_minor),
        ),
        (
            t("Sales excl. tax", "Ventes HT", "Vendite IVA esclusa"),
            money(c.net_minor),
            money(p.net_minor),
        ),
        (
            t("Quantity", "Quantité", "Quantità"),
            Cell::Int(c.quantity),
            Cell::Int(p.quantity),
        ),
        (
            t("Cash", "Espèces", "Contanti"),
            money(c.cash_minor),
            money(p.cash_minor),
        ),
        (
            t("Cashless", "Sans espèces", "Senza contanti"),
            money(c.cashless_minor),
            money(p.cashless_minor),
        ),
    ];
    for (name, now, before) in lines {
        w.row(&[Cell::Text(name), now, before], None)?;
    }
    Ok(())
}
