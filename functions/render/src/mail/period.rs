//! Names of periods and figures as a reader of the mail writes them: "October 2026",
//! "week 47 of 2026 (16–22 November)", "1 234,56 EUR", "+4.2 %". Month and day names come from
//! chrono's locales (`unstable-locales`).

use chrono::{Datelike, Locale, NaiveDate, Weekday};
use vendfleet_domain::Language;

fn locale(lang: Language) -> Locale {
    match lang {
        Language::En => Locale::en_GB,
        Language::Fr => Locale::fr_FR,
        Language::It => Locale::it_IT,
    }
}

/// `date` formatted with `pattern` in `lang`.
pub fn format(date: NaiveDate, pattern: &str, lang: Language) -> String {
    date.format_localized(pattern, locale(lang)).to_string()
}

fn last_of_month(d: NaiveDate) -> bool {
    d.succ_opt().is_none_or(|next| next.month() != d.month())
}

/// The span `from..=to` named as a reader says it: a year, a month or months, an ISO week (with
/// its days), a day, or its first and last days.
pub fn name(from: NaiveDate, to: NaiveDate, lang: Language) -> String {
    let whole_months = from.day() == 1 && last_of_month(to);
    let same_year = from.year() == to.year();
    if whole_months && same_year && from.month() == 1 && to.month() == 12 {
        return from.year().to_string();
    }
    if whole_months && same_year && from.month() == to.month() {
        return format(from, "%B %Y", lang);
    }
    if whole_months && same_year {
        return format!(
            "{} – {}",
            format(from, "%B", lang),
            format(to, "%B %Y", lang)
        );
    }
    let days = days(from, to, lang);
    if from.weekday() == Weekday::Mon && (to - from).num_days() == 6 {
        let week = from.iso_week();
        let (w, y) = (week.week(), week.year());
        let label = match lang {
            Language::En => format!("week {w} of {y}"),
            Language::Fr => format!("semaine {w} de {y}"),
            Language::It => format!("settimana {w} del {y}"),
        };
        return format!("{label} ({days})");
    }
    days
}

/// The first and last days of a span, sharing what they share (`16–22 November 2026`).
fn days(from: NaiveDate, to: NaiveDate, lang: Language) -> String {
    if from == to {
        format(from, "%A %-d %B %Y", lang)
    } else if (from.year(), from.month()) == (to.year(), to.month()) {
        format!("{}–{}", from.day(), format(to, "%-d %B %Y", lang))
    } else if from.year() == to.year() {
        format!(
            "{} – {}",
            format(from, "%-d %B", lang),
            format(to, "%-d %B %Y", lang)
        )
    } else {
        format!(
            "{} – {}",
            format(from, "%-d %B %Y", lang),
            format(to, "%-d %B %Y", lang)
        )
    }
}

/// "`span` against `previous`" in `lang`.
pub fn against(span: &str, previous: &str, lang: Language) -> String {
    match lang {
        Language::En => format!("{span} against {previous}"),
        Language::Fr => format!("{span} comparé à {previous}"),
        Language::It => format!("{span} rispetto a {previous}"),
    }
}

/// A number of minor units as text in `lang` (`1 234,56 EUR`), or a plain count.
pub fn amount(lang: Language, minor: i64, money: bool) -> String {
    let (sep, dec) = match lang {
        Language::En => (',', '.'),
        Language::Fr => ('\u{202f}', ','),
        Language::It => ('.', ','),
    };
    let group = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(sep);
            }
            out.push(c);
        }
        out
    };
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    if money {
        format!("{sign}{}{dec}{:02} EUR", group(abs / 100), abs % 100)
    } else {
        format!("{sign}{}", group(abs))
    }
}

/// The change from `before` to `now` as a signed percentage in `lang` (none from zero).
pub fn change(now: i64, before: i64, lang: Language) -> String {
    if before == 0 {
        return "—".into();
    }
    let pct = format!("{:+.1} %", (now - before) as f64 / before as f64 * 100.0);
    if lang == Language::En {
        pct
    } else {
        pct.replace('.', ",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
