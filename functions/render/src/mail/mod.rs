//! Mailing a scheduled report once the worker has written it: the message in the audience's
//! language (headline figures against the period before, the chart, the file), sent to the
//! recipients its file was cut for, each outcome recorded on the task and in the audit trail.

use vendfleet_app::generator::{GeneratedReport, ReportStatus};
use vendfleet_app::ports::Attachment;
use vendfleet_app::scheduler::{DeliveryStatus, MailDelivery};
use vendfleet_app::{App, AppError, AppResult};
use vendfleet_domain::reach::Reach;

pub mod message;
pub mod period;

/// The largest file attached to a message; a larger one is left in the reports list.
pub const MAX_ATTACHMENT_BYTES: usize = 10 * 1024 * 1024;

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
    let mut mail = message::message(app, &reader, r, audience.language, file.as_ref(), size).await;
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
