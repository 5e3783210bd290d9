//! Extractors: JSON bodies and query strings with per-field errors, the signed-in user with a
//! declared permission, and the client's address.

use crate::kit::error::ApiError;
use crate::kit::state::AppState;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;
use std::marker::PhantomData;
use vendfleet_app::auth::Principal;
use vendfleet_domain::{FieldErrors, Permission};

/// Largest accepted request body.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The largest settlement import body: a settlement file of about 7 MB, base64-encoded.
pub const MAX_IMPORT_BODY_BYTES: usize = 10 * 1024 * 1024;

/// A JSON body; bad JSON gives 400 naming the field, an oversized body 413.
pub struct Json<T>(pub T);

impl<S, T> FromRequest<S> for Json<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/json") || ct.contains("+json"));
        if !is_json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "Send the body as application/json",
            ));
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!("The body is larger than {MAX_BODY_BYTES} bytes"),
                    )
                } else {
                    ApiError::new(StatusCode::BAD_REQUEST, "The body could not be read")
                }
            })?;
        parse_json(&bytes).map(Json)
    }
}

/// Parses JSON, turning a type error into a field error: an unknown or missing field, a value of
/// the wrong type, and an integer beyond the documented 64-bit signed range are each a 400 naming
/// the field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if let Some(field) = oversized_integer(bytes) {
        return Err(ApiError::fields(
            "Invalid input",
            FieldErrors::single(field, "Must be at most 9223372036854775807."),
        ));
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let first = serde_path_to_error::deserialize(de);
    // JSON Schema counts `783.0` as an integer: retry with integral numbers written as integers
    // (only when a float was refused, so the usual body is parsed once).
    let result = match first {
        Err(e)
            if e.inner()
                .to_string()
                .starts_with("invalid type: floating point") =>
        {
            match serde_json::from_slice::<serde_json::Value>(bytes) {
                Ok(mut v) => {
                    integral_floats_as_integers(&mut v);
                    serde_path_to_error::deserialize(v)
                }
                Err(_) => Err(e),
            }
        }
        other => other,
    };
    result.map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if let Some(field) = missing_field(&inner.to_string()) {
            let key = if path == "." {
                field
            } else {
                format!("{path}.{field}")
            };
            return ApiError::fields(
                format!("Invalid input: {key:?} is required"),
                FieldErrors::single(key, "This field is required."),
            );
        }
        if let Some(field) = unknown_field(&inner.to_string()) {
            // The path names the field itself (`peripherals.cashless.colour`).
            let key = if path == "." {
                field
            } else if path == field || path.ends_with(&format!(".{field}")) {
                path
            } else {
                format!("{path}.{field}")
            };
            return ApiError::fields(
                format!("Invalid input: unknown field {key:?}"),
                FieldErrors::single(key, "Unknown field: this request does not take it."),
            );
        }
        if inner.is_syntax() || inner.is_eof() || path == "." {
            let mut errors = FieldErrors::new();
            if path != "." {
                errors.add(path, inner.to_string());
            }
            return ApiError::fields(format!("Invalid JSON: {inner}"), errors);
        }
        ApiError::fields(
            "Invalid input",
            FieldErrors::single(path, field_message(&inner.to_string())),
        )
    })
}

