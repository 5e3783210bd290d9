//! What reads book against their baselines, and when they are held.

use super::*;
use crate::dex::parse;
use proptest::prelude::*;
use std::collections::BTreeSet;

const FULL_CRLF: &str = include_str!("../../tests/dex/full_crlf.dex");
const TRUNCATED: &str = include_str!("../../tests/dex/truncated.dex");

#[test]
fn the_usual_is_taken_over_the_days_before_the_read_from_the_first_that_sold() {
    let d = |n: u32| chrono::NaiveDate::from_ymd_opt(2026, 3, n).unwrap();
    // Sold on the 10th and 12th (a read every other day); read on the 14th.
    let u = Usual::over([(d(12), 60), (d(10), 40), (d(14), 500), (d(9), 0)], d(14));
    assert_eq!(u.map(|u| u.vends_per_day), Some(25.0));
    // The read's own day and later days are not history; nothing sold before: no judgment.
    assert_eq!(Usual::over([(d(14), 500), (d(20), 9)], d(14)), None);
    assert_eq!(Usual::over([], d(14)), None);
    // Only the 28 days before the read count.
    let u = Usual::over([(d(1), 1000), (d(30), 28)], d(31)).unwrap();
    assert_eq!(u.vends_per_day, 28.0);
    let old = chrono::NaiveDate::from_ymd_opt(2026, 2, 1).unwrap();
    assert_eq!(Usual::over([(old, 1000)], d(31)), None);
    // Sold yesterday only: a day.
    assert_eq!(Usual::over([(d(30), 7)], d(31)).unwrap().vends_per_day, 7.0);
}

fn read(sel: &[(&str, u64, u64)], reads: Option<u64>) -> ReadCounters {
    ReadCounters {
        selections: sel
            .iter()
            .map(|(id, v, m)| {
                (
                    id.to_string(),
                    SelectionCounters {
                        vends: *v,
                        value_minor: *m,
                        ..SelectionCounters::default()
                    },
                )
            })
            .collect(),
        reads_since_init: reads,
        ..ReadCounters::default()
    }
}

fn at(hours: f64, usual: Option<Usual>, arrived: &BTreeSet<u64>) -> judge::Reading<'_> {
    Reading {
        baseline: None,
        hours,
        usual,
        arrived,
    }
}

fn diff24(a: &ReadCounters, b: &ReadCounters, usual: Option<Usual>) -> ReadDiff {
    diff(a, b, at(24.0, usual, &BTreeSet::new()), false)
}

fn flags(d: &ReadDiff) -> Vec<Flag> {
    d.findings.iter().map(|f| f.flag).collect()
}

fn one(text: &str) -> crate::dex::Audit {
    parse(text).unwrap().audits.remove(0)
}

/// Judges `audit` against `baseline` a day later.
fn judged(baseline: Option<&ReadCounters>, audit: &crate::dex::Audit) -> Judgement {
    let none = BTreeSet::new();
    judge(
        audit,
        &counters(audit),
        Reading {
            baseline,
            hours: 24.0,
            usual: None,
            arrived: &none,
        },
    )
}

#[test]
fn a_clean_difference_counts_each_selection() {
    let a = read(&[("10", 100, 15000), ("11", 5, 600)], Some(40));
    let b = read(
        &[("10", 112, 16800), ("11", 5, 600), ("12", 3, 360)],
        Some(41),
    );
    let d = diff24(
        &a,
        &b,
        Some(Usual {
            vends_per_day: 20.0,
        }),
    );
    assert!(d.is_clean(), "{:?}", d.findings);
    assert_eq!(
        (d.deltas["10"].vends, d.deltas["10"].value_minor),
        (12, 1800)
    );
    // No payment counters anywhere: paid in cash.
    assert_eq!(d.deltas["10"].cash_minor, 1800);
    assert!(!d.deltas.contains_key("11"));
    // A selection the baseline lacks is its own baseline: noted, nothing counted, not held.
    assert!(!d.deltas.contains_key("12"));
    assert_eq!(flags(&d), vec![Flag::NewSelection]);
}

