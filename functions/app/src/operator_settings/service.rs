//! The operator's policy: read by the scheduler, changed by an all-machines administrator.

use super::model::*;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::ports::{Clock, ItemStore};
use crate::records::{check_version, Records};
use std::sync::Arc;
use vendfleet_domain::{reach, FieldErrors};

/// Reads and changes the operator's policy.
#[derive(Clone)]
pub struct OperatorSettingsService {
    records: Records<OperatorPolicy>,
    clock: Arc<dyn Clock>,
}

impl OperatorSettingsService {
    /// The policy kept in `store`.
    pub fn new(store: Arc<dyn ItemStore>, clock: Arc<dyn Clock>) -> Self {
        OperatorSettingsService {
            records: Records::new(store),
            clock,
        }
    }

    /// The policy in force (the defaults until an administrator sets one).
    pub async fn get(&self) -> AppResult<OperatorPolicy> {
        Ok(self.records.get(ID).await?.unwrap_or_default())
    }

    /// Changes the policy: an all-machines administrator only (409 on a stale version).
    pub async fn set(&self, p: &Principal, input: &PolicyInput) -> AppResult<OperatorPolicy> {
        let now = self.clock.now();
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
