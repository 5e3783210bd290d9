//! The report tables: what turns a report's results into a [`Table`], for the report screens'
//! exports and the report generator alike. [`module_table`] runs a report module with the
//! parameters a report runs with ([`ReportParams`]). The list screens' exports (users, machines,
//! products, locations) are tables of the same kind. Each table's columns (keys and titles) are
//! data, `columns.json`, read by [`columns`].

pub mod encashment;
pub mod inventory;
pub mod locations;
pub mod machines;
pub mod money;
pub mod products;
pub mod refills;
pub mod routes;
pub mod sales;
mod text;
pub mod transactions;
pub mod users;

pub use text::columns;
pub(crate) use text::{active_status, label};

use crate::params::ReportParams;
use crate::table::{titles, Table};
use vendfleet_app::auth::Principal;
use vendfleet_app::generator::Module;
use vendfleet_app::sales::SalesReport;
use vendfleet_app::{App, AppResult};

/// A module's whole table, with the sales report behind the sales overview's; the transaction
/// log holds at most `max_rows` (more is a 400 that says how many there are).
pub async fn module_table(
    app: &App,
    p: &Principal,
    module: Module,
    params: &ReportParams,
    max_rows: usize,
) -> AppResult<(Table, Option<SalesReport>)> {
    Ok(match module {
        Module::SalesOverview => {
            let (t, r) = sales::overview_table(app, p, &params.sales, &params.list).await?;
            (t, Some(r))
        }
        Module::Encashment => (
            encashment::encashment_table(app, p, &params.encashment()).await?,
            None,
        ),
        Module::RefillLog => (
            refills::refill_table(app, p, params.refills.clone(), &params.filters()).await?,
            None,
        ),
        Module::Inventory => (
            inventory::inventory_table(app, p, &params.sales, params.tab.as_deref()).await?,
            None,
        ),
        Module::TransactionLog => {
            let lang = p.user.language;
            let rows = app
                .sales
                .all_transactions(p, &params.sales, max_rows)
                .await?;
            (
                Table {
                    sheet: transactions::sheet_name(lang),
                    header: titles(lang, columns(transactions::TRANSACTIONS)),
                    rows: rows
                        .into_iter()
                        .map(|r| transactions::cells(r, lang))
                        .collect(),
                },
                None,
            )
        }
    })
}

/// Every table's name in `columns.json`, as the tables' modules name them.
pub const TABLES: [&str; 13] = [
    refills::REFILLS,
    encashment::ENCASHMENT,
    inventory::PRODUCT_STOCK,
    inventory::COMPONENT_STOCK,
    money::VISITS,
    money::VAT,
    money::RECONCILIATION,
    routes::ROUTE,
    transactions::TRANSACTIONS,
    users::USERS,
    machines::MACHINES,
    products::PRODUCTS,
    locations::LOCATIONS,
];

#[cfg(test)]
mod tests {
    use super::text::{COLUMNS, LABELS};
    use super::*;
    use std::collections::HashMap;
    use std::collections::HashSet;
    use vendfleet_domain::Language;

    #[test]
    fn every_table_has_its_columns_with_unique_keys_and_three_titles() {
        let named: HashSet<&str> = TABLES.into_iter().collect();
        assert_eq!(named.len(), TABLES.len(), "a table name twice");
        let listed: HashSet<&str> = COLUMNS.keys().copied().collect();
        assert_eq!(named, listed, "TABLES and columns.json's tables differ");
        for table in TABLES {
            let cols = columns(table);
            assert!(!cols.is_empty(), "{table}: no columns");
            let mut keys = HashSet::new();
            for c in cols {
                assert!(keys.insert(c.key), "{table}: column “{}” twice", c.key);
                for text in [c.key, c.en, c.fr, c.it] {
                    assert!(
                        !text.trim().is_empty(),
                        "{table}: “{}” has an empty text",
                        c.key
                    );
                }
            }
        }
    }

    /// A list export's record from the fields it needs besides its id, name and dates.
    fn record<T: serde::de::DeserializeOwned>(fields: serde_json::Value) -> T {
        let mut v = serde_json::json!({
            "id": "r1",
            "name": "Record",
            "created_at": "2024-05-01T08:00:00Z",
            "updated_at": "2024-05-01T08:00:00Z",
        });
        if let (Some(v), serde_json::Value::Object(f)) = (v.as_object_mut(), fields) {
            v.extend(f);
        }
        serde_json::from_value(v).expect("a record")
    }

