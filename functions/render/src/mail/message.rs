//! The message of a scheduled report, made to read on its own (on a phone too): the operator,
//! the report's name, the periods named ("October 2026 against September 2026"), the headline
//! figures with their change, a chart drawn in HTML (names, values and a scale as text, in the
//! reader's language and number format — mail programs show HTML tables everywhere, and a screen
//! reader reads them), the top rows, a link back to the report where a public address is set,
//! and the same as plain text.

use super::period::{against, amount, change, format, name};
use crate::params::ReportParams;
use crate::tables::sales::{group_label, headlines, BAR_GROUPS};
use crate::tr;
use vendfleet_app::generator::{GeneratedReport, Graph, Module};
use vendfleet_app::ports::mail::TASK_TAG;
use vendfleet_app::ports::{Attachment, Mail};
use vendfleet_app::sales::SalesReport;
use vendfleet_app::App;
use vendfleet_domain::report::{Cube, Grouping, Value};
use vendfleet_domain::Language;

/// Rows of the top table.
pub const TOP_ROWS: usize = 10;
const BRAND: &str = "#0b5c8c";
const PREVIOUS: &str = "#8a96a3";
const INK: &str = "#1c252e";

/// One headline figure: now, before, and the change.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    pub label: String,
    pub now: String,
    pub before: String,
    pub change: String,
}

/// One bar of the chart: its name, its value (and as shown), and the previous period's.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: i64,
    pub shown: String,
    pub previous: Option<(i64, String)>,
}

/// The chart: a title, the bars, the scale's top, and the long tail as a line of text.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub title: String,
    pub bars: Vec<Bar>,
    pub scale: (String, String),
    pub rest: Option<String>,
    pub legend: Option<(String, String)>,
}

/// What the mail says, before it is written as HTML and text.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    pub operator: Option<String>,
    pub report: String,
    pub intro: String,
    pub periods: Option<String>,
    /// "This period", "Period before", "Change".
    pub columns: Vec<String>,
    pub figures: Vec<Figure>,
    pub chart: Option<Chart>,
    /// The group's title and the top rows.
    pub top: Option<(String, Vec<Vec<String>>)>,
    pub link: Option<(String, String)>,
    pub note: String,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Whether a report's figures are sales (the refill log and the inventory are not).
fn sales_based(m: Module) -> bool {
    !matches!(m, Module::RefillLog | Module::Inventory)
}

fn value_name(lang: Language, v: Value) -> String {
    match v {
        Value::Sales => tr(lang, "Sales", "Ventes", "Vendite"),
        Value::Quantity => tr(lang, "Quantity", "Quantité", "Quantità"),
        Value::SalesExclTax => tr(lang, "Sales excl. tax", "Ventes HT", "Vendite IVA esclusa"),
    }
}

fn shown(lang: Language, v: Value, n: i64) -> String {
    amount(lang, n, v != Value::Quantity)
}

fn figures(r: &SalesReport, lang: Language) -> Vec<Figure> {
    let (c, p) = (&r.current.total, &r.previous.total);
    headlines(lang, false)
        .into_iter()
        .map(|h| {
            let (now, before) = ((h.of)(c), (h.of)(p));
            Figure {
                label: h.label,
                now: amount(lang, now, h.money),
                before: amount(lang, before, h.money),
                change: change(now, before, lang),
            }
        })
        .collect()
}

/// A period's label on the chart.
fn bucket(g: Grouping, d: chrono::NaiveDate, lang: Language) -> String {
    match g {
        Grouping::Day => format(d, "%a %-d %b", lang),
        Grouping::Week => {
            let w = chrono::Datelike::iso_week(&d).week();
            tr(lang, "Week", "Semaine", "Settimana") + &format!(" {w}")
        }
        Grouping::Month => format(d, "%B %Y", lang),
    }
}

