//! The mailer port: scheduled reports leave by e-mail (`.eml` files in the outbox or SMTP
//! embedded, SES on AWS).

use async_trait::async_trait;

/// A file attached to a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub file_name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A message to send: one language, one or more recipients (each gets it alone: nobody sees
/// the other addresses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: Vec<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    pub attachments: Vec<Attachment>,
    /// Images the HTML shows inline (`<img src="cid:NAME">`, NAME being the image's
    /// `file_name`).
    pub inline_images: Vec<Attachment>,
    /// Name and value pairs the mail service gives back with what later befalls the message
    /// (SES message tags on bounce and complaint events): letters, digits, `_`, `-`, `.`, `@`.
    pub tags: Vec<(String, String)>,
}

/// The tag naming the scheduled task a message belongs to (bounces find their task by it).
pub const TASK_TAG: &str = "vendfleet-task";

/// What became of each recipient of a message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MailOutcome {
    /// Addresses the mail service took.
    pub sent: Vec<String>,
    /// Addresses it refused, with its reason.
    pub refused: Vec<(String, String)>,
}

/// Why the mailer failed as a whole.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MailError {
    #[error("mail backend: {0}")]
    Backend(String),
}

/// The mailer.
#[async_trait]
pub trait Mailer: Send + Sync {
    /// Sends `mail` to each of its recipients.
    async fn send(&self, mail: &Mail) -> Result<MailOutcome, MailError>;
}

/// The message to one recipient as MIME (RFC 5322) bytes: a text and an HTML part, then the
/// attachments. Every mailer sends this (SMTP, SES raw content) or files it (the outbox).
pub fn mime(mail: &Mail, from: &str, to: &str) -> Result<Vec<u8>, MailError> {
    use lettre::message::{header::ContentType, Attachment as Part, MultiPart, SinglePart};
    let bad = |what: &str, e: &dyn std::fmt::Display| MailError::Backend(format!("{what}: {e}"));
    let alternative = if mail.inline_images.is_empty() {
        MultiPart::alternative_plain_html(mail.text.clone(), mail.html.clone())
    } else {
        let mut related = MultiPart::related().singlepart(SinglePart::html(mail.html.clone()));
        for image in &mail.inline_images {
            let ct =
                ContentType::parse(&image.content_type).map_err(|e| bad("content type", &e))?;
            related = related.singlepart(
                Part::new_inline(image.file_name.clone()).body(image.bytes.clone(), ct),
            );
        }
        MultiPart::alternative()
            .singlepart(SinglePart::plain(mail.text.clone()))
            .multipart(related)
    };
    let mut body = MultiPart::mixed().multipart(alternative);
    for a in &mail.attachments {
        let ct = ContentType::parse(&a.content_type).map_err(|e| bad("content type", &e))?;
        body = body.singlepart(Part::new(a.file_name.clone()).body(a.bytes.clone(), ct));
    }
    let message = lettre::Message::builder()
        .from(from.parse().map_err(|e| bad("from", &e))?)
        .to(to.parse().map_err(|e| bad("to", &e))?)
        .subject(mail.subject.clone())
        .multipart(body)
        .map_err(|e| bad("message", &e))?;
    Ok(message.formatted())
}
