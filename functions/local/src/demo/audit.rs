//! A small EVA-DTS (DEX/UCS) audit writer for the simulated machines: one `DXS`…`DXE` envelope,
//! CR LF line ends, `ID4` with two decimal places in euros, per-selection `PA1`–`PA5`, the cash
//! (`CA2`–`CA17`) and cashless (`DA2`) counters, `EA3` reads, a correct `SE` count and a `G85`
//! CRC-16/ARC, so `vendfleet_domain::dex::parse` reads it with checksum `ok` and no warnings
//! (docs/dex.md) — as long as no figure happens to equal a "not set" value (65535 …).

use chrono::{DateTime, FixedOffset};
use std::fmt::Write as _;

/// Count and value since initialisation and since the last reset.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuditCounters {
    pub count_init: u64,
    pub value_init: u64,
    pub count_reset: u64,
    pub value_reset: u64,
}

/// One selection of the audit.
#[derive(Debug, Clone)]
pub struct SelectionAudit {
    pub id: String,
    pub name: String,
    pub price_minor: u64,
    pub capacity: u64,
    pub level: u64,
    pub paid: AuditCounters,
    pub test: AuditCounters,
    pub free: AuditCounters,
    /// The last sold-out attempt and how many since the last reset.
    pub sold_out: Option<(DateTime<FixedOffset>, u64)>,
}

/// One coin tube.
#[derive(Debug, Clone, Copy)]
pub struct CoinTube {
    pub value_minor: u64,
    pub coins: u64,
    pub filled: u64,
    pub dispensed: u64,
}

/// The cash and cashless figures.
#[derive(Debug, Clone, Default)]
pub struct CashFigures {
    pub cash_sales: AuditCounters,
    pub cashless: AuditCounters,
    /// `CA3` since reset: in total, to box, to tubes, bills.
    pub in_reset: [u64; 4],
    /// `CA3` since initialisation, same order.
    pub in_init: [u64; 4],
    /// `CA4`: change since reset, manual since reset, change since init, manual since init.
    pub out: [u64; 4],
    /// `CA10`: manual fill since reset, since init.
    pub manual_fill: [u64; 2],
    /// `CA15`: value in the tubes.
    pub tubes_value: u64,
    pub tubes: Vec<CoinTube>,
}

/// Everything one audit file says.
#[derive(Debug, Clone)]
pub struct AuditInput<'a> {
    pub serial: &'a str,
    pub model: &'a str,
    pub location: &'a str,
    pub selections: &'a [SelectionAudit],
    pub paid: AuditCounters,
    pub test: AuditCounters,
    pub free: AuditCounters,
    pub cash: CashFigures,
    /// Reads since initialisation, this one included (each resets).
    pub reads: u64,
    pub read_at: DateTime<FixedOffset>,
    pub last_read: Option<DateTime<FixedOffset>>,
}

/// Text safe inside an element: ASCII, no `*`, no control characters, at most `max` chars.
pub fn element_text(s: &str, max: usize) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let mapped = match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' => "a",
            'À' | 'Á' | 'Â' | 'Ä' => "A",
            'é' | 'è' | 'ê' | 'ë' => "e",
            'É' | 'È' | 'Ê' | 'Ë' => "E",
            'ì' | 'í' | 'î' | 'ï' => "i",
            'Î' | 'Ï' => "I",
            'ò' | 'ó' | 'ô' | 'ö' => "o",
            'Ô' | 'Ö' => "O",
            'ù' | 'ú' | 'û' | 'ü' => "u",
            'Ù' | 'Û' | 'Ü' => "U",
            'ç' => "c",
            'Ç' => "C",
            'œ' => "oe",
            '—' | '–' => "-",
            '’' => "'",
            '*' => " ",
            c if c.is_ascii() && !c.is_ascii_control() => {
                out.push(c);
                continue;
            }
            _ => "",
        };
        out.push_str(mapped);
    }
    out.trim().chars().take(max).collect()
}

fn counters(c: &AuditCounters, value_first: bool) -> String {
    if value_first {
        format!(
            "{}*{}*{}*{}",
            c.value_init, c.count_init, c.value_reset, c.count_reset
        )
    } else {
        format!(
            "{}*{}*{}*{}",
            c.count_init, c.value_init, c.count_reset, c.value_reset
        )
    }
}

