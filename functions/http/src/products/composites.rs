//! Composite products (drinks made of components) and their recipes.

use super::product::*;
use crate::kit::crud;
use crate::kit::dto::{ListReply, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{products_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::products::{ProductInput, RecipeLineInput};

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_composites, create_composite))
        .routes(routes!(get_composite, delete_composite))
        .routes(routes!(get_recipe, replace_recipe))
}

crud::list! {
    /// Composite products, paged (the products list's query; `composite` is always true).
    list_composites("/api/products/composite-products/", "products") -> ProductDto,
    |s, _a: perm::CompositeProductsList, q: ProductsQuery| {
        let (items, pg) = s.app.products.filtered_products(&(&q).into(), Some(true)).await?;
        let page = vendfleet_app::listing::page_of(items, &pg);
        let names = Names::load(&s).await?;
        ListReply::from_page(page, |p| names.product(p))
    }
}

crud::create! {
    /// Creates a composite product (the product form; `is_composite` is always true).
    create_composite("/api/products/composite-products/", "products") -> ProductDto,
    "Product created successfully",
    |s, a: perm::CompositeProductsNew, f: ProductForm| {
        let mut input: ProductInput = f.into();
        input.is_composite = true;
        let p = s.app.products.create_product(a.principal(), input).await?;
        Names::load(&s).await?.product(p)
    }
}

crud::get! {
    /// One composite product.
    get_composite("/api/products/composite-products/{id}/", "products") -> ProductDto,
    |s, _a: perm::CompositeProductsList, id| {
        let p = s.app.products.get_composite(&id).await?;
        Names::load(&s).await?.product(p)
    }
}

crud::delete! {
    /// Deletes a composite product that no machine sells.
    delete_composite("/api/products/composite-products/{id}/", "products"),
    "Product deleted successfully",
    |s, a: perm::CompositeProductsDelete, id| {
        let visible = s.app.machines.visible_ids(a.principal()).await?;
        s.app.products.delete_product(&id, true, &visible).await?
    }
}

crud::get! {
    /// The recipe of a composite product.
    get_recipe("/api/products/composite-products/{id}/recipe/", "products") -> RecipeDto,
    |s, _a: perm::CompositeProductsList, id| {
        let p = s.app.products.get_composite(&id).await?;
        Names::load(&s).await?.recipe_of(p)
    }
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
