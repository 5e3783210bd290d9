//! The parameters a report runs with, whoever runs it: a report screen's export (decoded from its
//! query string by the HTTP layer), a generated report and a scheduled task's report (from the
//! definition's stored `params`, `vendfleet_app::generator::ReportSpec`). Each module's table
//! builder reads what its screen reads from it, in the application's own parameter types.

use std::collections::BTreeMap;
use vendfleet_app::listing::ListParams;
use vendfleet_app::machines::RefillListParams;
use vendfleet_app::reports::EncashmentParams;
use vendfleet_app::sales::SalesParams;

/// What a report runs with.
#[derive(Debug, Clone, Default)]
pub struct ReportParams {
    /// The period and machine and product filters, and `value`, `group_by`, `grouping_period`.
    pub sales: SalesParams,
    /// The sales overview's search and ordering; the encashments' page and page size.
    pub list: ListParams,
    /// The encashment report's employee ids, comma-separated.
    pub employees: Option<String>,
    /// The inventory's tab (`products`, `components`).
    pub tab: Option<String>,
    /// The refill log's own (older) filters: `machine`, `location`, `from`, `to`.
    pub refills: RefillListParams,
}

impl ReportParams {
    /// The parameters a definition stores (`params` of a `ReportSpec`), read as its screen
    /// reads the same query string.
    pub fn from_map(params: &BTreeMap<String, String>) -> Self {
        let get = |k: &str| params.get(k).cloned();
        ReportParams {
            sales: SalesParams {
                period: get("period"),
                date_from: get("date_from"),
                date_to: get("date_to"),
                clients: get("clients"),
                locations: get("locations"),
                regions: get("regions"),
                machine_tags: get("machine_tags"),
                machines: get("machines"),
                products: get("products"),
                product_tags: get("product_tags"),
                value: get("value"),
                group_by: get("group_by"),
                grouping_period: get("grouping_period"),
            },
            list: ListParams {
                search: get("search"),
                ordering: get("ordering"),
                ..ListParams::default()
            },
            employees: get("employees"),
            tab: get("tab"),
            refills: RefillListParams {
                machine: get("machine"),
                location: get("location"),
                from: get("from"),
                to: get("to"),
                ..RefillListParams::default()
            },
        }
    }

    /// The shared period and filters alone (reports that neither group nor value).
    pub fn filters(&self) -> SalesParams {
        SalesParams {
            value: None,
            group_by: None,
            grouping_period: None,
            ..self.sales.clone()
        }
    }

    /// The encashment report's parameters.
    pub fn encashment(&self) -> EncashmentParams {
        EncashmentParams {
            sales: self.sales.clone(),
            employees: self.employees.clone(),
            list: ListParams {
                page: self.list.page,
                page_size: self.list.page_size,
                ..ListParams::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_definition_reads_as_its_query_string() {
        let map: BTreeMap<String, String> = [
            ("period", "custom"),
            ("date_from", "2026-01-01"),
            ("value", "quantity"),
            ("search", ""),
            ("tab", "components"),
            ("machine", "m1"),
            ("employees", "u1,u2"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let p = ReportParams::from_map(&map);
        assert_eq!(p.sales.period.as_deref(), Some("custom"));
        assert_eq!(p.sales.value.as_deref(), Some("quantity"));
        assert_eq!(p.filters().value, None);
        assert_eq!(p.filters().date_from.as_deref(), Some("2026-01-01"));
        assert_eq!(
            p.list.search.as_deref(),
            Some(""),
            "an empty value is given"
        );
        assert_eq!(p.tab.as_deref(), Some("components"));
        assert_eq!(p.refills.machine.as_deref(), Some("m1"));
        assert_eq!(p.encashment().employees.as_deref(), Some("u1,u2"));
        assert_eq!(p.sales.clients, None);
    }
}
