//! What the mail service reports later of a scheduled report's messages: SES sending events
//! (bounce, complaint, reject) as EventBridge delivers them (`source: aws.ses`, the SES event
//! record in `detail`), each recorded on the task the message's `vendfleet-task` tag names.
//! The embedded mailer hands messages to the outbox or an SMTP relay and hears nothing back.

use serde::Deserialize;
use std::collections::BTreeMap;
use vendfleet_app::ports::mail::TASK_TAG;
use vendfleet_app::scheduler::DeliveryStatus;
use vendfleet_app::{App, AppResult};

/// One recipient's fate, as read from an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub task_id: String,
    pub recipient: String,
    pub status: DeliveryStatus,
    pub reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    #[serde(default)]
    event_type: String,
    #[serde(default)]
    mail: MailPart,
    bounce: Option<Bounce>,
    complaint: Option<Complaint>,
    reject: Option<Reject>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MailPart {
    #[serde(default)]
    destination: Vec<String>,
    #[serde(default)]
    tags: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Bounce {
    #[serde(default)]
    bounce_type: String,
    #[serde(default)]
    bounce_sub_type: String,
    #[serde(default)]
    bounced_recipients: Vec<Recipient>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Complaint {
    #[serde(default)]
    complained_recipients: Vec<Recipient>,
    complaint_feedback_type: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Reject {
    reason: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Recipient {
    email_address: String,
    diagnostic_code: Option<String>,
    status: Option<String>,
}

/// The feedback an SES event carries: none for another kind of event, one without a task tag
/// (a message Vendfleet did not send for a task), or one that does not parse.
pub fn parse(event: &serde_json::Value) -> Vec<Feedback> {
    let detail = event.get("detail").unwrap_or(event);
    let Ok(mut record) = serde_json::from_value::<Record>(detail.clone()) else {
        return Vec::new();
    };
    let Some(task_id) = record
        .mail
        .tags
        .get(TASK_TAG)
        .and_then(|v| v.first())
        .filter(|t| !t.is_empty())
        .cloned()
    else {
        return Vec::new();
    };
    let one = |recipient: String, status, reason: Option<String>| Feedback {
        task_id: task_id.clone(),
        recipient,
        status,
        reason,
    };
    let kind = std::mem::take(&mut record.event_type);
    match (kind.as_str(), record) {
        (
            "Bounce",
            Record {
                bounce: Some(b), ..
            },
        ) => {
            let kind = format!("{} bounce ({})", b.bounce_type, b.bounce_sub_type);
            b.bounced_recipients
                .into_iter()
                .map(|r| {
                    let detail = r.diagnostic_code.or(r.status);
                    let reason = match detail {
                        Some(d) => format!("{kind}: {d}"),
                        None => kind.clone(),
                    };
                    one(r.email_address, DeliveryStatus::Bounced, Some(reason))
                })
                .collect()
        }
        (
            "Complaint",
            Record {
                complaint: Some(c), ..
            },
        ) => c
            .complained_recipients
            .into_iter()
            .map(|r| {
                one(
                    r.email_address,
                    DeliveryStatus::Complained,
                    c.complaint_feedback_type.clone(),
                )
            })
            .collect(),
        ("Reject", Record { reject, mail, .. }) => {
            let reason = reject.and_then(|r| r.reason);
            mail.destination
                .into_iter()
                .map(|to| one(to, DeliveryStatus::Refused, reason.clone()))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Records the feedback of one event on its task; answers how many recipients it named.
pub async fn record(app: &App, event: &serde_json::Value) -> AppResult<usize> {
    let feedback = parse(event);
    for f in &feedback {
        tracing::info!(task = %f.task_id, status = f.status.key(), "mail feedback");
        app.scheduler
            .feedback(&f.task_id, &f.recipient, f.status, f.reason.clone())
            .await?;
    }
    Ok(feedback.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(detail_type: &str, detail: serde_json::Value) -> serde_json::Value {
        json!({"version": "0", "id": "e1", "detail-type": detail_type, "source": "aws.ses",
               "account": "123456789012", "time": "2026-11-23T08:00:00Z", "region": "eu-west-1",
               "resources": [], "detail": detail})
    }

    fn mail(tags: serde_json::Value) -> serde_json::Value {
        json!({"timestamp": "2026-11-23T07:59:00Z", "messageId": "0100-abc",
               "destination": ["gone@example.com"], "tags": tags})
    }

    #[test]
    fn bounces_complaints_and_rejections_name_their_task_and_recipient() {
        let tags = json!({"vendfleet-task": ["01JTASK"], "ses:source-ip": ["10.0.0.1"]});
        let bounced = parse(&event(
            "Email Bounced",
            json!({"eventType": "Bounce", "mail": mail(tags.clone()), "bounce": {
                "bounceType": "Permanent", "bounceSubType": "General",
                "bouncedRecipients": [{"emailAddress": "gone@example.com", "action": "failed",
                    "status": "5.1.1", "diagnosticCode": "smtp; 550 5.1.1 user unknown"}]}}),
        ));
        assert_eq!(
            bounced,
            vec![Feedback {
                task_id: "01JTASK".into(),
                recipient: "gone@example.com".into(),
                status: DeliveryStatus::Bounced,
                reason: Some("Permanent bounce (General): smtp; 550 5.1.1 user unknown".into()),
            }]
        );
        let complained = parse(&event(
            "Email Complaint Received",
            json!({"eventType": "Complaint", "mail": mail(tags.clone()), "complaint": {
                "complainedRecipients": [{"emailAddress": "boss@example.com"}],
                "complaintFeedbackType": "abuse"}}),
        ));
        assert_eq!(complained[0].status, DeliveryStatus::Complained);
        assert_eq!(complained[0].recipient, "boss@example.com");
        assert_eq!(complained[0].reason.as_deref(), Some("abuse"));
        let rejected = parse(&event(
            "Email Rejected",
            json!({"eventType": "Reject", "mail": mail(tags), "reject": {"reason": "Bad content"}}),
        ));
        assert_eq!(rejected[0].status, DeliveryStatus::Refused);
        assert_eq!(rejected[0].recipient, "gone@example.com");
    }

    #[test]
    fn events_of_other_messages_or_kinds_name_nothing() {
        let untagged = json!({"eventType": "Bounce", "mail": mail(json!({})), "bounce": {
            "bounceType": "Permanent", "bounceSubType": "General",
            "bouncedRecipients": [{"emailAddress": "gone@example.com"}]}});
        assert!(parse(&event("Email Bounced", untagged)).is_empty());
        let delivered = json!({"eventType": "Delivery",
            "mail": mail(json!({"vendfleet-task": ["01JTASK"]})), "delivery": {}});
        assert!(parse(&event("Email Delivered", delivered)).is_empty());
        assert!(parse(&json!("not an event")).is_empty());
        assert!(parse(&json!({"detail": {"eventType": 5}})).is_empty());
    }
}
