//! Components (cups, beans, sugar …) that composite products are made of.

use super::*;

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