/// The largest value of the bars, this period's or the one before (the scale's top).
fn longest(bars: &[Bar]) -> i64 {
    bars.iter()
        .flat_map(|b| std::iter::once(b.value).chain(b.previous.as_ref().map(|p| p.0)))
        .max()
        .unwrap_or(0)
        .max(0)
}

fn chart(r: &SalesReport, graph: Graph, lang: Language) -> Option<Chart> {
    let value = r.query.value;
    let of = |cube: &Cube, d: &chrono::NaiveDate| cube.buckets.get(d).map_or(0, |f| value.of(f));
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let (title, bars, rest) = match graph {
        Graph::None => return None,
        Graph::Line => {
            let g = r.query.grouping;
            let before = g.buckets(r.previous_from, r.previous_to);
            let bars: Vec<Bar> = r
                .buckets()
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    let v = of(&r.current, d);
                    let p = before.get(i).map(|b| of(&r.previous, b));
                    Bar {
                        label: bucket(g, *d, lang),
                        value: v,
                        shown: shown(lang, value, v),
                        previous: p.map(|p| (p, shown(lang, value, p))),
                    }
                })
                .collect();
            let by = match g {
                Grouping::Day => t("by day", "par jour", "per giorno"),
                Grouping::Week => t("by week", "par semaine", "per settimana"),
                Grouping::Month => t("by month", "par mois", "per mese"),
            };
            (format!("{} {by}", value_name(lang, value)), bars, None)
        }
        Graph::Bar => {
            let ranked = r.ranked_groups();
            let bar = |k: &String| {
                let v = r.current.groups.get(k).map_or(0, |f| value.of(f));
                let p = r.previous.groups.get(k).map_or(0, |f| value.of(f));
                Bar {
                    label: r.name(k).to_string(),
                    value: v,
                    shown: shown(lang, value, v),
                    previous: Some((p, shown(lang, value, p))),
                }
            };
            let bars: Vec<Bar> = ranked.iter().take(BAR_GROUPS).map(|k| bar(k)).collect();
            let others: Vec<&&String> = ranked.iter().skip(BAR_GROUPS).collect();
            let rest = (!others.is_empty()).then(|| {
                let sum: i64 = others
                    .iter()
                    .map(|k| r.current.groups.get(**k).map_or(0, |f| value.of(f)))
                    .sum();
                format!(
                    "{} ({}): {}",
                    t("Others", "Autres", "Altri"),
                    others.len(),
                    shown(lang, value, sum)
                )
            });
            let by = group_label(lang, r.query.group_by).to_lowercase();
            let title = match lang {
                Language::En => format!("{} by {by}", value_name(lang, value)),
                Language::Fr => format!("{} par {by}", value_name(lang, value)),
                Language::It => format!("{} per {by}", value_name(lang, value)),
            };
            (title, bars, rest)
        }
    };
    if bars.is_empty() {
        return None;
    }
    let top = longest(&bars);
    let legend = bars.iter().any(|b| b.previous.is_some()).then(|| {
        (
            t("This period", "Cette période", "Questo periodo"),
            t("Period before", "Période précédente", "Periodo precedente"),
        )
    });
    Some(Chart {
        title,
        bars,
        scale: (shown(lang, value, 0), shown(lang, value, top)),
        rest,
        legend,
    })
}

fn columns(lang: Language) -> Vec<String> {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    vec![
        t("This period", "Cette période", "Questo periodo"),
        t("Period before", "Période précédente", "Periodo precedente"),
        t("Change", "Évolution", "Variazione"),
    ]
}

fn top(r: &SalesReport, lang: Language) -> Option<(String, Vec<Vec<String>>)> {
    let value = r.query.value;
    let rows: Vec<Vec<String>> = r
        .ranked_groups()
        .into_iter()
        .take(TOP_ROWS)
        .map(|k| {
            let v = r.current.groups.get(k).map_or(0, |f| value.of(f));
            let p = r.previous.groups.get(k).map_or(0, |f| value.of(f));
            vec![
                r.name(k).to_string(),
                shown(lang, value, v),
                shown(lang, value, p),
                change(v, p, lang),
            ]
        })
        .collect();
    (!rows.is_empty()).then(|| (group_label(lang, r.query.group_by), rows))
}

