//! What the machines area publishes to other areas: which machines stand at a location, are of a
//! model or sell a product. Other areas read machines only through this, never by key strings.

use super::machine::{Machine, Selection};
use crate::error::AppResult;
use crate::ports::{query_all, Index, ItemStore, Query};
use crate::records::Records;
use std::sync::Arc;

/// A machine as another area names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineRef {
    pub id: String,
    pub name: String,
}

/// Read-only lookups over the machines area's data.
#[derive(Clone)]
pub struct MachineIndex {
    store: Arc<dyn ItemStore>,
    machines: Records<Machine>,
}

impl MachineIndex {
    /// Lookups on `store`.
    pub fn new(store: Arc<dyn ItemStore>) -> Self {
        MachineIndex {
            machines: Records::new(store.clone()),
            store,
        }
    }

    /// The machines standing at a location.
    pub async fn at_location(&self, location_id: &str) -> AppResult<Vec<MachineRef>> {
        Ok(self
            .machines
            .related(&Machine::location_partition(location_id))
            .await?
            .into_iter()
            .map(|m| MachineRef {
                id: m.id,
                name: m.name,
            })
            .collect())
    }

    /// The machines of a model.
    pub async fn of_model(&self, model_id: &str) -> AppResult<Vec<MachineRef>> {
        Ok(self
            .machines
            .all()
            .await?
            .into_iter()
            .filter(|m| m.model_id.as_deref() == Some(model_id))
            .map(|m| MachineRef {
                id: m.id,
                name: m.name,
            })
            .collect())
    }

    /// The machines with a selection selling a product, once per selection.
    pub async fn selling(&self, product_id: &str) -> AppResult<Vec<MachineRef>> {
        let q = Query::partition(Index::Gsi2, Selection::product_partition(product_id));
        Ok(query_all(self.store.as_ref(), q)
            .await?
            .iter()
            .map(|i| {
                let attr = |k: &str| {
                    i.attrs
                        .get(k)
                        .and_then(|v| v.as_str())
                        .unwrap_or("?")
                        .to_string()
                };
                MachineRef {
                    id: attr("machine_id"),
                    name: attr("machine_name"),
                }
            })
            .collect())
    }
}
