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

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

const CRC_16_ARC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_ARC);

/// Values machines write for "not set" (u32::MAX, u16::MAX, eight nines): read as empty.
const NOT_SET: [u64; 3] = [4_294_967_295, 65_535, 99_999_999];

/// Warnings kept per audit; a file of garbage should not print megabytes of them.
const MAX_WARNINGS: usize = 200;

/// The exact warning for an audit without `ID4`.
pub const NO_ID4: &str = "no ID4: money scale comes from the machine's settings";

/// CRC-16/ARC (polynomial 0x8005 reflected, init 0, no final xor): the `G85` checksum.
pub fn crc16_arc(bytes: &[u8]) -> u16 {
    CRC_16_ARC.checksum(bytes)
}

/// Every audit found in one file, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DexFile {
    pub audits: Vec<Audit>,
}

/// A file that cannot be read: where, which segment, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("line {line}, segment {segment}: {message}")]
pub struct DexError {
    /// 1-based line of the file.
    pub line: usize,
    /// The segment id (or the start of the line when it has none).
    pub segment: String,
    pub message: String,
}

/// What `G85` says about the bytes from `ST` through the line before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Checksum {
    Ok,
    Bad,
    #[default]
    Absent,
}

/// One audit (one `DXS`…`DXE`, or one envelope-less run of segments). Money is in minor units
/// of the audit's currency: divide by 10^`decimal_places`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Audit {
    /// 1-based line where the audit starts (its `DXS`, or its first segment without one).
    pub line: usize,
    /// `ID1`: the machine's identity.
    pub machine: Option<Machine>,
    /// `ID401`: decimal places of every money figure; `None` without `ID4`.
    pub decimal_places: Option<u32>,
    /// `ID402` as written: a leading 1 then the ISO 4217 numeric code ("1978" = EUR).
    pub currency_code: Option<String>,
    /// The ISO 4217 numeric code taken from `ID402` ("978").
    pub currency_numeric: Option<String>,
    /// `G85` checked against CRC-16/ARC of the bytes from `ST` through the line before `G85`.
    pub checksum: Checksum,
    /// One per `PA1`, with its `PA2`–`PA5` and `PA7`.
    pub selections: Vec<Selection>,
    /// `VA1`: paid vends.
    pub paid_vends: Option<VendCounters>,
    /// `VA2`: test vends.
    pub test_vends: Option<VendCounters>,
    /// `VA3`: free vends.
    pub free_vends: Option<VendCounters>,
    /// `CA2`: cash sales.
    pub cash_sales: Option<VendCounters>,
    /// `CA3`: cash in.
    pub cash_in: Option<CashIn>,
    /// `CA4`: cash dispensed.
    pub cash_out: Option<CashOut>,
    /// `CA10`: coins filled into the tubes by hand.
    pub manual_fill: Option<ManualFill>,
    /// `CA15`: value in all coin tubes.
    pub tube_contents: Option<TubeContents>,
    /// `CA17`: one per coin tube.
    pub coin_tubes: Vec<CoinTube>,
    /// `DA2`: cashless device 1 sales.
    pub cashless1: Option<VendCounters>,
    /// `DB2`: cashless device 2 sales.
    pub cashless2: Option<VendCounters>,
    /// `TA2`: token sales.
    pub tokens: Option<VendCounters>,
    /// `EA3`: read counters and the date of this read.
    pub reads: Option<Reads>,
    /// What was odd about the file, each with its line where there is one.
    pub warnings: Vec<String>,
}

/// `ID1`: the machine's identity, as the machine reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// `ID101`
    pub serial: Option<String>,
    /// `ID102`
    pub model: Option<String>,
    /// `ID103`: build standard.
    pub build: Option<String>,
    /// `ID104`
    pub location: Option<String>,
    /// `ID105`: user defined.
    pub user_defined: Option<String>,
    /// `ID106`
    pub asset_number: Option<String>,
}

/// Count and value of vends since initialisation and since the last reset: `PA2`–`PA4`
/// (count first: `xx01` count, `xx02` value, `xx03` count, `xx04` value) and `VA1`–`VA3`,
/// `CA2`, `DA2`, `DB2`, `TA2` (value first: `xx01` value, `xx02` count, `xx03` value,
/// `xx04` count).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendCounters {
    /// `PA201` / `VA102`
    pub vends_since_init: Option<u64>,
    /// `PA202` / `VA101`
    pub value_since_init_minor: Option<u64>,
    /// `PA203` / `VA104`
    pub vends_since_reset: Option<u64>,
    /// `PA204` / `VA103`
    pub value_since_reset_minor: Option<u64>,
}

impl VendCounters {
    /// Since-reset figures without since-init ones: a shape some machines write.
    fn only_since_reset(&self) -> bool {
        self.vends_since_init.is_none()
            && self.value_since_init_minor.is_none()
            && (self.vends_since_reset.is_some() || self.value_since_reset_minor.is_some())
    }
}

/// One selection (`PA1`) and its figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// `PA101`: the selection id (button or slot).
    pub id: String,
    /// `PA102`: price.
    pub price_minor: Option<u64>,
    /// `PA103`: product name.
    pub name: Option<String>,
    /// `PA104`: capacity.
    pub capacity: Option<u64>,
    /// `PA108`: current level.
    pub level: Option<u64>,
    /// `PA2`: paid vends.
    pub sales: Option<VendCounters>,
    /// `PA3`: test vends.
    pub test_vends: Option<VendCounters>,
    /// `PA4`: free vends.
    pub free_vends: Option<VendCounters>,
    /// `PA5`: sold out.
    pub sold_out: Option<SoldOut>,
    /// `PA7`: sales per payment device and price list.
    pub by_payment_device: Vec<DeviceSales>,
}

/// `PA5`: when the selection sold out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoldOut {
    /// `PA501`: YYMMDD as written.
    pub date: Option<String>,
    /// `PA502`: HHMM (or HHMMSS) as written.
    pub time: Option<String>,
    /// `PA503`: how many times it sold out.
    pub count: Option<u64>,
}

/// `PA7`: one selection's sales through one payment device and price list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceSales {
    /// `PA702`: `CA` cash, `DA`/`DB` cashless 1/2, `TA` token.
    pub device: Option<String>,
    /// `PA703`
    pub price_list: Option<u64>,
    /// `PA704`: the price applied.
    pub price_minor: Option<u64>,
    /// `PA705`
    pub vends_since_init: Option<u64>,
    /// `PA706`
    pub value_since_init_minor: Option<u64>,
    /// `PA707`
    pub vends_since_reset: Option<u64>,
    /// `PA708`
    pub value_since_reset_minor: Option<u64>,
}

/// `CA3`: cash taken in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashIn {
    /// `CA301`
    pub since_reset_minor: Option<u64>,
    /// `CA302`
    pub to_box_since_reset_minor: Option<u64>,
    /// `CA303`
    pub to_tubes_since_reset_minor: Option<u64>,
    /// `CA304`
    pub bills_since_reset_minor: Option<u64>,
    /// `CA305`
    pub since_init_minor: Option<u64>,
    /// `CA306`
    pub to_box_since_init_minor: Option<u64>,
    /// `CA307`
    pub to_tubes_since_init_minor: Option<u64>,
    /// `CA308`
    pub bills_since_init_minor: Option<u64>,
}

