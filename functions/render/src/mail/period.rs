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
