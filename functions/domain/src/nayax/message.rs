//! One message of a feed, read.

use super::alert::Alert;
use super::audit::AuditMessage;
use super::model::{Feed, Unreadable};
use super::transaction::Transaction;

/// One message as read, by feed.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Transaction(Transaction),
    Alert(Alert),
    Audit(AuditMessage),
}

impl Message {
    /// Reads a message body of `feed`.
    pub fn read(feed: Feed, body: &str) -> Result<Message, Unreadable> {
        let value: serde_json::Value =
            serde_json::from_str(body).map_err(|e| Unreadable::NotJson(e.to_string()))?;
        let object = value.as_object().ok_or(Unreadable::NotAnObject)?;
        Ok(match feed {
            Feed::Transactions => Message::Transaction(Transaction::read(object)?),
            Feed::Events => Message::Alert(Alert::read(object)?),
            Feed::Dex => Message::Audit(AuditMessage::read(object)?),
        })
    }

    /// The Nayax machine id the message is of.
    pub fn machine(&self) -> &str {
        match self {
            Message::Transaction(t) => &t.machine,
            Message::Alert(a) => &a.machine,
            Message::Audit(a) => &a.machine,
        }
    }
}
