//! The products area's own resource (the handlers the other files of the area build on).

use crate::kit::crud;
use crate::kit::dto::{ListReply, Message, OptionDto};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::export::Format;
use crate::kit::extract::{products_perm as perm, Authorized, Query};
use crate::kit::state::AppState;
use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::products::{
    PriceChange, Product, ProductInput, ProductListParams, RecipeLineInput,
};
use vendfleet_render::tables::products::products_table;

/// The products area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_products, create_product))
        .routes(routes!(export_products))
        .routes(routes!(get_product, update_product, delete_product))
        .routes(routes!(product_detail))
}

/// The products area's filters (served by the filters area).
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(product_options))
        .routes(routes!(tag_options))
        .routes(routes!(component_options))
}

// ---------- products ----------

/// One line of a recipe, with the component's name and unit.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecipeLineDto {
    pub component_id: String,
    pub component_name: String,
    /// The component's unit, which `quantity` is given in.
    pub unit: String,
    pub quantity: i64,
}

/// A product.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductDto {
    pub id: String,
    pub name: String,
    pub sku: String,
    /// Default selling price in minor units of `currency` (150 = 1.50 EUR).
    pub price_minor: i64,
    /// ISO 4217 code.
    pub currency: String,
    /// VAT rate in basis points (2000 = 20 %).
    pub vat_bps: u32,
    pub units: String,
    /// Most one selection can hold.
    pub max_quantity: Option<i64>,
    /// Units in one case: route picklists round up to whole cases (none: loose units).
    pub case_size: Option<i64>,
    pub tag_ids: Vec<String>,
    /// The tags with their names.
    pub tags: Vec<OptionDto>,
    pub inactive: bool,
    pub is_composite: bool,
    /// The recipe of a composite product (empty otherwise).
    pub recipe: Vec<RecipeLineDto>,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

/// Who changed a price.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChangedByDto {
    pub id: String,
    pub name: String,
}

/// One change of a product's default price; creation counts (no old price).
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductPriceChangeDto {
    pub old_price_minor: Option<i64>,
    pub new_price_minor: i64,
    pub currency: String,
    pub changed_by: ChangedByDto,
    pub changed_at: DateTime<Utc>,
}

impl From<PriceChange> for ProductPriceChangeDto {
    fn from(c: PriceChange) -> Self {
        ProductPriceChangeDto {
            old_price_minor: c.old_price_minor,
            new_price_minor: c.new_price_minor,
            currency: c.currency,
            changed_by: ChangedByDto {
                id: c.changed_by.id,
                name: c.changed_by.name,
            },
            changed_at: c.changed_at,
        }
    }
}

/// A product with its price history, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductDetailDto {
    #[serde(flatten)]
    pub product: ProductDto,
    pub price_history: Vec<ProductPriceChangeDto>,
}

/// The recipe of a composite product.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecipeDto {
    pub product_id: String,
    pub product_name: String,
    pub recipe: Vec<RecipeLineDto>,
    /// The product's version, to send back with a new recipe.
    pub version: u64,
}

/// Names of tags and components, to show beside ids.
pub(super) struct Names {
    tags: HashMap<String, String>,
    components: HashMap<String, (String, String)>,
}

impl Names {
    pub(super) async fn load(s: &AppState) -> ApiResult<Names> {
        let svc = &s.app.products;
        let tags = svc
            .tags()
            .all()
            .await?
            .into_iter()
            .map(|t| (t.id, t.name))
            .collect();
        let components = svc
            .components()
            .all()
            .await?
            .into_iter()
            .map(|c| (c.id, (c.name, c.unit)))
            .collect();
        Ok(Names { tags, components })
    }

