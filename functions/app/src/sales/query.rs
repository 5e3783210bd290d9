//! The sales reports' query: the parameters as sent (`SalesParams`, `SalesFilters`: one list of
//! the shared period and filters, declared once by `with_filters!`) and checked (`SalesQuery`).

use chrono::NaiveDate;
use std::collections::BTreeSet;
use vendfleet_domain::report::{Choice, GroupBy, Grouping, Value};
use vendfleet_domain::{FieldErrors, Period};

/// The longest span a sales query covers, in days (about three years).
pub const MAX_SPAN_DAYS: i64 = 1100;

/// The ids of a comma-separated list (400 on `field` for more than 1000, or overlong ones).
pub(crate) fn ids(errors: &mut FieldErrors, field: &str, v: &Option<String>) -> BTreeSet<String> {
    let set: BTreeSet<String> = v
        .as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if set.len() > 1000 || set.iter().any(|s| s.len() > 255) {
        errors.add(field, "Give at most 1000 ids of at most 255 characters.");
    }
    set
}

/// Declares a query structure holding the reports' shared period and filters, then `$extra`
/// fields: the one list of those parameters, for every query that takes them (the API's query
/// parameters as they are). With `into $target`, the structure converts into `$target` (the
/// shared filters only).
macro_rules! with_filters {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$fmeta:meta])* pub $field:ident: Option<String>,)* }
     $(into $target:ident)?) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, serde::Deserialize)]
        #[cfg_attr(feature = "schema", derive(utoipa::IntoParams))]
        #[cfg_attr(feature = "schema", into_params(parameter_in = Query))]
        pub struct $name {
            /// A preset of `/api/filters/periods/` (default `current_month`, or `custom` when
            /// dates are given).
            pub period: Option<String>,
            /// First operator-local date, YYYY-MM-DD (with `period=custom`).
            #[cfg_attr(feature = "schema", param(value_type = Option<NaiveDate>))]
            pub date_from: Option<String>,
            /// Last operator-local date, inclusive.
            #[cfg_attr(feature = "schema", param(value_type = Option<NaiveDate>))]
            pub date_to: Option<String>,
            /// Client ids, comma-separated (the machines at their locations).
            pub clients: Option<String>,
            /// Location ids, comma-separated.
            pub locations: Option<String>,
            /// Regions, comma-separated (`/api/filters/regions/`).
            pub regions: Option<String>,
            /// Machine tag ids, comma-separated (machines with any of them).
            pub machine_tags: Option<String>,
            /// Machine ids, comma-separated.
            pub machines: Option<String>,
            /// Product ids, comma-separated.
            pub products: Option<String>,
            /// Product tag ids, comma-separated (products with any of them; with `products`,
            /// either).
            pub product_tags: Option<String>,
            $($(#[$fmeta])* pub $field: Option<String>,)*
        }

        $(
            impl From<$name> for $target {
                fn from(v: $name) -> Self {
                    $target {
                        period: v.period,
                        date_from: v.date_from,
                        date_to: v.date_to,
                        clients: v.clients,
                        locations: v.locations,
                        regions: v.regions,
                        machine_tags: v.machine_tags,
                        machines: v.machines,
                        products: v.products,
                        product_tags: v.product_tags,
                        ..$target::default()
                    }
                }
            }
        )?
    };
}

/// The query keys of the filters `with_filters!` declares, in its order.
pub const FILTER_KEYS: [&str; 7] = [
    "clients",
    "locations",
    "regions",
    "machine_tags",
    "machines",
    "products",
    "product_tags",
];

with_filters! {
    /// The query parameters every sales endpoint takes, as sent (ids comma-separated).
    pub struct SalesParams {
        /// `sales` (default), `quantity` or `sales_excl_tax`.
        pub value: Option<String>,
        /// `machine` (default), `location`, `client`, `product`, `product_tag` or `machine_tag`.
        pub group_by: Option<String>,
        /// `day` (default), `week` or `month`.
        pub grouping_period: Option<String>,
    }
}

with_filters! {
    /// The reports' shared period and filters alone (reports that neither group nor value).
    pub struct SalesFilters {}
    into SalesParams
}

/// A checked sales query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SalesQuery {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub value: Value,
    pub group_by: GroupBy,
    pub grouping: Grouping,
    pub clients: BTreeSet<String>,
    pub locations: BTreeSet<String>,
    pub regions: BTreeSet<String>,
    pub machine_tags: BTreeSet<String>,
    pub machines: BTreeSet<String>,
    pub products: BTreeSet<String>,
    pub product_tags: BTreeSet<String>,
}

fn choice<C: Choice>(errors: &mut FieldErrors, field: &str, v: &Option<String>, default: C) -> C {
    match v.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => default,
        Some(k) => C::from_key(k).unwrap_or_else(|| {
            let keys: Vec<&str> = C::ALL.iter().map(|c| c.key()).collect();
            errors.add(field, format!("Choose one of: {}.", keys.join(", ")));
            default
        }),
    }
}

fn date(errors: &mut FieldErrors, field: &str, v: &Option<String>) -> Option<NaiveDate> {
    let s = v.as_deref().map(str::trim).filter(|s| !s.is_empty())?;
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .map_err(|_| errors.add(field, "Give a date as YYYY-MM-DD."))
        .ok()
}

impl SalesParams {
    /// The checked query, the period's dates taken on the operator's `today`.
    pub fn check(&self, today: NaiveDate) -> Result<SalesQuery, FieldErrors> {
        let mut errors = FieldErrors::new();
        let from = date(&mut errors, "date_from", &self.date_from);
        let to = date(&mut errors, "date_to", &self.date_to);
        let period = match self
            .period
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            None if from.is_some() || to.is_some() => Period::Custom,
            None => Period::CurrentMonth,
            Some(k) => Period::from_key(k).unwrap_or_else(|| {
                let keys: Vec<&str> = Period::ALL.iter().map(|p| p.key()).collect();
                errors.add("period", format!("Choose one of: {}.", keys.join(", ")));
                Period::CurrentMonth
            }),
        };
        let (from, to) = match period.range(today) {
            Some(range) => range,
            None => match (from, to) {
                (Some(f), Some(t)) => (f, t),
                _ => {
                    for (field, v) in [("date_from", from), ("date_to", to)] {
                        if v.is_none() && errors.is_empty() {
                            errors.add(field, "A custom period needs date_from and date_to.");
                        }
                    }
                    (today, today)
                }
            },
        };
        if from > to {
            errors.add("date_to", "Must not be before date_from.");
        } else if (to - from).num_days() >= MAX_SPAN_DAYS {
            errors.add(
                "date_to",
                format!("A report covers at most {MAX_SPAN_DAYS} days."),
            );
        }
        let query = SalesQuery {
            from,
            to,
            value: choice(&mut errors, "value", &self.value, Value::Sales),
            group_by: choice(&mut errors, "group_by", &self.group_by, GroupBy::Machine),
            grouping: choice(
                &mut errors,
                "grouping_period",
                &self.grouping_period,
                Grouping::Day,
            ),
            clients: ids(&mut errors, "clients", &self.clients),
            locations: ids(&mut errors, "locations", &self.locations),
            regions: ids(&mut errors, "regions", &self.regions),
            machine_tags: ids(&mut errors, "machine_tags", &self.machine_tags),
            machines: ids(&mut errors, "machines", &self.machines),
            products: ids(&mut errors, "products", &self.products),
            product_tags: ids(&mut errors, "product_tags", &self.product_tags),
        };
        errors.into_result().map(|()| query)
    }
}