#[test]
fn wraps_selection_resets_and_disagreements_are_held() {
    let a = read(&[("10", 65_530, 4_294_967_000)], None);
    let b = read(&[("10", 4, 200)], None);
    let d = diff24(&a, &b, None);
    assert_eq!(flags(&d), vec![Flag::Wrap]);
    assert!(!d.is_clean());
    assert_eq!(d.deltas["10"].vends, 10);
    assert_eq!(d.deltas["10"].value_minor, 496);

    let reset = diff24(
        &read(&[("10", 500, 60000), ("11", 50, 5000)], None),
        &read(&[("10", 7, 840), ("11", 51, 5100)], None),
        None,
    );
    assert_eq!(flags(&reset), vec![Flag::CounterReset]);
    assert_eq!(
        (reset.deltas["10"].vends, reset.deltas["10"].value_minor),
        (7, 840)
    );

    let neg = diff24(
        &read(&[("10", 500, 60000)], None),
        &read(&[("10", 502, 59000)], None),
        None,
    );
    assert_eq!(flags(&neg), vec![Flag::NegativeDelta]);
    let missing = diff24(
        &read(&[("10", 500, 60000), ("11", 1, 1)], None),
        &read(&[("10", 502, 60300)], None),
        None,
    );
    assert_eq!(flags(&missing), vec![Flag::NegativeDelta]);
    assert!(!missing.is_clean());
}

#[test]
fn gaps_are_shown_not_held_and_jumps_are_held() {
    let a = read(&[("10", 100, 100)], Some(10));
    let none = BTreeSet::new();
    // Reads 11 and 12 never arrived: the since-init difference covers them.
    let d = diff(
        &a,
        &read(&[("10", 110, 110)], Some(13)),
        at(24.0, None, &none),
        false,
    );
    assert_eq!(flags(&d), vec![Flag::GapInReads]);
    assert!(d.is_clean());
    assert!(d.findings[0].reason.starts_with("2 reads were taken"));
    // They arrived (held, late or rejected): no gap.
    let arrived: BTreeSet<u64> = [11, 12].into();
    let d = diff(
        &a,
        &read(&[("10", 110, 110)], Some(13)),
        at(24.0, None, &arrived),
        false,
    );
    assert!(d.findings.is_empty(), "{:?}", d.findings);
    let far = diff(
        &a,
        &read(&[("10", 110, 110)], Some(11)),
        at(200.0, None, &none),
        false,
    );
    assert_eq!(flags(&far), vec![Flag::GapInReads]);
    assert!(far.is_clean());

    let jump = diff24(
        &a,
        &read(&[("10", 900, 900)], Some(11)),
        Some(Usual {
            vends_per_day: 30.0,
        }),
    );
    assert_eq!(flags(&jump), vec![Flag::ImplausibleJump]);
    let busy = diff24(
        &a,
        &read(&[("10", 220, 220)], Some(11)),
        Some(Usual {
            vends_per_day: 100.0,
        }),
    );
    assert!(busy.is_clean());
    // Without a usual (a new machine), only what no machine can vend is a jump.
    let new = |vends: u64| {
        diff24(
            &a,
            &read(&[("10", 100 + vends, 100 + vends)], Some(11)),
            None,
        )
    };
    assert!(new(2000).is_clean());
    assert_eq!(flags(&new(3000)), vec![Flag::ImplausibleJump]);
    assert!(new(3000).findings[0]
        .reason
        .contains("more than a machine can vend"));
}

