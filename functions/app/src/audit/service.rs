//! The audit trail's service.

use super::model::*;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::listing::{page_of, paging, ListPage, ListParams};
use crate::ports::{query_all, Clock, Index, Item, ItemStore, Key, Query};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use std::sync::Arc;
use vendfleet_domain::report::Choice;
use vendfleet_domain::FieldErrors;

fn partition(at: DateTime<Utc>) -> String {
    format!("EXITS#{:04}-{:02}", at.year(), at.month())
}

/// The audit trail.
#[derive(Clone)]
pub struct AuditTrail {
    store: Arc<dyn ItemStore>,
    clock: Arc<dyn Clock>,
}

impl AuditTrail {
    /// A trail on `store`.
    pub fn new(store: Arc<dyn ItemStore>, clock: Arc<dyn Clock>) -> Self {
        AuditTrail { store, clock }
    }

    /// Records an exit now. A failure is the caller's: data must not leave unrecorded.
    pub async fn record(&self, exit: NewExit) -> AppResult<DataExit> {
        let at = self.clock.now();
        let e = DataExit {
            id: crate::ids::ordered_id(at),
            at,
            kind: exit.kind,
            user_id: exit.user_id,
            what: exit.what,
            file_name: exit.file_name,
            reach: exit.reach,
            recipients: exit.recipients,
            rows: exit.rows,
            report_id: exit.report_id,
            task_id: exit.task_id,
        };
        let item = Item::from_value(Key::new(partition(at), e.id.clone()), &e)?;
        self.store.put(item, None).await?;
        Ok(e)
    }

    /// A page of the trail, newest first: an all-machines administrator only.
    pub async fn list(
        &self,
        p: &Principal,
        params: &ListParams,
        filter: &ExitFilter,
    ) -> AppResult<ListPage<DataExit>> {
        if !p.is_fleet_admin() {
            return Err(AppError::Forbidden(
                "Only an administrator with access to all machines reads the audit trail".into(),
            ));
        }
        let mut errors = FieldErrors::new();
        let pg = paging(params, &["at"], &mut errors);
        let mut date = |field: &str, v: &Option<String>| {
            let v = v.as_deref().map(str::trim).filter(|v| !v.is_empty())?;
            NaiveDate::parse_from_str(v, "%Y-%m-%d")
                .map_err(|_| errors.add(field, "Give a date as YYYY-MM-DD."))
                .ok()
        };
        let (date_from, date_to) = (
            date("date_from", &filter.date_from),
            date("date_to", &filter.date_to),
        );
        let today = self.clock.now().date_naive();
        let to = date_to.unwrap_or(today);
        let from = date_from.unwrap_or(to - Duration::days(29));
        if from > to {
            errors.add("date_from", "Must be on or before date_to.");
        } else if (to - from).num_days() >= MAX_SPAN_DAYS {
            errors.add(
                "date_to",
                format!("Read at most {MAX_SPAN_DAYS} days at once."),
            );
        }
        let kind = match filter
            .kind
            .as_deref()
            .map(str::trim)
            .filter(|k| !k.is_empty())
        {
            None => None,
            Some(k) => {
                let c = ExitKind::from_key(k);
                if c.is_none() {
                    let keys: Vec<&str> = ExitKind::ALL.iter().map(|c| c.key()).collect();
                    errors.add("kind", format!("Choose one of: {}.", keys.join(", ")));
                }
                c
            }
        };
        errors.into_result()?;
        let user = filter
            .user_id
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty());
        let mut month = NaiveDate::from_ymd_opt(from.year(), from.month(), 1).expect("a month");
        let mut items = Vec::new();
        while month <= to {
            let at = month.and_hms_opt(0, 0, 0).expect("midnight").and_utc();
            let q = Query::partition(Index::Primary, partition(at));
            for item in query_all(self.store.as_ref(), q).await? {
                let e: DataExit = item.to_value()?;
                let day = e.at.date_naive();
                if day >= from
                    && day <= to
                    && kind.is_none_or(|k| e.kind == k)
                    && user.is_none_or(|u| e.user_id == u)
                    && (pg.search.is_empty()
                        || e.what.to_lowercase().contains(&pg.search)
                        || e.file_name.to_lowercase().contains(&pg.search)
                        || e.recipients.iter().any(|r| r.contains(&pg.search)))
                {
                    items.push(e);
                }
            }
            month = month
                .checked_add_months(chrono::Months::new(1))
                .expect("a month");
        }
        let oldest_first = matches!(&pg.ordering, Some((_, false)));
        items.sort_by(|a, b| {
            if oldest_first {
                a.id.cmp(&b.id)
            } else {
                b.id.cmp(&a.id)
            }
        });
        Ok(page_of(items, &pg))
    }
}
