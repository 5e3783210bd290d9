//! The accountant's reports as tables: the visit ledger, the VAT report and the card-settlement
//! reconciliation.

use crate::table::{titles, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::reports::{VatGroup, VisitParams};
use vendfleet_app::sales::SalesParams;
use vendfleet_app::{App, AppResult};

/// Money in minor units of a two-decimal currency.
fn money(minor: i64, currency: &str) -> Cell {
    Cell::Money {
        minor,
        exponent: 2,
        currency: currency.to_string(),
    }
}

/// Names the visit ledger's columns in `columns.json` ([`super::columns`]).
pub const VISITS: &str = "visits";

/// The visit ledger of a query as a table (every line; paging ignored).
pub async fn visit_table(app: &App, p: &Principal, params: &VisitParams) -> AppResult<Table> {
    let lang = p.user.language;
    let lines = app.reports.visit_lines(p, params).await?;
    let rows = lines
        .into_iter()
        .map(|l| {
            let c = &l.collection;
            let m = |v: i64| money(v, &c.currency);
            let maybe = |v: Option<i64>| v.map_or(Cell::Empty, m);
            let why: Vec<String> = l
                .explanations
                .iter()
                .map(|e| super::label(lang, "explanation", e.kind))
                .collect();
            let refs: Vec<String> = l
                .explanations
                .iter()
                .flat_map(|e| e.refs.iter().cloned())
                .collect();
            vec![
                c.at.into(),
                c.stamp.machine_name.clone().into(),
                c.stamp.location_name.clone().unwrap_or_default().into(),
                c.employee_name.clone().unwrap_or_default().into(),
                c.bag_no.clone().into(),
                l.previous.as_ref().map_or(Cell::Empty, |v| v.at.into()),
                maybe(l.tubes_before_minor),
                m(c.tubes_minor),
                m(l.tubes_after_minor),
                m(c.cash_box_minor),
                m(c.bill_stacker_minor),
                m(c.collected_minor),
                maybe(l.cash_sales_minor),
                maybe(l.counted_minor),
                maybe(l.variance_minor),
                super::label(lang, "visit_status", l.status).into(),
                why.join("; ").into(),
                refs.join(" ").into(),
            ]
        })
        .collect();
    Ok(Table {
        sheet: tr(
            lang,
            "Visit ledger",
            "Journal des visites",
            "Registro visite",
        ),
        header: titles(lang, super::columns(VISITS)),
        rows,
    })
}

/// Names the VAT report's columns in `columns.json` ([`super::columns`]).
pub const VAT: &str = "vat";

/// The VAT report as a table: its groups by rate, then each rate's totals, taxable, exempt and
/// the total.
pub async fn vat_table(
    app: &App,
    p: &Principal,
    sales: &SalesParams,
    group: Option<&str>,
) -> AppResult<Table> {
    let lang = p.user.language;
    let r = app.reports.vat(p, sales, group).await?;
    let fig = |name: String, rate: Option<u32>, f: &vendfleet_app::reports::VatFigures| {
        vec![
            name.into(),
            rate.map_or(Cell::Empty, |b| Cell::PercentBps(i64::from(b))),
            Cell::Int(f.quantity),
            money(f.gross_minor, "EUR"),
            money(f.net_minor, "EUR"),
            money(f.vat_minor, "EUR"),
        ]
    };
    let mut rows = Vec::new();
    if r.group != VatGroup::Rate {
        for row in &r.rows {
            rows.push(fig(row.name.clone(), Some(row.rate_bps), &row.figures));
        }
    }
    let all = tr(lang, "All", "Tous", "Tutti");
    for rate in &r.by_rate {
        rows.push(fig(all.clone(), Some(rate.rate_bps), &rate.figures));
    }
    rows.push(fig(
        tr(lang, "Taxable", "Imposable", "Imponibile"),
        None,
        &r.taxable,
    ));
    rows.push(fig(
        tr(lang, "Exempt", "Exonéré", "Esente"),
        None,
        &r.exempt,
    ));
    rows.push(fig(tr(lang, "Total", "Total", "Totale"), None, &r.total));
    Ok(Table {
        sheet: tr(lang, "VAT", "TVA", "IVA"),
        header: titles(lang, super::columns(VAT)),
        rows,
    })
}

/// Names the reconciliation's columns in `columns.json` ([`super::columns`]).
pub const RECONCILIATION: &str = "reconciliation";

/// The card-settlement reconciliation of a query as a table: each machine-day.
pub async fn reconciliation_table(
    app: &App,
    p: &Principal,
    sales: &SalesParams,
) -> AppResult<Table> {
    let lang = p.user.language;
    let r = app.settlements.reconcile(p, sales).await?;
    let rows = r
        .rows
        .into_iter()
        .map(|row| {
            let m = |v: i64| money(v, &row.currency);
            vec![
                row.machine_name.clone().into(),
                row.terminal_id.clone().into(),
                Cell::Date(row.date),
                m(row.sales_minor),
                Cell::Int(row.transactions),
                m(row.gross_minor),
                m(row.fees_minor),
                m(row.net_minor),
                Cell::Int(row.settled_count),
                m(row.difference_minor),
                super::label(lang, "settlement_status", row.status).into(),
                row.payouts.join(" ").into(),
            ]
        })
        .collect();
    Ok(Table {
        sheet: tr(
            lang,
            "Card settlements",
            "Règlements carte",
            "Regolamenti carte",
        ),
        header: titles(lang, super::columns(RECONCILIATION)),
        rows,
    })
}
