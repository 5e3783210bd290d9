//! What the mail service reports later of a scheduled report's messages: SES sending events
//! (bounce, complaint, reject) as EventBridge delivers them (`source: aws.ses`, the SES event
//! record in `detail`), each recorded on the task the message's `vendfleet-task` tag names.
//! The embedded mailer hands messages to the outbox or an SMTP relay and hears nothing back.

use serde::Deserialize;
use std::collections::BTreeMap;
use vendfleet_app::ports::mail::TASK_TAG;
use vendfleet_app::scheduler::{DeliveryStatus, MailDelivery};
use vendfleet_app::{App, AppResult};

/// What one event says of a task's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub task_id: String,
    pub outcomes: Vec<Outcome>,
}

/// One recipient's fate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub recipient: String,
    pub status: DeliveryStatus,
    pub reason: Option<String>,
}

/// An SES event record of the kinds read here (others do not parse).
#[derive(Debug, Deserialize)]
#[serde(tag = "eventType")]
enum Record {
    Bounce {
        mail: MailPart,
        bounce: Bounce,
    },
    Complaint {
        mail: MailPart,
        complaint: Complaint,
    },
    Reject {
        mail: MailPart,
        reject: Option<Reject>,
    },
}

#[derive(Debug, Deserialize)]
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
pub fn parse(event: &serde_json::Value) -> Option<Feedback> {
    let detail = event.get("detail").unwrap_or(event);
    let record = serde_json::from_value::<Record>(detail.clone()).ok()?;
    let (Record::Bounce { mail, .. }
    | Record::Complaint { mail, .. }
    | Record::Reject { mail, .. }) = &record;
    let task_id = mail
        .tags
        .get(TASK_TAG)
        .and_then(|v| v.first())
        .filter(|t| !t.is_empty())?
        .clone();
    let outcome = |recipient: String, status, reason: Option<String>| Outcome {
        recipient,
        status,
        reason,
    };
    let outcomes = match record {
        Record::Bounce { bounce: b, .. } => {
            let kind = format!("{} bounce ({})", b.bounce_type, b.bounce_sub_type);
            b.bounced_recipients
                .into_iter()
                .map(|r| {
                    let reason = match r.diagnostic_code.or(r.status) {
                        Some(d) => format!("{kind}: {d}"),
                        None => kind.clone(),
                    };
                    outcome(r.email_address, DeliveryStatus::Bounced, Some(reason))
                })
                .collect()
        }
        Record::Complaint { complaint: c, .. } => c
            .complained_recipients
            .into_iter()
            .map(|r| {
                let reason = c.complaint_feedback_type.clone();
                outcome(r.email_address, DeliveryStatus::Complained, reason)
            })
            .collect(),
        Record::Reject { reject, mail } => {
            let reason = reject.and_then(|r| r.reason);
            mail.destination
                .into_iter()
                .map(|to| outcome(to, DeliveryStatus::Refused, reason.clone()))
                .collect()
        }
    };
    Some(Feedback { task_id, outcomes })
}

/// Records the feedback of one event on its task (one write); answers how many recipients it
/// named.
pub async fn record(app: &App, event: &serde_json::Value) -> AppResult<usize> {
    let Some(f) = parse(event) else {
        return Ok(0);
    };
    tracing::info!(task = %f.task_id, recipients = f.outcomes.len(), "mail feedback");
    let at = app.clock.now();
    let deliveries = f
        .outcomes
        .iter()
        .map(|o| MailDelivery::new(at, &o.recipient, o.status, o.reason.clone()))
        .collect();
    app.scheduler.feedback(&f.task_id, deliveries).await?;
    Ok(f.outcomes.len())
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
            Some(Feedback {
                task_id: "01JTASK".into(),
                outcomes: vec![Outcome {
                    recipient: "gone@example.com".into(),
                    status: DeliveryStatus::Bounced,
                    reason: Some("Permanent bounce (General): smtp; 550 5.1.1 user unknown".into()),
                }],
            })
        );
        let complained = parse(&event(
            "Email Complaint Received",
            json!({"eventType": "Complaint", "mail": mail(tags.clone()), "complaint": {
                "complainedRecipients": [{"emailAddress": "boss@example.com"}],
                "complaintFeedbackType": "abuse"}}),
        ));
        let complained = &complained.unwrap().outcomes[0];
        assert_eq!(complained.status, DeliveryStatus::Complained);
        assert_eq!(complained.recipient, "boss@example.com");
        assert_eq!(complained.reason.as_deref(), Some("abuse"));
        let rejected = parse(&event(
            "Email Rejected",
            json!({"eventType": "Reject", "mail": mail(tags), "reject": {"reason": "Bad content"}}),
        ));
        let rejected = &rejected.unwrap().outcomes[0];
        assert_eq!(rejected.status, DeliveryStatus::Refused);
        assert_eq!(rejected.recipient, "gone@example.com");
    }

    #[test]
    fn events_of_other_messages_or_kinds_name_nothing() {
        let untagged = json!({"eventType": "Bounce", "mail": mail(json!({})), "bounce": {
            "bounceType": "Permanent", "bounceSubType": "General",
            "bouncedRecipients": [{"emailAddress": "gone@example.com"}]}});
        assert!(parse(&event("Email Bounced", untagged)).is_none());
        let delivered = json!({"eventType": "Delivery",
            "mail": mail(json!({"vendfleet-task": ["01JTASK"]})), "delivery": {}});
        assert!(parse(&event("Email Delivered", delivered)).is_none());
        assert!(parse(&json!("not an event")).is_none());
        assert!(parse(&json!({"detail": {"eventType": 5}})).is_none());
    }
}
