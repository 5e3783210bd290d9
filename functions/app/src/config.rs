//! Service configuration, read from `VENDFLEET_*` environment variables by the binaries.

use std::fmt;

/// A secret value that never prints.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl Secret {
    /// Wraps bytes.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Secret(bytes.into())
    }

    /// The secret bytes; call only where they are used.
    pub fn expose(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// Settings of the auth and users services.
#[derive(Debug, Clone)]
pub struct AuthSettings {
    /// HMAC key for HS256 tokens (at least 32 bytes).
    pub jwt_secret: Secret,
    /// Lifetime of an access token, seconds.
    pub access_ttl_secs: i64,
    /// Lifetime of a refresh token, seconds.
    pub refresh_ttl_secs: i64,
    /// Whether `POST /api/users/me/` may create accounts.
    pub open_registration: bool,
    /// Failed sign-ins allowed per e-mail address within one window.
    pub login_failures_per_email: i64,
    /// Sign-in attempts allowed per client address within one window.
    pub login_attempts_per_client: i64,
    /// Rate-limit window, seconds.
    pub login_window_secs: i64,
}

impl AuthSettings {
    /// Defaults with the given secret: 15 min access, 7 days refresh, registration off,
    /// 10 failures per e-mail and 100 attempts per client address per 15 minutes.
    pub fn with_secret(jwt_secret: Secret) -> Self {
        AuthSettings {
            jwt_secret,
            access_ttl_secs: 15 * 60,
            refresh_ttl_secs: 7 * 24 * 3600,
            open_registration: false,
            login_failures_per_email: 10,
            login_attempts_per_client: 100,
            login_window_secs: 15 * 60,
        }
    }

    /// Reads `VENDFLEET_OPEN_REGISTRATION`, `VENDFLEET_ACCESS_TTL_SECS`, `VENDFLEET_REFRESH_TTL_SECS`
    /// over the defaults.
    pub fn apply_env(mut self) -> Self {
        if let Ok(v) = std::env::var("VENDFLEET_OPEN_REGISTRATION") {
            self.open_registration = matches!(v.trim(), "1" | "true" | "yes" | "on");
        }
        if let Some(v) = env_i64("VENDFLEET_ACCESS_TTL_SECS") {
            self.access_ttl_secs = v;
        }
        if let Some(v) = env_i64("VENDFLEET_REFRESH_TTL_SECS") {
            self.refresh_ttl_secs = v;
        }
        self
    }
}

/// Operator-wide settings: what makes "today" and "this month" the operator's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorSettings {
    /// The operator's time zone: fleet-wide "today", "this month", period presets and default
    /// ranges are local dates here; a location without its own zone uses it too.
    pub time_zone: chrono_tz::Tz,
    /// The operator's name, shown on the mails it sends (`VENDFLEET_OPERATOR_NAME`).
    pub name: Option<String>,
    /// Where the dashboard is reached from outside (`VENDFLEET_PUBLIC_URL`, no trailing slash):
    /// the mails link back to it when it is set.
    pub public_url: Option<String>,
}

/// The operator time zone when `VENDFLEET_TIME_ZONE` is not set.
pub const DEFAULT_TIME_ZONE: chrono_tz::Tz = chrono_tz::Europe::Paris;

impl Default for OperatorSettings {
    fn default() -> Self {
        OperatorSettings {
            time_zone: DEFAULT_TIME_ZONE,
            name: None,
            public_url: None,
        }
    }
}

impl OperatorSettings {
    /// Settings in the zone named `name` (IANA, `Europe/Paris`).
    pub fn in_zone(name: &str) -> Result<Self, String> {
        vendfleet_domain::calendar::parse_zone(name)
            .map(|time_zone| OperatorSettings {
                time_zone,
                ..OperatorSettings::default()
            })
            .ok_or_else(|| {
                format!("unknown time zone {name:?}: use an IANA name such as Europe/Paris")
            })
    }

    /// Reads `VENDFLEET_TIME_ZONE`, `VENDFLEET_OPERATOR_NAME` and `VENDFLEET_PUBLIC_URL` over
    /// the defaults; an unknown zone, or a public URL that is not http(s), is an error, not a
    /// guess.
    pub fn from_env() -> Result<Self, String> {
        let var = |name: &str| {
            std::env::var(name)
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let mut out = match var("VENDFLEET_TIME_ZONE") {
            Some(v) => Self::in_zone(&v)?,
            None => Self::default(),
        };
        out.name = var("VENDFLEET_OPERATOR_NAME");
        out.public_url = match var("VENDFLEET_PUBLIC_URL") {
            Some(url) if url.starts_with("https://") || url.starts_with("http://") => {
                Some(url.trim_end_matches('/').to_string())
            }
            Some(url) => {
                return Err(format!(
                    "VENDFLEET_PUBLIC_URL must start with https:// or http://, not {url:?}"
                ))
            }
            None => None,
        };
        Ok(out)
    }
}

fn env_i64(name: &str) -> Option<i64> {
    std::env::var(name)
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|v| *v > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_do_not_print() {
        let s = AuthSettings::with_secret(Secret::new("super-secret-value"));
        assert!(!format!("{s:?}").contains("super-secret"));
    }

    #[test]
    fn operator_zone_is_checked() {
        assert_eq!(
            OperatorSettings::in_zone("Europe/Rome").unwrap().time_zone,
            chrono_tz::Europe::Rome
        );
        assert!(OperatorSettings::in_zone("Mars/Olympus").is_err());
        assert_eq!(OperatorSettings::default().time_zone, DEFAULT_TIME_ZONE);
    }
}
