//! The OpenAPI document as a contract: the error answers every operation can give, added in one
//! place from what the operation declares (security, permission, path parameters, query, body);
//! the small enums the schemas name; and the layer that gives every error answer of the API,
//! 405 included, the JSON error body.

use crate::kit::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, ResponseBuilder};
use utoipa::ToSchema;

/// Export file format.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Csv,
    Xlsx,
}

/// A status filter.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StatusFilter {
    Active,
    Inactive,
}

/// A yes/no filter of a query string.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Flag {
    True,
    False,
}

/// Why a machine needs attention (the dashboard): the domain's reasons.
pub use vendfleet_domain::attention::Reason as AttentionReason;

/// A tab of the inventory.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum InventoryTabKey {
    Products,
    Components,
}

/// One entry of the operator's mail allow-list: a domain (`example.com`) or every subdomain of
/// one (`*.example.com`).
#[derive(Debug, Clone, Deserialize)]
#[serde(transparent)]
pub struct MailDomain(pub String);

/// What a mail domain looks like (`domain::reach::mail_domain` checks the same).
const MAIL_DOMAIN_PATTERN: &str = r"^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$";

impl utoipa::PartialSchema for MailDomain {
    fn schema() -> RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A domain (`example.com`) or every subdomain of one (`*.example.com`).",
            ))
            .max_length(Some(253))
            .pattern(Some(MAIL_DOMAIN_PATTERN))
            .into()
    }
}

impl ToSchema for MailDomain {}

/// A report definition's parameters: the query-string parameters of its module's screen. Each
/// module takes its own subset (`docs/api.md`); lists are comma-separated ids.
#[allow(dead_code)]
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportParams {
    /// A period preset (`/api/filters/periods/`).
    #[schema(max_length = 20000)]
    period: Option<String>,
    /// YYYY-MM-DD.
    #[schema(max_length = 20000)]
    date_from: Option<String>,
    /// YYYY-MM-DD.
    #[schema(max_length = 20000)]
    date_to: Option<String>,
    #[schema(max_length = 20000)]
    clients: Option<String>,
    #[schema(max_length = 20000)]
    locations: Option<String>,
    #[schema(max_length = 20000)]
    regions: Option<String>,
    #[schema(max_length = 20000)]
    machine_tags: Option<String>,
    #[schema(max_length = 20000)]
    machines: Option<String>,
    #[schema(max_length = 20000)]
    products: Option<String>,
    #[schema(max_length = 20000)]
    product_tags: Option<String>,
    #[schema(max_length = 20000)]
    value: Option<String>,
    #[schema(max_length = 20000)]
    group_by: Option<String>,
    #[schema(max_length = 20000)]
    grouping_period: Option<String>,
    /// The sales overview's detail-table search.
    #[schema(max_length = 200)]
    search: Option<String>,
    #[schema(max_length = 20000)]
    ordering: Option<String>,
    /// The encashment's employees.
    #[schema(max_length = 20000)]
    employees: Option<String>,
    /// The inventory's tab.
    #[schema(max_length = 20000)]
    tab: Option<String>,
    /// The refill log's older filters.
    #[schema(max_length = 20000)]
    machine: Option<String>,
    #[schema(max_length = 20000)]
    location: Option<String>,
    #[schema(max_length = 20000)]
    from: Option<String>,
    #[schema(max_length = 20000)]
    to: Option<String>,
}

/// Operations open to any signed-in user: every other operation with `security` needs a
/// permission and may answer 403 (`tests/contract.rs` checks both ways against the router).
pub const SIGNED_IN_ONLY: &[&str] = &[
    "me",
    "get_job",
    "switch_language",
    "change_password",
    "employees",
    "operator_settings",
    "periods",
    "location_options",
    "location_types",
    "regions",
    "machine_options",
    "tag_options",
    "tags_by_permissions",
    "mcu_options",
    "values",
    "grouping_periods",
    "group_by",
    "generator_group_by",
    "display",
    "dashboard",
    "modules",
    "scheduler_modules",
    "scheduler_periods",
];

/// The reusable error answers: (status, component name, description).
const ERRORS: &[(u16, &str, &str)] = &[
    (
        400,
        "BadRequest",
        "Invalid input: `errors` names the fields (body fields, query parameters), unknown body fields included",
    ),
    (
        401,
        "Unauthorized",
        "No bearer token, or an invalid, expired or revoked one",
    ),
    (403, "Forbidden", "The signed-in user lacks the permission"),
    (
        404,
        "NotFound",
        "No such item, or one outside the caller's scope",
    ),
    (413, "PayloadTooLarge", "The body is larger than 1 MiB"),
    (415, "UnsupportedMediaType", "The body is not application/json"),
];

/// Adds to every operation the error answers it can give, unless it declares them itself:
/// 400 with a body or a query string, 401 with `security`, 403 when it needs a permission, 404
/// with path parameters, 413 and 415 with a body. 409 and 429 stay with the operations that can
/// give them. Also registers the bearer scheme and the reusable answers.
pub fn complete(doc: &mut OpenApi) {
    let components = doc.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        "bearer",
        utoipa::openapi::security::SecurityScheme::Http(
            utoipa::openapi::security::HttpBuilder::new()
                .scheme(utoipa::openapi::security::HttpAuthScheme::Bearer)
                .bearer_format("JWT")
                .build(),
        ),
    );
    for (_, name, description) in ERRORS {
        components.responses.insert(
            name.to_string(),
            RefOr::T(
                ResponseBuilder::new()
                    .description(*description)
                    .content(
                        "application/json",
                        ContentBuilder::new()
                            .schema(Some(Ref::from_schema_name("ErrorBody")))
                            .build(),
                    )
                    .build(),
            ),
        );
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        let has_path_params = path.contains('{');
        for op in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
        {
            complete_operation(op, has_path_params);
        }
    }
}

fn complete_operation(op: &mut Operation, has_path_params: bool) {
    let secured = op.security.as_ref().is_some_and(|s| !s.is_empty());
    let id = op.operation_id.as_deref().unwrap_or_default();
    let needs_permission = secured && !SIGNED_IN_ONLY.contains(&id);
    let has_body = op.request_body.is_some();
    let has_query = op
        .parameters
        .iter()
        .flatten()
        .any(|p| p.parameter_in == ParameterIn::Query);
    for (status, name, _) in ERRORS {
        let applies = match status {
            400 => has_body || has_query,
            401 => secured,
            403 => needs_permission,
            404 => has_path_params,
            413 | 415 => has_body,
            _ => false,
        };
        if applies {
            op.responses
                .responses
                .entry(status.to_string())
                .or_insert_with(|| RefOr::Ref(Ref::from_response_name(*name)));
        }
    }
}

/// Gives every error answer that is not JSON yet (405 from the router, rejections of axum's own
/// extractors) the JSON error body, keeping its status and headers (`Allow` of a 405).
pub async fn json_errors(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let res = next.run(req).await;
    let status = res.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("application/json"));
    if is_json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if status == StatusCode::METHOD_NOT_ALLOWED {
        let allow = parts
            .headers
            .get(header::ALLOW)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if allow.is_empty() {
            format!("{method} is not allowed here")
        } else {
            format!("{method} is not allowed here; use {allow}")
        }
    } else if text.is_empty() {
        status.canonical_reason().unwrap_or("Error").to_string()
    } else {
        text
    };
    let json = ApiError::new(status, message).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let (_, body) = json.into_parts();
    Response::from_parts(parts, Body::new(body))
}