/// Where the report opens: the sales overview on the report's own dates and filters, or the
/// report generator's list for the other reports.
fn link(base: &str, r: &GeneratedReport, report: Option<&SalesReport>) -> String {
    match (r.spec.module, report) {
        (Module::SalesOverview, Some(s)) => {
            let mut q = form_urlencoded::Serializer::new(String::new());
            for (k, v) in &r.spec.params {
                if !matches!(k.as_str(), "period" | "date_from" | "date_to") && !v.is_empty() {
                    q.append_pair(k, v);
                }
            }
            q.append_pair("period", "custom");
            q.append_pair("date_from", &s.query.from.to_string());
            q.append_pair("date_to", &s.query.to.to_string());
            format!("{base}/report/sales-overview?{}", q.finish())
        }
        _ => format!("{base}/report/report-generator"),
    }
}

/// What the mail of report `r` says to a reader in `lang` (figures as `owner` may see them).
pub async fn content(
    app: &App,
    owner: &vendfleet_app::auth::Principal,
    r: &GeneratedReport,
    lang: Language,
    attached: bool,
    size: usize,
) -> Content {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let report = if sales_based(r.spec.module) {
        let q = ReportParams::from_map(&r.spec.params).sales;
        app.sales.report(owner, &q).await.ok()
    } else {
        None
    };
    let overview = r.spec.module == Module::SalesOverview;
    let operator = app.calendar.operator();
    let note = if attached {
        t(
            "The file is attached.",
            "Le fichier est joint.",
            "Il file è allegato.",
        )
    } else {
        format!(
            "{} ({} MB).",
            t(
                "The file is too large to attach: download it from Vendfleet's report generator",
                "Le fichier est trop volumineux pour être joint : téléchargez-le depuis le générateur de rapports de Vendfleet",
                "Il file è troppo grande per essere allegato: scaricalo dal generatore di report di Vendfleet"
            ),
            size.div_ceil(1024 * 1024)
        )
    };
    Content {
        operator: operator.name.clone(),
        report: r.name.clone(),
        intro: t(
            "Here is your scheduled report",
            "Voici votre rapport planifié",
            "Ecco il tuo report pianificato",
        ),
        periods: report.as_ref().map(|s| {
            against(
                &name(s.query.from, s.query.to, lang),
                &name(s.previous_from, s.previous_to, lang),
                lang,
            )
        }),
        columns: columns(lang),
        figures: report
            .as_ref()
            .map(|s| figures(s, lang))
            .unwrap_or_default(),
        chart: report
            .as_ref()
            .filter(|_| overview)
            .and_then(|s| chart(s, r.spec.graph, lang)),
        top: report
            .as_ref()
            .filter(|_| overview)
            .and_then(|s| top(s, lang)),
        link: operator.public_url.as_ref().map(|base| {
            (
                link(base, r, report.as_ref()),
                t(
                    "Open the report in Vendfleet",
                    "Ouvrir le rapport dans Vendfleet",
                    "Apri il report in Vendfleet",
                ),
            )
        }),
        note,
    }
}