/// Writes every number with no fraction (`783.0`, `1e3`) that fits a 64-bit integer as an
/// integer.
fn integral_floats_as_integers(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f >= i64::MIN as f64 && f < i64::MAX as f64 {
                *v = serde_json::Value::from(f as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(integral_floats_as_integers),
        serde_json::Value::Object(fields) => {
            fields.values_mut().for_each(integral_floats_as_integers)
        }
        _ => {}
    }
}

/// The field named by serde's "missing field `x`".
fn missing_field(serde_msg: &str) -> Option<String> {
    let rest = serde_msg.strip_prefix("missing field `")?;
    rest.split_once('`').map(|(name, _)| name.to_string())
}

/// The path of the first integer beyond `i64::MAX` (the schemas' `int64`), if any: serde would take
/// it into a `u64` the document says cannot hold it. Bodies without a 19-digit number are not
/// parsed twice.
fn oversized_integer(bytes: &[u8]) -> Option<String> {
    let mut run = 0;
    let long = bytes.iter().any(|b| {
        run = if b.is_ascii_digit() { run + 1 } else { 0 };
        run >= 19
    });
    if !long {
        return None;
    }
    fn find(v: &serde_json::Value, path: &str) -> Option<String> {
        match v {
            serde_json::Value::Number(n) => n
                .as_u64()
                .is_some_and(|u| u > i64::MAX as u64)
                .then(|| path.to_string()),
            serde_json::Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, item)| find(item, &format!("{path}[{i}]"))),
            serde_json::Value::Object(fields) => fields.iter().find_map(|(k, item)| {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                find(item, &p)
            }),
            _ => None,
        }
    }
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    find(&v, "")
}

/// The field named by serde's "unknown field `x`, expected …" (bodies refuse unknown fields).
fn unknown_field(serde_msg: &str) -> Option<String> {
    let rest = serde_msg.strip_prefix("unknown field `")?;
    rest.split_once('`').map(|(name, _)| name.to_string())
}

fn field_message(serde_msg: &str) -> String {
    // serde's messages end with " at line L column C": drop the position, keep the reason.
    let msg = serde_msg.split(" at line ").next().unwrap_or(serde_msg);
    if msg.starts_with("invalid type") {
        format!("Wrong type: {}.", msg.trim_start_matches("invalid type: "))
    } else {
        format!("{}{}.", msg[..1].to_uppercase(), &msg[1..])
    }
}

/// A query string; a value of the wrong type gives 400 naming the parameter.
pub struct Query<T>(pub T);

impl<S, T> FromRequestParts<S> for Query<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let q = parts.uri.query().unwrap_or("");
        axum::extract::Query::<T>::try_from_uri(&parts.uri)
            .map(|axum::extract::Query(v)| Query(v))
            .map_err(|e| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("Invalid query string {q:?}: {}", e.body_text()),
                )
            })
    }
}

/// The caller's network address, as the binary saw it (socket peer locally, API Gateway's
/// `sourceIp` on Lambda).
#[derive(Debug, Clone)]
pub struct ClientAddr(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientAddr>()
            .cloned()
            .unwrap_or_else(|| ClientAddr("unknown".into())))
    }
}

/// What an endpoint requires of the signed-in user.
pub trait Requirement: Send + Sync + 'static {
    /// Whether `p` may call the endpoint.
    fn allows(p: &Principal) -> bool;
    /// The permission keys, for error messages and docs.
    fn describe() -> String;
}

/// Any signed-in user.
pub struct SignedIn;

impl Requirement for SignedIn {
    fn allows(_: &Principal) -> bool {
        true
    }
    fn describe() -> String {
        "signed in".into()
    }
}

/// An administrator of access (users and roles) who sees every machine: who sets the operator's
/// policies and reads the audit trail.
pub struct FleetAdmin;

impl Requirement for FleetAdmin {
    fn allows(p: &Principal) -> bool {
        p.is_fleet_admin()
    }
    fn describe() -> String {
        "settings.users.edit and settings.roles.edit with access to all machines".into()
    }
}

/// Declares requirement types: `require!(Name => Permission::A)` or `Name => any(A, B)`.
macro_rules! require {
    ($( $name:ident => $($perm:ident)|+ ;)+) => {
        $(
            #[doc = concat!("Requires any of: ", $(stringify!($perm), " "),+)]
            pub struct $name;
            impl Requirement for $name {
                fn allows(p: &Principal) -> bool {
                    false $(|| p.can(Permission::$perm))+
                }
                fn describe() -> String {
                    [$(Permission::$perm.key()),+].join(" or ")
                }
            }
        )+
    };
}

