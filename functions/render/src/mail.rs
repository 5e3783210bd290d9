//! Mailing a scheduled report once the worker has written it: the message in the audience's
//! language (headline figures against the period before, the chart, the file), sent to the
//! recipients its file was cut for, each outcome recorded on the task and in the audit trail.

use crate::params::ReportParams;
use crate::tables::sales::headlines;
use crate::tr;
use vendfleet_app::generator::{GeneratedReport, Module, ReportStatus};
use vendfleet_app::ports::mail::TASK_TAG;
use vendfleet_app::ports::{Attachment, Mail};
use vendfleet_app::scheduler::{DeliveryStatus, MailDelivery};
use vendfleet_app::{App, AppError, AppResult};
use vendfleet_domain::reach::Reach;
use vendfleet_domain::Language;

/// The largest file attached to a message; a larger one is left in the reports list.
pub const MAX_ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;

/// A number of minor units as text in `lang` (`1 234,56 EUR`).
fn amount(lang: Language, minor: i64, money: bool) -> String {
    let (sep, dec) = match lang {
        Language::En => (',', '.'),
        Language::Fr => ('\u{202f}', ','),
        Language::It => ('.', ','),
    };
    let group = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(sep);
            }
            out.push(c);
        }
        out
    };
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    if money {
        format!("{sign}{}{dec}{:02} EUR", group(abs / 100), abs % 100)
    } else {
        format!("{sign}{}", group(abs))
    }
}

/// The change from `before` to `now` as a signed percentage (none from zero).
fn change(now: i64, before: i64) -> String {
    if before == 0 {
        return "—".into();
    }
    let bps = (now - before) as f64 / before as f64 * 100.0;
    format!("{bps:+.1} %")
}

/// The headline figures of a sales-based report in `lang`: the span and the span before.
async fn headline(
    app: &App,
    owner: &vendfleet_app::auth::Principal,
    r: &GeneratedReport,
    lang: Language,
) -> Vec<(String, String, String, String)> {
    if matches!(r.spec.module, Module::RefillLog | Module::Inventory) {
        return Vec::new();
    }
    let q = ReportParams::from_map(&r.spec.params).sales;
    let Ok(report) = app.sales.totals(owner, &q).await else {
        return Vec::new();
    };
    let (c, p) = (&report.current.total, &report.previous.total);
    headlines(lang, false)
        .into_iter()
        .map(|h| {
            let (now, before) = ((h.of)(c), (h.of)(p));
            (
                h.label,
                amount(lang, now, h.money),
                amount(lang, before, h.money),
                change(now, before),
            )
        })
        .collect()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The message of a report in `lang`.
async fn message(
    app: &App,
    owner: &vendfleet_app::auth::Principal,
    r: &GeneratedReport,
    lang: Language,
    file: Option<&Attachment>,
    size: usize,
) -> Mail {
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let figures = headline(app, owner, r, lang).await;
    let mut text = format!(
        "{} “{}”.\n\n",
        t(
            "Here is your scheduled report",
            "Voici votre rapport planifié",
            "Ecco il tuo report pianificato"
        ),
        r.name
    );
    let mut html = format!(
        "<p>{} “{}”.</p>",
        escape(&t(
            "Here is your scheduled report",
            "Voici votre rapport planifié",
            "Ecco il tuo report pianificato"
        )),
        escape(&r.name)
    );
    if !figures.is_empty() {
        let head = [
            t("Figure", "Indicateur", "Indicatore"),
            t("This period", "Cette période", "Questo periodo"),
            t("Period before", "Période précédente", "Periodo precedente"),
            t("Change", "Évolution", "Variazione"),
        ];
        text.push_str(&head.join(" | "));
        text.push('\n');
        html.push_str(
            "<table border=\"1\" cellpadding=\"4\" style=\"border-collapse:collapse\"><tr>",
        );
        for h in &head {
            html.push_str(&format!("<th>{}</th>", escape(h)));
        }
        html.push_str("</tr>");
        for (name, now, before, delta) in &figures {
            text.push_str(&format!("{name} | {now} | {before} | {delta}\n"));
            html.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(name),
                escape(now),
                escape(before),
                escape(delta)
            ));
        }
        html.push_str("</table>");
        text.push('\n');
    }
    let note = if file.is_some() {
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
    text.push_str(&note);
    text.push('\n');
    html.push_str(&format!("<p>{}</p>", escape(&note)));
    Mail {
        to: Vec::new(),
        subject: format!("Vendfleet — {}", r.name),
        text,
        html,
        attachments: file.cloned().into_iter().collect(),
        inline_images: Vec::new(),
        tags: r
            .task_id
            .iter()
            .map(|t| (TASK_TAG.to_string(), t.clone()))
            .collect(),
    }
}

