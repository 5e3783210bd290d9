//! Cutting a file into lines and the lines into audits.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ending {
    CrLf,
    Lf,
    Cr,
    None,
}

impl Ending {
    /// Its length in bytes.
    fn len(self) -> usize {
        match self {
            Ending::CrLf => 2,
            Ending::Lf | Ending::Cr => 1,
            Ending::None => 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    Blank,
    /// A segment, with its id upper-cased.
    Segment(String),
    /// Text that is not a segment.
    Junk,
}

pub(super) struct Line<'a> {
    pub(super) no: usize,
    /// Byte offset where the line starts.
    pub(super) start: usize,
    /// Byte offset where its content ends (its line end, if any, follows).
    pub(super) end: usize,
    /// Byte offset just past its line end: where the next line starts.
    pub(super) next: usize,
    /// The line without its end, surrounding blanks and trailing NUL / Ctrl-Z padding.
    pub(super) text: &'a [u8],
    pub(super) ending: Ending,
    pub(super) kind: Kind,
}

impl Line<'_> {
    pub(super) fn id(&self) -> Option<&str> {
        match &self.kind {
            Kind::Segment(id) => Some(id),
            _ => None,
        }
    }

    /// What an error names as the segment: the id, or the line's start when it has none.
    pub(super) fn label(&self) -> String {
        match &self.kind {
            Kind::Segment(id) => id.clone(),
            _ => {
                let head = self.text.split(|&b| b == b'*').next().unwrap_or_default();
                let shown: String = decode(head).chars().take(20).collect();
                format!("{shown:?}")
            }
        }
    }
}

pub(super) fn split_lines(bytes: &[u8]) -> Vec<Line<'_>> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let (ending, next) = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => (Ending::CrLf, i + 2),
            b'\r' => (Ending::Cr, i + 1),
            b'\n' => (Ending::Lf, i + 1),
            _ => {
                i += 1;
                continue;
            }
        };
        lines.push(make_line(bytes, lines.len() + 1, start, i, ending));
        start = next;
        i = next;
    }
    if start < bytes.len() {
        lines.push(make_line(
            bytes,
            lines.len() + 1,
            start,
            bytes.len(),
            Ending::None,
        ));
    }
    lines
}

pub(super) fn make_line(
    bytes: &[u8],
    no: usize,
    start: usize,
    end: usize,
    ending: Ending,
) -> Line<'_> {
    let mut text = &bytes[start..end];
    if no == 1 {
        text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    }
    let text = trim_padding(text);
    Line {
        no,
        start,
        end,
        next: end + ending.len(),
        text,
        ending,
        kind: classify(text),
    }
}

pub(super) fn trim_padding(mut text: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = text {
        if matches!(first, b' ' | b'\t' | 0 | 0x1A) {
            text = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = text {
        if matches!(last, b' ' | b'\t' | 0 | 0x1A) {
            text = rest;
        } else {
            break;
        }
    }
    text
}

/// A segment id is letters then digits, 2 to 5 characters (`ST`, `PA1`, `CA17`, `G85`), before
/// the first `*`; a line holding control characters is binary data, not a segment.
pub(super) fn classify(text: &[u8]) -> Kind {
    if text.is_empty() {
        return Kind::Blank;
    }
    if text.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7F) {
        return Kind::Junk;
    }
    let id = trim(text.split(|&b| b == b'*').next().unwrap_or_default());
    let letters = id.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    let well_formed =
        (2..=5).contains(&id.len()) && letters >= 1 && id[letters..].iter().all(u8::is_ascii_digit);
    if well_formed {
        Kind::Segment(String::from_utf8_lossy(id).to_ascii_uppercase())
    } else {
        Kind::Junk
    }
}

pub(super) fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// UTF-8 when it is, else Latin-1 (byte = code point), the other encoding machines use.
pub(super) fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Where one audit lies in the file.
pub(super) struct Span {
    /// Index (in `lines`) of its first line: `DXS`, or `ST` / `ID1` without an envelope.
    pub(super) first: usize,
    /// Index of its last non-blank line (`DXE` when closed).
    pub(super) last: usize,
    pub(super) enveloped: bool,
    /// `DXE` seen.
    pub(super) closed: bool,
    /// Non-blank lines outside any audit just before this one (first audit only) and after it.
    pub(super) text_before: usize,
    pub(super) text_after: usize,
}

/// Cuts the file into audits: each `DXS` starts one (closing an open one as truncated), `DXE`
/// ends it; outside an envelope a `ST` or `ID1` starts an envelope-less one.
pub(super) fn find_audits(lines: &[Line<'_>]) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    let mut open: Option<Span> = None;
    let mut text_outside = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.kind == Kind::Blank {
            continue;
        }
        let id = line.id();
        if let Some(span) = open.as_mut() {
            match id {
                Some("DXS") => {
                    spans.extend(open.take());
                }
                Some("DXE") => {
                    span.last = i;
                    span.closed = true;
                    spans.extend(open.take());
                    continue;
                }
                _ => {
                    span.last = i;
                    continue;
                }
            }
        }
        match id {
            Some("DXS") | Some("ST") | Some("ID1") => {
                let text_before = if spans.is_empty() { text_outside } else { 0 };
                if let Some(previous) = spans.last_mut() {
                    previous.text_after += text_outside;
                }
                text_outside = 0;
                open = Some(Span {
                    first: i,
                    last: i,
                    enveloped: id == Some("DXS"),
                    closed: false,
                    text_before,
                    text_after: 0,
                });
            }
            _ => text_outside += 1,
        }
    }
    spans.extend(open);
    if let Some(previous) = spans.last_mut() {
        previous.text_after += text_outside;
    }
    spans
}