/// `CA4`: cash paid out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashOut {
    /// `CA401`: change.
    pub change_since_reset_minor: Option<u64>,
    /// `CA402`: dispensed by hand.
    pub manual_since_reset_minor: Option<u64>,
    /// `CA403`
    pub change_since_init_minor: Option<u64>,
    /// `CA404`
    pub manual_since_init_minor: Option<u64>,
}

/// `CA10`: coins filled into the tubes by hand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManualFill {
    /// `CA1001`
    pub value_since_reset_minor: Option<u64>,
    /// `CA1002`
    pub value_since_init_minor: Option<u64>,
}

/// `CA15`: what the coin tubes hold (the float).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TubeContents {
    /// `CA1501`
    pub value_minor: Option<u64>,
}

/// `CA17`: one coin tube.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoinTube {
    /// `CA1701`: coin type number.
    pub coin_type: Option<u64>,
    /// `CA1702`
    pub coin_value_minor: Option<u64>,
    /// `CA1703`: coins in the tube.
    pub coins: Option<u64>,
    /// `CA1704`
    pub coins_manually_filled: Option<u64>,
    /// `CA1705`
    pub coins_manually_dispensed: Option<u64>,
}

/// `EA3`: read counters and this read's date.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reads {
    /// `EA301`: reads with reset since initialisation.
    pub reads_with_reset: Option<u64>,
    /// `EA302`: date of this read, YYMMDD as written.
    pub date: Option<String>,
    /// `EA303`: time of this read, HHMM as written.
    pub time: Option<String>,
    /// `EA304`: the reading device.
    pub reader: Option<String>,
    /// `EA305`
    pub last_date: Option<String>,
    /// `EA306`
    pub last_time: Option<String>,
    /// `EA307`
    pub last_reader: Option<String>,
    /// `EA308`: reads with or without reset since initialisation.
    pub reads_since_init: Option<u64>,
}

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    CrLf,
    Lf,
    Cr,
    None,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Blank,
    /// A segment, with its id upper-cased.
    Segment(String),
    /// Text that is not a segment.
    Junk,
}

struct Line<'a> {
    no: usize,
    /// Byte offset where the line starts.
    start: usize,
    /// The line without its end, surrounding blanks and trailing NUL / Ctrl-Z padding.
    text: &'a [u8],
    ending: Ending,
    kind: Kind,
}

impl Line<'_> {
    fn id(&self) -> Option<&str> {
        match &self.kind {
            Kind::Segment(id) => Some(id),
            _ => None,
        }
    }

    /// What an error names as the segment: the id, or the line's start when it has none.
    fn label(&self) -> String {
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

fn split_lines(bytes: &[u8]) -> Vec<Line<'_>> {
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

fn make_line(bytes: &[u8], no: usize, start: usize, end: usize, ending: Ending) -> Line<'_> {
    let mut text = &bytes[start..end];
    if no == 1 {
        text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    }
    let text = trim_padding(text);
    Line {
        no,
        start,
        text,
        ending,
        kind: classify(text),
    }
}

