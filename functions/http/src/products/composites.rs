//! Composite products (drinks made of components) and their recipes.

use super::*;

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_composites, create_composite))
        .routes(routes!(get_composite, delete_composite))
        .routes(routes!(get_recipe, replace_recipe))
}

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
