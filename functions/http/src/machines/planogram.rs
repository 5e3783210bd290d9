//! Planograms and stock: selections, prices and their history, stock changes, copying.

use crate::kit::dto::{Data, Message, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{machines_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::machines::{SelectionInput, SelectionView};

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(machine_products))
        .routes(routes!(price_history))
        .routes(routes!(save_selection))
        .routes(routes!(set_stock))
        .routes(routes!(delete_selections))
        .routes(routes!(fill_stock))
        .routes(routes!(empty_stock))
        .routes(routes!(copy_products))
}

/// One selection of a machine's planogram.
#[derive(Debug, Serialize, ToSchema)]
pub struct SelectionDto {
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub max: i64,
    /// Minor units of the machine's currency.
    pub price_minor: i64,
    pub current: i64,
    /// Units the slot can still take (max − current).
    pub remaining: i64,
    pub expiry_date: Option<NaiveDate>,
    pub last_purchase: Option<DateTime<Utc>>,
    pub version: u64,
}

impl From<SelectionView> for SelectionDto {
    fn from(v: SelectionView) -> Self {
        let s = v.selection;
        SelectionDto {
            selection: s.selection,
            product_id: s.product_id,
            product_name: v.product_name,
            max: s.max,
            price_minor: s.price_minor,
            current: s.current,
            remaining: v.remaining,
            expiry_date: s.expiry_date,
            last_purchase: s.last_purchase,
            version: s.version,
        }
    }
}

/// The planogram of a machine.
#[utoipa::path(get, path = "/api/machines/{id}/products/", tag = "machines", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<SelectionDto>>), (status = 404, body = ErrorBody)))]
async fn machine_products(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<SelectionDto>>>> {
    let v = s.app.machines.selections(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: v.into_iter().map(Into::into).collect(),
    }))
}

/// A change of a selection's price.
#[derive(Debug, Serialize, ToSchema)]
pub struct PriceChangeDto {
    pub date: DateTime<Utc>,
    pub selection: String,
    pub product_id: String,
    /// Null when the selection was created.
    pub old_price_minor: Option<i64>,
    pub new_price_minor: i64,
    pub changed_by_id: String,
    pub changed_by: String,
}

/// Who changed which selection's price, and when; newest first (the last 200).
#[utoipa::path(get, path = "/api/machines/{id}/prices/", tag = "machines", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<Vec<PriceChangeDto>>), (status = 404, body = ErrorBody)))]
async fn price_history(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<Vec<PriceChangeDto>>>> {
    let changes = s
        .app
        .machines
        .price_history(a.principal(), &id, 200)
        .await?;
    Ok(axum::Json(Data {
        data: changes
            .into_iter()
            .map(|c| PriceChangeDto {
                date: c.at,
                selection: c.selection,
                product_id: c.product_id,
                old_price_minor: c.old_price_minor,
                new_price_minor: c.new_price_minor,
                changed_by_id: c.changed_by_id,
                changed_by: c.changed_by,
            })
            .collect(),
    }))
}

/// Adds or changes one selection.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectionForm {
    #[serde(default)]
    #[schema(required = true)]
    pub machine_id: String,
    /// Up to 10 letters, digits or dashes.
    #[serde(default)]
    #[schema(required = true, max_length = 10, pattern = "^[A-Za-z0-9-]{1,10}$")]
    pub selection: String,
    #[serde(default)]
    #[schema(required = true)]
    pub product_id: String,
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 10000)]
    pub max: i64,
    /// Minor units of the machine's currency.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 100000000)]
    pub price_minor: i64,
    /// At most `max`.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10000)]
    pub current: i64,
    /// YYYY-MM-DD, or null.
    #[serde(default)]
    #[schema(value_type = Option<NaiveDate>)]
    pub expiry_date: Option<String>,
}

