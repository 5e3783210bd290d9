//! Reading one audit's segments.

use super::lines::{decode, trim, Ending, Kind, Line, Span};
use super::model::*;
use std::collections::{BTreeMap, HashMap};

/// An audit's warnings, capped.
#[derive(Default)]
struct Notes {
    list: Vec<String>,
    dropped: usize,
}

impl Notes {
    fn extend(&mut self, note: Option<String>) {
        if let Some(note) = note {
            self.push(note);
        }
    }

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

pub(super) fn read_audit(bytes: &[u8], lines: &[Line<'_>], span: &Span) -> Result<Audit, DexError> {
    let mut reader = Reader::new(lines, span);
    for (i, line) in lines
        .iter()
        .enumerate()
        .take(span.last + 1)
        .skip(span.first)
    {
        reader.line(i, line)?;
    }
    Ok(reader.finish(bytes))
}

/// One audit being read: the audit so far, its notes, and what the envelope and the checksum
/// need to know once every segment is read. One method per segment group.
struct Reader<'l> {
    lines: &'l [Line<'l>],
    span: &'l Span,
    notes: Notes,
    audit: Audit,
    id4_seen: bool,
    /// The line index of `ST`.
    st: Option<usize>,
    /// The line index of the first segment other than `DXS`/`DXE`.
    first_data: Option<usize>,
    /// Segments from `ST` so far (for `SE01`).
    counted: usize,
    /// `SE`: its line number, the count it says, the count from `ST` to it.
    se: Option<(usize, Option<u64>, usize)>,
    /// `G85`: its line index and the checksum it says.
    g85: Option<(usize, Option<String>)>,
    /// The selection the last `PA1` opened.
    current: Option<usize>,
    by_id: HashMap<String, usize>,
    unknown: BTreeMap<String, usize>,
    /// Lines of text inside an audit with no envelope.
    skipped: usize,
    /// Line ends seen: CR LF, LF, CR.
    endings: [usize; 3],
}