    /// Each row of `t` has a cell for each of `table`'s columns, and its header their titles.
    fn assert_width(t: &Table, table: &str) {
        assert_eq!(t.header.len(), columns(table).len(), "{table}");
        assert!(!t.rows.is_empty(), "{table}: no row");
        for row in &t.rows {
            assert_eq!(row.len(), t.header.len(), "{table}");
        }
    }

    #[test]
    fn the_pure_tables_have_a_cell_for_each_column() {
        for lang in [Language::En, Language::Fr, Language::It] {
            let t = vendfleet_app::sales::Transaction {
                stamp: vendfleet_app::fleet::MachineStamp {
                    machine_id: "m1".into(),
                    machine_name: "Lobby".into(),
                    location_id: None,
                    location_name: None,
                },
                event_id: "e1".into(),
                at: chrono::DateTime::UNIX_EPOCH,
                local_date: chrono::NaiveDate::MIN,
                selection: "A1".into(),
                product_id: "p1".into(),
                product_name: "Water".into(),
                quantity: 1,
                revenue_minor: 150,
                net_minor: 125,
                payment: vendfleet_domain::events::Payment::Cash,
                currency: "EUR".into(),
            };
            let cells = transactions::cells(t, lang);
            assert_eq!(cells.len(), columns(transactions::TRANSACTIONS).len());
            let machine = record(serde_json::json!({
                "model_id": null,
                "location_id": null,
                "currency": "EUR",
                "decimal_places": 2,
                "webhook_secret": "",
            }));
            let t = machines::machines_table(
                lang,
                vec![machine],
                &HashMap::new(),
                &HashMap::new(),
                &HashMap::new(),
            );
            assert_width(&t, machines::MACHINES);
            let product = record(serde_json::json!({
                "price_minor": 150,
                "currency": "EUR",
                "vat_bps": 2000,
            }));
            let t = products::products_table(lang, vec![product], &HashMap::new());
            assert_width(&t, products::PRODUCTS);
            let location = record(serde_json::json!({ "time_zone": "Europe/Paris" }));
            let clients = std::collections::BTreeMap::new();
            let t = locations::locations_table(lang, vec![location], &clients, &HashMap::new());
            assert_width(&t, locations::LOCATIONS);
        }
    }

    #[test]
    fn every_choice_a_report_writes_has_its_label_in_three_languages() {
        use vendfleet_app::reports::{ExplanationKind as E, VisitStatus as V};
        use vendfleet_app::settlements::Status;
        use vendfleet_domain::report::Choice;
        let visits = [V::First, V::Matched, V::Explained, V::Unexplained];
        let kinds = [
            E::ManualStockEntry,
            E::CounterReset,
            E::BoardChange,
            E::HeldRead,
            E::TubeRefill,
            E::LateEvent,
        ];
        let keys = |group: &str| -> Vec<String> {
            let g = &LABELS[group];
            assert!(g.values().flatten().all(|t| !t.is_empty()), "{group}");
            g.keys().map(|k| k.to_string()).collect()
        };
        let checked = |group: &str, values: Vec<serde_json::Value>| {
            let mut listed = keys(group);
            let mut wanted: Vec<String> = values
                .iter()
                .map(|v| v.as_str().expect("a unit variant").to_string())
                .collect();
            listed.sort();
            wanted.sort();
            assert_eq!(listed, wanted, "labels.json's {group}");
            for lang in [Language::En, Language::Fr, Language::It] {
                for key in &wanted {
                    assert_ne!(&label(lang, group, key), key, "{group} {key} in {lang:?}");
                }
            }
        };
        fn json(v: impl serde::Serialize) -> serde_json::Value {
            serde_json::to_value(v).expect("serialisable")
        }
        checked("visit_status", visits.into_iter().map(json).collect());
        checked("explanation", kinds.into_iter().map(json).collect());
        checked("settlement_status", Status::ALL.iter().map(json).collect());
    }
}
