//! The transaction log: every sale of the query, a row each.

use crate::table::{col, Column};
use crate::{tr, Cell};
use vendfleet_app::sales::Transaction;
use vendfleet_domain::events::Payment;

/// The most rows one export file holds.
pub const MAX_EXPORT_ROWS: usize = 200_000;

/// The log's columns.
pub const COLUMNS: [Column; 8] = [
    col("date_time", "Date and time", "Date et heure", "Data e ora"),
    col("machine", "Machine", "Machine", "Macchina"),
    col("location", "Location", "Emplacement", "Ubicazione"),
    col("selection", "Selection", "Sélection", "Selezione"),
    col("product", "Product", "Produit", "Prodotto"),
    col("quantity", "Quantity", "Quantité", "Quantità"),
    col("revenue", "Revenue", "Chiffre d'affaires", "Ricavo"),
    col(
        "payment_method",
        "Payment method",
        "Moyen de paiement",
        "Metodo di pagamento",
    ),
];

/// The log's sheet name.
pub fn sheet_name(lang: vendfleet_domain::Language) -> String {
    tr(lang, "Transactions", "Transactions", "Transazioni")
}

/// A sale as the cells of [`COLUMNS`].
pub fn cells(r: Transaction, lang: vendfleet_domain::Language) -> Vec<Cell> {
    let payment = match r.payment {
        Payment::Cash => tr(lang, "Cash", "Espèces", "Contanti"),
        Payment::Cashless => tr(lang, "Cashless", "Sans espèces", "Senza contanti"),
    };
    vec![
        r.at.into(),
        r.machine_name.into(),
        r.location_name.unwrap_or_default().into(),
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
