//! The mailer port on SES (v2): each recipient gets the message alone, as raw MIME content from
//! the stack's verified sender identity. A recipient SES refuses (a rejected message, an
//! address on the suppression list) is reported as refused; bounces that come later arrive by
//! SES notifications, which this adapter does not read.

use crate::cause;
use async_trait::async_trait;
use aws_sdk_sesv2::primitives::Blob;
use aws_sdk_sesv2::types::{Destination, EmailContent, RawMessage};
use vendfleet_app::ports::mail::mime;
use vendfleet_app::ports::{Mail, MailError, MailOutcome, Mailer};

/// The SES mailer.
#[derive(Debug, Clone)]
pub struct SesMailer {
    client: aws_sdk_sesv2::Client,
    from: String,
}

impl SesMailer {
    /// Sends from `from` (an identity verified in SES).
    pub fn new(client: aws_sdk_sesv2::Client, from: impl Into<String>) -> Self {
        SesMailer {
            client,
            from: from.into(),
        }
    }
}

#[async_trait]
impl Mailer for SesMailer {
    async fn send(&self, mail: &Mail) -> Result<MailOutcome, MailError> {
        let mut outcome = MailOutcome::default();
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