    pub(super) fn recipe(&self, p: &Product) -> Vec<RecipeLineDto> {
        p.recipe
            .iter()
            .map(|l| {
                let (name, unit) = self
                    .components
                    .get(&l.component_id)
                    .cloned()
                    .unwrap_or_default();
                RecipeLineDto {
                    component_id: l.component_id.clone(),
                    component_name: name,
                    unit,
                    quantity: l.quantity,
                }
            })
            .collect()
    }

    pub(super) fn product(&self, p: Product) -> ProductDto {
        let recipe = self.recipe(&p);
        let tags = p
            .tag_ids
            .iter()
            .map(|t| OptionDto {
                id: t.clone(),
                name: self.tags.get(t).cloned().unwrap_or_default(),
            })
            .collect();
        ProductDto {
            id: p.id,
            name: p.name,
            sku: p.sku,
            price_minor: p.price_minor,
            currency: p.currency,
            vat_bps: p.vat_bps,
            units: p.units,
            max_quantity: p.max_quantity,
            case_size: p.case_size,
            tag_ids: p.tag_ids,
            tags,
            inactive: p.inactive,
            is_composite: p.is_composite,
            recipe,
            created_at: p.created_at,
            updated_at: p.updated_at,
            version: p.version,
        }
    }

    pub(super) fn recipe_of(&self, p: Product) -> RecipeDto {
        RecipeDto {
            recipe: self.recipe(&p),
            product_id: p.id,
            product_name: p.name,
            version: p.version,
        }
    }
}

/// One line of a recipe form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecipeLineForm {
    #[serde(default)]
    #[schema(required = true)]
    pub component_id: String,
    /// In the component's unit; more than 0.
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 1000000000)]
    pub quantity: Option<i64>,
}

crate::kit::fields::from_fields! {
    RecipeLineForm => RecipeLineInput { component_id, quantity }
}

/// The product form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub sku: Option<String>,
    /// Minor units, 0 or more.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1000000000000_i64)]
    pub price_minor: Option<i64>,
    /// ISO 4217 code; EUR when left out.
    #[serde(default)]
    pub currency: Option<String>,
    /// Basis points, 0 to 10000.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10000)]
    pub vat_bps: Option<i64>,
    /// pcs when left out.
    #[serde(default)]
    #[schema(max_length = 20)]
    pub units: Option<String>,
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1000000)]
    pub max_quantity: Option<i64>,
    /// Units in one case (none: loose units).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000)]
    pub case_size: Option<i64>,
    #[serde(default)]
    pub tag_ids: Option<Vec<String>>,
    #[serde(default)]
    pub inactive: Option<bool>,
    #[serde(default)]
    pub is_composite: Option<bool>,
    /// Only for composite products; on update, leaving it out keeps the current recipe.
    #[serde(default)]
    #[schema(max_items = 30)]
    pub recipe: Option<Vec<RecipeLineForm>>,
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<ProductForm> for ProductInput {
    fn from(f: ProductForm) -> Self {
        ProductInput {
            name: f.name,
            sku: f.sku.unwrap_or_default(),
            price_minor: f.price_minor,
            currency: f.currency.unwrap_or_default(),
            vat_bps: f.vat_bps,
            units: f.units.unwrap_or_default(),
            max_quantity: f.max_quantity,
            case_size: f.case_size,
            tag_ids: f.tag_ids.unwrap_or_default(),
            inactive: f.inactive.unwrap_or(false),
            is_composite: f.is_composite.unwrap_or(false),
            recipe: f.recipe.map(|r| r.into_iter().map(Into::into).collect()),
            version: f.version,
        }
    }
}

crate::kit::fields::list_query! {
    /// The products list's query.
    pub struct ProductsQuery => ProductListParams {
        page,
        page_size,
        search,
        /// name, created_at, price_minor, vat_bps; `-` for descending.
        ordering,
        /// A product tag id.
        pub tag: Option<String>,
        /// `true` or `false`.
        #[param(value_type = Option<crate::kit::contract::Flag>, inline)]
        pub inactive: Option<String>,
        /// `true` or `false`.
        #[param(value_type = Option<crate::kit::contract::Flag>, inline)]
        pub composite: Option<String>,
    }
}

