//! The worker's step of a generated report: what its module writes is the same query, scope and
//! columns as its report screen's export, read as the requester stands at run time, written by
//! [`ReportWriter`]; the transaction log is streamed a day at a time. A scheduled report is then
//! mailed to its audience ([`crate::mail::deliver`]).

use super::kept;
use super::writer::ReportWriter;
use crate::params::ReportParams;
use crate::table::titles;
use crate::tables::sales::{headlines, value_cell};
use crate::tables::{columns, module_table, transactions};
use crate::{tr, Cell};
use vendfleet_app::generator::{ClaimedReport, GeneratedReport, Graph, Module, ReportSpec};
use vendfleet_app::{App, AppError, AppResult};
use vendfleet_domain::report::{Choice, Value};
use vendfleet_domain::Language;

/// Why an attempt failed, and whether trying again could help.
struct Failure {
    message: String,
    permanent: bool,
}

impl From<AppError> for Failure {
    /// The message its HTTP answer would carry (an internal failure's cause is logged, not
    /// shown), with the fields at fault; permanent when that answer is a 4xx.
    fn from(e: AppError) -> Self {
        let (permanent, message, errors) = match e {
            AppError::Validation { message, errors }
            | AppError::OutOfReach { message, errors }
            | AppError::Conflict { message, errors } => (true, message, errors.0),
            AppError::Unauthorized(m)
            | AppError::Forbidden(m)
            | AppError::NotFound(m)
            | AppError::TooLarge(m) => (true, m, Default::default()),
            AppError::RateLimited { message, .. } => (true, message, Default::default()),
            AppError::Unavailable { message, .. } => (false, message, Default::default()),
            AppError::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                (
                    false,
                    "Something went wrong".to_string(),
                    Default::default(),
                )
            }
        };
        let errors: std::collections::BTreeMap<String, Vec<String>> = errors;
        Failure {
            permanent,
            message: if errors.is_empty() {
                message
            } else {
                let fields: Vec<String> = errors
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", v.join(" ")))
                    .collect();
                format!("{message} ({})", fields.join("; "))
            },
        }
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
            crate::mail::deliver(app, &r).await?;
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
    let params = ReportParams::from_map(&spec.params);
    let pick = |header: Vec<String>| match &keep {
        Some(k) => k.iter().filter_map(|i| header.get(*i).cloned()).collect(),
        None => header,
    };
    if spec.module == Module::TransactionLog {
        let mut cursor = app.sales.transaction_cursor(&p, &params.sales).await?;
        let total = u64::try_from(cursor.total).unwrap_or(0).max(1);
        let mut w = ReportWriter::new(
            spec.format,
            lang,
            &transactions::sheet_name(lang),
            pick(titles(lang, columns(transactions::TRANSACTIONS))),
            true,
        )?;
        let mut reported = 5u8;
        while let Some(day) = app.sales.next_transactions(&mut cursor).await? {
            for r in day {
                w.row(&transactions::cells(r, lang), keep.as_deref())?;
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
    let (t, report) = module_table(app, &p, spec.module, &params, usize::MAX).await?;
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
) -> AppResult<()> {
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
            crate::mail::period::name(r.query.from, r.query.to, lang),
            crate::mail::period::name(r.previous_from, r.previous_to, lang),
        ],
    )?;
    let cell = |money: bool, v: i64| {
        let value = if money { Value::Sales } else { Value::Quantity };
        value_cell(value, v)
    };
    let (c, p) = (&r.current.total, &r.previous.total);
    let lines = headlines(lang, true)
        .into_iter()
        .map(|h| (h.label, cell(h.money, (h.of)(c)), cell(h.money, (h.of)(p))));
    for (name, now, before) in lines {
        w.row(&[Cell::Text(name), now, before], None)?;
    }
    Ok(())
}