/// The report's chart as an inline PNG, when its definition asks for one.
async fn chart(
    app: &App,
    owner: &vendfleet_app::auth::Principal,
    r: &GeneratedReport,
) -> Option<Attachment> {
    use vendfleet_app::generator::Graph;
    if r.spec.graph == Graph::None || r.spec.module != Module::SalesOverview {
        return None;
    }
    let q = ReportParams::from_map(&r.spec.params).sales;
    let report = app.sales.report(owner, &q).await.ok()?;
    let value = report.query.value;
    let png = match r.spec.graph {
        Graph::Line => {
            let dates = report.buckets();
            let before = report
                .query
                .grouping
                .buckets(report.previous_from, report.previous_to);
            let of =
                |cube: &vendfleet_domain::report::Cube, ds: &[chrono::NaiveDate]| -> Vec<i64> {
                    ds.iter()
                        .map(|d| cube.buckets.get(d).map_or(0, |f| value.of(f)))
                        .collect()
                };
            crate::chart::png(crate::chart::Series::Line {
                current: &of(&report.current, &dates),
                previous: &of(&report.previous, &before),
            })
        }
        _ => {
            let groups: Vec<i64> = report
                .ranked_groups()
                .into_iter()
                .take(crate::tables::sales::BAR_GROUPS)
                .map(|g| report.current.groups.get(g).map_or(0, |f| value.of(f)))
                .collect();
            crate::chart::png(crate::chart::Series::Bars(&groups))
        }
    }?;
    Some(Attachment {
        file_name: "chart".into(),
        content_type: "image/png".into(),
        bytes: png,
    })
}

/// Mails a scheduled report that the worker finished to its audience (the recipients its file
/// was cut for), records each recipient's outcome — and which file they got — on the task, and
/// the mail in the audit trail. A report that failed, or whose file its audience may no longer
/// have, is recorded as a failed run.
pub async fn deliver(app: &App, r: &GeneratedReport) -> AppResult<()> {
    let Some(task_id) = &r.task_id else {
        return Ok(());
    };
    if app.scheduler.task(task_id).await?.is_none() {
        return Ok(());
    }
    let failed = |why: Option<String>| {
        app.scheduler
            .record(task_id, &r.id, "failed", why, Vec::new())
    };
    if r.status != ReportStatus::Done {
        return failed(r.error.clone()).await;
    }
    let Some(audience) = &r.audience else {
        return failed(Some(
            "This report was queued before files were cut to their recipients: the next run mails it"
                .into(),
        ))
        .await;
    };
    // The readers' principal: the owner's permissions, cut to the audience's machines as they
    // stand now, in the audience's language.
    let reader = match app.generator.requester(r).await {
        Ok(p) => p,
        Err(e @ (AppError::Conflict { .. } | AppError::Forbidden(_))) => {
            return failed(Some(e.to_string())).await
        }
        Err(e) => return Err(e),
    };
    let blob = match app.generator.file(&reader, &r.id).await {
        Ok(b) => b,
        Err(e @ (AppError::Forbidden(_) | AppError::NotFound(_))) => {
            return failed(Some(e.to_string())).await
        }
        Err(e) => return Err(e),
    };
    let size = blob.bytes.len();
    let file = (size <= MAX_ATTACHMENT_BYTES).then(|| Attachment {
        file_name: r.file_name.clone(),
        content_type: blob.content_type.clone(),
        bytes: blob.bytes,
    });
    let now = app.clock.now();
    let mut mail = message(app, &reader, r, audience.language, file.as_ref(), size).await;
    if let Some(image) = chart(app, &reader, r).await {
        mail.html
            .push_str("<p><img src=\"cid:chart\" alt=\"\" width=\"640\" height=\"280\"></p>");
        mail.inline_images.push(image);
    }
    mail.to = audience.addresses.clone();
    let deliveries: Vec<MailDelivery> = match app.mailer.send(&mail).await {
        Ok(outcome) => outcome
            .sent
            .into_iter()
            .map(|a| MailDelivery::new(now, a, DeliveryStatus::Sent, None))
            .chain(
                outcome
                    .refused
                    .into_iter()
                    .map(|(a, why)| MailDelivery::new(now, a, DeliveryStatus::Refused, Some(why))),
            )
            .map(|d| d.of(r))
            .collect(),
        Err(e) => audience
            .addresses
            .iter()
            .map(|a| MailDelivery::new(now, a, DeliveryStatus::Refused, Some(e.to_string())).of(r))
            .collect(),
    };
    let sent: Vec<String> = deliveries
        .iter()
        .filter(|d| d.status == DeliveryStatus::Sent.key())
        .map(|d| d.recipient.clone())
        .collect();
    if !sent.is_empty() {
        app.audit
            .record(vendfleet_app::audit::NewExit {
                kind: vendfleet_app::audit::ExitKind::Mail,
                user_id: r.owner_id.clone(),
                what: r.spec.definition(&r.name),
                file_name: r.file_name.clone(),
                reach: r.scope.clone().unwrap_or_else(|| Reach::All.into()),
                recipients: sent,
                rows: Some(r.rows),
                report_id: Some(r.id.clone()),
                task_id: Some(task_id.clone()),
            })
            .await?;
    }
    app.scheduler
        .record(task_id, &r.id, "done", None, deliveries)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_read_as_each_language_writes_them() {
        assert_eq!(amount(Language::En, 12_345_678, true), "123,456.78 EUR");
        assert_eq!(amount(Language::Fr, -123_450, true), "-1\u{202f}234,50 EUR");
        assert_eq!(amount(Language::It, 1_234_567, false), "1.234.567");
        assert_eq!(change(110, 100), "+10.0 %");
        assert_eq!(change(5, 0), "—");
    }
}
