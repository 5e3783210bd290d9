//! Products area: products with price history, components, composite products with their
//! recipes, product tags, and their filters.

use crate::dto::{Data, ListQuery, ListReply, Message, MessageData, OptionDto};
use crate::error::{ApiResult, ErrorBody};
use crate::export::{Cell, Format, Table};
use crate::extract::{products_perm as perm, Authorized, Json, Query};
use crate::reply::{created, message, options, tr, updated, Created};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::listing::ListParams;
use vendfleet_app::products::{
    currency_exponent, Component, ComponentInput, ComponentListParams, PriceChange, Product,
    ProductInput, ProductListParams, ProductTag, RecipeLineInput, TagsChange,
};

mod components;
mod composites;
mod tags;

/// The products area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_products, create_product))
        .routes(routes!(export_products))
        .routes(routes!(get_product, update_product, delete_product))
        .routes(routes!(product_detail))
        .merge(components::router())
        .merge(composites::router())
        .merge(tags::router())
}

/// The products area's filters (served by the filters area).
pub fn filters_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(product_options))
        .routes(routes!(tag_options))
        .routes(routes!(component_options))
}

fn list_params(q: &ListQuery) -> ListParams {
    ListParams {
        page: q.page,
        page_size: q.page_size,
        search: q.search.clone(),
        ordering: q.ordering.clone(),
    }
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
struct Names {
    tags: HashMap<String, String>,
    components: HashMap<String, (String, String)>,
}

impl Names {
    async fn load(s: &AppState) -> ApiResult<Names> {
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

    fn recipe(&self, p: &Product) -> Vec<RecipeLineDto> {
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

    fn product(&self, p: Product) -> ProductDto {
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

    fn recipe_of(&self, p: Product) -> RecipeDto {
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

impl From<RecipeLineForm> for RecipeLineInput {
    fn from(f: RecipeLineForm) -> Self {
        RecipeLineInput {
            component_id: f.component_id,
            quantity: f.quantity,
        }
    }
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
            tag_ids: f.tag_ids.unwrap_or_default(),
            inactive: f.inactive.unwrap_or(false),
            is_composite: f.is_composite.unwrap_or(false),
            recipe: f.recipe.map(|r| r.into_iter().map(Into::into).collect()),
            version: f.version,
        }
    }
}

/// The products list's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProductsQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub search: Option<String>,
    /// name, created_at, price_minor, vat_bps; `-` for descending.
    pub ordering: Option<String>,
    /// A product tag id.
    pub tag: Option<String>,
    /// `true` or `false`.
    #[param(value_type = Option<crate::contract::Flag>, inline)]
    pub inactive: Option<String>,
    /// `true` or `false`.
    #[param(value_type = Option<crate::contract::Flag>, inline)]
    pub composite: Option<String>,
}

impl From<&ProductsQuery> for ProductListParams {
    fn from(q: &ProductsQuery) -> Self {
        ProductListParams {
            list: ListParams {
                page: q.page,
                page_size: q.page_size,
                search: q.search.clone(),
                ordering: q.ordering.clone(),
            },
            tag: q.tag.clone(),
            inactive: q.inactive.clone(),
            composite: q.composite.clone(),
        }
    }
}

/// Products, paged, with tag, inactive and composite filters.
#[utoipa::path(get, path = "/api/products/", tag = "products", security(("bearer" = [])), params(ProductsQuery),
    responses((status = 200, body = ListReply<ProductDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_products(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductsList>,
    Query(q): Query<ProductsQuery>,
) -> ApiResult<axum::Json<ListReply<ProductDto>>> {
    let page = s.app.products.list_products(&(&q).into()).await?;
    let names = Names::load(&s).await?;
    Ok(axum::Json(ListReply::from_page(page, |p| names.product(p))))
}

/// Creates a product; its first price is the first entry of its price history.
#[utoipa::path(post, path = "/api/products/", tag = "products", security(("bearer" = [])), request_body = ProductForm,
    responses((status = 201, body = MessageData<ProductDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_product(
    State(s): State<AppState>,
    a: Authorized<perm::ProductsNew>,
    Json(f): Json<ProductForm>,
) -> ApiResult<Created<ProductDto>> {
    let p = s
        .app
        .products
        .create_product(a.principal(), f.into())
        .await?;
    Ok(created(
        "Product created successfully",
        Names::load(&s).await?.product(p),
    ))
}

/// One product.
#[utoipa::path(get, path = "/api/products/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ProductDto>), (status = 404, body = ErrorBody)))]
async fn get_product(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ProductDto>>> {
    let p = s.app.products.get_product(&id).await?;
    Ok(axum::Json(Data {
        data: Names::load(&s).await?.product(p),
    }))
}

/// A product with tag names, its recipe with component names and its price history.
#[utoipa::path(get, path = "/api/products/{id}/detail/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ProductDetailDto>), (status = 404, body = ErrorBody)))]
async fn product_detail(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductDetail>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ProductDetailDto>>> {
    let p = s.app.products.get_product(&id).await?;
    let history = s.app.products.price_history(&id).await?;
    Ok(axum::Json(Data {
        data: ProductDetailDto {
            product: Names::load(&s).await?.product(p),
            price_history: history.into_iter().map(Into::into).collect(),
        },
    }))
}

/// Updates a product; a price change is recorded with who and when.
#[utoipa::path(put, path = "/api/products/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)), request_body = ProductForm,
    responses((status = 200, body = MessageData<ProductDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_product(
    State(s): State<AppState>,
    a: Authorized<perm::ProductsEdit>,
    Path(id): Path<String>,
    Json(f): Json<ProductForm>,
) -> ApiResult<axum::Json<MessageData<ProductDto>>> {
    let p = s
        .app
        .products
        .update_product(a.principal(), &id, f.into())
        .await?;
    Ok(updated(
        "Product updated successfully",
        Names::load(&s).await?.product(p),
    ))
}

/// Deletes a product that no machine sells.
#[utoipa::path(delete, path = "/api/products/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "Machines still sell the product")))]
async fn delete_product(
    State(s): State<AppState>,
    a: Authorized<perm::ProductsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    let visible = s.app.machines.visible_ids(a.principal()).await?;
    s.app.products.delete_product(&id, false, &visible).await?;
    Ok(message("Product deleted successfully"))
}

/// Products matching the list's filters as a CSV or XLSX file.
#[utoipa::path(get, path = "/api/products/export/", tag = "products", security(("bearer" = [])), params(ProductsQuery, crate::export::ExportQuery),
    responses((status = 200, response = inline(crate::export::Download)), (status = 400, body = ErrorBody)))]
async fn export_products(
    State(s): State<AppState>,
    a: Authorized<perm::ProductsList>,
    Query(q): Query<ProductsQuery>,
    Query(e): Query<crate::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (items, _) = s.app.products.filtered_products(&(&q).into(), None).await?;
    let names = Names::load(&s).await?;
    let lang = a.principal().user.language;
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let yes_no = |b: bool| {
        if b {
            t("Yes", "Oui", "Sì")
        } else {
            t("No", "Non", "No")
        }
    };
    let header = vec![
        t("Name", "Nom", "Nome"),
        t("SKU", "Référence", "Codice"),
        t("Price", "Prix", "Prezzo"),
        t("Currency", "Devise", "Valuta"),
        t("VAT %", "TVA %", "IVA %"),
        t("Units", "Unités", "Unità"),
        t("Max quantity", "Quantité max.", "Quantità massima"),
        t("Tags", "Étiquettes", "Tag"),
        t("Composite", "Composé", "Composto"),
        t("Inactive", "Inactif", "Inattivo"),
    ];
    let rows = items
        .into_iter()
        .map(|p| {
            let d = names.product(p);
            vec![
                d.name.into(),
                d.sku.into(),
                Cell::Money {
                    minor: d.price_minor,
                    exponent: currency_exponent(&d.currency),
                    currency: d.currency.clone(),
                },
                d.currency.into(),
                Cell::PercentBps(d.vat_bps.into()),
                d.units.into(),
                d.max_quantity.into(),
                d.tags
                    .into_iter()
                    .map(|t| t.name)
                    .collect::<Vec<_>>()
                    .join(", ")
                    .into(),
                yes_no(d.is_composite).into(),
                yes_no(d.inactive).into(),
            ]
        })
        .collect();
    Table {
        sheet: t("Products", "Produits", "Prodotti"),
        header,
        rows,
    }
    .into_download(format, "products", lang)
}

// ---------- filters ----------

/// The active products.
#[utoipa::path(get, path = "/api/filters/products/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn product_options(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductOptions>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(
        s.app
            .products
            .products()
            .all()
            .await?
            .into_iter()
            .filter(|p| !p.inactive)
            .map(|p| (p.id, p.name)),
    ))
}

/// Every product tag.
#[utoipa::path(get, path = "/api/filters/products/tags/", tag = "filters", operation_id = "product_tag_options", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn tag_options(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductTagOptions>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(
        s.app
            .products
            .tags()
            .all()
            .await?
            .into_iter()
            .map(|t| (t.id, t.name)),
    ))
}

/// Every component.
#[utoipa::path(get, path = "/api/filters/products/components/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn component_options(
    State(s): State<AppState>,
    _a: Authorized<perm::ComponentOptions>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(
        s.app
            .products
            .components()
            .all()
            .await?
            .into_iter()
            .map(|c| (c.id, c.name)),
    ))
}
