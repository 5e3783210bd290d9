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

/// The products area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_products, create_product))
        .routes(routes!(export_products))
        .routes(routes!(get_product, update_product, delete_product))
        .routes(routes!(product_detail))
        .routes(routes!(list_components, create_component))
        .routes(routes!(get_component, update_component, delete_component))
        .routes(routes!(list_composites, create_composite))
        .routes(routes!(get_composite, delete_composite))
        .routes(routes!(get_recipe, replace_recipe))
        .routes(routes!(list_tags, create_tag))
        .routes(routes!(manage_tags))
        .routes(routes!(get_tag, update_tag, delete_tag))
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

// ---------- composite products ----------

/// Composite products, paged (the products list's query; `composite` is always true).
#[utoipa::path(get, path = "/api/products/composite-products/", tag = "products", security(("bearer" = [])), params(ProductsQuery),
    responses((status = 200, body = ListReply<ProductDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_composites(
    State(s): State<AppState>,
    _a: Authorized<perm::CompositeProductsList>,
    Query(q): Query<ProductsQuery>,
) -> ApiResult<axum::Json<ListReply<ProductDto>>> {
    let (items, pg) = s
        .app
        .products
        .filtered_products(&(&q).into(), Some(true))
        .await?;
    let page = vendfleet_app::listing::page_of(items, &pg);
    let names = Names::load(&s).await?;
    Ok(axum::Json(ListReply::from_page(page, |p| names.product(p))))
}

/// Creates a composite product (the product form; `is_composite` is always true).
#[utoipa::path(post, path = "/api/products/composite-products/", tag = "products", security(("bearer" = [])), request_body = ProductForm,
    responses((status = 201, body = MessageData<ProductDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_composite(
    State(s): State<AppState>,
    a: Authorized<perm::CompositeProductsNew>,
    Json(f): Json<ProductForm>,
) -> ApiResult<Created<ProductDto>> {
    let mut input: ProductInput = f.into();
    input.is_composite = true;
    let p = s.app.products.create_product(a.principal(), input).await?;
    Ok(created(
        "Product created successfully",
        Names::load(&s).await?.product(p),
    ))
}

/// One composite product.
#[utoipa::path(get, path = "/api/products/composite-products/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ProductDto>), (status = 404, body = ErrorBody)))]
async fn get_composite(
    State(s): State<AppState>,
    _a: Authorized<perm::CompositeProductsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ProductDto>>> {
    let p = s.app.products.get_composite(&id).await?;
    Ok(axum::Json(Data {
        data: Names::load(&s).await?.product(p),
    }))
}

/// Deletes a composite product that no machine sells.
#[utoipa::path(delete, path = "/api/products/composite-products/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_composite(
    State(s): State<AppState>,
    a: Authorized<perm::CompositeProductsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    let visible = s.app.machines.visible_ids(a.principal()).await?;
    s.app.products.delete_product(&id, true, &visible).await?;
    Ok(message("Product deleted successfully"))
}

/// The recipe of a composite product.
#[utoipa::path(get, path = "/api/products/composite-products/{id}/recipe/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<RecipeDto>), (status = 404, body = ErrorBody)))]
async fn get_recipe(
    State(s): State<AppState>,
    _a: Authorized<perm::CompositeProductsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<RecipeDto>>> {
    let p = s.app.products.get_composite(&id).await?;
    Ok(axum::Json(Data {
        data: Names::load(&s).await?.recipe_of(p),
    }))
}

/// `PUT /api/products/composite-products/{id}/recipe/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecipeForm {
    #[serde(default)]
    #[schema(required = true, max_items = 30)]
    pub recipe: Vec<RecipeLineForm>,
    #[serde(default)]
    pub version: Option<u64>,
}

/// Replaces the recipe of a composite product, all or nothing.
#[utoipa::path(put, path = "/api/products/composite-products/{id}/recipe/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)), request_body = RecipeForm,
    responses((status = 200, body = MessageData<RecipeDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn replace_recipe(
    State(s): State<AppState>,
    a: Authorized<perm::CompositeProductsEdit>,
    Path(id): Path<String>,
    Json(f): Json<RecipeForm>,
) -> ApiResult<axum::Json<MessageData<RecipeDto>>> {
    let lines: Vec<RecipeLineInput> = f.recipe.into_iter().map(Into::into).collect();
    let p = s
        .app
        .products
        .replace_recipe(a.principal(), &id, &lines, f.version)
        .await?;
    Ok(updated(
        "Recipe updated successfully",
        Names::load(&s).await?.recipe_of(p),
    ))
}

// ---------- components ----------

/// A component of composite products.
#[derive(Debug, Serialize, ToSchema)]
pub struct ComponentDto {
    pub id: String,
    pub name: String,
    /// g, ml, pcs …
    pub unit: String,
    pub inactive: bool,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

impl From<Component> for ComponentDto {
    fn from(c: Component) -> Self {
        ComponentDto {
            id: c.id,
            name: c.name,
            unit: c.unit,
            inactive: c.inactive,
            created_at: c.created_at,
            updated_at: c.updated_at,
            version: c.version,
        }
    }
}

/// The component form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ComponentForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    /// g, ml, pcs …
    #[serde(default)]
    #[schema(required = true, max_length = 20)]
    pub unit: String,
    #[serde(default)]
    pub inactive: Option<bool>,
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<ComponentForm> for ComponentInput {
    fn from(f: ComponentForm) -> Self {
        ComponentInput {
            name: f.name,
            unit: f.unit,
            inactive: f.inactive.unwrap_or(false),
            version: f.version,
        }
    }
}

/// The components list's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ComponentsQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub search: Option<String>,
    /// name, created_at, unit; `-` for descending.
    pub ordering: Option<String>,
    /// `true` or `false`.
    #[param(value_type = Option<crate::contract::Flag>, inline)]
    pub inactive: Option<String>,
}

/// Components, paged.
#[utoipa::path(get, path = "/api/products/components/", tag = "products", security(("bearer" = [])), params(ComponentsQuery),
    responses((status = 200, body = ListReply<ComponentDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_components(
    State(s): State<AppState>,
    _a: Authorized<perm::ComponentsList>,
    Query(q): Query<ComponentsQuery>,
) -> ApiResult<axum::Json<ListReply<ComponentDto>>> {
    let params = ComponentListParams {
        list: ListParams {
            page: q.page,
            page_size: q.page_size,
            search: q.search,
            ordering: q.ordering,
        },
        inactive: q.inactive,
    };
    let page = s.app.products.list_components(&params).await?;
    Ok(axum::Json(ListReply::from_page(page, ComponentDto::from)))
}

/// Creates a component.
#[utoipa::path(post, path = "/api/products/components/", tag = "products", security(("bearer" = [])), request_body = ComponentForm,
    responses((status = 201, body = MessageData<ComponentDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_component(
    State(s): State<AppState>,
    _a: Authorized<perm::ComponentsNew>,
    Json(f): Json<ComponentForm>,
) -> ApiResult<Created<ComponentDto>> {
    Ok(created(
        "Component created successfully",
        s.app.products.create_component(f.into()).await?.into(),
    ))
}

/// One component.
#[utoipa::path(get, path = "/api/products/components/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ComponentDto>), (status = 404, body = ErrorBody)))]
async fn get_component(
    State(s): State<AppState>,
    _a: Authorized<perm::ComponentsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ComponentDto>>> {
    Ok(axum::Json(Data {
        data: s.app.products.components().get_or_404(&id).await?.into(),
    }))
}

/// Updates a component.
#[utoipa::path(put, path = "/api/products/components/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)), request_body = ComponentForm,
    responses((status = 200, body = MessageData<ComponentDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_component(
    State(s): State<AppState>,
    _a: Authorized<perm::ComponentsEdit>,
    Path(id): Path<String>,
    Json(f): Json<ComponentForm>,
) -> ApiResult<axum::Json<MessageData<ComponentDto>>> {
    Ok(updated(
        "Component updated successfully",
        s.app.products.update_component(&id, f.into()).await?.into(),
    ))
}

/// Deletes a component that no recipe uses.
#[utoipa::path(delete, path = "/api/products/components/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "Recipes still use the component")))]
async fn delete_component(
    State(s): State<AppState>,
    _a: Authorized<perm::ComponentsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    s.app.products.delete_component(&id).await?;
    Ok(message("Component deleted successfully"))
}

// ---------- product tags ----------

/// A product tag.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductTagDto {
    pub id: String,
    pub name: String,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

impl From<ProductTag> for ProductTagDto {
    fn from(t: ProductTag) -> Self {
        ProductTagDto {
            id: t.id,
            name: t.name,
            created_at: t.created_at,
            updated_at: t.updated_at,
            version: t.version,
        }
    }
}

/// The tag form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductTagForm {
    #[serde(default)]
    #[schema(required = true, max_length = 60)]
    pub name: String,
    #[serde(default)]
    pub version: Option<u64>,
}

/// Product tags, paged; ordering by name or created_at.
#[utoipa::path(get, path = "/api/products/tags/", tag = "products", operation_id = "list_product_tags", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = ListReply<ProductTagDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_tags(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductTagsList>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<ListReply<ProductTagDto>>> {
    let page = s.app.products.list_tags(&list_params(&q)).await?;
    Ok(axum::Json(ListReply::from_page(page, ProductTagDto::from)))
}

/// Creates a product tag.
#[utoipa::path(post, path = "/api/products/tags/", tag = "products", operation_id = "create_product_tag", security(("bearer" = [])), request_body = ProductTagForm,
    responses((status = 201, body = MessageData<ProductTagDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_tag(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductTagsNew>,
    Json(f): Json<ProductTagForm>,
) -> ApiResult<Created<ProductTagDto>> {
    Ok(created(
        "Tag created successfully",
        s.app.products.create_tag(&f.name).await?.into(),
    ))
}

/// One product tag.
#[utoipa::path(get, path = "/api/products/tags/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ProductTagDto>), (status = 404, body = ErrorBody)))]
async fn get_tag(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductTagsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ProductTagDto>>> {
    Ok(axum::Json(Data {
        data: s.app.products.tags().get_or_404(&id).await?.into(),
    }))
}

/// Renames a product tag.
#[utoipa::path(put, path = "/api/products/tags/{id}/", tag = "products", security(("bearer" = [])), params(("id" = String, Path)), request_body = ProductTagForm,
    responses((status = 200, body = MessageData<ProductTagDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_tag(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductTagsEdit>,
    Path(id): Path<String>,
    Json(f): Json<ProductTagForm>,
) -> ApiResult<axum::Json<MessageData<ProductTagDto>>> {
    Ok(updated(
        "Tag updated successfully",
        s.app
            .products
            .update_tag(&id, &f.name, f.version)
            .await?
            .into(),
    ))
}

/// Deletes a tag and removes it from its products in one transaction (409 when it is on more
/// than 98 products).
#[utoipa::path(delete, path = "/api/products/tags/{id}/", tag = "products", operation_id = "delete_product_tag", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_tag(
    State(s): State<AppState>,
    _a: Authorized<perm::ProductTagsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    s.app.products.delete_tag(&id).await?;
    Ok(message("Tag deleted successfully"))
}

/// `POST /api/products/tags/manage/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManageProductTagsRequest {
    /// At most 50 products.
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 50)]
    pub product_ids: Vec<String>,
    /// Tag ids to add.
    #[serde(default)]
    pub add: Vec<String>,
    /// Tag ids to remove.
    #[serde(default)]
    pub remove: Vec<String>,
}

/// Adds and removes tags on up to 50 products, all or nothing.
#[utoipa::path(post, path = "/api/products/tags/manage/", tag = "products", operation_id = "manage_product_tags", security(("bearer" = [])), request_body = ManageProductTagsRequest,
    responses((status = 200, body = MessageData<Vec<ProductDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn manage_tags(
    State(s): State<AppState>,
    _a: Authorized<perm::ManageProductTags>,
    Json(r): Json<ManageProductTagsRequest>,
) -> ApiResult<axum::Json<MessageData<Vec<ProductDto>>>> {
    let changed = s
        .app
        .products
        .manage_tags(&TagsChange {
            product_ids: r.product_ids,
            add: r.add,
            remove: r.remove,
        })
        .await?;
    let names = Names::load(&s).await?;
    Ok(updated(
        "Tags updated successfully",
        changed.into_iter().map(|p| names.product(p)).collect(),
    ))
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
