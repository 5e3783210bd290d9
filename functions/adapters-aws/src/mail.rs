//! The mailer port on SES (v2): each recipient gets the message alone, as raw MIME content from
//! the stack's verified sender identity. A recipient SES refuses (a rejected message, an
//! address on the suppression list) is reported as refused. Messages go through the stack's
//! configuration set (when named) with the mail's tags, so bounces and complaints that come
//! later reach EventBridge carrying the task they belong to (`vendfleet_http::mail_feedback`).

use crate::error::cause;
use async_trait::async_trait;
use aws_sdk_sesv2::primitives::Blob;
use aws_sdk_sesv2::types::{Destination, EmailContent, MessageTag, RawMessage};
use vendfleet_app::ports::mail::mime;
use vendfleet_app::ports::{Mail, MailError, MailOutcome, Mailer};

/// The SES mailer.
#[derive(Debug, Clone)]
pub struct SesMailer {
    client: aws_sdk_sesv2::Client,
    from: String,
    configuration_set: Option<String>,
}

impl SesMailer {
    /// Sends from `from` (an identity verified in SES).
    pub fn new(client: aws_sdk_sesv2::Client, from: impl Into<String>) -> Self {
        SesMailer {
            client,
            from: from.into(),
            configuration_set: None,
        }
    }

    /// Sends through a configuration set (its event destination publishes bounces and
    /// complaints).
    pub fn with_configuration_set(mut self, name: Option<String>) -> Self {
        self.configuration_set = name;
        self
    }
}

#[async_trait]
impl Mailer for SesMailer {
    async fn send(&self, mail: &Mail) -> Result<MailOutcome, MailError> {
        let mut outcome = MailOutcome::default();
        let tags = mail
            .tags
            .iter()
            .map(|(name, value)| MessageTag::builder().name(name).value(value).build())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| MailError::Backend(cause(&e)))?;
        for to in &mail.to {
            let bytes = match mime(mail, &self.from, to) {
                Ok(b) => b,
                Err(e) => {
                    outcome.refused.push((to.clone(), e.to_string()));
                    continue;
                }
            };
            let raw = RawMessage::builder()
                .data(Blob::new(bytes))
                .build()
                .map_err(|e| MailError::Backend(cause(&e)))?;
            let sent = self
                .client
                .send_email()
                .from_email_address(&self.from)
                .destination(Destination::builder().to_addresses(to).build())
                .content(EmailContent::builder().raw(raw).build())
                .set_email_tags(Some(tags.clone()))
                .set_configuration_set_name(self.configuration_set.clone())
                .send()
                .await;
            match sent {
                Ok(_) => outcome.sent.push(to.clone()),
                Err(e) => match e.as_service_error() {
                    Some(s)
                        if s.is_message_rejected()
                            || s.is_bad_request_exception()
                            || s.is_account_suspended_exception()
                            || s.is_sending_paused_exception() =>
                    {
                        outcome.refused.push((to.clone(), cause(&e)))
                    }
                    _ => return Err(MailError::Backend(cause(&e))),
                },
            }
        }
        Ok(outcome)
    }
}
