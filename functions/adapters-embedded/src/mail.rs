//! The embedded mailer: each message to each recipient is an `.eml` file in `DATA/outbox`
//! (open it with any mail program), or goes to an SMTP relay when one is configured
//! (`VENDFLEET_SMTP_URL`, e.g. `smtp://localhost:25`; plain SMTP to a relay you run).

use async_trait::async_trait;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use std::path::PathBuf;
use vendfleet_app::ports::mail::mime;
use vendfleet_app::ports::{Mail, MailError, MailOutcome, Mailer};

/// Directory under the data directory holding the sent messages.
pub const OUTBOX_DIR: &str = "outbox";

/// Where messages go.
#[derive(Clone)]
enum Route {
    Outbox(PathBuf),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

/// The embedded mailer.
#[derive(Clone)]
pub struct EmbeddedMailer {
    route: Route,
    from: String,
}

impl std::fmt::Debug for EmbeddedMailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let route = match &self.route {
            Route::Outbox(dir) => format!("outbox {}", dir.display()),
            Route::Smtp(_) => "smtp".to_string(),
        };
        f.debug_struct("EmbeddedMailer")
            .field("route", &route)
            .field("from", &self.from)
            .finish()
    }
}

impl EmbeddedMailer {
    /// Files messages from `from` in `dir`.
    pub fn outbox(dir: PathBuf, from: &str) -> Self {
        EmbeddedMailer {
            route: Route::Outbox(dir),
            from: from.to_string(),
        }
    }

    /// Sends messages from `from` through the SMTP relay at `url` (`smtp://host[:port]`, port
    /// 25 by default; no TLS: a relay on this host or network).
    pub fn smtp(url: &str, from: &str) -> Result<Self, MailError> {
        let bad = || MailError::Backend(format!("SMTP URL {url}: use smtp://host[:port]"));
        let rest = url.trim().strip_prefix("smtp://").ok_or_else(bad)?;
        let rest = rest.trim_end_matches('/');
        let (host, port) = match rest.rsplit_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().map_err(|_| bad())?),
            None => (rest, 25),
        };
        if host.is_empty() {
            return Err(bad());
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(port)
            .build();
        Ok(EmbeddedMailer {
            route: Route::Smtp(transport),
            from: from.to_string(),
        })
    }
}

#[async_trait]
impl Mailer for EmbeddedMailer {
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
            match &self.route {
                Route::Outbox(dir) => {
                    let name = format!(
                        "{}-{}.eml",
                        chrono::Utc::now().format("%Y%m%dT%H%M%S"),
                        ulid::Ulid::new()
                    );
                    let (dir, path) = (dir.clone(), dir.join(name));
                    tokio::task::spawn_blocking(move || {
                        std::fs::create_dir_all(&dir)?;
                        let partial = path.with_extension("partial");
                        std::fs::write(&partial, bytes)?;
                        std::fs::rename(&partial, &path)
                    })
                    .await
                    .map_err(|e| MailError::Backend(format!("outbox: {e}")))?
                    .map_err(|e| MailError::Backend(format!("outbox: {e}")))?;
                    outcome.sent.push(to.clone());
                }
                Route::Smtp(transport) => {
                    let envelope = lettre::address::Envelope::new(
                        self.from
                            .parse::<lettre::message::Mailbox>()
                            .ok()
                            .map(|m| m.email),
                        vec![to
                            .parse()
                            .map_err(|e| MailError::Backend(format!("{to}: {e}")))?],
                    )
                    .map_err(|e| MailError::Backend(format!("envelope: {e}")))?;
                    match transport.send_raw(&envelope, &bytes).await {
                        Ok(_) => outcome.sent.push(to.clone()),
                        Err(e) if e.is_permanent() => {
                            outcome.refused.push((to.clone(), e.to_string()))
                        }
                        Err(e) => return Err(MailError::Backend(format!("SMTP: {e}"))),
                    }
                }
            }
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vendfleet_app::ports::Attachment;

    #[tokio::test]
    async fn messages_land_in_the_outbox_one_per_recipient_with_their_attachment() {
        let dir = tempfile::tempdir().unwrap();
        let mailer =
            EmbeddedMailer::outbox(dir.path().join("outbox"), "Vendfleet <reports@example.com>");
        let mail = Mail {
            to: vec!["ann@example.com".into(), "not an address".into()],
            subject: "Ventes — semaine 47".into(),
            text: "Bonjour".into(),
            html: "<p>Bonjour</p>".into(),
            attachments: vec![Attachment {
                file_name: "ventes.csv".into(),
                content_type: "text/csv; charset=utf-8".into(),
                bytes: b"a,b\n1,2\n".to_vec(),
            }],
            inline_images: vec![Attachment {
                file_name: "chart".into(),
                content_type: "image/png".into(),
                bytes: b"\x89PNG".to_vec(),
            }],
            tags: Vec::new(),
        };
        let outcome = mailer.send(&mail).await.unwrap();
        assert_eq!(outcome.sent, vec!["ann@example.com".to_string()]);
        assert_eq!(outcome.refused.len(), 1);
        let files: Vec<_> = std::fs::read_dir(dir.path().join("outbox"))
            .unwrap()
            .collect();
        assert_eq!(files.len(), 1);
        let text = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
        assert!(text.contains("To: ann@example.com"), "{text}");
        assert!(text.contains("filename=\"ventes.csv\""), "{text}");
        assert!(text.contains("multipart/related"), "{text}");
        assert!(text.contains("Content-ID: <chart>"), "{text}");
    }
}