/// Adds or changes one selection of a machine; a quantity change is written to the refill log.
#[utoipa::path(post, path = "/api/machines/products/", tag = "machines", security(("bearer" = [])), request_body = SelectionForm,
    responses((status = 200, body = MessageData<SelectionDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn save_selection(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEditProduct>,
    Json(f): Json<SelectionForm>,
) -> ApiResult<axum::Json<MessageData<SelectionDto>>> {
    let input = SelectionInput {
        selection: f.selection,
        product_id: f.product_id,
        max: f.max,
        price_minor: f.price_minor,
        current: f.current,
        expiry_date: f.expiry_date,
    };
    let v = s
        .app
        .machines
        .upsert_selection(a.principal(), &f.machine_id, input)
        .await?;
    Ok(updated("Selection saved successfully", v.into()))
}

/// Quantity and expiry of one selection.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StockForm {
    /// At most the selection's max.
    #[schema(minimum = 0, maximum = 10000)]
    pub current: i64,
    /// YYYY-MM-DD, or null.
    #[serde(default)]
    #[schema(value_type = Option<NaiveDate>)]
    pub expiry_date: Option<String>,
}

/// Sets the quantity and expiry of one selection (refill log written).
#[utoipa::path(put, path = "/api/machines/{id}/products/{selection}/stock/", tag = "machines", security(("bearer" = [])),
    params(("id" = String, Path), ("selection" = String, Path)), request_body = StockForm,
    responses((status = 200, body = MessageData<SelectionDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn set_stock(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEditStock>,
    Path((id, selection)): Path<(String, String)>,
    Json(f): Json<StockForm>,
) -> ApiResult<axum::Json<MessageData<SelectionDto>>> {
    let v = s
        .app
        .machines
        .set_stock(a.principal(), &id, &selection, f.current, f.expiry_date)
        .await?;
    Ok(updated("Stock updated successfully", v.into()))
}

/// Selections of one machine.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectionsRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub machine_id: String,
    /// Selection codes; for fill and empty, none means all.
    #[serde(default)]
    pub selections: Vec<String>,
}

/// Removes selections from a machine's planogram.
#[utoipa::path(post, path = "/api/machines/products/delete/", tag = "machines", security(("bearer" = [])), request_body = SelectionsRequest,
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_selections(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEditProduct>,
    Json(r): Json<SelectionsRequest>,
) -> ApiResult<axum::Json<Message>> {
    let n = s
        .app
        .machines
        .delete_selections(a.principal(), &r.machine_id, &r.selections)
        .await?;
    Ok(axum::Json(Message::new(format!(
        "{n} selection(s) deleted successfully"
    ))))
}

/// Fills selections to their max (all when none are named); every change goes to the refill log.
#[utoipa::path(post, path = "/api/machines/fill-stock/", tag = "machines", security(("bearer" = [])), request_body = SelectionsRequest,
    responses((status = 200, body = MessageData<Vec<SelectionDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn fill_stock(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEditStock>,
    Json(r): Json<SelectionsRequest>,
) -> ApiResult<axum::Json<MessageData<Vec<SelectionDto>>>> {
    restock(&s, a.principal(), &r, true).await
}

/// Empties selections (all when none are named); every change goes to the refill log.
#[utoipa::path(post, path = "/api/machines/empty-stock/", tag = "machines", security(("bearer" = [])), request_body = SelectionsRequest,
    responses((status = 200, body = MessageData<Vec<SelectionDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn empty_stock(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEditStock>,
    Json(r): Json<SelectionsRequest>,
) -> ApiResult<axum::Json<MessageData<Vec<SelectionDto>>>> {
    restock(&s, a.principal(), &r, false).await
}

/// Fills (`fill`) or empties the named selections, all when none are named.
async fn restock(
    s: &AppState,
    p: &vendfleet_app::users::Principal,
    r: &SelectionsRequest,
    fill: bool,
) -> ApiResult<axum::Json<MessageData<Vec<SelectionDto>>>> {
    let v = s
        .app
        .machines
        .restock(p, &r.machine_id, &r.selections, fill);
    let message = if fill {
        "Stock filled successfully"
    } else {
        "Stock emptied successfully"
    };
    Ok(updated(
        message,
        v.await?.into_iter().map(Into::into).collect(),
    ))
}

/// `POST /api/machines/copy-products/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CopyProductsRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub from_machine_id: String,
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub to_machine_ids: Vec<String>,
}

/// Copies a machine's planogram onto other machines (replacing theirs, stock empty); all or nothing.
#[utoipa::path(post, path = "/api/machines/copy-products/", tag = "machines", security(("bearer" = [])), request_body = CopyProductsRequest,
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn copy_products(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEditProduct>,
    Json(r): Json<CopyProductsRequest>,
) -> ApiResult<axum::Json<Message>> {
    s.app
        .machines
        .copy_products(a.principal(), &r.from_machine_id, &r.to_machine_ids)
        .await?;
    Ok(axum::Json(Message::new("Products copied successfully")))
}