/// A table of `head` and `rows`, the first column left, the others right.
fn table_html(head: &[String], rows: &[Vec<String>]) -> String {
    let cell = |tag: &str, i: usize, s: &str| {
        let (align, wrap) = if i == 0 {
            ("left", "")
        } else {
            ("right", "white-space:nowrap;")
        };
        format!(
            "<{tag} align=\"{align}\" style=\"{wrap}padding:6px 8px;border-bottom:1px solid #dfe3e8\">{}</{tag}>",
            escape(s)
        )
    };
    let mut html = String::from(
        "<table role=\"table\" width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" style=\"border-collapse:collapse;font-size:14px\"><tr>",
    );
    for (i, h) in head.iter().enumerate() {
        html.push_str(&cell("th", i, h));
    }
    html.push_str("</tr>");
    for row in rows {
        html.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            html.push_str(&cell("td", i, c));
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    html
}

/// A bar `value / top` wide in `colour` (a table: mail programs ignore most CSS).
fn bar_html(value: i64, top: i64, colour: &str, height: u32) -> String {
    let pct = if top > 0 {
        (value.max(0) as f64 / top as f64 * 100.0).round() as i64
    } else {
        0
    };
    if pct == 0 {
        return String::new();
    }
    format!(
        "<table width=\"{pct}%\" cellspacing=\"0\" cellpadding=\"0\"><tr><td bgcolor=\"{colour}\" height=\"{height}\" style=\"background:{colour};height:{height}px;font-size:0;line-height:0\">&nbsp;</td></tr></table>"
    )
}

fn chart_html(c: &Chart) -> String {
    let top = longest(&c.bars);
    let mut html = format!(
        "<h2 style=\"font-size:16px;margin:24px 0 8px\">{}</h2>",
        escape(&c.title)
    );
    if let Some((now, before)) = &c.legend {
        html.push_str(&format!(
            "<p style=\"font-size:12px;margin:0 0 8px\"><span style=\"color:{BRAND}\">&#9632;</span> {} &nbsp; <span style=\"color:{PREVIOUS}\">&#9632;</span> {}</p>",
            escape(now),
            escape(before)
        ));
    }
    html.push_str("<table role=\"table\" width=\"100%\" cellspacing=\"0\" cellpadding=\"0\" style=\"font-size:13px\">");
    html.push_str(&format!(
        "<tr><td></td><td style=\"font-size:11px;color:{INK}\"><table width=\"100%\"><tr><td align=\"left\">{}</td><td align=\"right\">{}</td></tr></table></td><td></td></tr>",
        escape(&c.scale.0),
        escape(&c.scale.1)
    ));
    for b in &c.bars {
        let previous = b
            .previous
            .as_ref()
            .map_or(String::new(), |(v, _)| bar_html(*v, top, PREVIOUS, 5));
        let previous_text = b.previous.as_ref().map_or(String::new(), |(_, s)| {
            format!(
                "<br><span style=\"color:#5b6670;font-size:11px\">{}</span>",
                escape(s)
            )
        });
        html.push_str(&format!(
            "<tr><td style=\"padding:3px 8px 3px 0;width:30%\">{}</td><td style=\"padding:3px 0;border-left:1px solid {INK}\">{}{}</td><td align=\"right\" style=\"padding:3px 0 3px 8px;white-space:nowrap\">{}{}</td></tr>",
            escape(&b.label),
            bar_html(b.value, top, BRAND, 12),
            previous,
            escape(&b.shown),
            previous_text
        ));
    }
    html.push_str("</table>");
    if let Some(rest) = &c.rest {
        html.push_str(&format!("<p style=\"font-size:13px\">{}</p>", escape(rest)));
    }
    html
}

/// The message's HTML.
pub fn html(c: &Content) -> String {
    let mut html = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title></head><body style=\"margin:0;padding:0;background:#f4f6f8\"><div style=\"max-width:640px;margin:0 auto;padding:16px;background:#ffffff;font-family:Arial,Helvetica,sans-serif;color:{INK}\">",
        escape(&c.report)
    );
    if let Some(op) = &c.operator {
        html.push_str(&format!(
            "<p style=\"font-size:13px;color:{BRAND};font-weight:bold;margin:0 0 8px\">{}</p>",
            escape(op)
        ));
    }
    html.push_str(&format!(
        "<h1 style=\"font-size:20px;margin:0 0 4px\">{}</h1><p style=\"margin:0 0 16px\">{}.</p>",
        escape(&c.report),
        escape(&c.intro)
    ));
    if let Some(p) = &c.periods {
        html.push_str(&format!(
            "<p style=\"font-size:15px;font-weight:bold;margin:0 0 12px\">{}</p>",
            escape(p)
        ));
    }
    if !c.figures.is_empty() {
        let rows: Vec<Vec<String>> = c
            .figures
            .iter()
            .map(|f| {
                vec![
                    f.label.clone(),
                    f.now.clone(),
                    f.before.clone(),
                    f.change.clone(),
                ]
            })
            .collect();
        let head: Vec<String> = std::iter::once(String::new())
            .chain(c.columns.iter().cloned())
            .collect();
        html.push_str(&table_html(&head, &rows));
    }
    if let Some(chart) = &c.chart {
        html.push_str(&chart_html(chart));
    }
    if let Some((group, rows)) = &c.top {
        html.push_str(&format!(
            "<h2 style=\"font-size:16px;margin:24px 0 8px\">Top {}</h2>",
            rows.len()
        ));
        let head: Vec<String> = std::iter::once(group.clone())
            .chain(c.columns.iter().cloned())
            .collect();
        html.push_str(&table_html(&head, rows));
    }
    if let Some((url, label)) = &c.link {
        html.push_str(&format!(
            "<p style=\"margin:24px 0\"><a href=\"{}\" style=\"background:{BRAND};color:#ffffff;padding:10px 16px;text-decoration:none;border-radius:6px;display:inline-block\">{}</a></p>",
            escape(url),
            escape(label)
        ));
    }
    html.push_str(&format!(
        "<p style=\"font-size:13px\">{}</p></div></body></html>",
        escape(&c.note)
    ));
    html
}

