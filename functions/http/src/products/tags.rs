//! Product tags, and tagging products in bulk.

use super::product::*;
use crate::kit::crud;
use crate::kit::dto::{ListQuery, ListReply, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{products_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::products::{ProductTag, TagsChange};

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

crate::kit::fields::from_fields! {
    ProductTag => ProductTagDto { id, name, created_at, updated_at, version }
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

crud::list! {
    /// Product tags, paged; ordering by name or created_at.
    list_tags("/api/products/tags/", "products", operation_id = "list_product_tags")
        -> ProductTagDto,
    |s, _a: perm::ProductTagsList, q: ListQuery| {
        let page = s.app.products.list_tags(&q.list()).await?;
        ListReply::from_page(page, ProductTagDto::from)
    }
}

crud::create! {
    /// Creates a product tag.
    create_tag("/api/products/tags/", "products", operation_id = "create_product_tag")
        -> ProductTagDto,
    "Tag created successfully",
    |s, _a: perm::ProductTagsNew, f: ProductTagForm| {
        s.app.products.create_tag(&f.name).await?.into()
    }
}

crud::get! {
    /// One product tag.
    get_tag("/api/products/tags/{id}/", "products") -> ProductTagDto,
    |s, _a: perm::ProductTagsList, id| s.app.products.tags().get_or_404(&id).await?.into()
}

crud::update! {
    /// Renames a product tag.
    update_tag("/api/products/tags/{id}/", "products") -> ProductTagDto, "Tag updated successfully",
    |s, _a: perm::ProductTagsEdit, id, f: ProductTagForm| {
        s.app.products.update_tag(&id, &f.name, f.version).await?.into()
    }
}

crud::delete! {
    /// Deletes a tag and removes it from its products in one transaction (409 when it is on more
    /// than 98 products).
    delete_tag("/api/products/tags/{id}/", "products", operation_id = "delete_product_tag"),
    "Tag deleted successfully",
    |s, _a: perm::ProductTagsDelete, id| s.app.products.delete_tag(&id).await?
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
