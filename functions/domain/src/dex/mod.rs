//! EVA-DTS (DEX/UCS) audit files: the parser behind `vendfleet dex parse` and the audits
//! machines upload. Pure: bytes in, typed figures out (docs/dex.md has the JSON contract).
//!
//! Real files are messy, so almost everything is a warning on the audit rather than an error:
//! LF or CR line ends, text before `DXS` or after `DXE`, several audits in one file, truncation,
//! a wrong `SE` count, no `ID4`, since-init counters empty beside filled since-reset ones,
//! "not set" values (4294967295, 65535, 99999999), elements shifted or holding non-digits,
//! unknown segments. A [`DexError`] is kept for two cases only:
//! - nothing in the file is EVA-DTS: no line starts with `DXS`, `ST` or `ID1`;
//! - inside a `DXS`…`DXE` envelope, a line that is not a segment at all (no segment id such
//!   as `PA1` before the first `*`, or control characters: binary data), except the last line
//!   of a truncated audit, which is taken as cut off. Without an envelope such lines are
//!   skipped with a warning, since nothing says where the audit ends.

pub use model::*;
mod checksum;
mod lines;
mod model;
mod read;
#[cfg(test)]
mod tests;

use lines::{find_audits, split_lines, Kind};
use read::read_audit;

/// Parses an audit file given as text (see [`parse_bytes`]).
pub fn parse(text: &str) -> Result<DexFile, DexError> {
    parse_bytes(text.as_bytes())
}

/// Parses an audit file as it was received. Bytes rather than text because `G85` is computed
/// over the bytes, and names may be Latin-1 (read as such when they are not UTF-8).
pub fn parse_bytes(bytes: &[u8]) -> Result<DexFile, DexError> {
    let lines = split_lines(bytes);
    let spans = find_audits(&lines);
    if spans.is_empty() {
        let first = lines.iter().find(|l| l.kind != Kind::Blank);
        return Err(DexError {
            line: first.map_or(1, |l| l.no),
            segment: first.map(|l| l.label()).unwrap_or_default(),
            message: "no EVA-DTS audit here: no line starts with DXS, ST or ID1".into(),
        });
    }
    let audits = spans
        .iter()
        .map(|span| read_audit(bytes, &lines, span))
        .collect::<Result<_, _>>()?;
    Ok(DexFile { audits })
}
