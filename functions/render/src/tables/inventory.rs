//! The inventory report: stock by product or by component.

use crate::table::{titles, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::{App, AppError, AppResult};

/// Names the inventory's product tab columns in `columns.json` ([`super::columns`]).
pub const PRODUCT_STOCK: &str = "product_stock";

/// Names the inventory's component tab columns in `columns.json` ([`super::columns`]).
pub const COMPONENT_STOCK: &str = "component_stock";

/// Whether an inventory `tab` is the component one (400 for an unknown tab).
pub fn component_tab(tab: Option<&str>) -> AppResult<bool> {
    match tab.map(str::trim).unwrap_or("products") {
        "products" | "" => Ok(false),
        "components" => Ok(true),
        _ => Err(AppError::invalid_field(
            "tab",
            "Choose one of: products, components.",
        )),
    }
}

/// The inventory's product or component tab as a table (needs that tab's export permission).
pub async fn inventory_table(
    app: &App,
    p: &Principal,
    q: &SalesParams,
    tab: Option<&str>,
) -> AppResult<Table> {
    use vendfleet_domain::Permission;
    let lang = p.user.language;
    let components = component_tab(tab)?;
    let needs = if components {
        Permission::InventoryComponentsExport
    } else {
        Permission::InventoryProductsExport
    };
    if !p.can(needs) {
        return Err(AppError::Forbidden(format!(
            "You need the permission {}",
            needs.key()
        )));
    }
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    Ok(if components {
        let rows = app.reports.component_stock(p, q).await?;
        Table {
            sheet: t("Components", "Composants", "Componenti"),
            header: titles(lang, super::columns(COMPONENT_STOCK)),
            rows: rows
                .into_iter()
                .map(|r| {
                    vec![
                        r.name.into(),
                        r.unit.into(),
                        r.quantity.into(),
                        (r.machines as i64).into(),
                    ]
                })
                .collect(),
        }
    } else {
        let rows = app.reports.product_stock(p, q).await?;
        Table {
            sheet: t("Products", "Produits", "Prodotti"),
            header: titles(lang, super::columns(PRODUCT_STOCK)),
            rows: rows
                .into_iter()
                .map(|r| {
                    vec![
                        r.name.into(),
                        r.quantity.into(),
                        Cell::Money {
                            minor: r.value_minor,
                            exponent: 2,
                            currency: "EUR".into(),
                        },
                        r.capacity.into(),
                        (r.machines as i64).into(),
                        (r.sold_out as i64).into(),
                        (r.low as i64).into(),
                        r.next_expiry.map_or(Cell::Empty, Cell::Date),
                    ]
                })
                .collect(),
        }
    })
}
