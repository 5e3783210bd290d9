//! `G85`: CRC-16/ARC over the bytes from `ST` through the line before `G85`, as the machine
//! transmitted them, with CR LF line ends. Files often reach us with their line ends changed
//! (editors, git, mail, FTP in text mode turn CR LF into LF), yet still carry the checksum of
//! their CR LF form: so the checksum is taken over the bytes as written and, when their line
//! ends are not CR LF, over the same lines ended by CR LF. Either matching is `ok`.

use super::lines::{Ending, Line};
use super::{crc16_arc, Checksum, LineEnds};

/// What `G85` said, the line ends of the form it matched and the warning to give.
pub(super) struct G85 {
    pub checksum: Checksum,
    pub line_ends: Option<LineEnds>,
    pub warning: Option<String>,
}

/// The line ends of `lines` as written.
fn line_ends(lines: &[Line<'_>]) -> LineEnds {
    let mut seen = [false; 3];
    for line in lines {
        match line.ending {
            Ending::CrLf => seen[0] = true,
            Ending::Lf => seen[1] = true,
            Ending::Cr => seen[2] = true,
            Ending::None => {}
        }
    }
    match seen {
        [_, false, false] => LineEnds::Crlf,
        [false, true, false] => LineEnds::Lf,
        [false, false, true] => LineEnds::Cr,
        _ => LineEnds::Mixed,
    }
}

/// The lines' bytes, each ended by CR LF whatever it ended with.
fn crlf_form(bytes: &[u8], lines: &[Line<'_>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + lines.len());
    for line in lines {
        out.extend_from_slice(&bytes[line.start..line.end]);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Checks `written` (the `G85` element at line `g85_line`) against `lines`: the lines from
/// `ST` up to the one before `G85`.
pub(super) fn check(
    bytes: &[u8],
    lines: &[Line<'_>],
    g85_line: usize,
    written: Option<&str>,
) -> G85 {
    let as_written = match (lines.first(), lines.last()) {
        (Some(first), Some(last)) => crc16_arc(&bytes[first.start..last.next]),
        _ => crc16_arc(&[]),
    };
    let form = line_ends(lines);
    let crlf = (form != LineEnds::Crlf).then(|| crc16_arc(&crlf_form(bytes, lines)));
    let parsed = written
        .filter(|w| (1..=4).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|w| u16::from_str_radix(w, 16).ok());
    let Some(value) = parsed else {
        return G85 {
            checksum: Checksum::Bad,
            line_ends: None,
            warning: Some(format!(
                "line {g85_line}, G85: {:?} is not a 4-digit hex checksum",
                written.unwrap_or("")
            )),
        };
    };
    let name = form.describe();
    if value == as_written {
        return G85 {
            checksum: Checksum::Ok,
            line_ends: Some(form),
            warning: (form != LineEnds::Crlf).then(|| {
                format!("line {g85_line}, G85: matches the audit as written, with {name} line ends")
            }),
        };
    }
    match crlf {
        Some(c) if c == value => G85 {
            checksum: Checksum::Ok,
            line_ends: Some(LineEnds::Crlf),
            warning: Some(format!(
                "line {g85_line}, G85: matches the audit with CR LF line ends (as transmitted); \
                 its {name} line ends were changed after the checksum was computed"
            )),
        },
        Some(c) => G85 {
            checksum: Checksum::Bad,
            line_ends: None,
            warning: Some(format!(
                "line {g85_line}, G85: checksum {value:04X} does not match the audit \
                 ({as_written:04X} as written with {name} line ends, {c:04X} with CR LF)"
            )),
        },
        None => G85 {
            checksum: Checksum::Bad,
            line_ends: None,
            warning: Some(format!(
                "line {g85_line}, G85: checksum {value:04X} does not match the audit ({as_written:04X})"
            )),
        },
    }
}
