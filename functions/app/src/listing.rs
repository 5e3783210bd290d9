//! Paging, search and ordering of lists that are filtered in memory.

use vendfleet_domain::FieldErrors;

/// Largest page size of a list.
pub const MAX_PAGE_SIZE: usize = 200;

/// Paging, search and ordering of a list.
#[derive(Debug, Clone, Default)]
pub struct ListParams {
    pub page: Option<i64>,
    pub page_size: Option<i64>,
    pub search: Option<String>,
    pub ordering: Option<String>,
}

/// One page of a list.
#[derive(Debug, Clone)]
pub struct ListPage<T> {
    pub items: Vec<T>,
    pub count: usize,
    pub page: usize,
    pub page_size: usize,
}

/// Validated paging of one request.
pub struct Paging {
    pub page: usize,
    pub page_size: usize,
    /// Lower-case search text, empty for none.
    pub search: String,
    /// Field and descending flag.
    pub ordering: Option<(String, bool)>,
}

/// Validates paging parameters; `orderings` are the fields one may order by.
pub fn paging(p: &ListParams, orderings: &[&str], errors: &mut FieldErrors) -> Paging {
    let page = p.page.unwrap_or(1);
    if page < 1 {
        errors.add("page", "Must be 1 or more.");
    }
    let page_size = p.page_size.unwrap_or(25);
    if !(1..=MAX_PAGE_SIZE as i64).contains(&page_size) {
        errors.add(
            "page_size",
            format!("Must be between 1 and {MAX_PAGE_SIZE}."),
        );
    }
    let ordering = match p
        .ordering
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        None => None,
        Some(o) => {
            let (field, desc) = match o.strip_prefix('-') {
                Some(f) => (f, true),
                None => (o, false),
            };
            if orderings.contains(&field) {
                Some((field.to_string(), desc))
            } else {
                errors.add(
                    "ordering",
                    format!("Order by one of: {}.", orderings.join(", ")),
                );
                None
            }
        }
    };
    Paging {
        page: page.max(1) as usize,
        page_size: page_size.clamp(1, MAX_PAGE_SIZE as i64) as usize,
        search: p.search.as_deref().unwrap_or("").trim().to_lowercase(),
        ordering,
    }
}

/// The requested page of `items`.
/// Sorts `items` by the requested ordering (or `default`, ascending): `key` gives, for a field,
/// the text to compare and a tie-breaker (usually the id).
pub fn sort_by<T>(
    items: &mut [T],
    p: &Paging,
    default: &str,
    key: impl Fn(&T, &str) -> (String, String),
) {
    let (field, desc) = p.ordering.clone().unwrap_or((default.to_string(), false));
    items.sort_by(|a, b| {
        let o = key(a, &field).cmp(&key(b, &field));
        if desc {
            o.reverse()
        } else {
            o
        }
    });
}

/// An instant as sortable text (RFC 3339 in UTC sorts in time order).
pub fn sortable_instant(ts: &chrono::DateTime<chrono::Utc>) -> String {
    ts.to_rfc3339()
}

pub fn page_of<T>(items: Vec<T>, p: &Paging) -> ListPage<T> {
    let count = items.len();
    let items = items
        .into_iter()
        .skip((p.page - 1).saturating_mul(p.page_size))
        .take(p.page_size)
        .collect();
    ListPage {
        items,
        count,
        page: p.page,
        page_size: p.page_size,
    }
}
