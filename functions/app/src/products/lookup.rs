//! What the products area publishes to other areas: a product's name, whether it is inactive
//! and its VAT rate, for the planogram and sales. Other areas read products only through this, never by key strings.

use super::model::Product;
use crate::error::AppResult;
use crate::ports::{ItemStore, Key, MAX_BATCH};
use crate::records::Records;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// A product as the planogram needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductRef {
    pub name: String,
    pub inactive: bool,
    /// VAT rate in basis points (2000 = 20 %), for sales excluding VAT.
    pub vat_bps: u32,
}

/// Read-only lookups over the products area's data.
#[derive(Clone)]
pub struct ProductLookup {
    store: Arc<dyn ItemStore>,
}

impl ProductLookup {
    /// Lookups on `store`.
    pub fn new(store: Arc<dyn ItemStore>) -> Self {
        ProductLookup { store }
    }

    /// The products with these ids that exist, by id.
    pub async fn refs(
        &self,
        ids: impl IntoIterator<Item = String>,
    ) -> AppResult<HashMap<String, ProductRef>> {
        let ids: Vec<String> = ids
            .into_iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let keys: Vec<Key> = ids.iter().map(|id| Records::<Product>::key(id)).collect();
        let mut out = HashMap::new();
        for chunk in keys.chunks(MAX_BATCH) {
            for item in self.store.batch_get(chunk).await? {
                let Some(id) = item.attrs.get("id").and_then(|v| v.as_str()) else {
                    continue;
                };
                let name = item
                    .attrs
                    .get("name")
                    .and_then(|v| v.as_str())
                    .unwrap_or("")
                    .to_string();
                let inactive = item
                    .attrs
                    .get("inactive")
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);
                let vat_bps = item
                    .attrs
                    .get("vat_bps")
                    .and_then(|v| v.as_u64())
                    .and_then(|v| u32::try_from(v).ok())
                    .unwrap_or(0);
                out.insert(
                    id.to_string(),
                    ProductRef {
                        name,
                        inactive,
                        vat_bps,
                    },
                );
            }
        }
        Ok(out)
    }
}
