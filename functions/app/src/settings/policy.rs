//! The operator's policy on data leaving the system: the e-mail domains scheduled reports may
//! be mailed to (beyond the operator's own users), and the shortest interval between a
//! scheduled task's runs. One record, changed only by an all-machines administrator.

use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::records::{check_version, Records};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use vendfleet_domain::{reach, FieldErrors};

/// The shortest interval between a task's runs when the operator has set none.
pub const DEFAULT_MIN_TASK_INTERVAL_MINUTES: u32 = 15;
/// The longest minimum interval an operator may set (a day).
pub const MAX_MIN_TASK_INTERVAL_MINUTES: u32 = 24 * 60;
/// Domains on the allow-list at most.
pub const MAX_MAIL_DOMAINS: usize = 100;
const ID: &str = "operator";

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

/// Reads and changes the operator's policy.
#[derive(Clone)]
pub struct Policies {
    records: Records<OperatorPolicy>,
}

impl Policies {
    /// The policy store on `records`.
    pub fn new(records: Records<OperatorPolicy>) -> Self {
        Policies { records }
    }

    /// The policy in force (the defaults until an administrator sets one).
    pub async fn get(&self) -> AppResult<OperatorPolicy> {
        Ok(self.records.get(ID).await?.unwrap_or_default())
    }

    /// Changes the policy: an all-machines administrator only (409 on a stale version).
    pub async fn set(
        &self,
        p: &Principal,
        input: &PolicyInput,
        now: DateTime<Utc>,
    ) -> AppResult<OperatorPolicy> {
        if !p.is_fleet_admin() {
            return Err(AppError::Forbidden(
                "Only an administrator with access to all machines changes the operator's policy"
                    .into(),
            ));
        }
        let mut errors = FieldErrors::new();
        let mut domains = Vec::new();
        for d in &input.mail_domains {
            match reach::mail_domain(d) {
                Ok(d) if !domains.contains(&d) => domains.push(d),
                Ok(_) => {}
                Err(e) => errors.add("mail_domains", e),
            }
        }
        if domains.len() > MAX_MAIL_DOMAINS {
            errors.add(
                "mail_domains",
                format!("At most {MAX_MAIL_DOMAINS} domains."),
            );
        }
        let interval = input
            .min_task_interval_minutes
            .unwrap_or(DEFAULT_MIN_TASK_INTERVAL_MINUTES);
        if !(1..=MAX_MIN_TASK_INTERVAL_MINUTES).contains(&interval) {
            errors.add(
                "min_task_interval_minutes",
                format!("Give 1 to {MAX_MIN_TASK_INTERVAL_MINUTES} minutes."),
            );
        }
        errors.into_result()?;
        domains.sort();
        let current = self.records.get(ID).await?;
        let mut next = match &current {
            Some(c) => {
                check_version(input.version, c)?;
                c.clone()
            }
            None => OperatorPolicy::default(),
        };
        next.mail_domains = domains;
        next.min_task_interval_minutes = interval;
        next.updated_by = Some(p.user.id.clone());
        next.updated_at = Some(now);
        match current {
            Some(c) => {
                next.version = c.version + 1;
                self.records.replace(&c, &next).await?;
            }
            None => {
                next.version = 1;
                self.records.insert(&next).await?;
            }
        }
        Ok(next)
    }
}
