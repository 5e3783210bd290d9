//! The operator's policy record and its form.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use vendfleet_domain::reach;

/// The shortest interval between a task's runs when the operator has set none.
pub const DEFAULT_MIN_TASK_INTERVAL_MINUTES: u32 = 15;
/// The longest minimum interval an operator may set (a day).
pub const MAX_MIN_TASK_INTERVAL_MINUTES: u32 = 24 * 60;
/// Domains on the allow-list at most.
pub const MAX_MAIL_DOMAINS: usize = 100;
pub(super) const ID: &str = "operator";

/// The operator's policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OperatorPolicy {
    pub id: String,
    /// Domains (`example.com`) or subdomain patterns (`*.example.com`) that plain addresses of
    /// scheduled reports may belong to; empty: reports are mailed to users only.
    #[serde(default)]
    pub mail_domains: Vec<String>,
    pub min_task_interval_minutes: u32,
    /// Who changed it last.
    #[serde(default)]
    pub updated_by: Option<String>,
    pub updated_at: Option<DateTime<Utc>>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

impl Default for OperatorPolicy {
    fn default() -> Self {
        OperatorPolicy {
            id: ID.into(),
            mail_domains: Vec::new(),
            min_task_interval_minutes: DEFAULT_MIN_TASK_INTERVAL_MINUTES,
            updated_by: None,
            updated_at: None,
            version: 0,
            schema: 1,
        }
    }
}

impl OperatorPolicy {
    /// Whether a plain address may receive company data.
    pub fn mail_allowed(&self, address: &str) -> bool {
        reach::mail_allowed(&self.mail_domains, address)
    }

    /// Why a plain address may not receive company data (`None` when it may).
    pub fn mail_refusal(&self, address: &str) -> Option<String> {
        if self.mail_allowed(address) {
            return None;
        }
        Some(if self.mail_domains.is_empty() {
            "Reports are mailed to users only: an administrator allows other domains in the settings.".into()
        } else {
            format!(
                "Mail to this domain is not allowed (allowed: {}).",
                self.mail_domains.join(", ")
            )
        })
    }
}

crate::record!(OperatorPolicy, "POLICY", "Operator policy");

/// The policy form.
#[derive(Debug, Clone, Default)]
pub struct PolicyInput {
    pub mail_domains: Vec<String>,
    pub min_task_interval_minutes: Option<u32>,
    pub version: Option<u64>,
}
