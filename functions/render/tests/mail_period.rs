//! Periods and figures written as a reader of a scheduled report's mail writes them.

use chrono::NaiveDate;
use vendfleet_domain::Language;
use vendfleet_render::mail::period::{against, amount, change, name};

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn periods_are_named_as_readers_say_them() {
    use Language::*;
    #[rustfmt::skip]
    let cases = [
        ("2026-10-01", "2026-10-31", En, "October 2026"),
        ("2026-10-01", "2026-10-31", Fr, "octobre 2026"),
        ("2026-09-01", "2026-09-30", It, "settembre 2026"),
        ("2026-01-01", "2026-12-31", En, "2026"),
        ("2026-01-01", "2026-03-31", Fr, "janvier – mars 2026"),
        ("2026-11-16", "2026-11-22", En, "week 47 of 2026 (16–22 November 2026)"),
        ("2026-11-16", "2026-11-22", It, "settimana 47 del 2026 (16–22 novembre 2026)"),
        ("2026-11-27", "2026-11-27", En, "Friday 27 November 2026"),
        ("2026-11-27", "2026-11-27", Fr, "vendredi 27 novembre 2026"),
        ("2026-11-01", "2026-11-27", En, "1–27 November 2026"),
        ("2026-10-28", "2026-11-03", Fr, "28 octobre – 3 novembre 2026"),
        ("2025-12-28", "2026-01-03", En, "28 December 2025 – 3 January 2026"),
    ];
    for (from, to, lang, want) in cases {
        assert_eq!(name(d(from), d(to), lang), want, "{from}–{to} {lang:?}");
    }
    assert_eq!(
        against("October 2026", "September 2026", En),
        "October 2026 against September 2026"
    );
}

#[test]
fn amounts_read_as_each_language_writes_them() {
    assert_eq!(amount(Language::En, 12_345_678, true), "123,456.78 EUR");
    assert_eq!(amount(Language::Fr, -123_450, true), "-1\u{202f}234,50 EUR");
    assert_eq!(amount(Language::It, 1_234_567, false), "1.234.567");
    assert_eq!(change(110, 100, Language::En), "+10.0 %");
    assert_eq!(change(95, 100, Language::Fr), "-5,0 %");
    assert_eq!(change(5, 0, Language::En), "—");
}