fn trim_padding(mut text: &[u8]) -> &[u8] {
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
fn classify(text: &[u8]) -> Kind {
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

fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// UTF-8 when it is, else Latin-1 (byte = code point), the other encoding machines use.
fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Where one audit lies in the file.
struct Span {
    /// Index (in `lines`) of its first line: `DXS`, or `ST` / `ID1` without an envelope.
    first: usize,
    /// Index of its last non-blank line (`DXE` when closed).
    last: usize,
    enveloped: bool,
    /// `DXE` seen.
    closed: bool,
    /// Non-blank lines outside any audit just before this one (first audit only) and after it.
    text_before: usize,
    text_after: usize,
}

/// Cuts the file into audits: each `DXS` starts one (closing an open one as truncated), `DXE`
/// ends it; outside an envelope a `ST` or `ID1` starts an envelope-less one.
fn find_audits(lines: &[Line<'_>]) -> Vec<Span> {
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

/// An audit's warnings, capped.
#[derive(Default)]
struct Notes {
    list: Vec<String>,
    dropped: usize,
}

impl Notes {
    fn push(&mut self, note: String) {
        if self.list.len() < MAX_WARNINGS {
            self.list.push(note);
        } else {
            self.dropped += 1;
        }
    }

    fn finish(mut self) -> Vec<String> {
        if self.dropped > 0 {
            self.list
                .push(format!("{} more warnings not shown", self.dropped));
        }
        self.list
    }
}

/// One segment's elements: `els[0]` is the id, `els[n]` is element `n` (`PA102` is `els[2]`).
struct Seg<'a> {
    line: usize,
    id: &'a str,
    els: Vec<&'a [u8]>,
}

impl<'a> Seg<'a> {
    fn new(line: &'a Line<'a>, id: &'a str) -> Self {
        Seg {
            line: line.no,
            id,
            els: line.text.split(|&b| b == b'*').map(trim).collect(),
        }
    }

    fn raw(&self, n: usize) -> Option<&'a [u8]> {
        self.els.get(n).copied().filter(|e| !e.is_empty())
    }

    fn text(&self, n: usize) -> Option<String> {
        self.raw(n).map(decode)
    }

    fn element(&self, n: usize) -> String {
        format!("{}{n:02}", self.id)
    }

    fn warn(&self, notes: &mut Notes, message: impl std::fmt::Display) {
        notes.push(format!("line {}, {}: {message}", self.line, self.id));
    }

    /// A count or an amount: digits only; empty is `None`; anything else is `None` and a
    /// warning, as is a "not set" value.
    fn num(&self, n: usize, notes: &mut Notes) -> Option<u64> {
        let raw = self.raw(n)?;
        let shown: String = decode(raw).chars().take(24).collect();
        if !raw.iter().all(u8::is_ascii_digit) {
            let message = format!(
                "{} {shown:?} is not a number: read as empty",
                self.element(n)
            );
            self.warn(notes, message);
            return None;
        }
        match shown.parse::<u64>() {
            Ok(v) if NOT_SET.contains(&v) => {
                let message = format!("{} = {v} means \"not set\": read as empty", self.element(n));
                self.warn(notes, message);
                None
            }
            Ok(v) => Some(v),
            Err(_) => {
                let message = format!("{} {shown:?} is too large: read as empty", self.element(n));
                self.warn(notes, message);
                None
            }
        }
    }

    /// `PA2`–`PA4`: count, value, count, value.
    fn count_first(&self, notes: &mut Notes) -> VendCounters {
        VendCounters {
            vends_since_init: self.num(1, notes),
            value_since_init_minor: self.num(2, notes),
            vends_since_reset: self.num(3, notes),
            value_since_reset_minor: self.num(4, notes),
        }
    }

    /// `VA1`–`VA3`, `CA2`, `DA2`, `DB2`, `TA2`: value, count, value, count.
    fn value_first(&self, notes: &mut Notes) -> VendCounters {
        VendCounters {
            value_since_init_minor: self.num(1, notes),
            vends_since_init: self.num(2, notes),
            value_since_reset_minor: self.num(3, notes),
            vends_since_reset: self.num(4, notes),
        }
    }
}

/// Sets a segment that appears once per audit; a repeat is ignored with a warning.
fn once<T>(
    slot: &mut Option<T>,
    seg: &Seg<'_>,
    notes: &mut Notes,
    read: impl FnOnce(&mut Notes) -> T,
) {
    if slot.is_some() {
        seg.warn(notes, "repeated: ignored, the first one is kept");
    } else {
        *slot = Some(read(notes));
    }
}

/// EVA-DTS segment families we know but do not read: not worth a warning.
fn is_standard(id: &str) -> bool {
    let letters: String = id.chars().take_while(char::is_ascii_alphabetic).collect();
    matches!(
        letters.as_str(),
        "AC" | "AM"
            | "BA"
            | "BB"
            | "BC"
            | "CA"
            | "CB"
            | "DA"
            | "DB"
            | "DXS"
            | "DXE"
            | "EA"
            | "G"
            | "ID"
            | "LA"
            | "LE"
            | "LS"
            | "MA"
            | "MC"
            | "MR"
            | "PA"
            | "PC"
            | "PP"
            | "SD"
            | "SE"
            | "ST"
            | "TA"
            | "VA"
    )
}

fn read_audit(bytes: &[u8], lines: &[Line<'_>], span: &Span) -> Result<Audit, DexError> {
    let mut notes = Notes::default();
    let mut audit = Audit {
        line: lines[span.first].no,
        ..Audit::default()
    };
    if span.text_before > 0 {
        let before = if span.enveloped {
            "DXS"
        } else {
            "the first segment"
        };
        notes.push(format!(
            "{} of text before {before} ignored",
            plural(span.text_before, "line")
        ));
    }
    if !span.enveloped {
        notes.push(format!(
            "no DXS envelope: segments from line {} read as one audit",
            audit.line
        ));
    }

    let mut id4_seen = false;
    let mut st: Option<usize> = None;
    let mut first_data: Option<usize> = None;
    let mut counted = 0usize;
    let mut se: Option<(usize, Option<u64>, usize)> = None;
    let mut g85: Option<(usize, Option<String>)> = None;
    let mut current: Option<usize> = None;
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut unknown: BTreeMap<String, usize> = BTreeMap::new();
    let mut skipped = 0usize;
    let mut endings = [0usize; 3];

    for (i, line) in lines
        .iter()
        .enumerate()
        .take(span.last + 1)
        .skip(span.first)
    {
        let id = match &line.kind {
            Kind::Blank => continue,
            Kind::Junk if !span.enveloped => {
                skipped += 1;
                continue;
            }
            Kind::Junk if !span.closed && i == span.last => {
                notes.push(format!(
                    "line {}: cut off, not a whole segment: ignored",
                    line.no
                ));
                continue;
            }
            Kind::Junk => {
                return Err(DexError {
                    line: line.no,
                    segment: line.label(),
                    message: "not an EVA-DTS segment (a segment id such as PA1, then \
                              elements separated by *)"
                        .into(),
                });
            }
            Kind::Segment(id) => id.as_str(),
        };
        match line.ending {
            Ending::CrLf => endings[0] += 1,
            Ending::Lf => endings[1] += 1,
            Ending::Cr => endings[2] += 1,
            Ending::None => {}
        }
        if st.is_some() && se.is_none() {
            counted += 1;
        }
        if first_data.is_none() && !matches!(id, "DXS" | "DXE") {
            first_data = Some(i);
        }
        let seg = Seg::new(line, id);
        match id {
            "DXS" | "DXE" => {}
            "ST" => {
                if st.is_some() {
                    seg.warn(&mut notes, "a second ST: ignored");
                } else {
                    st = Some(i);
                    counted = 1;
                }
            }
            "SE" => {
                if se.is_some() {
                    seg.warn(&mut notes, "repeated: ignored, the first one is kept");
                } else {
                    se = Some((line.no, seg.num(1, &mut notes), counted));
                }
            }
            "G85" => {
                if g85.is_some() {
                    seg.warn(&mut notes, "repeated: ignored, the first one is kept");
                } else {
                    g85 = Some((i, seg.text(1)));
                }
            }
            "ID1" => once(&mut audit.machine, &seg, &mut notes, |_| Machine {
                serial: seg.text(1),
                model: seg.text(2),
                build: seg.text(3),
                location: seg.text(4),
                user_defined: seg.text(5),
                asset_number: seg.text(6),
            }),
            "ID4" => {
                if id4_seen {
                    seg.warn(&mut notes, "repeated: ignored, the first one is kept");
                    continue;
                }
                id4_seen = true;
                audit.decimal_places = match seg.num(1, &mut notes) {
                    Some(places) if places <= 9 => Some(places as u32),
                    Some(places) => {
                        seg.warn(&mut notes, format!("ID401 = {places} decimal places is not plausible: money scale comes from the machine's settings"));
                        None
                    }
                    None => {
                        seg.warn(&mut notes, "no decimal places in ID401: money scale comes from the machine's settings");
                        None
                    }
                };
                audit.currency_code = seg.text(2);
                audit.currency_numeric = audit.currency_code.as_deref().and_then(iso_numeric);
            }
            "PA1" => {
                let mut seg = seg;
                if seg.els.len() > 2 && seg.raw(1).is_none() && seg.raw(2).is_some() {
                    seg.els.remove(1);
                    seg.warn(
                        &mut notes,
                        "an empty element before the selection id: elements read shifted left by one",
                    );
                }
                let id = seg.text(1).unwrap_or_default();
                if id.is_empty() {
                    seg.warn(&mut notes, "no selection id in PA101");
                }
                let selection = Selection {
                    price_minor: seg.num(2, &mut notes),
                    name: seg.text(3),
                    capacity: seg.num(4, &mut notes),
                    level: seg.num(8, &mut notes),
                    id: id.clone(),
                    ..Selection::default()
                };
                audit.selections.push(selection);
                let index = audit.selections.len() - 1;
                by_id.insert(id, index);
                current = Some(index);
            }
            "PA2" | "PA3" | "PA4" | "PA5" => {
                let Some(index) = current else {
                    seg.warn(&mut notes, "no PA1 before it: ignored");
                    continue;
                };
                let selection = &mut audit.selections[index];
                match id {
                    "PA2" => once(&mut selection.sales, &seg, &mut notes, |n| {
                        seg.count_first(n)
                    }),
                    "PA3" => once(&mut selection.test_vends, &seg, &mut notes, |n| {
                        seg.count_first(n)
                    }),
                    "PA4" => once(&mut selection.free_vends, &seg, &mut notes, |n| {
                        seg.count_first(n)
                    }),
                    _ => once(&mut selection.sold_out, &seg, &mut notes, |n| SoldOut {
                        date: seg.text(1),
                        time: seg.text(2),
                        count: seg.num(3, n),
                    }),
                }
            }
            "PA7" => {
                let named = seg.text(1);
                let target = named.as_ref().and_then(|n| by_id.get(n).copied());
                let index = match (target, current) {
                    (Some(index), _) => index,
                    (None, Some(index)) => {
                        if let Some(named) = &named {
                            seg.warn(
                                &mut notes,
                                format!(
                                    "selection {named:?} has no PA1: read as selection {:?}",
                                    audit.selections[index].id
                                ),
                            );
                        }
                        index
                    }
                    (None, None) => {
                        seg.warn(&mut notes, "no PA1 before it: ignored");
                        continue;
                    }
                };
                let sales = DeviceSales {
                    device: seg.text(2),
                    price_list: seg.num(3, &mut notes),
                    price_minor: seg.num(4, &mut notes),
                    vends_since_init: seg.num(5, &mut notes),
                    value_since_init_minor: seg.num(6, &mut notes),
                    vends_since_reset: seg.num(7, &mut notes),
                    value_since_reset_minor: seg.num(8, &mut notes),
                };
                audit.selections[index].by_payment_device.push(sales);
            }
            "VA1" => once(&mut audit.paid_vends, &seg, &mut notes, |n| {
                seg.value_first(n)
            }),
            "VA2" => once(&mut audit.test_vends, &seg, &mut notes, |n| {
                seg.value_first(n)
            }),
            "VA3" => once(&mut audit.free_vends, &seg, &mut notes, |n| {
                seg.value_first(n)
            }),
            "CA2" => once(&mut audit.cash_sales, &seg, &mut notes, |n| {
                seg.value_first(n)
            }),
            "CA3" => once(&mut audit.cash_in, &seg, &mut notes, |n| CashIn {
                since_reset_minor: seg.num(1, n),
                to_box_since_reset_minor: seg.num(2, n),
                to_tubes_since_reset_minor: seg.num(3, n),
                bills_since_reset_minor: seg.num(4, n),
                since_init_minor: seg.num(5, n),
                to_box_since_init_minor: seg.num(6, n),
                to_tubes_since_init_minor: seg.num(7, n),
                bills_since_init_minor: seg.num(8, n),
            }),
            "CA4" => once(&mut audit.cash_out, &seg, &mut notes, |n| CashOut {
                change_since_reset_minor: seg.num(1, n),
                manual_since_reset_minor: seg.num(2, n),
                change_since_init_minor: seg.num(3, n),
                manual_since_init_minor: seg.num(4, n),
            }),
            "CA10" => once(&mut audit.manual_fill, &seg, &mut notes, |n| ManualFill {
                value_since_reset_minor: seg.num(1, n),
                value_since_init_minor: seg.num(2, n),
            }),
            "CA15" => once(&mut audit.tube_contents, &seg, &mut notes, |n| {
                TubeContents {
                    value_minor: seg.num(1, n),
                }
            }),
            "CA17" => {
                let tube = CoinTube {
                    coin_type: seg.num(1, &mut notes),
                    coin_value_minor: seg.num(2, &mut notes),
                    coins: seg.num(3, &mut notes),
                    coins_manually_filled: seg.num(4, &mut notes),
                    coins_manually_dispensed: seg.num(5, &mut notes),
                };
                audit.coin_tubes.push(tube);
            }
            "DA2" => once(&mut audit.cashless1, &seg, &mut notes, |n| {
                seg.value_first(n)
            }),
            "DB2" => once(&mut audit.cashless2, &seg, &mut notes, |n| {
                seg.value_first(n)
            }),
            "TA2" => once(&mut audit.tokens, &seg, &mut notes, |n| seg.value_first(n)),
            "EA3" => once(&mut audit.reads, &seg, &mut notes, |n| Reads {
                reads_with_reset: seg.num(1, n),
                date: seg.text(2),
                time: seg.text(3),
                reader: seg.text(4),
                last_date: seg.text(5),
                last_time: seg.text(6),
                last_reader: seg.text(7),
                reads_since_init: seg.num(8, n),
            }),
            other if is_standard(other) => {}
            other => *unknown.entry(other.to_owned()).or_default() += 1,
        }
    }

    // The checksum: bytes from ST (or the first segment without one) up to G85's line.
    if let Some((g85_index, written)) = &g85 {
        let from = st.or(first_data).unwrap_or(*g85_index);
        if st.is_none() {
            notes.push("no ST segment: checksum counted from the first segment".into());
        }
        let computed = if from < *g85_index {
            crc16_arc(&bytes[lines[from].start..lines[*g85_index].start])
        } else {
            crc16_arc(&[])
        };
        let g85_line = lines[*g85_index].no;
        let parsed = written
            .as_deref()
            .filter(|w| (1..=4).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|w| u16::from_str_radix(w, 16).ok());
        audit.checksum = match parsed {
            Some(value) if value == computed => Checksum::Ok,
            Some(value) => {
                notes.push(format!(
                    "line {g85_line}, G85: checksum {value:04X} does not match the audit ({computed:04X})"
                ));
                Checksum::Bad
            }
            None => {
                notes.push(format!(
                    "line {g85_line}, G85: {:?} is not a 4-digit hex checksum",
                    written.as_deref().unwrap_or("")
                ));
                Checksum::Bad
            }
        };
    }

    // The envelope.
    if span.enveloped && !span.closed {
        let mut missing: Vec<&str> = Vec::new();
        if se.is_none() {
            missing.push("SE");
        }
        if g85.is_none() {
            missing.push("G85");
        }
        missing.push("DXE");
        notes.push(format!(
            "truncated after line {} (no {}): kept what was read",
            lines[span.last].no,
            missing.join(", ")
        ));
    } else if se.is_none() {
        notes.push("no SE segment".into());
    }
    if let Some((se_line, written, counted)) = se {
        match (written, st) {
            (Some(written), Some(_)) if written as usize != counted => notes.push(format!(
                "line {se_line}, SE: says {written} segments, ST to SE holds {counted}"
            )),
            (None, _) => notes.push(format!("line {se_line}, SE: no segment count")),
            _ => {}
        }
    }
    if span.text_after > 0 {
        notes.push(format!(
            "{} of text after {} ignored",
            plural(span.text_after, "line"),
            if span.closed { "DXE" } else { "the audit" }
        ));
    }
    if skipped > 0 {
        notes.push(format!(
            "{} of text inside the audit ignored",
            plural(skipped, "line")
        ));
    }
    match endings {
        [_, 0, 0] => {}
        [0, _, 0] => notes.push("lines end in LF, not CR LF".into()),
        [0, 0, _] => notes.push("lines end in CR, not CR LF".into()),
        _ => notes.push("mixed line ends (CR LF, LF, CR)".into()),
    }

    // The figures.
    if !id4_seen {
        notes.push(NO_ID4.into());
    }
    let reset_only = reset_only_segments(&audit);
    if !reset_only.is_empty() {
        notes.push(format!(
            "since-init counters empty while since-reset ones are filled ({}): \
             sales must come from the since-reset figures",
            reset_only.join(", ")
        ));
    }
    if !unknown.is_empty() {
        let total: usize = unknown.values().sum();
        let ids: Vec<&str> = unknown.keys().take(10).map(String::as_str).collect();
        notes.push(format!(
            "{} ignored ({})",
            plural(total, "unknown segment"),
            ids.join(", ")
        ));
    }
    audit.warnings = notes.finish();
    Ok(audit)
}

/// "1 line", "3 lines".
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `ID402` "1978" → "978"; a bare three-digit code is taken as it is.
fn iso_numeric(code: &str) -> Option<String> {
    let digits = code.bytes().all(|b| b.is_ascii_digit());
    match code.len() {
        4 if digits && code.starts_with('1') => Some(code[1..].to_owned()),
        3 if digits => Some(code.to_owned()),
        _ => None,
    }
}

fn reset_only_segments(audit: &Audit) -> Vec<String> {
    let mut found = Vec::new();
    for (name, pick) in [
        (
            "PA2",
            (|s: &Selection| s.sales.as_ref()) as fn(&Selection) -> Option<&VendCounters>,
        ),
        ("PA3", |s| s.test_vends.as_ref()),
        ("PA4", |s| s.free_vends.as_ref()),
    ] {
        let count = audit
            .selections
            .iter()
            .filter(|s| pick(s).is_some_and(VendCounters::only_since_reset))
            .count();
        if count > 0 {
            found.push(format!("{name} of {count} selections"));
        }
    }
    for (name, counters) in [
        ("VA1", &audit.paid_vends),
        ("VA2", &audit.test_vends),
        ("VA3", &audit.free_vends),
        ("CA2", &audit.cash_sales),
        ("DA2", &audit.cashless1),
        ("DB2", &audit.cashless2),
        ("TA2", &audit.tokens),
    ] {
        if counters
            .as_ref()
            .is_some_and(VendCounters::only_since_reset)
        {
            found.push(name.to_owned());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FULL_CRLF: &str = include_str!("../tests/dex/full_crlf.dex");
    const LF_MODEM: &str = include_str!("../tests/dex/lf_modem.dex");
    const TWO_AUDITS: &str = include_str!("../tests/dex/two_audits.dex");
    const TRUNCATED: &str = include_str!("../tests/dex/truncated.dex");
    const WRONG_SE: &str = include_str!("../tests/dex/wrong_se.dex");
    const NO_ID4_FILE: &str = include_str!("../tests/dex/no_id4.dex");
    const RESET_ONLY: &str = include_str!("../tests/dex/reset_only.dex");
    const NOT_SET_FILE: &str = include_str!("../tests/dex/not_set.dex");
    const SHIFTED: &str = include_str!("../tests/dex/shifted.dex");
    const NO_ENVELOPE: &str = include_str!("../tests/dex/no_envelope.dex");

    fn one(text: &str) -> Audit {
        let mut file = parse(text).expect("parses");
        assert_eq!(file.audits.len(), 1, "{file:#?}");
        file.audits.remove(0)
    }

    fn has(audit: &Audit, needle: &str) -> bool {
        audit.warnings.iter().any(|w| w.contains(needle))
    }

    fn counters(a: u64, b: u64, c: u64, d: u64) -> Option<VendCounters> {
        Some(VendCounters {
            vends_since_init: Some(a),
            value_since_init_minor: Some(b),
            vends_since_reset: Some(c),
            value_since_reset_minor: Some(d),
        })
    }

    #[test]
    fn crc_is_crc16_arc() {
        assert_eq!(crc16_arc(b"123456789"), 0xBB3D);
        assert_eq!(crc16_arc(b""), 0);
    }

    #[test]
    fn a_complete_crlf_audit_reads_every_segment() {
        assert!(FULL_CRLF.contains("\r\n"), "the sample must keep its CR LF");
        let audit = one(FULL_CRLF);
        assert_eq!(audit.warnings, Vec::<String>::new());
        assert_eq!(audit.line, 1);
        assert_eq!(audit.checksum, Checksum::Ok);
        let machine = audit.machine.as_ref().expect("ID1");
        assert_eq!(machine.serial.as_deref(), Some("123456789012"));
        assert_eq!(machine.model.as_deref(), Some("SV-72"));
        assert_eq!(machine.build.as_deref(), Some("1204"));
        assert_eq!(machine.location.as_deref(), Some("Bureau 3F"));
        assert_eq!(machine.user_defined, None);
        assert_eq!(machine.asset_number.as_deref(), Some("A-0042"));
        assert_eq!(audit.decimal_places, Some(2));
        assert_eq!(audit.currency_code.as_deref(), Some("1978"));
        assert_eq!(audit.currency_numeric.as_deref(), Some("978"));

        // VA1 is value first: 1,544.90 EUR over 1,254 vends since init.
        assert_eq!(audit.paid_vends, counters(1254, 154490, 83, 10210));
        assert_eq!(audit.test_vends, counters(4, 600, 0, 0));
        assert_eq!(audit.free_vends, counters(3, 450, 1, 150));
        assert_eq!(audit.cash_sales, counters(671, 65440, 44, 4410));
        assert_eq!(audit.cashless1, counters(554, 82100, 36, 5400));
        assert_eq!(audit.cashless2, counters(29, 6950, 3, 400));
        assert_eq!(audit.tokens, counters(0, 0, 0, 0));
        let cash_in = audit.cash_in.as_ref().expect("CA3");
        assert_eq!(cash_in.since_reset_minor, Some(7340));
        assert_eq!(cash_in.to_box_since_reset_minor, Some(2890));
        assert_eq!(cash_in.to_tubes_since_reset_minor, Some(3450));
        assert_eq!(cash_in.bills_since_reset_minor, Some(1000));
        assert_eq!(cash_in.since_init_minor, Some(412300));
        assert_eq!(cash_in.bills_since_init_minor, Some(82000));
        assert_eq!(
            audit.cash_out,
            Some(CashOut {
                change_since_reset_minor: Some(1750),
                manual_since_reset_minor: Some(200),
                change_since_init_minor: Some(96400),
                manual_since_init_minor: Some(5600),
            })
        );
        assert_eq!(
            audit.manual_fill,
            Some(ManualFill {
                value_since_reset_minor: Some(500),
                value_since_init_minor: Some(25000),
            })
        );
        assert_eq!(
            audit.tube_contents.as_ref().unwrap().value_minor,
            Some(4110)
        );
        assert_eq!(audit.coin_tubes.len(), 4);
        assert_eq!(
            audit.coin_tubes[1],
            CoinTube {
                coin_type: Some(1),
                coin_value_minor: Some(20),
                coins: Some(38),
                coins_manually_filled: Some(5),
                coins_manually_dispensed: Some(0),
            }
        );
        // The tubes hold what CA15 says: 45×10 + 38×20 + 22×50 + 18×100.
        let float: u64 = audit
            .coin_tubes
            .iter()
            .map(|t| t.coin_value_minor.unwrap() * t.coins.unwrap())
            .sum();
        assert_eq!(float, 4110);
        let reads = audit.reads.as_ref().expect("EA3");
        assert_eq!(reads.reads_with_reset, Some(421));
        assert_eq!(reads.date.as_deref(), Some("260315"));
        assert_eq!(reads.time.as_deref(), Some("1508"));
        assert_eq!(reads.last_date.as_deref(), Some("260314"));
        assert_eq!(reads.reads_since_init, Some(433));

        let ids: Vec<&str> = audit.selections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["10", "11", "12", "13"]);
        let coke = &audit.selections[0];
        assert_eq!(coke.price_minor, Some(150));
        assert_eq!(coke.name.as_deref(), Some("Coca-Cola 33cl"));
        assert_eq!(coke.capacity, Some(24));
        assert_eq!(coke.level, Some(17));
        assert_eq!(coke.sales, counters(412, 61800, 28, 4200));
        assert_eq!(coke.test_vends, counters(2, 300, 0, 0));
        assert_eq!(coke.free_vends, counters(1, 150, 0, 0));
        assert_eq!(
            coke.sold_out,
            Some(SoldOut {
                date: Some("260311".into()),
                time: Some("1422".into()),
                count: Some(3),
            })
        );
        assert_eq!(coke.by_payment_device.len(), 2);
        assert_eq!(
            coke.by_payment_device[1],
            DeviceSales {
                device: Some("DA".into()),
                price_list: Some(0),
                price_minor: Some(150),
                vends_since_init: Some(232),
                value_since_init_minor: Some(34800),
                vends_since_reset: Some(16),
                value_since_reset_minor: Some(2400),
            }
        );
        // The selections add up to VA1.
        let total: u64 = audit
            .selections
            .iter()
            .map(|s| s.sales.as_ref().unwrap().value_since_init_minor.unwrap())
            .sum();
        assert_eq!(
            Some(total),
            audit.paid_vends.unwrap().value_since_init_minor
        );
    }

    #[test]
    fn the_checksum_matches_an_independent_computation() {
        // G85*1D58 in full_crlf.dex was computed outside Rust, with
        // python3 -c 'import sys,functools as f;d=open(sys.argv[1],"rb").read();d=d[d.index(b"ST*"):d.index(b"G85*")];print("%04X"%f.reduce(lambda c,b:f.reduce(lambda c,_:(c>>1)^0xA001 if c&1 else c>>1,range(8),c^b),d,0))' full_crlf.dex
        // (the same one-liner prints BB3D for b"123456789", the CRC-16/ARC check value).
        assert!(FULL_CRLF.contains("G85*1D58\r\n"));
        let start = FULL_CRLF.find("ST*").unwrap();
        let end = FULL_CRLF.find("G85*").unwrap();
        assert_eq!(crc16_arc(&FULL_CRLF.as_bytes()[start..end]), 0x1D58);
        assert_eq!(one(FULL_CRLF).checksum, Checksum::Ok);
        // Either case of hex digits.
        assert_eq!(
            one(&FULL_CRLF.replace("G85*1D58", "G85*1d58")).checksum,
            Checksum::Ok
        );

        let tampered = one(&FULL_CRLF.replace("PA2*412*61800", "PA2*413*61800"));
        assert_eq!(tampered.checksum, Checksum::Bad);
        assert!(
            has(&tampered, "G85: checksum 1D58 does not match"),
            "{:?}",
            tampered.warnings
        );
        assert_eq!(
            tampered.selections[0]
                .sales
                .as_ref()
                .unwrap()
                .vends_since_init,
            Some(413)
        );

        let garbled = one(&FULL_CRLF.replace("G85*1D58", "G85*XYZ"));
        assert_eq!(garbled.checksum, Checksum::Bad);
        assert!(has(&garbled, "is not a 4-digit hex checksum"));

        let without = one(&FULL_CRLF
            .replace("G85*1D58\r\n", "")
            .replace("SE*43", "SE*42"));
        assert_eq!(without.checksum, Checksum::Absent);
        assert_eq!(without.warnings, Vec::<String>::new());
    }

    #[test]
    fn lf_ends_modem_chatter_and_unknown_segments_are_warnings() {
        assert!(!LF_MODEM.contains('\r'));
        let audit = one(LF_MODEM);
        // G85 was computed over the LF bytes as they are in the file.
        assert_eq!(audit.checksum, Checksum::Ok);
        assert_eq!(audit.line, 4);
        assert!(
            has(&audit, "3 lines of text before DXS ignored"),
            "{:?}",
            audit.warnings
        );
        assert!(has(&audit, "1 line of text after DXE ignored"));
        assert!(has(&audit, "2 unknown segments ignored (XX9, ZZ1)"));
        assert!(has(&audit, "lines end in LF, not CR LF"));
        assert_eq!(audit.warnings.len(), 4, "{:?}", audit.warnings);
        assert_eq!(audit.selections.len(), 2);
        assert_eq!(audit.selections[1].sales, counters(70, 17500, 9, 2250));
        assert_eq!(audit.paid_vends, counters(190, 41300, 24, 5250));
    }

    #[test]
    fn cr_only_line_ends_read_the_same_figures() {
        let crlf = one(FULL_CRLF);
        let cr = one(&FULL_CRLF.replace("\r\n", "\r"));
        assert_eq!(cr.selections, crlf.selections);
        assert_eq!(cr.cash_in, crlf.cash_in);
        // G85 was computed over CR LF: with other bytes it no longer matches.
        assert_eq!(cr.checksum, Checksum::Bad);
        assert!(has(&cr, "lines end in CR, not CR LF"));
    }

    #[test]
    fn several_audits_in_one_file_are_separate() {
        let file = parse(TWO_AUDITS).unwrap();
        assert_eq!(file.audits.len(), 2);
        let [first, second] = &file.audits[..] else {
            unreachable!()
        };
        assert_eq!(
            first.machine.as_ref().unwrap().serial.as_deref(),
            Some("K4411029")
        );
        assert_eq!(
            second.machine.as_ref().unwrap().serial.as_deref(),
            Some("K4411030")
        );
        assert_eq!(second.line, 14);
        assert_eq!(
            (first.checksum, second.checksum),
            (Checksum::Ok, Checksum::Ok)
        );
        assert!(first.warnings.is_empty() && second.warnings.is_empty());
        assert_eq!(second.selections[1].sales, counters(14, 3500, 14, 3500));
        assert_eq!(first.selections[1].sales, counters(70, 17500, 9, 2250));
    }

    #[test]
    fn a_truncated_audit_keeps_what_was_read() {
        let audit = one(TRUNCATED);
        assert_eq!(audit.checksum, Checksum::Absent);
        assert!(
            has(
                &audit,
                "truncated after line 25 (no SE, G85, DXE): kept what was read"
            ),
            "{:?}",
            audit.warnings
        );
        assert_eq!(audit.paid_vends, counters(1254, 154490, 83, 10210));
        assert_eq!(audit.coin_tubes.len(), 4);
        assert_eq!(audit.selections.len(), 2);
        assert_eq!(audit.selections[0].sales, counters(412, 61800, 28, 4200));
        // The cut line is read as far as it goes.
        assert_eq!(audit.selections[1].price_minor, Some(13));
        assert_eq!(audit.reads, None);

        // Cut inside a segment id: the line is not a segment, and it is the last one.
        let cut = one(&format!("{TRUNCATED}\r\nP"));
        assert!(has(&cut, "line 26: cut off, not a whole segment: ignored"));
        // A truncated audit followed by a complete one.
        let file = parse(&format!("{TRUNCATED}\r\n{FULL_CRLF}")).unwrap();
        assert_eq!(file.audits.len(), 2);
        assert_eq!(file.audits[1].checksum, Checksum::Ok);
        assert!(file.audits[0]
            .warnings
            .iter()
            .any(|w| w.contains("truncated")));
    }

    #[test]
    fn a_wrong_se_count_is_a_warning() {
        let audit = one(WRONG_SE);
        assert_eq!(audit.checksum, Checksum::Ok);
        assert_eq!(
            audit.warnings,
            ["line 12, SE: says 8 segments, ST to SE holds 11"]
        );
        assert_eq!(audit.selections.len(), 2);
    }

    #[test]
    fn no_id4_leaves_the_scale_to_the_machine_settings() {
        let audit = one(NO_ID4_FILE);
        assert_eq!(audit.decimal_places, None);
        assert_eq!(audit.currency_code, None);
        assert_eq!(audit.warnings, [NO_ID4]);
        assert_eq!(
            NO_ID4,
            "no ID4: money scale comes from the machine's settings"
        );
        assert_eq!(audit.paid_vends, counters(190, 41300, 24, 5250));
    }

    #[test]
    fn since_reset_filled_and_since_init_empty() {
        let audit = one(RESET_ONLY);
        assert_eq!(audit.checksum, Checksum::Ok);
        let expected = Some(VendCounters {
            vends_since_init: None,
            value_since_init_minor: None,
            vends_since_reset: Some(14),
            value_since_reset_minor: Some(2100),
        });
        assert_eq!(audit.selections[0].sales, expected);
        assert_eq!(
            audit.paid_vends.as_ref().unwrap().vends_since_reset,
            Some(24)
        );
        assert_eq!(
            audit.paid_vends.as_ref().unwrap().value_since_init_minor,
            None
        );
        assert_eq!(
            audit.warnings,
            [
                "since-init counters empty while since-reset ones are filled (PA2 of 2 \
              selections, VA1, CA2, DA2): sales must come from the since-reset figures"
            ]
        );
    }

    #[test]
    fn not_set_values_are_null_with_a_warning() {
        let audit = one(NOT_SET_FILE);
        let va1 = audit.paid_vends.as_ref().unwrap();
        assert_eq!(va1.vends_since_init, Some(588));
        assert_eq!(va1.value_since_reset_minor, None);
        assert_eq!(va1.vends_since_reset, None);
        assert_eq!(audit.tube_contents.as_ref().unwrap().value_minor, None);
        assert_eq!(audit.coin_tubes[0].coins, None);
        assert_eq!(audit.coin_tubes[0].coin_value_minor, Some(10));
        let selection = &audit.selections[0];
        assert_eq!(selection.capacity, None);
        assert_eq!(
            selection.sales,
            Some(VendCounters {
                vends_since_init: Some(412),
                value_since_init_minor: Some(61800),
                vends_since_reset: None,
                value_since_reset_minor: None,
            })
        );
        assert_eq!(selection.sold_out.as_ref().unwrap().count, None);
        assert!(has(
            &audit,
            "line 5, VA1: VA103 = 4294967295 means \"not set\": read as empty"
        ));
        assert!(has(
            &audit,
            "line 6, CA15: CA1501 = 65535 means \"not set\""
        ));
        assert!(has(&audit, "PA503 = 99999999 means \"not set\""));
        assert_eq!(audit.warnings.len(), 8, "{:?}", audit.warnings);
    }

    #[test]
    fn shifted_elements_and_non_digits_are_read_as_far_as_possible() {
        let audit = one(SHIFTED);
        let mars = &audit.selections[0];
        assert_eq!(mars.id, "12");
        assert_eq!(mars.price_minor, Some(150));
        assert_eq!(mars.name.as_deref(), Some("Mars"));
        assert_eq!(mars.capacity, Some(20));
        assert_eq!(
            mars.sales,
            Some(VendCounters {
                vends_since_init: None,
                value_since_init_minor: Some(1800),
                vends_since_reset: Some(3),
                value_since_reset_minor: Some(450),
            })
        );
        assert_eq!(
            audit.selections[1]
                .sales
                .as_ref()
                .unwrap()
                .vends_since_reset,
            None
        );
        assert_eq!(
            audit.paid_vends.as_ref().unwrap().value_since_reset_minor,
            None
        );
        assert_eq!(
            audit.paid_vends.as_ref().unwrap().vends_since_reset,
            Some(10)
        );
        assert!(has(
            &audit,
            "line 6, PA1: an empty element before the selection id"
        ));
        assert!(has(
            &audit,
            "line 7, PA2: PA201 \"12A\" is not a number: read as empty"
        ));
        assert!(has(&audit, "PA203 \"-2\" is not a number"));
        assert!(has(&audit, "VA103 \"1,500\" is not a number"));
    }

    #[test]
    fn without_an_envelope_the_segments_are_one_audit() {
        let audit = one(NO_ENVELOPE);
        assert_eq!(audit.line, 1);
        assert_eq!(audit.currency_numeric.as_deref(), Some("756"));
        assert_eq!(audit.selections[0].id, "A1");
        assert_eq!(audit.selections[0].sales, counters(250, 50000, 250, 50000));
        assert_eq!(audit.checksum, Checksum::Absent);
        assert!(has(
            &audit,
            "no DXS envelope: segments from line 1 read as one audit"
        ));
        assert!(has(&audit, "no SE segment"));

        // Text around an envelope-less audit is skipped, not fatal.
        let noisy = one(&format!("READ OK\n{NO_ENVELOPE}-- end --\n"));
        assert_eq!(noisy.line, 2);
        assert!(has(
            &noisy,
            "1 line of text before the first segment ignored"
        ));
        assert!(has(&noisy, "1 line of text inside the audit ignored"));
    }

    #[test]
    fn pa7_finds_its_selection_by_id() {
        let text =
            "DXS*1*VA*V1/1*1\nST*001*0001\nPA1*1*100\nPA1*2*120\nPA7*1*CA*0*100*5*500*1*100\n\
                    PA7*9*DA*0*120*2*240*0*0\nSE*6*0001\nDXE*1*1\n";
        let audit = one(text);
        assert_eq!(audit.selections[0].by_payment_device.len(), 1);
        assert_eq!(
            audit.selections[1].by_payment_device[0].device.as_deref(),
            Some("DA")
        );
        assert!(has(
            &audit,
            "selection \"9\" has no PA1: read as selection \"2\""
        ));
    }

    #[test]
    fn latin1_names_are_read() {
        let mut bytes = b"DXS*1*VA*V1/1*1\r\nST*001*0001\r\nID4*2*1978\r\nPA1*1*180*Caf".to_vec();
        bytes.extend_from_slice(b"\xE9 cr\xE8me\r\nSE*4*0001\r\nDXE*1*1\r\n");
        let file = parse_bytes(&bytes).unwrap();
        assert_eq!(
            file.audits[0].selections[0].name.as_deref(),
            Some("Café crème")
        );
        assert_eq!(file.audits[0].warnings, Vec::<String>::new());
    }

    #[test]
    fn repeated_single_segments_keep_the_first() {
        let text = FULL_CRLF.replace("VA2*600*4*0*0", "VA1*1*1*1*1");
        let audit = one(&text);
        assert_eq!(audit.paid_vends, counters(1254, 154490, 83, 10210));
        assert_eq!(audit.test_vends, None);
        assert!(has(
            &audit,
            "line 7, VA1: repeated: ignored, the first one is kept"
        ));
    }

    #[test]
    fn a_file_without_dex_is_an_error() {
        let err = parse("Hello,\r\nthis is not an audit\r\n").unwrap_err();
        assert_eq!(err.line, 1);
        assert_eq!(
            err.to_string(),
            "line 1, segment \"Hello,\": no EVA-DTS audit here: no line starts with DXS, ST or ID1"
        );
        assert_eq!(parse("").unwrap_err().line, 1);
        assert_eq!(parse("\n\n  \nPA1*1*2\n").unwrap_err().segment, "PA1");
        assert_eq!(parse("\n\n  \nPA1*1*2\n").unwrap_err().line, 4);
    }

    #[test]
    fn a_line_that_is_no_segment_inside_an_envelope_is_an_error() {
        let broken = FULL_CRLF.replace("CA15*4110", "## tube contents: 4230 ##");
        let err = parse(&broken).unwrap_err();
        assert_eq!(err.line, 14);
        assert_eq!(err.segment, "\"## tube contents: 42\"");
        assert!(err.message.starts_with("not an EVA-DTS segment"));
        let binary = FULL_CRLF.replace("CA15*4110", "CA15*42\u{1}\u{2}30");
        assert_eq!(parse(&binary).unwrap_err().line, 14);
    }

    #[test]
    fn the_json_shape() {
        let audit = one(FULL_CRLF);
        let json = serde_json::to_value(DexFile {
            audits: vec![audit.clone()],
        })
        .unwrap();
        let first = &json["audits"][0];
        assert_eq!(first["checksum"], "ok");
        assert_eq!(first["decimal_places"], 2);
        assert_eq!(
            first["selections"][0]["sales"]["value_since_init_minor"],
            61800
        );
        assert_eq!(
            first["selections"][1]["sold_out"]["date"],
            serde_json::Value::Null
        );
        assert_eq!(first["paid_vends"]["vends_since_reset"], 83);
        assert_eq!(first["warnings"], serde_json::json!([]));
        let back: DexFile = serde_json::from_value(json).unwrap();
        assert_eq!(back.audits[0], audit);
        let no_id4 = serde_json::to_value(one(NO_ID4_FILE)).unwrap();
        assert_eq!(no_id4["decimal_places"], serde_json::Value::Null);
    }

    /// A well-formed audit with these selections (count, value, count, value per PA2), each
    /// line ended by CR LF or, where `lf[i]` says so, LF; G85 over the bytes as written.
    fn build(selections: &[(u32, u32, u32, u32, u32)], lf: &[bool]) -> String {
        let mut segments = vec![
            "ST*001*0001".to_owned(),
            "ID1*GEN-1*MODEL*1*Somewhere".to_owned(),
            "ID4*2*1978".to_owned(),
        ];
        for (i, (price, a, b, c, d)) in selections.iter().enumerate() {
            segments.push(format!("PA1*{}*{price}*Product {i}", i + 1));
            segments.push(format!("PA2*{a}*{b}*{c}*{d}"));
        }
        let end = |i: usize| {
            if lf.get(i).copied().unwrap_or(false) {
                "\n"
            } else {
                "\r\n"
            }
        };
        let mut body = String::new();
        for (i, segment) in segments.iter().enumerate() {
            body.push_str(segment);
            body.push_str(end(i + 1));
        }
        let n = segments.len();
        format!(
            "DXS*1*VA*V1/1*1{}{body}G85*{:04X}{}SE*{}*0001{}DXE*1*1{}",
            end(0),
            crc16_arc(body.as_bytes()),
            end(n + 1),
            n + 2,
            end(n + 2),
            end(n + 3),
        )
    }

    fn pa_figures(audit: &Audit) -> Vec<(String, Option<u64>, Option<VendCounters>)> {
        audit
            .selections
            .iter()
            .map(|s| (s.id.clone(), s.price_minor, s.sales.clone()))
            .collect()
    }

    fn selections() -> impl Strategy<Value = Vec<(u32, u32, u32, u32, u32)>> {
        // Below 65535 so that no figure is a "not set" sentinel.
        let figure = 0u32..60_000;
        proptest::collection::vec(
            (
                figure.clone(),
                figure.clone(),
                figure.clone(),
                figure.clone(),
                figure,
            ),
            0..40,
        )
    }

    /// Lines that look like DEX: real ids, numbers, empties, junk, any line end.
    fn dex_like() -> impl Strategy<Value = String> {
        let id = prop::sample::select(vec![
            "DXS", "DXE", "ST", "SE", "G85", "ID1", "ID4", "PA1", "PA2", "PA3", "PA4", "PA5",
            "PA7", "VA1", "VA2", "VA3", "CA2", "CA3", "CA4", "CA10", "CA15", "CA17", "DA2", "DB2",
            "TA2", "EA3", "LA1", "ZZ9", "", "P", "#",
        ]);
        let element = prop_oneof![
            Just(String::new()),
            (0u64..100_000).prop_map(|n| n.to_string()),
            Just("4294967295".to_owned()),
            Just("65535".to_owned()),
            "[0-9A-Fa-f]{1,6}",
            "[ -~]{0,8}",
        ];
        let end = prop::sample::select(vec!["\r\n", "\n", "\r", ""]);
        let line = (id, proptest::collection::vec(element, 0..10), end)
            .prop_map(|(id, els, end)| format!("{id}*{}{end}", els.join("*")));
        proptest::collection::vec(line, 0..60).prop_map(|lines| lines.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, timeout: 10_000, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
            let _ = parse_bytes(&bytes);
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,2000}") {
            let _ = parse(&text);
        }

        #[test]
        fn dex_like_text_never_panics(text in dex_like()) {
            if let Ok(file) = parse(&text) {
                prop_assert!(!file.audits.is_empty());
                let json = serde_json::to_string(&file).unwrap();
                let back: DexFile = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(back, file);
            }
        }

        #[test]
        fn a_generated_audit_round_trips_its_pa_figures(selections in selections()) {
            let audit = one(&build(&selections, &[]));
            prop_assert_eq!(audit.checksum, Checksum::Ok);
            prop_assert_eq!(&audit.warnings, &Vec::<String>::new());
            let expected: Vec<_> = selections
                .iter()
                .enumerate()
                .map(|(i, &(price, a, b, c, d))| {
                    ((i + 1).to_string(), Some(u64::from(price)),
                     counters(a.into(), b.into(), c.into(), d.into()))
                })
                .collect();
            prop_assert_eq!(pa_figures(&audit), expected);
        }

        #[test]
        fn line_ends_do_not_change_the_figures(
            selections in selections(),
            lf in proptest::collection::vec(any::<bool>(), 0..90),
        ) {
            let crlf = one(&build(&selections, &[]));
            let mixed = one(&build(&selections, &lf));
            prop_assert_eq!(mixed.checksum, Checksum::Ok);
            prop_assert_eq!(pa_figures(&mixed), pa_figures(&crlf));
            prop_assert_eq!(&mixed.machine, &crlf.machine);
            prop_assert_eq!(mixed.decimal_places, crlf.decimal_places);
        }
    }
}