/// The message's plain text.
pub fn text(c: &Content) -> String {
    let mut out = String::new();
    if let Some(op) = &c.operator {
        out.push_str(&format!("{op}\n\n"));
    }
    out.push_str(&format!("{} “{}”.\n", c.intro, c.report));
    if let Some(p) = &c.periods {
        out.push_str(&format!("{p}\n"));
    }
    out.push('\n');
    if !c.figures.is_empty() {
        out.push_str(&format!("({})\n", c.columns.join(" | ")));
    }
    for f in &c.figures {
        out.push_str(&format!(
            "{}: {} | {} | {}\n",
            f.label, f.now, f.before, f.change
        ));
    }
    if let Some(chart) = &c.chart {
        out.push_str(&format!("\n{}\n", chart.title));
        for b in &chart.bars {
            match &b.previous {
                Some((_, p)) => out.push_str(&format!("- {}: {} ({p})\n", b.label, b.shown)),
                None => out.push_str(&format!("- {}: {}\n", b.label, b.shown)),
            }
        }
        if let Some(rest) = &chart.rest {
            out.push_str(&format!("- {rest}\n"));
        }
    }
    if let Some((group, rows)) = &c.top {
        out.push_str(&format!(
            "\nTop {} — {group} | {}\n",
            rows.len(),
            c.columns.join(" | ")
        ));
        for row in rows {
            out.push_str(&format!("{}\n", row.join(" | ")));
        }
    }
    if let Some((url, label)) = &c.link {
        out.push_str(&format!("\n{label}: {url}\n"));
    }
    out.push_str(&format!("\n{}\n", c.note));
    out
}

/// The mail of report `r` for a reader in `lang`.
pub async fn message(
    app: &App,
    owner: &vendfleet_app::auth::Principal,
    r: &GeneratedReport,
    lang: Language,
    file: Option<&Attachment>,
    size: usize,
) -> Mail {
    let c = content(app, owner, r, lang, file.is_some(), size).await;
    let brand = c.operator.clone().unwrap_or_else(|| "Vendfleet".into());
    let subject = match &c.periods {
        Some(p) => format!("{brand} — {} — {p}", r.name),
        None => format!("{brand} — {}", r.name),
    };
    Mail {
        to: Vec::new(),
        subject,
        text: text(&c),
        html: html(&c),
        attachments: file.cloned().into_iter().collect(),
        inline_images: Vec::new(),
        tags: r
            .task_id
            .iter()
            .map(|t| (TASK_TAG.to_string(), t.clone()))
            .collect(),
    }
}