/// The requirement types of the endpoints.
pub mod perm {
    use super::*;
    require! {
        UsersList => UsersList;
        UsersNew => UsersNew;
        UsersEdit => UsersEdit;
        UsersDelete => UsersDelete;
        UsersExport => UsersExport;
        RolesList => RolesList;
        RolesNew => RolesNew;
        RolesEdit => RolesEdit;
        RolesDelete => RolesDelete;
        RoleOptions => UsersList | UsersNew | UsersEdit | RolesList;
        PermissionCatalogue => RolesList | RolesNew | RolesEdit;
        Positions => UsersList | UsersNew | UsersEdit;
    }
}

/// The signed-in user, checked against requirement `R` (401 without a valid token, 403 without
/// the permission), and the request they made.
pub struct Authorized<R: Requirement> {
    principal: Principal,
    request: String,
    _r: PhantomData<R>,
}

/// Who asks, and what they asked (path and query): what the audit trail records of an export.
#[derive(Clone, Copy)]
pub struct Requester<'a> {
    pub principal: &'a Principal,
    pub request: &'a str,
}

impl<R: Requirement> Authorized<R> {
    /// The principal.
    pub fn principal(&self) -> &Principal {
        &self.principal
    }

    /// The principal and their request.
    pub fn requester(&self) -> Requester<'_> {
        Requester {
            principal: &self.principal,
            request: &self.request,
        }
    }
}

impl<R: Requirement> FromRequestParts<AppState> for Authorized<R> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                ApiError::new(StatusCode::UNAUTHORIZED, "Sign in first: no bearer token")
            })?;
        let principal = state.app.auth.authenticate(token).await?;
        if !R::allows(&principal) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!("You do not have permission to do this ({}).", R::describe()),
            ));
        }
        let request = parts.uri.path_and_query().map_or_else(
            || parts.uri.path().to_string(),
            |pq| pq.as_str().to_string(),
        );
        Ok(Authorized {
            principal,
            request,
            _r: PhantomData,
        })
    }
}

/// The requirement types of the settings area.
pub mod settings_perm {
    use super::*;
    require! {
        ClientsList => ClientsList;
        ClientsNew => ClientsNew;
        ClientsEdit => ClientsEdit;
        ClientsDelete => ClientsDelete;
        LocationsList => LocationsList;
        LocationsNew => LocationsNew;
        LocationsEdit => LocationsEdit;
        LocationsDelete => LocationsDelete;
        LocationsExport => LocationsExport;
        ModelsList => ModelsList;
        ModelsNew => ModelsNew;
        ModelsEdit => ModelsEdit;
        ModelsDelete => ModelsDelete;
        DataSourcesList => DataSourcesList;
        DataSourcesNew => DataSourcesNew;
        DataSourcesEdit => DataSourcesEdit;
        DataSourcesDelete => DataSourcesDelete;
        DataSourcesInbox => DataSourcesInbox;
        DataSourcesImport => DataSourcesImport;
        ClientOptions => ClientsList | LocationsList | LocationsNew | LocationsEdit | UsersNew | UsersEdit | MachinesList;
        ModelOptions => ModelsList | MachinesList | MachinesNew | MachinesEdit;
    }
}

/// The requirement types of the products area.
pub mod products_perm {
    use super::*;
    require! {
        ProductsList => ProductsList;
        ProductsNew => ProductsNew;
        ProductsEdit => ProductsEdit;
        ProductsDelete => ProductsDelete;
        ComponentsList => ComponentsList;
        ComponentsNew => ComponentsNew;
        ComponentsEdit => ComponentsEdit;
        ComponentsDelete => ComponentsDelete;
        CompositeProductsList => CompositeProductsList;
        CompositeProductsNew => CompositeProductsNew;
        CompositeProductsEdit => CompositeProductsEdit;
        CompositeProductsDelete => CompositeProductsDelete;
        ProductTagsList => ProductTagsList;
        ProductTagsNew => ProductTagsNew;
        ProductTagsEdit => ProductTagsEdit;
        ProductTagsDelete => ProductTagsDelete;
        ManageProductTags => ProductsEdit | ProductTagsEdit;
        ProductDetail => ProductsList | CompositeProductsList;
        ProductOptions => ProductsList | ProductsNew | ProductsEdit | CompositeProductsList | CompositeProductsNew | CompositeProductsEdit | MachinesEditProduct;
        ProductTagOptions => ProductTagsList | ProductTagsNew | ProductTagsEdit | ProductsList | ProductsNew | ProductsEdit | CompositeProductsList | CompositeProductsNew | CompositeProductsEdit;
        ComponentOptions => ComponentsList | ComponentsNew | ComponentsEdit | CompositeProductsList | CompositeProductsNew | CompositeProductsEdit;
    }
}

