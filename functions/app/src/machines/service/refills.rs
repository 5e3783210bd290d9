//! The refill log as the refill-log screen and, later, the reports read it.

use super::*;

/// Refill-log lines of one machine, employee and source this close in time are one visit.
pub const VISIT_MINUTES: i64 = 15;

impl MachinesService {
    /// A page of the refill-log entries the user may see, newest first.
    pub async fn refills(
        &self,
        p: &Principal,
        params: &RefillListParams,
    ) -> AppResult<ListPage<RefillEntry>> {
        let (entries, pg) = self.refill_entries(p, params).await?;
        Ok(page_of(entries, &pg))
    }

    /// What the period's refills added and removed, by product (largest net first), with the
    /// products' names as the log recorded them.
    pub async fn refill_totals(
        &self,
        p: &Principal,
        params: &RefillListParams,
    ) -> AppResult<Vec<ProductRefills>> {
        let (entries, _) = self.refill_entries(p, params).await?;
        let mut by_product: BTreeMap<String, ProductRefills> = BTreeMap::new();
        for e in entries {
            let t = by_product
                .entry(e.product_id.clone())
                .or_insert_with(|| ProductRefills {
                    product_id: e.product_id.clone(),
                    product_name: e.product_name.clone(),
                    ..ProductRefills::default()
                });
            t.added += e.added;
            t.removed += e.removed;
            t.lines += 1;
        }
        let mut out: Vec<ProductRefills> = by_product.into_values().collect();
        out.sort_by(|a, b| {
            (b.added - b.removed)
                .cmp(&(a.added - a.removed))
                .then_with(|| a.product_name.cmp(&b.product_name))
        });
        Ok(out)
    }

    /// Every refill-log entry of the query the user may see, newest first, and the paging.
    pub async fn refill_entries(
        &self,
        p: &Principal,
        params: &RefillListParams,
    ) -> AppResult<(Vec<RefillEntry>, Paging)> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            &ListParams {
                page: params.page,
                page_size: params.page_size,
                search: None,
                ordering: None,
            },
            &[],
            &mut errors,
        );
        let date = |field: &str, v: &Option<String>, errors: &mut FieldErrors| match opt(v) {
            None => None,
            Some(d) => vendfleet_domain::calendar::parse_date(d).or_else(|| {
                errors.add(field, "Enter a real date as YYYY-MM-DD.");
                None
            }),
        };
        // Without an end date the log runs up to now: to the latest local date begun anywhere,
        // so a location east of the operator shows the refills of its own "today" too.
        let to = date("to", &params.to, &mut errors)
            .unwrap_or_else(|| latest_date_anywhere(self.calendar.now()));
        // Without a start date: 30 of the operator's days before the end (or before today).
        let from = date("from", &params.from, &mut errors)
            .unwrap_or_else(|| self.calendar.today().min(to) - chrono::Duration::days(30));
        if from > to {
            errors.add("from", "Must be on or before the end date.");
        } else if (to - from).num_days() > 366 {
            errors.add("from", "Choose at most one year.");
        }
        errors.into_result()?;
        let visible: BTreeMap<String, Machine> = self
            .visible(p)
            .await?
            .into_iter()
            .map(|m| (m.id.clone(), m))
            .collect();
        let mut entries: Vec<RefillEntry> = Vec::new();
        if let Some(machine) = opt(&params.machine) {
            if !visible.contains_key(machine) {
                return Err(AppError::NotFound("Machine not found".into()));
            }
            let q = Query::partition(Index::Primary, crate::machines::Machine::partition(machine))
                .sk(SortKey::BeginsWith("REFILL#".into()));
            for item in query_all(self.store.as_ref(), q).await? {
                entries.push(item.to_value()?);
            }
            entries.retain(|e| e.local_date >= from && e.local_date <= to);
        } else {
            let mut day = from;
            while day <= to {
                for item in query_all(
                    self.store.as_ref(),
                    Query::partition(Index::Gsi1, format!("REFILLDAY#{day}")),
                )
                .await?
                {
                    entries.push(item.to_value()?);
                }
                day += chrono::Duration::days(1);
            }
        }
        entries.retain(|e| {
            visible.contains_key(&e.stamp.machine_id)
                && params
                    .machine_ids
                    .as_ref()
                    .is_none_or(|set| set.contains(&e.stamp.machine_id))
                && params
                    .product_ids
                    .as_ref()
                    .is_none_or(|set| set.contains(&e.product_id))
        });
        if let Some(l) = opt(&params.location) {
            entries.retain(|e| e.stamp.location_id.as_deref() == Some(l));
        }
        entries.sort_by(|a, b| b.at.cmp(&a.at).then_with(|| b.id.cmp(&a.id)));
        Ok((entries, pg))
    }

    /// The lines of the refill visit a refill-log line belongs to: the lines of the same
    /// machine, employee and source within [`VISIT_MINUTES`] of it, by selection. 404 for a line
    /// that does not exist or whose machine the user may not see.
    pub async fn refill_visit(&self, p: &Principal, id: &str) -> AppResult<Vec<RefillEntry>> {
        let missing = || AppError::NotFound("Refill not found".into());
        let at = ulid::Ulid::from_string(id)
            .ok()
            .and_then(|u| {
                chrono::DateTime::from_timestamp_millis(i64::try_from(u.timestamp_ms()).ok()?)
            })
            .ok_or_else(missing)?;
        // The line's local day lies within a day of its UTC day.
        let day = at.date_naive();
        let mut lines: Vec<RefillEntry> = Vec::new();
        for d in [day.pred_opt(), Some(day), day.succ_opt()]
            .into_iter()
            .flatten()
        {
            let q = Query::partition(Index::Gsi1, format!("REFILLDAY#{d}"));
            for item in query_all(self.store.as_ref(), q).await? {
                lines.push(item.to_value()?);
            }
        }
        let line = lines
            .iter()
            .find(|e| e.id == id)
            .cloned()
            .ok_or_else(missing)?;
        self.machine_for(p, &line.stamp.machine_id)
            .await
            .map_err(|_| missing())?;
        let window = chrono::Duration::minutes(VISIT_MINUTES);
        lines.retain(|e| {
            e.stamp.machine_id == line.stamp.machine_id
                && e.employee_id == line.employee_id
                && e.source == line.source
                && (e.at - line.at).abs() <= window
        });
        lines.sort_by(|a, b| a.selection.cmp(&b.selection).then_with(|| a.at.cmp(&b.at)));
        Ok(lines)
    }

    /// The price changes of a machine's selections, newest first (at most `limit`).
    pub async fn price_history(
        &self,
        p: &Principal,
        machine_id: &str,
        limit: usize,
    ) -> AppResult<Vec<SelectionPriceChange>> {
        self.machine_for(p, machine_id).await?;
        let q = Query::partition(
            Index::Primary,
            crate::machines::Machine::partition(machine_id),
        )
        .sk(SortKey::BeginsWith("PRICE#".into()))
        .backward()
        .limit(limit.clamp(1, 500));
        let page = self.store.query(q).await?;
        page.items
            .iter()
            .map(|i| i.to_value().map_err(AppError::from))
            .collect()
    }
}

/// A product's refills over a period.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductRefills {
    pub product_id: String,
    pub product_name: String,
    pub added: i64,
    pub removed: i64,
    /// Refill-log lines.
    pub lines: usize,
}
