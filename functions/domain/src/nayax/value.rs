//! Reading Nayax's JSON values: ids that come as numbers or strings, decimal amounts, local
//! date-times without an offset.

use super::model::Unreadable;
use chrono::{DateTime, LocalResult, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde_json::{Map, Value};

/// The first of `names` present and not null.
pub(super) fn field<'a>(o: &'a Map<String, Value>, names: &[&str]) -> Option<&'a Value> {
    names
        .iter()
        .find_map(|n| o.get(*n).filter(|v| !v.is_null()))
}

fn invalid(field: &str, expected: &'static str, v: &Value) -> Unreadable {
    let mut found = v.to_string();
    found.truncate(80);
    Unreadable::Invalid {
        field: field.to_string(),
        expected,
        found,
    }
}

/// An id: a whole number or a non-empty string (trimmed), as text.
pub(super) fn id(o: &Map<String, Value>, names: &[&str]) -> Result<Option<String>, Unreadable> {
    let Some(v) = field(o, names) else {
        return Ok(None);
    };
    match v {
        Value::Number(n) if n.is_u64() || n.is_i64() => Ok(Some(n.to_string())),
        Value::String(s) if !s.trim().is_empty() => Ok(Some(s.trim().to_string())),
        Value::String(_) => Ok(None),
        _ => Err(invalid(names[0], "an id", v)),
    }
}

/// A text, trimmed; empty is none.
pub(super) fn text(o: &Map<String, Value>, names: &[&str]) -> Result<Option<String>, Unreadable> {
    match field(o, names) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string()).filter(|s| !s.is_empty())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(v) => Err(invalid(names[0], "a text", v)),
    }
}

/// A decimal amount as its exact text (`1.0000`, `"4.70"`): a JSON number or a numeric string.
pub(super) fn decimal(
    o: &Map<String, Value>,
    names: &[&str],
) -> Result<Option<String>, Unreadable> {
    let Some(v) = field(o, names) else {
        return Ok(None);
    };
    let text = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => s.trim().to_string(),
        _ => return Err(invalid(names[0], "a decimal amount", v)),
    };
    if parse_decimal(&text).is_none() {
        return Err(invalid(names[0], "a decimal amount", v));
    }
    Ok(Some(text))
}

/// A boolean: `true`/`false`, 1/0 or their text.
pub(super) fn flag(o: &Map<String, Value>, names: &[&str]) -> Result<Option<bool>, Unreadable> {
    match field(o, names) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(Value::Number(n)) if n.as_u64() == Some(0) => Ok(Some(false)),
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Ok(Some(true)),
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(Some(true)),
            "false" | "0" | "" => Ok(Some(false)),
            _ => Err(invalid(names[0], "a boolean", &Value::String(s.clone()))),
        },
        Some(v) => Err(invalid(names[0], "a boolean", v)),
    }
}

/// A local date-time without offset (`2020-04-20T10:34:05.063`; a space instead of `T`, no
/// fraction and a trailing `Z` are read too — the `Z` is ignored: Nayax's machine times are the
/// machine's local time).
pub(super) fn local(
    o: &Map<String, Value>,
    names: &[&str],
) -> Result<Option<NaiveDateTime>, Unreadable> {
    let Some(v) = field(o, names) else {
        return Ok(None);
    };
    let Value::String(s) = v else {
        return Err(invalid(names[0], "a date and time", v));
    };
    let s = s.trim().trim_end_matches('Z').replace(' ', "T");
    if s.is_empty() {
        return Ok(None);
    }
    NaiveDateTime::parse_from_str(&s, "%Y-%m-%dT%H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(&s, "%Y-%m-%dT%H:%M"))
        .map(Some)
        .map_err(|_| invalid(names[0], "a date and time", v))
}

/// `-12.3400` → (negative, "12", "3400"); `None` unless a plain decimal.
fn parse_decimal(text: &str) -> Option<(bool, &str, &str)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let plain = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    (!whole.is_empty() && whole.len() <= 15 && plain(whole) && plain(fraction))
        .then_some((negative, whole, fraction))
}

/// A decimal amount in minor units of a currency with `decimals` places, exactly: `None` when
/// it is not a decimal, or has a non-zero digit past the currency's places (a fraction of a
/// cent is not money we can book).
pub fn minor_units(text: &str, decimals: u8) -> Option<i64> {
    let (negative, whole, fraction) = parse_decimal(text)?;
    let places = usize::from(decimals);
    let (kept, rest) = fraction.split_at(fraction.len().min(places));
    if rest.bytes().any(|b| b != b'0') {
        return None;
    }
    let mut digits = String::with_capacity(whole.len() + places);
    digits.push_str(whole);
    digits.push_str(kept);
    digits.extend(std::iter::repeat_n('0', places - kept.len()));
    let value: i64 = digits.parse().ok()?;
    Some(if negative { -value } else { value })
}

/// The instant a machine's local time names in its zone `tz`.
///
/// - In the repeated hour of autumn (the local time happens twice), the occurrence nearest to
///   `hint` (Nayax's settlement time, in UTC, a few seconds after the authorisation) when one is
///   given, else the first occurrence (summer time): a machine's sales never move to the next
///   hour because of the change.
/// - In the skipped hour of spring (the local time never happens), the instant the clock shows
///   it as if it had not jumped: read with the offset in force before the change.
pub fn local_instant(local: NaiveDateTime, tz: Tz, hint: Option<DateTime<Utc>>) -> DateTime<Utc> {
    match tz.from_local_datetime(&local) {
        LocalResult::Single(t) => t.with_timezone(&Utc),
        LocalResult::Ambiguous(first, second) => {
            let (first, second) = (first.with_timezone(&Utc), second.with_timezone(&Utc));
            match hint {
                Some(h) if (second - h).abs() < (first - h).abs() => second,
                _ => first,
            }
        }
        LocalResult::None => {
            // The offset a few hours earlier is the one before the jump.
            let before = local - chrono::Duration::hours(3);
            let offset = match tz.from_local_datetime(&before) {
                LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => {
                    chrono::Offset::fix(t.offset())
                }
                LocalResult::None => chrono::FixedOffset::east_opt(0).expect("zero offset"),
            };
            (local - offset).and_utc()
        }
    }
}