crud::list! {
    /// Products, paged, with tag, inactive and composite filters.
    list_products("/api/products/", "products") -> ProductDto,
    |s, _a: perm::ProductsList, q: ProductsQuery| {
        let page = s.app.products.list_products(&(&q).into()).await?;
        let names = Names::load(&s).await?;
        ListReply::from_page(page, |p| names.product(p))
    }
}

crud::create! {
    /// Creates a product; its first price is the first entry of its price history.
    create_product("/api/products/", "products") -> ProductDto, "Product created successfully",
    |s, a: perm::ProductsNew, f: ProductForm| {
        let p = s.app.products.create_product(a.principal(), f.into()).await?;
        Names::load(&s).await?.product(p)
    }
}

crud::get! {
    /// One product.
    get_product("/api/products/{id}/", "products") -> ProductDto,
    |s, _a: perm::ProductsList, id| {
        let p = s.app.products.get_product(&id).await?;
        Names::load(&s).await?.product(p)
    }
}

crud::get! {
    /// A product with tag names, its recipe with component names and its price history.
    product_detail("/api/products/{id}/detail/", "products") -> ProductDetailDto,
    |s, _a: perm::ProductDetail, id| {
        let p = s.app.products.get_product(&id).await?;
        let history = s.app.products.price_history(&id).await?;
        ProductDetailDto {
            product: Names::load(&s).await?.product(p),
            price_history: history.into_iter().map(Into::into).collect(),
        }
    }
}

crud::update! {
    /// Updates a product; a price change is recorded with who and when.
    update_product("/api/products/{id}/", "products") -> ProductDto, "Product updated successfully",
    |s, a: perm::ProductsEdit, id, f: ProductForm| {
        let p = s.app.products.update_product(a.principal(), &id, f.into()).await?;
        Names::load(&s).await?.product(p)
    }
}

crud::delete! {
    /// Deletes a product that no machine sells.
    delete_product("/api/products/{id}/", "products"), "Product deleted successfully",
    |s, a: perm::ProductsDelete, id| {
        let visible = s.app.machines.visible_ids(a.principal()).await?;
        s.app.products.delete_product(&id, false, &visible).await?
    },
    responses(
        (status = 200, body = Message),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Machines still sell the product"),
    )
}

/// Products matching the list's filters as a CSV or XLSX file.
#[utoipa::path(get, path = "/api/products/export/", tag = "products", security(("bearer" = [])), params(ProductsQuery, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>), (status = 400, body = ErrorBody)))]
pub(super) async fn export_products(
    State(s): State<AppState>,
    a: Authorized<perm::ProductsList>,
    Query(q): Query<ProductsQuery>,
    Query(e): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (items, _) = s.app.products.filtered_products(&(&q).into(), None).await?;
    let names = Names::load(&s).await?;
    let lang = a.principal().user.language;
    let table = products_table(lang, items, &names.tags);
    crate::kit::export::answer(table, &s, a.requester(), format, "products").await
}

// ---------- filters ----------

crud::options! {
    /// The active products.
    product_options("/api/filters/products/"),
    |s, _a: perm::ProductOptions| {
        let products = s.app.products.products().all().await?;
        products.into_iter().filter(|p| !p.inactive).map(|p| (p.id, p.name))
    }
}

crud::options! {
    /// Every product tag.
    tag_options("/api/filters/products/tags/", operation_id = "product_tag_options"),
    |s, _a: perm::ProductTagOptions| {
        s.app.products.tags().all().await?.into_iter().map(|t| (t.id, t.name))
    }
}

crud::options! {
    /// Every component.
    component_options("/api/filters/products/components/"),
    |s, _a: perm::ComponentOptions| {
        let components = s.app.products.components().all().await?;
        components.into_iter().map(|c| (c.id, c.name))
    }
}