fn date(at: DateTime<FixedOffset>) -> String {
    at.format("%y%m%d").to_string()
}

fn time(at: DateTime<FixedOffset>) -> String {
    at.format("%H%M").to_string()
}

/// The audit file, CR LF line ends.
pub fn render(a: &AuditInput<'_>) -> String {
    let serial = element_text(a.serial, 20);
    let model = element_text(a.model, 20);
    let mut segs: Vec<String> = vec![
        "ST*001*0001".into(),
        format!(
            "ID1*{serial}*{model}*0001*{}**{serial}",
            element_text(a.location, 30)
        ),
        "ID4*2*1978".into(),
        format!("CB1*{serial}*{model}*0001"),
        format!("VA1*{}", counters(&a.paid, true)),
        format!("VA2*{}", counters(&a.test, true)),
        format!("VA3*{}", counters(&a.free, true)),
        format!("CA2*{}", counters(&a.cash.cash_sales, true)),
    ];
    let c = &a.cash;
    segs.push(format!(
        "CA3*{}*{}*{}*{}*{}*{}*{}*{}",
        c.in_reset[0],
        c.in_reset[1],
        c.in_reset[2],
        c.in_reset[3],
        c.in_init[0],
        c.in_init[1],
        c.in_init[2],
        c.in_init[3]
    ));
    segs.push(format!(
        "CA4*{}*{}*{}*{}",
        c.out[0], c.out[1], c.out[2], c.out[3]
    ));
    segs.push(format!("CA10*{}*{}", c.manual_fill[0], c.manual_fill[1]));
    segs.push(format!("CA15*{}", c.tubes_value));
    for (i, t) in c.tubes.iter().enumerate() {
        segs.push(format!(
            "CA17*{i}*{}*{}*{}*{}",
            t.value_minor, t.coins, t.filled, t.dispensed
        ));
    }
    segs.push(format!("DA2*{}", counters(&c.cashless, true)));
    for s in a.selections {
        segs.push(format!(
            "PA1*{}*{}*{}*{}****{}",
            element_text(&s.id, 10),
            s.price_minor,
            element_text(&s.name, 30),
            s.capacity,
            s.level
        ));
        segs.push(format!("PA2*{}", counters(&s.paid, false)));
        segs.push(format!("PA3*{}", counters(&s.test, false)));
        segs.push(format!("PA4*{}", counters(&s.free, false)));
        if let Some((at, n)) = s.sold_out {
            segs.push(format!("PA5*{}*{}*{n}", date(at), time(at)));
        }
    }
    let (last_date, last_time) = a.last_read.map(|l| (date(l), time(l))).unwrap_or_default();
    segs.push(format!(
        "EA3*{}*{}*{}**{last_date}*{last_time}**{}",
        a.reads,
        date(a.read_at),
        time(a.read_at),
        a.reads
    ));
    let mut body = String::new();
    for s in &segs {
        body.push_str(s);
        body.push_str("\r\n");
    }
    let crc = vendfleet_domain::dex::crc16_arc(body.as_bytes());
    // ST … G85 … SE: the segments so far, G85 and SE itself.
    let count = segs.len() + 2;
    let mut out = String::with_capacity(body.len() + 80);
    let _ = write!(out, "DXS*VENDFLEET1*VA*V1/1*1\r\n");
    out.push_str(&body);
    let _ = write!(out, "G85*{crc:04X}\r\nSE*{count}*0001\r\nDXE*1*1\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use vendfleet_domain::dex::{parse, Checksum};

    fn at(s: &str) -> DateTime<FixedOffset> {
        DateTime::parse_from_rfc3339(s).unwrap()
    }

    fn c(count_init: u64, value_init: u64, count_reset: u64, value_reset: u64) -> AuditCounters {
        AuditCounters {
            count_init,
            value_init,
            count_reset,
            value_reset,
        }
    }

    #[test]
    fn a_generated_audit_parses_with_its_figures_a_good_checksum_and_no_warnings() {
        let selections = vec![
            SelectionAudit {
                id: "A1".into(),
                name: "Barre chocolat-caramel*spécial — 50 g".into(),
                price_minor: 140,
                capacity: 12,
                level: 3,
                paid: c(1200, 168_000, 31, 4340),
                test: c(4, 560, 1, 140),
                free: c(2, 280, 0, 0),
                sold_out: Some((at("2026-03-14T09:30:00+01:00"), 2)),
            },
            SelectionAudit {
                id: "A2".into(),
                name: "Caffè espresso".into(),
                price_minor: 50,
                capacity: 300,
                level: 211,
                paid: c(5000, 250_000, 89, 4450),
                test: AuditCounters::default(),
                free: AuditCounters::default(),
                sold_out: None,
            },
        ];
        let input = AuditInput {
            serial: "SN-100042",
            model: "Kikko Max",
            location: "Gare de Lyon-Part-Dieu — Hall 2",
            selections: &selections,
            paid: c(6200, 418_000, 120, 8790),
            test: c(4, 560, 1, 140),
            free: c(2, 280, 0, 0),
            cash: CashFigures {
                cash_sales: c(2500, 170_000, 50, 3600),
                cashless: c(3700, 248_000, 70, 5190),
                in_reset: [4100, 1500, 2100, 500],
                in_init: [190_000, 80_000, 95_000, 15_000],
                out: [500, 0, 20_000, 3000],
                manual_fill: [0, 4000],
                tubes_value: 3870,
                tubes: vec![
                    CoinTube {
                        value_minor: 10,
                        coins: 40,
                        filled: 10,
                        dispensed: 0,
                    },
                    CoinTube {
                        value_minor: 100,
                        coins: 30,
                        filled: 0,
                        dispensed: 5,
                    },
                ],
            },
            reads: 12,
            read_at: at("2026-03-15T08:05:00+01:00"),
            last_read: Some(at("2026-03-12T07:40:00+01:00")),
        };
        let text = render(&input);
        assert!(text.is_ascii());
        let file = parse(&text).unwrap();
        assert_eq!(file.audits.len(), 1);
        let audit = &file.audits[0];
        assert_eq!(audit.warnings, Vec::<String>::new());
        assert_eq!(audit.checksum, Checksum::Ok);
        assert_eq!(audit.decimal_places, Some(2));
        assert_eq!(
            audit.machine.as_ref().unwrap().serial.as_deref(),
            Some("SN-100042")
        );
        assert_eq!(audit.selections.len(), 2);
        let first = &audit.selections[0];
        assert_eq!(first.id, "A1");
        assert_eq!(first.price_minor, Some(140));
        assert_eq!(
            first.name.as_deref(),
            Some("Barre chocolat-caramel special")
        );
        assert_eq!(first.level, Some(3));
        let sales = first.sales.as_ref().unwrap();
        assert_eq!(sales.vends_since_init, Some(1200));
        assert_eq!(sales.value_since_reset_minor, Some(4340));
        let paid = audit.paid_vends.as_ref().unwrap();
        assert_eq!(paid.value_since_init_minor, Some(418_000));
        assert_eq!(paid.vends_since_reset, Some(120));
        assert_eq!(audit.coin_tubes.len(), 2);
        let reads = audit.reads.as_ref().unwrap();
        assert_eq!(reads.date.as_deref(), Some("260315"));
        assert_eq!(reads.reads_since_init, Some(12));
    }

    #[test]
    fn a_first_read_without_a_previous_one_has_no_warnings() {
        let input = AuditInput {
            serial: "SN-1",
            model: "FK 300",
            location: "Ospedale Sant'Orsola",
            selections: &[],
            paid: AuditCounters::default(),
            test: AuditCounters::default(),
            free: AuditCounters::default(),
            cash: CashFigures::default(),
            reads: 1,
            read_at: at("2026-01-02T10:00:00+01:00"),
            last_read: None,
        };
        let file = parse(&render(&input)).unwrap();
        assert_eq!(file.audits[0].warnings, Vec::<String>::new());
        assert_eq!(file.audits[0].checksum, Checksum::Ok);
    }
}
