//! Products area: products (with VAT, units, tags and price history), components, composite
//! products with their recipes, and product tags.

mod lookup;
mod model;
mod service;

pub use lookup::{ProductLookup, ProductRef};
pub use model::{
    ChangedBy, Component, PriceChange, Product, ProductTag, RecipeLine, RecipeUse, SCHEMA,
};
pub use service::{
    currency_exponent, ComponentInput, ComponentListParams, ProductInput, ProductListParams,
    ProductsService, RecipeLineInput, TagsChange, MAX_RECIPE_LINES, MAX_TAGGED_PRODUCTS,
};
