//! Components (cups, beans, sugar …) that composite products are made of.

use crate::kit::crud;
use crate::kit::dto::{ListReply, Message};
use crate::kit::error::ErrorBody;
use crate::kit::extract::products_perm as perm;
use crate::kit::state::AppState;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::products::{Component, ComponentInput, ComponentListParams};

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_components, create_component))
        .routes(routes!(get_component, update_component, delete_component))
}

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

crate::kit::fields::from_fields! {
    Component => ComponentDto { id, name, unit, inactive, created_at, updated_at, version }
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

crate::kit::fields::from_fields! {
    ComponentForm => ComponentInput { name, unit, version; or_default: inactive }
}

crate::kit::fields::list_query! {
    /// The components list's query.
    pub struct ComponentsQuery => ComponentListParams {
        page,
        page_size,
        search,
        /// name, created_at, unit; `-` for descending.
        ordering,
        /// `true` or `false`.
        #[param(value_type = Option<crate::kit::contract::Flag>, inline)]
        pub inactive: Option<String>,
    }
}

crud::list! {
    /// Components, paged.
    list_components("/api/products/components/", "products") -> ComponentDto,
    |s, _a: perm::ComponentsList, q: ComponentsQuery| {
        let page = s.app.products.list_components(&(&q).into()).await?;
        ListReply::from_page(page, ComponentDto::from)
    }
}

crud::create! {
    /// Creates a component.
    create_component("/api/products/components/", "products") -> ComponentDto,
    "Component created successfully",
    |s, _a: perm::ComponentsNew, f: ComponentForm| {
        s.app.products.create_component(f.into()).await?.into()
    }
}

crud::get! {
    /// One component.
    get_component("/api/products/components/{id}/", "products") -> ComponentDto,
    |s, _a: perm::ComponentsList, id| s.app.products.components().get_or_404(&id).await?.into()
}

crud::update! {
    /// Updates a component.
    update_component("/api/products/components/{id}/", "products") -> ComponentDto,
    "Component updated successfully",
    |s, _a: perm::ComponentsEdit, id, f: ComponentForm| {
        s.app.products.update_component(&id, f.into()).await?.into()
    }
}

crud::delete! {
    /// Deletes a component that no recipe uses.
    delete_component("/api/products/components/{id}/", "products"),
    "Component deleted successfully",
    |s, _a: perm::ComponentsDelete, id| s.app.products.delete_component(&id).await?,
    responses(
        (status = 200, body = Message),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "Recipes still use the component"),
    )
}
