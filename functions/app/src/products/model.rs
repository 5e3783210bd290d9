//! Products, components, product tags, recipe lines and price changes as stored.

use crate::named_record;
use crate::ports::{Item, Key};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Version of the stored shape of products-area entities.
pub const SCHEMA: u32 = 1;

/// One component of a composite product's recipe, in the component's unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecipeLine {
    pub component_id: String,
    /// How much of the component one vend consumes (> 0).
    pub quantity: i64,
}

crate::entity! {
    /// Something a machine sells.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Product {
        /// Operator's article code.
        #[serde(default)]
        pub sku: String,
        /// Default selling price in minor units of `currency`.
        pub price_minor: i64,
        /// ISO 4217 code.
        pub currency: String,
        /// VAT rate in basis points (2000 = 20 %).
        pub vat_bps: u32,
        /// Unit the product is counted in (pcs, cl, g …).
        #[serde(default)]
        pub units: String,
        /// Most one selection can hold.
        #[serde(default)]
        pub max_quantity: Option<i64>,
        /// Units in one case (route picklists round up to whole cases); none: loose units.
        #[serde(default)]
        pub case_size: Option<i64>,
        #[serde(default)]
        pub tag_ids: Vec<String>,
        #[serde(default)]
        pub inactive: bool,
        #[serde(default)]
        pub is_composite: bool,
        /// The recipe of a composite product (empty otherwise); also indexed as recipe-line items.
        #[serde(default)]
        pub recipe: Vec<RecipeLine>,
    }
}
named_record!(Product, "PRODUCT", "Product");

impl Product {
    /// Partition of a product's price changes.
    pub fn prices_partition(product_id: &str) -> String {
        format!("PRICES#{product_id}")
    }
}

crate::entity! {
    /// An ingredient or consumable a composite product is made from (cup, coffee, sugar …).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Component {
        /// Unit recipe quantities are given in (g, ml, pcs …).
        pub unit: String,
        #[serde(default)]
        pub inactive: bool,
    }
}
named_record!(Component, "COMPONENT", "Component");

impl Component {
    /// GSI2 partition of the recipe lines that use a component.
    pub fn use_partition(component_id: &str) -> String {
        format!("COMPONENTUSE#{component_id}")
    }
}

crate::entity! {
    /// A label to group products (hot drinks, snacks, promotion …).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct ProductTag {
    }
    record "PRODUCTTAG", "Tag";
}

/// The item that indexes one recipe line under its component (component in use).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecipeUse {
    pub product_id: String,
    pub component_id: String,
    pub quantity: i64,
    #[serde(default)]
    pub schema: u32,
}

impl RecipeUse {
    /// Key of the line: in the product's partition.
    pub fn key(product_id: &str, component_id: &str) -> Key {
        Key::new(
            format!("PRODUCT#{product_id}"),
            format!("RECIPE#{component_id}"),
        )
    }

    /// The stored item, indexed in GSI2 under the component.
    pub fn item(product_id: &str, line: &RecipeLine) -> Result<Item, crate::ports::StoreError> {
        let u = RecipeUse {
            product_id: product_id.to_string(),
            component_id: line.component_id.clone(),
            quantity: line.quantity,
            schema: SCHEMA,
        };
        Ok(
            Item::from_value(Self::key(product_id, &line.component_id), &u)?.with_gsi2(
                Component::use_partition(&line.component_id),
                format!("PRODUCT#{product_id}"),
            ),
        )
    }
}

/// Who changed something.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangedBy {
    pub id: String,
    pub name: String,
}

/// One change of a product's default price (creation counts, with no old price).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceChange {
    pub product_id: String,
    pub old_price_minor: Option<i64>,
    pub new_price_minor: i64,
    pub currency: String,
    pub changed_by: ChangedBy,
    pub changed_at: DateTime<Utc>,
    #[serde(default)]
    pub schema: u32,
}

impl PriceChange {
    /// Key: the product's price partition, sorted by time (fixed-width UTC stamp, then a ULID).
    pub fn key(&self, unique: &str) -> Key {
        Key::new(
            Product::prices_partition(&self.product_id),
            format!(
                "{}#{unique}",
                self.changed_at.format("%Y-%m-%dT%H:%M:%S%.6fZ")
            ),
        )
    }
}
