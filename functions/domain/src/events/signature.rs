//! The webhook's signature: `X-Vendfleet-Signature: v1=<hex HMAC-SHA256>` over
//! `"{timestamp}.{raw body}"` keyed with the machine's secret.

use super::*;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Why a request's signature is refused. The caller answers 401 with [`ToString::to_string`]
/// as the message for every variant and stores nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("Missing X-Vendfleet-Timestamp header.")]
    MissingTimestamp,
    #[error("X-Vendfleet-Timestamp must be the signing time in Unix seconds (digits only).")]
    MalformedTimestamp,
    #[error("Missing X-Vendfleet-Signature header.")]
    MissingSignature,
    #[error("X-Vendfleet-Signature must be v1=<64 lower-case hex digits>: {0}.")]
    MalformedSignature(&'static str),
    #[error(
        "X-Vendfleet-Timestamp is {skew_secs} s away from the server's clock; at most 300 s is allowed."
    )]
    OutsideWindow { skew_secs: u64 },
    #[error(
        "The signature does not match: sign \"{{timestamp}}.{{raw body}}\" with the machine's webhook secret."
    )]
    Mismatch,
}

/// The `X-Vendfleet-Signature` value for `body` signed at `timestamp` (Unix seconds) with
/// `secret`: `v1=` and the lower-case hex HMAC-SHA256 of `"{timestamp}.{body}"`.
/// For the simulator and tests; machines compute the same.
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    let digest = keyed_mac(secret, &timestamp.to_string(), body)
        .finalize()
        .into_bytes();
    format!("v1={}", hex_lower(&digest))
}

/// Checks a webhook request's signature headers against the machine's `secret`, in this
/// order: timestamp present and digits; signature present and well formed; timestamp within
/// ±[`SIGNATURE_WINDOW_SECS`] of `now_unix` (both edges allowed); an HMAC match, compared in
/// constant time (`hmac`'s `verify_slice`).
///
/// - Header values are trimmed of surrounding spaces. The signed text is the timestamp header
///   exactly as sent (after trimming), a `.`, then the raw body bytes.
/// - The signature header is a comma-separated list of at most [`MAX_SIGNATURE_ENTRIES`]
///   `scheme=value` entries. Every `v1` value must be 64 lower-case hex digits; the request
///   passes when any `v1` value matches, so a machine rotating its secret may send one
///   signature per secret. Entries of other schemes (a future `v2`) are ignored, but at least
///   one `v1` entry is required.
/// - An empty `secret` never matches: a machine without a secret cannot be impersonated by
///   anyone who signs with the empty key.
pub fn verify_signature(
    secret: &[u8],
    timestamp_header: Option<&str>,
    signature_header: Option<&str>,
    raw_body: &[u8],
    now_unix: i64,
) -> Result<(), SignatureError> {
    let timestamp_text = timestamp_header
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or(SignatureError::MissingTimestamp)?;
    let timestamp = parse_unix_seconds(timestamp_text).ok_or(SignatureError::MalformedTimestamp)?;
    let signature_text = signature_header
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or(SignatureError::MissingSignature)?;
    let candidates = parse_signature_header(signature_text)?;
    let skew_secs = now_unix.abs_diff(timestamp);
    if skew_secs > SIGNATURE_WINDOW_SECS {
        return Err(SignatureError::OutsideWindow { skew_secs });
    }
    if secret.is_empty() {
        return Err(SignatureError::Mismatch);
    }
    let mac = keyed_mac(secret, timestamp_text, raw_body);
    // Every candidate is checked (no early exit), each in constant time.
    let matched = candidates
        .iter()
        .fold(false, |ok, c| mac.clone().verify_slice(c).is_ok() | ok);
    if matched {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}

fn keyed_mac(secret: &[u8], timestamp: &str, body: &[u8]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC accepts any key length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// 1 to 18 ASCII digits (no sign, no fraction): always fits an `i64`.
fn parse_unix_seconds(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_signature_header(text: &str) -> Result<Vec<[u8; 32]>, SignatureError> {
    use SignatureError::MalformedSignature as Bad;
    let entries: Vec<&str> = text.split(',').map(str::trim).collect();
    if entries.len() > MAX_SIGNATURE_ENTRIES {
        return Err(Bad("at most 8 comma-separated entries"));
    }
    let mut v1 = Vec::new();
    for entry in entries {
        let Some((scheme, value)) = entry.split_once('=') else {
            return Err(Bad("each entry is scheme=value"));
        };
        if scheme == "v1" {
            v1.push(decode_hex_32(value)?);
        } else if scheme.is_empty() || !scheme.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Bad("each entry is scheme=value"));
        }
    }
    if v1.is_empty() {
        return Err(Bad("no v1= entry"));
    }
    Ok(v1)
}

fn decode_hex_32(text: &str) -> Result<[u8; 32], SignatureError> {
    use SignatureError::MalformedSignature as Bad;
    let bytes = text.as_bytes();
    if bytes.len() != 64 {
        return Err(Bad("the v1 value is not 64 hex digits"));
    }
    if bytes.iter().any(|b| b.is_ascii_uppercase()) && bytes.iter().all(u8::is_ascii_hexdigit) {
        return Err(Bad("hex digits must be lower-case"));
    }
    let nibble = |b: u8| match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 32];
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        match (nibble(pair[0]), nibble(pair[1])) {
            (Some(hi), Some(lo)) => out[i] = hi << 4 | lo,
            _ => return Err(Bad("the v1 value is not 64 hex digits")),
        }
    }
    Ok(out)
}

fn hex_lower(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0x0f)] as char);
    }
    s
}
