//! The sales overview's detail table: a row a group, a column a period, and the total.

use crate::table::Table;
use crate::{tr, Cell};
use chrono::NaiveDate;
use vendfleet_app::auth::Principal;
use vendfleet_app::listing::ListParams;
use vendfleet_app::sales::{SalesParams, SalesReport};
use vendfleet_app::{App, AppResult};
use vendfleet_domain::report::{GroupBy, Grouping, Value};
use vendfleet_domain::sales::Figures;
use vendfleet_domain::Language;

/// Groups shown one by one on the bar chart; the rest are summed as "others".
pub const BAR_GROUPS: usize = 20;

/// The title of the group column.
pub fn group_label(lang: Language, g: GroupBy) -> String {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    match g {
        GroupBy::Machine => t("Machine", "Machine", "Macchina"),
        GroupBy::Location => t("Location", "Emplacement", "Ubicazione"),
        GroupBy::Client => t("Client", "Client", "Cliente"),
        GroupBy::Product => t("Product", "Produit", "Prodotto"),
        GroupBy::ProductTag => t("Product tag", "Étiquette de produit", "Tag prodotto"),
        GroupBy::MachineTag => t("Machine tag", "Étiquette de machine", "Tag macchina"),
    }
}

/// A headline figure of a sales comparison: its label, whether it is money (else a count), and
/// how to read it from a total.
pub struct Headline {
    pub label: String,
    pub money: bool,
    pub of: fn(&Figures) -> i64,
}

/// The headline figures of a sales comparison in `lang`, in the order the summary sheet and the
/// mail show them (the mail leaves out the net of tax).
pub fn headlines(lang: Language, with_net: bool) -> Vec<Headline> {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let figure =
        |label: String, money: bool, of: fn(&Figures) -> i64| Headline { label, money, of };
    let mut lines = vec![figure(t("Sales", "Ventes", "Vendite"), true, |f| {
        f.sales_minor
    })];
    if with_net {
        lines.push(figure(
            t("Sales excl. tax", "Ventes HT", "Vendite IVA esclusa"),
            true,
            |f| f.sales_excl_tax_minor,
        ));
    }
    lines.extend([
        figure(t("Quantity", "Quantité", "Quantità"), false, |f| {
            f.quantity
        }),
        figure(t("Cash", "Espèces", "Contanti"), true, |f| f.cash_minor),
        figure(
            t("Cashless", "Sans espèces", "Senza contanti"),
            true,
            |f| f.cashless_minor,
        ),
    ]);
    lines
}

/// The title of a period column (the period's first day `d`).
pub fn bucket_label(g: Grouping, d: NaiveDate) -> String {
    match g {
        Grouping::Day => d.format("%Y-%m-%d").to_string(),
        Grouping::Week => d.format("%G-W%V").to_string(),
        Grouping::Month => d.format("%Y-%m").to_string(),
    }
}

/// The title of the total column.
pub fn total_label(lang: Language) -> String {
    tr(lang, "Total", "Total", "Totale")
}

/// The titles of the detail table's columns: the group, each period, the total.
pub fn header(r: &SalesReport, lang: Language) -> Vec<String> {
    let mut out = vec![group_label(lang, r.query.group_by)];
    out.extend(
        r.buckets()
            .into_iter()
            .map(|d| bucket_label(r.query.grouping, d)),
    );
    out.push(total_label(lang));
    out
}

/// A money or quantity cell of a report showing `value`.
pub fn value_cell(value: Value, v: i64) -> Cell {
    if value == Value::Quantity {
        Cell::Int(v)
    } else {
        Cell::Money {
            minor: v,
            exponent: 2,
            currency: "EUR".into(),
        }
    }
}

/// The detail table of a query as a table (every row; the search and ordering of `list`), with
/// the report it comes from.
pub async fn overview_table(
    app: &App,
    p: &Principal,
    q: &SalesParams,
    list: &ListParams,
) -> AppResult<(Table, SalesReport)> {
    let lang = p.user.language;
    let r = app.sales.report(p, q).await?;
    let (rows, _) = r.detail_rows(list)?;
    let value = r.query.value;
    let table = Table {
        sheet: tr(lang, "Sales", "Ventes", "Vendite"),
        header: header(&r, lang),
        rows: rows
            .into_iter()
            .map(|row| {
                let mut cells = vec![Cell::Text(row.name)];
                cells.extend(row.values.into_iter().map(|v| value_cell(value, v)));
                cells.push(value_cell(value, row.total));
                cells
            })
            .collect(),
    };
    Ok((table, r))
}
