//! Product tags, and tagging products in bulk.

use super::*;

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tags, create_tag))
        .routes(routes!(manage_tags))
        .routes(routes!(get_tag, update_tag, delete_tag))
}

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