#[test]
fn a_bad_checksum_or_a_cut_off_read_is_held_whatever_its_figures() {
    let good = one(FULL_CRLF);
    let base = counters(&good);
    // 50 vends added to selection 10 after G85 was computed: held, though they rose.
    let tampered = one(&FULL_CRLF.replace("PA2*412*61800", "PA2*462*69300"));
    let mut lower = base.clone();
    lower.selections.get_mut("10").unwrap().vends -= 12;
    lower.selections.get_mut("10").unwrap().value_minor -= 1800;
    let j = judged(Some(&lower), &tampered);
    assert_eq!(j.verdict(), Verdict::Hold);
    assert_eq!(j.diff.held_for(), vec![Flag::BadChecksum]);
    assert_eq!(
        j.diff.deltas["10"].vends, 62,
        "accepting would book what it says"
    );
    assert!(j.diff.findings[0].reason.contains("does not match"));
    // The same read intact counts.
    assert_eq!(judged(Some(&lower), &good).verdict(), Verdict::Count);
    // A first read that is doubtful is held too (it would be the baseline once accepted).
    let first = judged(None, &tampered);
    assert!(first.new_baseline);
    assert_eq!(first.verdict(), Verdict::Hold);
    assert_eq!(judged(None, &good).verdict(), Verdict::Baseline);

    // Cut off inside selection 11 (its PA1): held; 11, the last selection read, may be cut,
    // so it is not counted, and the selections after the cut are not missing (the cut explains
    // them).
    let cut = one(TRUNCATED);
    assert!(cut.truncated);
    let c = counters(&cut);
    assert_eq!(c.selections.keys().collect::<Vec<_>>(), ["10"]);
    let cut_in_10 = one(&TRUNCATED.replace("\r\nPA1*11*13", ""));
    assert!(counters(&cut_in_10).selections.is_empty());
    let j = judged(Some(&base), &cut);
    assert_eq!(j.verdict(), Verdict::Hold);
    assert_eq!(j.diff.held_for(), vec![Flag::Truncated]);
    assert!(j.diff.deltas.is_empty());
    // What it leaves as a baseline once accepted: the baseline's counters where it has none.
    assert_eq!(carried(Some(&base), &c).selections, base.selections);
}

#[test]
fn a_meter_reset_or_another_board_starts_a_new_baseline() {
    let a = read(&[("10", 500, 60000), ("11", 50, 5000)], Some(40));
    // The read counter went back: a reset of the whole machine, never sales.
    let b = read(&[("10", 7, 840), ("11", 3, 300)], Some(1));
    let audit = crate::dex::Audit::default();
    let none = BTreeSet::new();
    let r = Reading {
        baseline: Some(&a),
        hours: 24.0,
        usual: None,
        arrived: &none,
    };
    let j = judge(&audit, &b, r);
    assert_eq!(j.verdict(), Verdict::Baseline);
    assert!(j.diff.deltas.is_empty());
    assert_eq!(flags(&j.diff), vec![Flag::MeterReset]);
    // Without EA3 or VA1: every selection went back.
    let j = judge(&audit, &read(&[("10", 7, 840), ("11", 3, 300)], None), r);
    assert_eq!(j.verdict(), Verdict::Baseline);
    // One selection back, the other up: that selection alone, held.
    let j = judge(&audit, &read(&[("10", 7, 840), ("11", 60, 6000)], None), r);
    assert_eq!(j.verdict(), Verdict::Hold);
    assert_eq!(j.diff.held_for(), vec![Flag::CounterReset]);
    // VA1 went back.
    let mut p = a.clone();
    p.paid = Some(Tally {
        vends: 550,
        value_minor: 65000,
    });
    let mut n = read(&[("10", 501, 60100), ("11", 51, 5100)], Some(41));
    n.paid = Some(Tally {
        vends: 2,
        value_minor: 200,
    });
    let rp = Reading {
        baseline: Some(&p),
        ..r
    };
    assert_eq!(judge(&audit, &n, rp).verdict(), Verdict::Baseline);
    // Another board.
    let mut p = p.clone();
    p.serial = Some("SN-1".into());
    n.serial = Some("SN-2".into());
    n.paid = Some(Tally {
        vends: 552,
        value_minor: 65200,
    });
    let rp = Reading {
        baseline: Some(&p),
        ..r
    };
    let j = judge(&audit, &n, rp);
    assert_eq!(j.verdict(), Verdict::Baseline);
    assert_eq!(flags(&j.diff), vec![Flag::BoardChange]);
    n.serial = Some("sn-1 ".into());
    assert_eq!(judge(&audit, &n, rp).verdict(), Verdict::Count);
}

/// full_crlf.dex with the counters it had 27 paid vends earlier: selection 10 sold 8 in cash
/// and 4 cashless (its PA7), 11 sold 5 in cash, 12 sold 10 cashless, 13 nothing; one test and
/// one free vend on 10.
fn earlier() -> String {
    FULL_CRLF
        .replace("VA1*154490*1254*", "VA1*151140*1227*")
        .replace("CA2*65440*671*", "CA2*63590*658*")
        .replace("DA2*82100*554*", "DA2*80600*540*")
        .replace("PA2*412*61800*", "PA2*400*60000*")
        .replace("PA3*2*300*", "PA3*1*150*")
        .replace("PA4*1*150*", "PA4*0*0*")
        .replace("PA7*10*CA*0*150*180*27000*", "PA7*10*CA*0*150*172*25800*")
        .replace("PA7*10*DA*0*150*232*34800*", "PA7*10*DA*0*150*228*34200*")
        .replace("PA2*305*39650*", "PA2*300*39000*")
        .replace("PA2*380*34200*", "PA2*370*33300*")
}

