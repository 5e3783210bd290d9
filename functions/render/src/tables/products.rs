//! The products list's export: the products matching the list's filters, a row each, with the
//! names of their tags.

use crate::table::{titles, Table};
use crate::{tr, Cell};
use std::collections::HashMap;
use vendfleet_app::products::{currency_exponent, Product};
use vendfleet_domain::Language;

/// Names the products export's columns in `columns.json` ([`super::columns`]).
pub const PRODUCTS: &str = "products";

/// `products` as a table; `tags` names each tag id (an unknown tag is an empty name).
pub fn products_table(
    lang: Language,
    products: Vec<Product>,
    tags: &HashMap<String, String>,
) -> Table {
    let yes_no = |b: bool| -> Cell {
        if b {
            tr(lang, "Yes", "Oui", "Sì")
        } else {
            tr(lang, "No", "Non", "No")
        }
        .into()
    };
    let rows = products
        .into_iter()
        .map(|p| {
            let tag_names: Vec<&str> = p
                .tag_ids
                .iter()
                .map(|t| tags.get(t).map_or("", String::as_str))
                .collect();
            vec![
                p.name.into(),
                p.sku.into(),
                Cell::Money {
                    minor: p.price_minor,
                    exponent: currency_exponent(&p.currency),
                    currency: p.currency.clone(),
                },
                p.currency.into(),
                Cell::PercentBps(p.vat_bps.into()),
                p.units.into(),
                p.max_quantity.into(),
                tag_names.join(", ").into(),
                yes_no(p.is_composite),
                yes_no(p.inactive),
            ]
        })
        .collect();
    Table {
        sheet: tr(lang, "Products", "Produits", "Prodotti"),
        header: titles(lang, super::columns(PRODUCTS)),
        rows,
    }
}
