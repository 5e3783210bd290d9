//! The sales overview's answer: a report (the span and the span before, as cubes of figures by
//! group and bucket), its detail table's rows, and the small rules a query and its answer share.

use crate::listing::{page_of, paging, ListPage, ListParams, Paging};
use crate::AppResult;
use chrono::NaiveDate;
use std::collections::BTreeMap;
use vendfleet_domain::report::Cube;
use vendfleet_domain::FieldErrors;

use super::query::SalesQuery;

/// The key and name of the group of sales that have none (no location, no tag …).
pub const NO_GROUP: &str = "";

/// A sales report: the chosen span and the one it is compared with (`comparison_span`).
#[derive(Debug, Clone)]
pub struct SalesReport {
    pub query: SalesQuery,
    pub current: Cube,
    /// What the span is compared with: `comparison_span(from, to)`.
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
    pub previous: Cube,
    /// The name of every group key of either cube (the empty key: no such group).
    pub names: BTreeMap<String, String>,
}

impl SalesReport {
    /// Group keys by the chosen value over the span, largest first, then by name.
    pub fn ranked_groups(&self) -> Vec<&String> {
        let value = self.query.value;
        let mut keys: Vec<(i64, &str, &String)> = self
            .current
            .groups
            .iter()
            .map(|(k, f)| (value.of(f), self.name(k), k))
            .collect();
        keys.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        keys.into_iter().map(|(_, _, k)| k).collect()
    }

    /// The name of a group key.
    pub fn name<'a>(&'a self, key: &'a str) -> &'a str {
        self.names.get(key).map_or(key, String::as_str)
    }
}

/// One row of the detail table: a group's value in each bucket of the span, and in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailRow {
    pub key: String,
    pub name: String,
    /// The value in each bucket of [`SalesReport::buckets`], in order.
    pub values: Vec<i64>,
    pub total: i64,
}

impl SalesReport {
    /// The first days of the buckets of the span, in order.
    pub fn buckets(&self) -> Vec<NaiveDate> {
        self.query.grouping.buckets(self.query.from, self.query.to)
    }

    /// Every detail row: searched by name, ordered by `name` or `total` (default: `-total`).
    pub fn detail_rows(&self, list: &ListParams) -> AppResult<(Vec<DetailRow>, Paging)> {
        let (mut rows, pg) = self.detail_order(list)?;
        self.fill_values(&mut rows);
        Ok((rows, pg))
    }

    /// A page of the detail table (the values by bucket found for its rows only).
    pub fn detail(&self, list: &ListParams) -> AppResult<ListPage<DetailRow>> {
        let (rows, pg) = self.detail_order(list)?;
        let mut page = page_of(rows, &pg);
        self.fill_values(&mut page.items);
        Ok(page)
    }

    /// The detail rows without their values by bucket, searched and ordered.
    fn detail_order(&self, list: &ListParams) -> AppResult<(Vec<DetailRow>, Paging)> {
        let mut errors = FieldErrors::new();
        let pg = paging(list, &["name", "total"], &mut errors);
        errors.into_result()?;
        let value = self.query.value;
        let mut rows: Vec<DetailRow> = self
            .current
            .groups
            .iter()
            .map(|(key, f)| DetailRow {
                key: key.clone(),
                name: self.name(key).to_string(),
                values: Vec::new(),
                total: value.of(f),
            })
            .filter(|r| pg.search.is_empty() || r.name.to_lowercase().contains(&pg.search))
            .collect();
        let (field, desc) = pg.ordering.clone().unwrap_or(("total".into(), true));
        rows.sort_by(|a, b| {
            let o = if field == "name" {
                a.name.to_lowercase().cmp(&b.name.to_lowercase())
            } else {
                a.total.cmp(&b.total)
            };
            let o = if desc { o.reverse() } else { o };
            o.then_with(|| a.key.cmp(&b.key))
        });
        Ok((rows, pg))
    }

    /// Each row's value in each bucket, in order (zero where the group sold nothing).
    fn fill_values(&self, rows: &mut [DetailRow]) {
        let value = self.query.value;
        let buckets = self.buckets();
        for row in rows {
            let cells = self.current.cells.get(&row.key);
            row.values = buckets
                .iter()
                .map(|b| cells.and_then(|c| c.get(b)).map_or(0, |f| value.of(f)))
                .collect();
        }
    }
}

/// The first days of the buckets of the days `from..=to`, in order (a bucket is a run of days).
pub(crate) fn bucket_starts(
    from: NaiveDate,
    to: NaiveDate,
    bucket: impl Fn(NaiveDate) -> NaiveDate,
) -> Vec<NaiveDate> {
    let mut starts: Vec<NaiveDate> = from
        .iter_days()
        .take_while(|d| *d <= to)
        .map(bucket)
        .collect();
    starts.dedup();
    starts
}