/// The requirement types of the machines area.
pub mod machines_perm {
    use super::*;
    require! {
        MachinesList => MachinesList;
        MachinesNew => MachinesNew;
        MachinesEdit => MachinesEdit;
        MachinesDelete => MachinesDelete;
        MachinesExport => MachinesExport;
        MachinesEditProduct => MachinesEditProduct;
        MachinesEditStock => MachinesEditQuantityExpiry;
        TagsList => MachineTagsList | MachinesList;
        TagsNew => MachineTagsNew;
        TagsDelete => MachineTagsDelete;
        RefillLog => RefillLogList;
        RefillTotals => RefillLogTotalList;
        RefillExport => RefillLogExport;
        ReadEvaDts => MachinesReadEvaDts;
    }
}

/// The requirement types of the sales area: each permission, or the sales overview's full access.
pub mod sales_perm {
    use super::*;
    require! {
        Graph => SalesOverviewGraph | SalesOverviewFullAccess;
        List => SalesOverviewList | SalesOverviewFullAccess;
        TotalList => SalesOverviewTotalList | SalesOverviewFullAccess;
        Export => SalesOverviewExport | SalesOverviewFullAccess;
    }
}

/// The requirement types of the report generator.
pub mod generator_perm {
    use super::*;
    require! {
        ReportsList => ReportGeneratorReportsList;
        TemplatesList => ReportGeneratorTemplatesList;
        Run => ReportGeneratorRun;
        New => ReportGeneratorNew;
        Define => ReportGeneratorNew | ReportGeneratorRun | ReportGeneratorEditTemplate;
        DeleteReport => ReportGeneratorDeleteReport;
        DeleteTemplate => ReportGeneratorDeleteTemplate;
        EditTemplate => ReportGeneratorEditTemplate;
    }
}

/// The requirement types of the query scheduler.
pub mod scheduler_perm {
    use super::*;
    require! {
        List => QuerySchedulerList;
        New => QuerySchedulerNew;
        Edit => QuerySchedulerEdit;
        Delete => QuerySchedulerDelete;
        Define => QuerySchedulerNew | QuerySchedulerEdit;
    }
}

/// The requirement types of the planning area.
pub mod planning_perm {
    use super::*;
    require! {
        PlanningList => RoutePlanningList;
        GeneratePicklist => RoutePlanningGeneratePicklist;
        RoutesList => PlannedRoutesList;
        RoutesEdit => PlannedRoutesEdit;
        RoutesDelete => PlannedRoutesDelete;
        RoutesExport => PlannedRoutesExport;
        RoutesChangeEmployee => PlannedRoutesChangeEmployee;
        FillFromRoute => MachinesEditQuantityExpiry;
    }
}

/// The requirement types of card settlements.
pub mod settlements_perm {
    use super::*;
    require! {
        List => SettlementsList;
        Import => SettlementsImport;
        Export => SettlementsExport;
        Vat => VatList;
        VatExport => VatExport;
        VisitLedger => VisitLedgerList;
        VisitLedgerExport => VisitLedgerExport;
    }
}

/// The requirement types of the reports area.
pub mod reports_perm {
    use super::*;
    require! {
        EncashmentList => EncashmentList;
        EncashmentTotal => EncashmentTotal;
        EncashmentExport => EncashmentExport;
        InventoryProducts => InventoryProductsList;
        InventoryComponents => InventoryComponentsList;
        InventoryExport => InventoryProductsExport | InventoryComponentsExport;
        TransactionList => TransactionLogList | TransactionLogFullAccess;
        TransactionExport => TransactionLogExport | TransactionLogFullAccess;
    }
}
