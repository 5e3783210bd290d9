//! The transaction log: every sale of the query, a row each.

use crate::{tr, Cell};
use vendfleet_app::sales::Transaction;
use vendfleet_domain::events::Payment;

/// The most rows one export file holds.
pub const MAX_EXPORT_ROWS: usize = 200_000;

/// Names the log's columns in `columns.json` ([`super::columns`]).
pub const TRANSACTIONS: &str = "transactions";

/// The log's sheet name.
pub fn sheet_name(lang: vendfleet_domain::Language) -> String {
    tr(lang, "Transactions", "Transactions", "Transazioni")
}

/// A sale as the cells of the log's columns ([`TRANSACTIONS`]).
pub fn cells(r: Transaction, lang: vendfleet_domain::Language) -> Vec<Cell> {
    let payment = match r.payment {
        Payment::Cash => tr(lang, "Cash", "Espèces", "Contanti"),
        Payment::Cashless => tr(lang, "Cashless", "Sans espèces", "Senza contanti"),
    };
    vec![
        r.at.into(),
        r.stamp.machine_name.into(),
        r.stamp.location_name.unwrap_or_default().into(),
        r.selection.into(),
        r.product_name.into(),
        Cell::Int(i64::from(r.quantity)),
        Cell::Money {
            minor: r.revenue_minor,
            exponent: 2,
            currency: r.currency,
        },
        payment.into(),
    ]
}
