//! The parser's tests: one sample file per real-world shape; the properties over generated and
//! arbitrary input are in `tests/properties.rs`.

use super::*;
use proptest::prelude::*;

mod properties;

const FULL_CRLF: &str = include_str!("../../tests/dex/full_crlf.dex");
const FULL_LF: &str = include_str!("../../tests/dex/full_lf.dex");
const LF_MODEM: &str = include_str!("../../tests/dex/lf_modem.dex");
const TWO_AUDITS: &str = include_str!("../../tests/dex/two_audits.dex");
const TRUNCATED: &str = include_str!("../../tests/dex/truncated.dex");
const WRONG_SE: &str = include_str!("../../tests/dex/wrong_se.dex");
const NO_ID4_FILE: &str = include_str!("../../tests/dex/no_id4.dex");
const RESET_ONLY: &str = include_str!("../../tests/dex/reset_only.dex");
const NOT_SET_FILE: &str = include_str!("../../tests/dex/not_set.dex");
const SHIFTED: &str = include_str!("../../tests/dex/shifted.dex");
const NO_ENVELOPE: &str = include_str!("../../tests/dex/no_envelope.dex");

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
    assert_eq!(audit.checksum_line_ends, Some(LineEnds::Lf));
    assert!(has(
        &audit,
        "line 16, G85: matches the audit as written, with LF line ends"
    ));
    assert_eq!(audit.warnings.len(), 5, "{:?}", audit.warnings);
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
    assert!(has(&cr, "lines end in CR, not CR LF"));
}

#[test]
fn g85_is_checked_over_the_crlf_form_of_lf_and_cr_files() {
    // The same audit as transmitted (CR LF), stored with LF line ends (full_lf.dex, as a
    // text tool converts it) and with CR line ends: G85 was computed over CR LF, and each
    // of the three is ok, naming the form it matched.
    let crlf = one(FULL_CRLF);
    assert_eq!(crlf.checksum, Checksum::Ok);
    assert_eq!(crlf.checksum_line_ends, Some(LineEnds::Crlf));
    assert!(crlf.warnings.is_empty(), "{:?}", crlf.warnings);
    assert!(!FULL_LF.contains('\r'));
    for (text, ends) in [
        (FULL_LF.to_owned(), "LF"),
        (FULL_CRLF.replace("\r\n", "\r"), "CR"),
    ] {
        let audit = one(&text);
        assert_eq!(audit.checksum, Checksum::Ok, "{ends}: {:?}", audit.warnings);
        assert_eq!(audit.checksum_line_ends, Some(LineEnds::Crlf));
        let note = format!(
            "line 43, G85: matches the audit with CR LF line ends (as transmitted); its {ends} line ends were changed after the checksum was computed"
        );
        assert!(has(&audit, &note), "{:?}", audit.warnings);
        assert_eq!(audit.selections, crlf.selections);
    }
    // Mixed line ends: still the CR LF form.
    let mixed = one(&FULL_CRLF.replacen("\r\n", "\n", 7));
    assert_eq!(mixed.checksum, Checksum::Ok);
    assert!(has(&mixed, "its mixed line ends were changed"));
    // A changed figure matches neither form: bad, with both computations named.
    let tampered = one(&FULL_LF.replace("PA2*412*61800", "PA2*462*69300"));
    assert_eq!(tampered.checksum, Checksum::Bad);
    assert_eq!(tampered.checksum_line_ends, None);
    assert!(
        has(
            &tampered,
            "line 43, G85: checksum 1D58 does not match the audit (04A3 as written with LF line ends, 4163 with CR LF)"
        ),
        "{:?}",
        tampered.warnings
    );
    // The JSON names the form.
    let json = serde_json::to_value(one(FULL_LF)).unwrap();
    assert_eq!(json["checksum"], "ok");
    assert_eq!(json["checksum_line_ends"], "crlf");
    assert_eq!(json["truncated"], false);
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
    assert!(audit.truncated);
    assert!(!one(FULL_CRLF).truncated);
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
    let text = "DXS*1*VA*V1/1*1\nST*001*0001\nPA1*1*100\nPA1*2*120\nPA7*1*CA*0*100*5*500*1*100\n\
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
