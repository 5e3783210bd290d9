//! The refill log (every stock change, by users and by machines).

use super::*;

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(refills))
}

/// A line of the refill log.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefillDto {
    pub id: String,
    pub date: DateTime<Utc>,
    pub local_date: NaiveDate,
    pub machine_id: String,
    pub machine: String,
    pub location_id: Option<String>,
    pub location: Option<String>,
    pub employee_id: String,
    pub employee: String,
    /// manual, fill-stock, empty-stock, copy-products, or machine (a refill the machine reported).
    pub source: String,
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub amount_added: i64,
    pub amount_removed: i64,
}

impl From<RefillEntry> for RefillDto {
    fn from(e: RefillEntry) -> Self {
        RefillDto {
            id: e.id,
            date: e.at,
            local_date: e.local_date,
            machine_id: e.machine_id,
            machine: e.machine_name,
            location_id: e.location_id,
            location: e.location_name,
            employee_id: e.employee_id,
            employee: e.employee_name,
            source: e.source,
            selection: e.selection,
            product_id: e.product_id,
            product_name: e.product_name,
            amount_added: e.added,
            amount_removed: e.removed,
        }
    }
}

/// The refill log's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RefillsQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub machine: Option<String>,
    pub location: Option<String>,
    /// First local day, YYYY-MM-DD (default: 30 days before `to`).
    #[param(value_type = Option<NaiveDate>)]
    pub from: Option<String>,
    /// Last local day, YYYY-MM-DD (default: today).
    #[param(value_type = Option<NaiveDate>)]
    pub to: Option<String>,
}

/// The refill log of the machines the user may see, newest first.
#[utoipa::path(get, path = "/api/refills/", tag = "machines", security(("bearer" = [])), params(RefillsQuery),
    responses((status = 200, body = ListReply<RefillDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn refills(
    State(s): State<AppState>,
    a: Authorized<perm::RefillLog>,
    Query(q): Query<RefillsQuery>,
) -> ApiResult<axum::Json<ListReply<RefillDto>>> {
    let params = RefillListParams {
        page: q.page,
        page_size: q.page_size,
        machine: q.machine,
        location: q.location,
        from: q.from,
        to: q.to,
    };
    let page = s.app.machines.refills(a.principal(), &params).await?;
    Ok(axum::Json(ListReply::from_page(page, RefillDto::from)))
}
