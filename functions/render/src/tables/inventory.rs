//! The inventory report: stock by product or by component.

use crate::table::{col, titles, Column, Table};
use crate::{tr, Cell};
use vendfleet_app::auth::Principal;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::{App, AppError, AppResult};

/// The inventory's product tab columns.
pub const PRODUCT_STOCK_COLUMNS: [Column; 8] = [
    col("product", "Product", "Produit", "Prodotto"),
    col("quantity", "Quantity", "Quantité", "Quantità"),
    col("value", "Value", "Valeur", "Valore"),
    col("capacity", "Capacity", "Capacité", "Capacità"),
    col("machines", "Machines", "Machines", "Macchine"),
    col("sold_out", "Sold out", "Épuisées", "Esaurite"),
    col("low", "Low", "Basses", "Basse"),
    col(
        "next_expiry",
        "Next expiry",
        "Prochaine péremption",
        "Prossima scadenza",
    ),
];

/// The inventory's component tab columns.
pub const COMPONENT_STOCK_COLUMNS: [Column; 4] = [
    col("component", "Component", "Composant", "Componente"),
    col("unit", "Unit", "Unité", "Unità"),
    col("quantity", "Quantity", "Quantité", "Quantità"),
    col("machines", "Machines", "Machines", "Macchine"),
];

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
            header: titles(lang, &COMPONENT_STOCK_COLUMNS),
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
            header: titles(lang, &PRODUCT_STOCK_COLUMNS),
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
