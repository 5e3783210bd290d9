//! Properties of the parser: arbitrary bytes never panic, generated audits round-trip their
//! figures, and line ends change neither the figures nor the checksum.

use super::*;

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
        "DXS", "DXE", "ST", "SE", "G85", "ID1", "ID4", "PA1", "PA2", "PA3", "PA4", "PA5", "PA7",
        "VA1", "VA2", "VA3", "CA2", "CA3", "CA4", "CA10", "CA15", "CA17", "DA2", "DB2", "TA2",
        "EA3", "LA1", "ZZ9", "", "P", "#",
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

    #[test]
    fn a_crlf_audit_converted_to_other_line_ends_keeps_its_checksum(
        selections in selections(),
        to in prop::sample::select(vec!["\n", "\r"]),
    ) {
        let text = build(&selections, &[]);
        let converted = one(&text.replace("\r\n", to));
        prop_assert_eq!(converted.checksum, Checksum::Ok);
        prop_assert_eq!(converted.checksum_line_ends, Some(LineEnds::Crlf));
        prop_assert_eq!(pa_figures(&converted), pa_figures(&one(&text)));
    }
}
