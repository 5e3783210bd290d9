//! A Nayax Core EVA-DTS audit message (the DEX feed). Nayax does not document the message's
//! fields; it is read as any JSON object naming the machine (`MachineId`/`machineId`) with the
//! audit file in one of its text fields, raw (`DXS*…`) or in Base64.

use super::model::Unreadable;
use super::value::{field, id};
use crate::events::{EventKind, MachineEvent};
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

/// The fields an audit file is looked for in first (then every other text field).
const FILE_FIELDS: &[&str] = &[
    "DexContent",
    "dexContent",
    "Dex",
    "dex",
    "Content",
    "content",
    "File",
    "file",
    "Data",
    "data",
];

/// A DEX message, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditMessage {
    /// The machine's Nayax id.
    pub machine: String,
    /// The audit file's text.
    pub content: String,
}

fn is_dex(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with("DXS*") || t.starts_with("DXS|")
}

fn decode(text: &str) -> Option<String> {
    if is_dex(text) {
        return Some(text.to_string());
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = base64_decode(&compact)?;
    let decoded = String::from_utf8(bytes).ok()?;
    is_dex(&decoded).then_some(decoded)
}

/// Standard or URL-safe Base64, with or without padding; `None` when not Base64.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
    use base64::Engine;
    let text = text.trim_end_matches('=');
    STANDARD_NO_PAD
        .decode(text)
        .or_else(|_| URL_SAFE_NO_PAD.decode(text))
        .ok()
}

impl AuditMessage {
    pub(super) fn read(o: &Map<String, Value>) -> Result<AuditMessage, Unreadable> {
        let machine = id(o, &["MachineId", "machineId", "machineld", "Machine ID"])?
            .ok_or(Unreadable::Missing { field: "MachineId" })?;
        let named = FILE_FIELDS.iter().filter_map(|f| field(o, &[f]));
        let content = named
            .chain(o.values())
            .find_map(|v| v.as_str().and_then(decode))
            .ok_or(Unreadable::Missing {
                field: "the audit file (DXS…)",
            })?;
        Ok(AuditMessage { machine, content })
    }

    /// The audit as our DEX event, named by the file's content (the same file delivered twice
    /// is one read), at `at` (when it was sent).
    pub fn event(&self, at: DateTime<Utc>) -> MachineEvent {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(self.content.as_bytes());
        let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        MachineEvent {
            id: format!("nayax-dex-{hex}"),
            at: at.fixed_offset(),
            kind: EventKind::Dex {
                content: self.content.clone(),
            },
        }
    }
}
