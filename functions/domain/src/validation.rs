//! Field validation that produces per-field messages.

use serde::Serialize;
use std::collections::BTreeMap;

/// Messages per field name; empty means valid.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FieldErrors(pub BTreeMap<String, Vec<String>>);

impl FieldErrors {
    /// No errors yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a message to `field`.
    pub fn add(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.entry(field.into()).or_default().push(message.into());
    }

    /// Whether there is no error.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(())` when empty, else the errors.
    pub fn into_result(self) -> Result<(), FieldErrors> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }

    /// A single-field error.
    pub fn single(field: impl Into<String>, message: impl Into<String>) -> Self {
        let mut e = Self::new();
        e.add(field, message);
        e
    }
}

/// Trims `value`; records an error when it is empty, longer than `max` characters or holds a
/// control character (a name is one line).
pub fn required_text(errors: &mut FieldErrors, field: &str, value: &str, max: usize) -> String {
    let v = value.trim();
    if v.is_empty() {
        errors.add(field, "This field is required.");
    } else if v.chars().count() > max {
        errors.add(field, format!("Must be at most {max} characters."));
    } else if v.chars().any(char::is_control) {
        errors.add(
            field,
            "Must not contain control characters (line breaks, tabs …).",
        );
    }
    v.to_string()
}

/// Trims `value`; records an error when it is longer than `max` characters.
pub fn optional_text(errors: &mut FieldErrors, field: &str, value: &str, max: usize) -> String {
    let v = value.trim();
    if v.chars().count() > max {
        errors.add(field, format!("Must be at most {max} characters."));
    }
    v.to_string()
}

/// Normalises an e-mail address (trimmed, lower-case) and checks its shape.
pub fn email(errors: &mut FieldErrors, field: &str, value: &str) -> String {
    let v = value.trim().to_lowercase();
    if v.is_empty() {
        errors.add(field, "This field is required.");
    } else if !is_email(&v) {
        errors.add(field, "Enter a valid e-mail address.");
    } else if v.len() > 254 {
        errors.add(field, "Must be at most 254 characters.");
    }
    v
}

fn is_email(v: &str) -> bool {
    let Some((local, domain)) = v.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && local.len() <= 64
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !domain.contains("..")
        && v.chars().all(|c| c.is_ascii_graphic() || !c.is_ascii())
}

/// Checks a phone number: optional leading `+`, then digits, spaces, dots, dashes, parentheses; 6–20 digits.
pub fn phone(errors: &mut FieldErrors, field: &str, value: &str) -> String {
    let v = value.trim();
    if v.is_empty() {
        return String::new();
    }
    let body = v.strip_prefix('+').unwrap_or(v);
    let digits = body.chars().filter(|c| c.is_ascii_digit()).count();
    let shape_ok = body
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '(' | ')'));
    if !shape_ok || !(6..=20).contains(&digits) {
        errors.add(field, "Enter a valid phone number.");
    }
    v.to_string()
}

/// Password rules: 8 to 128 characters, not only spaces.
pub fn password(errors: &mut FieldErrors, field: &str, value: &str) {
    let len = value.chars().count();
    if value.trim().is_empty() {
        errors.add(field, "This field is required.");
    } else if len < 8 {
        errors.add(field, "Must be at least 8 characters.");
    } else if len > 128 {
        errors.add(field, "Must be at most 128 characters.");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        let mut e = FieldErrors::new();
        assert_eq!(
            email(&mut e, "email", "  Ann@Example.COM "),
            "ann@example.com"
        );
        assert!(e.is_empty());
        for bad in [
            "", "ann", "ann@", "@x.io", "a@b", "a@.b.c", "a b@c.io", "a@b@c.io",
        ] {
            let mut e = FieldErrors::new();
            email(&mut e, "email", bad);
            assert!(!e.is_empty(), "{bad} accepted");
        }
    }

    #[test]
    fn phones_and_passwords() {
        let mut e = FieldErrors::new();
        phone(&mut e, "phone", "+41 (0)79 123-45-67");
        phone(&mut e, "phone", "");
        assert!(e.is_empty());
        phone(&mut e, "phone", "call me");
        phone(&mut e, "phone", "123");
        assert_eq!(e.0["phone"].len(), 2);
        let mut e = FieldErrors::new();
        password(&mut e, "password", "short");
        password(&mut e, "password", "        ");
        assert_eq!(e.0["password"].len(), 2);
    }

    #[test]
    fn text_limits() {
        let mut e = FieldErrors::new();
        assert_eq!(required_text(&mut e, "name", "  Ann  ", 10), "Ann");
        assert!(e.is_empty());
        required_text(&mut e, "name", "   ", 10);
        required_text(&mut e, "name", "abcdefghijk", 10);
        required_text(&mut e, "name", "Ann\u{7}", 10);
        required_text(&mut e, "name", "A\nB", 10);
        assert_eq!(e.0["name"].len(), 4);
    }
}

/// Checks an IANA time-zone name (e.g. `Europe/Paris`); returns it trimmed.
pub fn time_zone(errors: &mut FieldErrors, field: &str, value: &str) -> String {
    let v = value.trim();
    if v.is_empty() {
        errors.add(field, "This field is required.");
    } else if v.parse::<chrono_tz::Tz>().is_err() {
        errors.add(
            field,
            "Choose a time zone from the list (e.g. Europe/Paris).",
        );
    }
    v.to_string()
}

/// Every IANA time-zone name, sorted.
pub fn time_zones() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name()).collect();
    v.sort_unstable();
    v
}

/// Checks an optional coordinate within ±`limit` degrees.
pub fn coordinate(
    errors: &mut FieldErrors,
    field: &str,
    value: Option<f64>,
    limit: f64,
) -> Option<f64> {
    match value {
        Some(v) if !v.is_finite() || v.abs() > limit => {
            errors.add(field, format!("Must be between -{limit} and {limit}."));
            None
        }
        other => other,
    }
}

#[cfg(test)]
mod zone_tests {
    use super::*;

    #[test]
    fn zones_and_coordinates() {
        let mut e = FieldErrors::new();
        assert_eq!(time_zone(&mut e, "tz", " Europe/Rome "), "Europe/Rome");
        assert!(e.is_empty());
        time_zone(&mut e, "tz", "Mars/Olympus");
        time_zone(&mut e, "tz", "");
        assert_eq!(e.0["tz"].len(), 2);
        assert!(time_zones().contains(&"Europe/Paris"));
        let mut e = FieldErrors::new();
        assert_eq!(coordinate(&mut e, "lat", Some(45.5), 90.0), Some(45.5));
        coordinate(&mut e, "lat", Some(91.0), 90.0);
        coordinate(&mut e, "lat", Some(f64::NAN), 90.0);
        assert_eq!(e.0["lat"].len(), 2);
    }
}