impl<'l> Reader<'l> {
    fn new(lines: &'l [Line<'l>], span: &'l Span) -> Self {
        let mut notes = Notes::default();
        let line = lines[span.first].no;
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
                "no DXS envelope: segments from line {line} read as one audit"
            ));
        }
        Reader {
            lines,
            span,
            notes,
            audit: Audit {
                line,
                ..Audit::default()
            },
            id4_seen: false,
            st: None,
            first_data: None,
            counted: 0,
            se: None,
            g85: None,
            current: None,
            by_id: HashMap::new(),
            unknown: BTreeMap::new(),
            skipped: 0,
            endings: [0; 3],
        }
    }

    /// Line `i` of the file: a segment is read, junk skipped or refused.
    fn line(&mut self, i: usize, line: &'l Line<'l>) -> Result<(), DexError> {
        let span = self.span;
        let id = match &line.kind {
            Kind::Blank => return Ok(()),
            Kind::Junk if !span.enveloped => {
                self.skipped += 1;
                return Ok(());
            }
            Kind::Junk if !span.closed && i == span.last => {
                self.notes.push(format!(
                    "line {}: cut off, not a whole segment: ignored",
                    line.no
                ));
                return Ok(());
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
            Ending::CrLf => self.endings[0] += 1,
            Ending::Lf => self.endings[1] += 1,
            Ending::Cr => self.endings[2] += 1,
            Ending::None => {}
        }
        if self.st.is_some() && self.se.is_none() {
            self.counted += 1;
        }
        if self.first_data.is_none() && !matches!(id, "DXS" | "DXE") {
            self.first_data = Some(i);
        }
        let seg = Seg::new(line, id);
        match id {
            "DXS" | "DXE" => {}
            "ST" | "SE" | "G85" => self.envelope(i, &seg),
            "ID1" | "ID4" => self.identity(&seg),
            "PA1" => self.selection(seg),
            "PA2" | "PA3" | "PA4" | "PA5" | "PA7" => self.selection_counters(&seg),
            "VA1" | "VA2" | "VA3" | "CA2" | "CA3" | "CA4" | "CA10" | "CA15" | "CA17" | "DA2"
            | "DB2" | "TA2" => self.money(&seg),
            "EA3" => self.reads(&seg),
            other if is_standard(other) => {}
            other => *self.unknown.entry(other.to_owned()).or_default() += 1,
        }
        Ok(())
    }

    /// `ST`, `SE`, `G85`: where the checksum and the segment count start and end.
    fn envelope(&mut self, i: usize, seg: &Seg<'_>) {
        let notes = &mut self.notes;
        match seg.id {
            "ST" if self.st.is_some() => seg.warn(notes, "a second ST: ignored"),
            "ST" => {
                self.st = Some(i);
                self.counted = 1;
            }
            "SE" if self.se.is_some() => {
                seg.warn(notes, "repeated: ignored, the first one is kept")
            }
            "SE" => self.se = Some((seg.line, seg.num(1, notes), self.counted)),
            _ if self.g85.is_some() => seg.warn(notes, "repeated: ignored, the first one is kept"),
            _ => self.g85 = Some((i, seg.text(1))),
        }
    }

    /// `ID1` (the machine) and `ID4` (the money's scale and currency).
    fn identity(&mut self, seg: &Seg<'_>) {
        let (audit, notes) = (&mut self.audit, &mut self.notes);
        if seg.id == "ID1" {
            once(&mut audit.machine, seg, notes, |_| Machine {
                serial: seg.text(1),
                model: seg.text(2),
                build: seg.text(3),
                location: seg.text(4),
                user_defined: seg.text(5),
                asset_number: seg.text(6),
            });
            return;
        }
        if self.id4_seen {
            seg.warn(notes, "repeated: ignored, the first one is kept");
            return;
        }
        self.id4_seen = true;
        audit.decimal_places = match seg.num(1, notes) {
            Some(places) if places <= 9 => Some(places as u32),
            Some(places) => {
                seg.warn(notes, format!("ID401 = {places} decimal places is not plausible: money scale comes from the machine's settings"));
                None
            }
            None => {
                seg.warn(
                    notes,
                    "no decimal places in ID401: money scale comes from the machine's settings",
                );
                None
            }
        };
        audit.currency_code = seg.text(2);
        audit.currency_numeric = audit.currency_code.as_deref().and_then(iso_numeric);
    }

    /// `PA1`: a selection opens (the `PA2`–`PA7` after it are its own).
    fn selection(&mut self, mut seg: Seg<'_>) {
        let notes = &mut self.notes;
        if seg.els.len() > 2 && seg.raw(1).is_none() && seg.raw(2).is_some() {
            seg.els.remove(1);
            seg.warn(
                notes,
                "an empty element before the selection id: elements read shifted left by one",
            );
        }
        let id = seg.text(1).unwrap_or_default();
        if id.is_empty() {
            seg.warn(notes, "no selection id in PA101");
        }
        let selection = Selection {
            price_minor: seg.num(2, notes),
            name: seg.text(3),
            capacity: seg.num(4, notes),
            level: seg.num(8, notes),
            id: id.clone(),
            ..Selection::default()
        };
        self.audit.selections.push(selection);
        let index = self.audit.selections.len() - 1;
        self.by_id.insert(id, index);
        self.current = Some(index);
    }

    /// `PA2`–`PA5` of the open selection; `PA7` of the selection it names (else the open one).
    fn selection_counters(&mut self, seg: &Seg<'_>) {
        let notes = &mut self.notes;
        if seg.id == "PA7" {
            let named = seg.text(1);
            let target = named.as_ref().and_then(|n| self.by_id.get(n).copied());
            let index = match (target, self.current) {
                (Some(index), _) => index,
                (None, Some(index)) => {
                    if let Some(named) = &named {
                        seg.warn(
                            notes,
                            format!(
                                "selection {named:?} has no PA1: read as selection {:?}",
                                self.audit.selections[index].id
                            ),
                        );
                    }
                    index
                }
                (None, None) => {
                    seg.warn(notes, "no PA1 before it: ignored");
                    return;
                }
            };
            let sales = DeviceSales {
                device: seg.text(2),
                price_list: seg.num(3, notes),
                price_minor: seg.num(4, notes),
                vends_since_init: seg.num(5, notes),
                value_since_init_minor: seg.num(6, notes),
                vends_since_reset: seg.num(7, notes),
                value_since_reset_minor: seg.num(8, notes),
            };
            self.audit.selections[index].by_payment_device.push(sales);
            return;
        }
        let Some(index) = self.current else {
            seg.warn(notes, "no PA1 before it: ignored");
            return;
        };
        let selection = &mut self.audit.selections[index];
        match seg.id {
            "PA2" => once(&mut selection.sales, seg, notes, |n| seg.count_first(n)),
            "PA3" => once(&mut selection.test_vends, seg, notes, |n| {
                seg.count_first(n)
            }),
            "PA4" => once(&mut selection.free_vends, seg, notes, |n| {
                seg.count_first(n)
            }),
            _ => once(&mut selection.sold_out, seg, notes, |n| SoldOut {
                date: seg.text(1),
                time: seg.text(2),
                count: seg.num(3, n),
            }),
        }
    }

    /// The money: vends by kind (`VA`), cash (`CA`), cashless (`DA`, `DB`) and tokens (`TA`).
    fn money(&mut self, seg: &Seg<'_>) {
        let (audit, notes) = (&mut self.audit, &mut self.notes);
        let value_first = |n: &mut Notes| seg.value_first(n);
        match seg.id {
            "VA1" => once(&mut audit.paid_vends, seg, notes, value_first),
            "VA2" => once(&mut audit.test_vends, seg, notes, value_first),
            "VA3" => once(&mut audit.free_vends, seg, notes, value_first),
            "CA2" => once(&mut audit.cash_sales, seg, notes, value_first),
            "DA2" => once(&mut audit.cashless1, seg, notes, value_first),
            "DB2" => once(&mut audit.cashless2, seg, notes, value_first),
            "TA2" => once(&mut audit.tokens, seg, notes, value_first),
            "CA3" => once(&mut audit.cash_in, seg, notes, |n| CashIn {
                since_reset_minor: seg.num(1, n),
                to_box_since_reset_minor: seg.num(2, n),
                to_tubes_since_reset_minor: seg.num(3, n),
                bills_since_reset_minor: seg.num(4, n),
                since_init_minor: seg.num(5, n),
                to_box_since_init_minor: seg.num(6, n),
                to_tubes_since_init_minor: seg.num(7, n),
                bills_since_init_minor: seg.num(8, n),
            }),
            "CA4" => once(&mut audit.cash_out, seg, notes, |n| CashOut {
                change_since_reset_minor: seg.num(1, n),
                manual_since_reset_minor: seg.num(2, n),
                change_since_init_minor: seg.num(3, n),
                manual_since_init_minor: seg.num(4, n),
            }),
            "CA10" => once(&mut audit.manual_fill, seg, notes, |n| ManualFill {
                value_since_reset_minor: seg.num(1, n),
                value_since_init_minor: seg.num(2, n),
            }),
            "CA15" => once(&mut audit.tube_contents, seg, notes, |n| TubeContents {
                value_minor: seg.num(1, n),
            }),
            _ => {
                let tube = CoinTube {
                    coin_type: seg.num(1, notes),
                    coin_value_minor: seg.num(2, notes),
                    coins: seg.num(3, notes),
                    coins_manually_filled: seg.num(4, notes),
                    coins_manually_dispensed: seg.num(5, notes),
                };
                audit.coin_tubes.push(tube);
            }
        }
    }

    /// `EA3`: the reads of the machine's audit.
    fn reads(&mut self, seg: &Seg<'_>) {
        once(&mut self.audit.reads, seg, &mut self.notes, |n| Reads {
            reads_with_reset: seg.num(1, n),
            date: seg.text(2),
            time: seg.text(3),
            reader: seg.text(4),
            last_date: seg.text(5),
            last_time: seg.text(6),
            last_reader: seg.text(7),
            reads_since_init: seg.num(8, n),
        });
    }

    /// Every segment read: the checksum, the envelope's and the figures' notes.
    fn finish(mut self, bytes: &[u8]) -> Audit {
        self.checksum(bytes);
        self.envelope_notes();
        self.figure_notes();
        let mut audit = self.audit;
        audit.warnings = self.notes.finish();
        audit
    }

    /// The checksum: bytes from ST (or the first segment without one) up to G85's line.
    fn checksum(&mut self, bytes: &[u8]) {
        let Some((g85_index, written)) = &self.g85 else {
            return;
        };
        let lines = self.lines;
        let from = self.st.or(self.first_data).unwrap_or(*g85_index);
        if self.st.is_none() {
            self.notes
                .push("no ST segment: checksum counted from the first segment".into());
        }
        let range = if from < *g85_index {
            &lines[from..*g85_index]
        } else {
            &lines[0..0]
        };
        let g85 = super::checksum::check(bytes, range, lines[*g85_index].no, written.as_deref());
        self.audit.checksum = g85.checksum;
        self.audit.checksum_line_ends = g85.line_ends;
        self.notes.extend(g85.warning);
    }

    /// Truncation, the segment count, text around the audit, line ends.
    fn envelope_notes(&mut self) {
        let (span, notes) = (self.span, &mut self.notes);
        self.audit.truncated = span.enveloped && !span.closed;
        if self.audit.truncated {
            let mut missing: Vec<&str> = Vec::new();
            if self.se.is_none() {
                missing.push("SE");
            }
            if self.g85.is_none() {
                missing.push("G85");
            }
            missing.push("DXE");
            notes.push(format!(
                "truncated after line {} (no {}): kept what was read",
                self.lines[span.last].no,
                missing.join(", ")
            ));
        } else if self.se.is_none() {
            notes.push("no SE segment".into());
        }
        if let Some((se_line, written, counted)) = self.se {
            match (written, self.st) {
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
        if self.skipped > 0 {
            notes.push(format!(
                "{} of text inside the audit ignored",
                plural(self.skipped, "line")
            ));
        }
        match self.endings {
            [_, 0, 0] => {}
            [0, _, 0] => notes.push("lines end in LF, not CR LF".into()),
            [0, 0, _] => notes.push("lines end in CR, not CR LF".into()),
            _ => notes.push("mixed line ends (CR LF, LF, CR)".into()),
        }
    }

    /// No money scale, since-reset-only counters, unknown segments.
    fn figure_notes(&mut self) {
        let notes = &mut self.notes;
        if !self.id4_seen {
            notes.push(NO_ID4.into());
        }
        let reset_only = reset_only_segments(&self.audit);
        if !reset_only.is_empty() {
            notes.push(format!(
                "since-init counters empty while since-reset ones are filled ({}): \
                 sales must come from the since-reset figures",
                reset_only.join(", ")
            ));
        }
        if !self.unknown.is_empty() {
            let total: usize = self.unknown.values().sum();
            let ids: Vec<&str> = self.unknown.keys().take(10).map(String::as_str).collect();
            notes.push(format!(
                "{} ignored ({})",
                plural(total, "unknown segment"),
                ids.join(", ")
            ));
        }
    }
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