#[test]
fn cash_and_cashless_come_from_the_audits_own_counters() {
    let base = counters(&one(&earlier()));
    let now = one(FULL_CRLF);
    let j = judged(Some(&base), &now);
    assert_eq!(j.verdict(), Verdict::Count, "{:?}", j.diff.findings);
    let d = &j.diff.deltas;
    // Selection 10 by its own PA7: 8 cash (12.00), 4 cashless (6.00); a test and a free vend.
    assert_eq!(
        d["10"],
        Delta {
            vends: 12,
            value_minor: 1800,
            cash_vends: 8,
            cash_minor: 1200,
            cashless_vends: 4,
            cashless_minor: 600,
            free_vends: 1,
            test_vends: 1,
        }
    );
    // 11 and 12 have no PA7: they share the rest of CA2's cash (18.50 − 12.00 = 6.50) by value.
    assert_eq!(
        (
            d["11"].cash_minor,
            d["11"].cashless_minor,
            d["11"].cash_vends
        ),
        (273, 377, 2)
    );
    assert_eq!(
        (
            d["12"].cash_minor,
            d["12"].cashless_minor,
            d["12"].cash_vends
        ),
        (377, 523, 4)
    );
    assert!(!d.contains_key("13"));
    // The machine's own counters, to the cent: CA2 went up 18.50, DA2 15.00.
    let t = j.diff.total();
    assert_eq!((t.vends, t.value_minor), (27, 3350));
    assert_eq!((t.cash_minor, t.cashless_minor), (1850, 1500));
    assert_eq!((t.free_vends, t.test_vends), (1, 1));
    assert_eq!(t.cash_vends + t.cashless_vends, 27);

    // Without CA2, what DA2/DB2 say went cashless is taken off instead: the same split.
    let strip = |t: &str| t.replace("CA2*", "XX2*");
    let j = judged(
        Some(&counters(&one(&strip(&earlier())))),
        &one(&strip(FULL_CRLF)),
    );
    assert_eq!(j.diff.total().cash_minor, 1850);
    // Without any payment counter: cash, as nothing says otherwise.
    let bare = |t: &str| {
        strip(t)
            .replace("DA2*", "XX3*")
            .replace("DB2*", "XX4*")
            .replace("TA2*", "XX5*")
            .replace("PA7*", "XX7*")
    };
    let j = judged(
        Some(&counters(&one(&bare(&earlier())))),
        &one(&bare(FULL_CRLF)),
    );
    assert_eq!(j.diff.total().cash_minor, 3350);
}

proptest! {
    /// Counters that only go up give exactly their differences, clean, in any amount, and the
    /// split always adds up.
    #[test]
    fn rising_counters_difference_exactly(start in 0u64..1_000_000, sold in 0u64..500, price in 1u64..500, cash in 0u64..500) {
        let cash = cash.min(sold);
        let mut a = read(&[("1", start, start * price)], None);
        let mut b = read(&[("1", start + sold, (start + sold) * price)], None);
        a.cash = Some(Tally { vends: 0, value_minor: 0 });
        b.cash = Some(Tally { vends: cash, value_minor: cash * price });
        let d = diff24(&a, &b, None);
        prop_assert!(d.is_clean());
        prop_assert_eq!(d.vends(), sold);
        let t = d.total();
        prop_assert_eq!(t.cash_minor, cash * price);
        prop_assert_eq!(t.cash_minor + t.cashless_minor, t.value_minor);
        prop_assert_eq!(t.cash_vends, cash);
    }

    /// Any pair of reads gives an answer and never panics.
    #[test]
    fn any_counters_give_an_answer(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), e in any::<u64>(), h in 0.0f64..1e6) {
        let none = BTreeSet::new();
        let _ = diff(&read(&[("1", a, b)], Some(a)), &read(&[("1", c, e)], Some(c)), at(h, Some(Usual { vends_per_day: 1.0 }), &none), false);
    }
}
