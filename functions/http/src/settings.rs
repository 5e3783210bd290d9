//! Settings area: clients, locations and machine models, with their filters.

use crate::dto::{Data, ListQuery, ListReply, Message, MessageData, OptionDto};
use crate::error::{ApiResult, ErrorBody};
use crate::export::{Format, Table};
use crate::extract::{settings_perm as perm, Authorized, Json, Query, SignedIn};
use crate::reply::{created, message, options, tr, updated, values, Created};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::settings::{
    Client, ClientInput, Location, LocationInput, LocationListParams, MachineModel, ModelInput,
};
use vendfleet_domain::validation::time_zones;

/// The settings area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_clients, create_client))
        .routes(routes!(get_client, update_client, delete_client))
        .routes(routes!(list_locations, create_location))
        .routes(routes!(export_locations))
        .routes(routes!(change_refiller))
        .routes(routes!(get_location, update_location, delete_location))
        .routes(routes!(list_models, create_model))
        .routes(routes!(get_model, update_model, delete_model))
        .routes(routes!(operator_settings))
}

/// The settings area's filters (served by the filters area).
pub fn filters_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(client_options))
        .routes(routes!(location_options))
        .routes(routes!(location_types))
        .routes(routes!(regions))
        .routes(routes!(timezones))
        .routes(routes!(periods))
        .routes(routes!(model_options))
        .routes(routes!(model_manufacturers))
        .routes(routes!(model_types))
}

// ---------- clients ----------

/// A client.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientDto {
    pub id: String,
    pub name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    /// Commission on sales in basis points (100 = 1 %).
    pub commission_bps: u32,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

impl From<Client> for ClientDto {
    fn from(c: Client) -> Self {
        ClientDto {
            id: c.id,
            name: c.name,
            contact_name: c.contact_name,
            email: c.email,
            phone: c.phone,
            commission_bps: c.commission_bps,
            created_at: c.created_at,
            updated_at: c.updated_at,
            version: c.version,
        }
    }
}

/// The client form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClientForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 150)]
    pub contact_name: Option<String>,
    #[serde(default)]
    #[schema(max_length = 254)]
    pub email: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
    /// Basis points, 0 to 10000 (100 = 1 %).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 10000)]
    pub commission_bps: Option<i64>,
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<ClientForm> for ClientInput {
    fn from(f: ClientForm) -> Self {
        ClientInput {
            name: f.name,
            contact_name: f.contact_name.unwrap_or_default(),
            email: f.email.unwrap_or_default(),
            phone: f.phone.unwrap_or_default(),
            commission_bps: f.commission_bps,
            version: f.version,
        }
    }
}

/// Clients the user may see, paged; ordering by name, created_at or commission_bps.
#[utoipa::path(get, path = "/api/clients/", tag = "settings", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = ListReply<ClientDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_clients(
    State(s): State<AppState>,
    a: Authorized<perm::ClientsList>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<ListReply<ClientDto>>> {
    let page = s
        .app
        .settings
        .list_clients(a.principal(), &q.into())
        .await?;
    Ok(axum::Json(ListReply::from_page(page, ClientDto::from)))
}

/// Creates a client.
#[utoipa::path(post, path = "/api/clients/", tag = "settings", security(("bearer" = [])), request_body = ClientForm,
    responses((status = 201, body = MessageData<ClientDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_client(
    State(s): State<AppState>,
    _a: Authorized<perm::ClientsNew>,
    Json(f): Json<ClientForm>,
) -> ApiResult<Created<ClientDto>> {
    Ok(created(
        "Client created successfully",
        s.app.settings.create_client(f.into()).await?.into(),
    ))
}

/// One client.
#[utoipa::path(get, path = "/api/clients/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ClientDto>), (status = 404, body = ErrorBody)))]
async fn get_client(
    State(s): State<AppState>,
    a: Authorized<perm::ClientsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ClientDto>>> {
    Ok(axum::Json(Data {
        data: s.app.settings.get_client(a.principal(), &id).await?.into(),
    }))
}

/// Updates a client.
#[utoipa::path(put, path = "/api/clients/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)), request_body = ClientForm,
    responses((status = 200, body = MessageData<ClientDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_client(
    State(s): State<AppState>,
    a: Authorized<perm::ClientsEdit>,
    Path(id): Path<String>,
    Json(f): Json<ClientForm>,
) -> ApiResult<axum::Json<MessageData<ClientDto>>> {
    Ok(updated(
        "Client updated successfully",
        s.app
            .settings
            .update_client(a.principal(), &id, f.into())
            .await?
            .into(),
    ))
}

/// Deletes a client that hosts no location.
#[utoipa::path(delete, path = "/api/clients/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "The client still hosts locations")))]
async fn delete_client(
    State(s): State<AppState>,
    a: Authorized<perm::ClientsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    s.app.settings.delete_client(a.principal(), &id).await?;
    Ok(message("Client deleted successfully"))
}

// ---------- locations ----------

/// A location.
#[derive(Debug, Serialize, ToSchema)]
pub struct LocationDto {
    pub id: String,
    pub name: String,
    pub address: String,
    #[serde(rename = "type")]
    pub location_type: String,
    pub region: String,
    pub client_id: Option<String>,
    pub client_name: Option<String>,
    pub refiller_id: Option<String>,
    pub refiller_name: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub time_zone: String,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

/// Names of clients and employees, to show beside ids.
struct Names {
    clients: HashMap<String, String>,
    users: HashMap<String, String>,
}

impl Names {
    async fn load(s: &AppState) -> ApiResult<Names> {
        let clients = s
            .app
            .settings
            .clients()
            .all()
            .await?
            .into_iter()
            .map(|c| (c.id, c.name))
            .collect();
        let users = s
            .app
            .users
            .directory()
            .all_users()
            .await?
            .into_iter()
            .map(|u| (u.id, u.name))
            .collect();
        Ok(Names { clients, users })
    }

    fn location(&self, l: Location) -> LocationDto {
        LocationDto {
            client_name: l
                .client_id
                .as_ref()
                .and_then(|c| self.clients.get(c).cloned()),
            refiller_name: l
                .refiller_id
                .as_ref()
                .and_then(|r| self.users.get(r).cloned()),
            id: l.id,
            name: l.name,
            address: l.address,
            location_type: l.location_type,
            region: l.region,
            client_id: l.client_id,
            refiller_id: l.refiller_id,
            latitude: l.latitude,
            longitude: l.longitude,
            time_zone: l.time_zone,
            created_at: l.created_at,
            updated_at: l.updated_at,
            version: l.version,
        }
    }
}

/// The location form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LocationForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub address: Option<String>,
    #[serde(default, rename = "type")]
    #[schema(max_length = 60)]
    pub location_type: Option<String>,
    #[serde(default)]
    #[schema(max_length = 60)]
    pub region: Option<String>,
    #[serde(default)]
    pub client_id: Option<String>,
    #[serde(default)]
    pub refiller_id: Option<String>,
    /// Degrees; with `longitude`, or neither.
    #[serde(default)]
    #[schema(minimum = -90, maximum = 90)]
    pub latitude: Option<f64>,
    #[serde(default)]
    #[schema(minimum = -180, maximum = 180)]
    pub longitude: Option<f64>,
    /// IANA time zone, e.g. Europe/Paris (`/api/filters/timezones/`).
    #[serde(default)]
    #[schema(required = true)]
    pub time_zone: String,
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<LocationForm> for LocationInput {
    fn from(f: LocationForm) -> Self {
        LocationInput {
            name: f.name,
            address: f.address.unwrap_or_default(),
            location_type: f.location_type.unwrap_or_default(),
            region: f.region.unwrap_or_default(),
            client_id: f.client_id,
            refiller_id: f.refiller_id,
            latitude: f.latitude,
            longitude: f.longitude,
            time_zone: f.time_zone,
            version: f.version,
        }
    }
}

/// The locations list's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LocationsQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub search: Option<String>,
    /// name, created_at, location_type, region, address; `-` for descending.
    pub ordering: Option<String>,
    pub client: Option<String>,
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub location_type: Option<String>,
    pub region: Option<String>,
    pub refiller: Option<String>,
}

impl From<&LocationsQuery> for LocationListParams {
    fn from(q: &LocationsQuery) -> Self {
        LocationListParams {
            list: vendfleet_app::listing::ListParams {
                page: q.page,
                page_size: q.page_size,
                search: q.search.clone(),
                ordering: q.ordering.clone(),
            },
            client: q.client.clone(),
            location_type: q.location_type.clone(),
            region: q.region.clone(),
            refiller: q.refiller.clone(),
        }
    }
}

/// Locations the user may see, paged, with filters.
#[utoipa::path(get, path = "/api/locations/", tag = "settings", security(("bearer" = [])), params(LocationsQuery),
    responses((status = 200, body = ListReply<LocationDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_locations(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsList>,
    Query(q): Query<LocationsQuery>,
) -> ApiResult<axum::Json<ListReply<LocationDto>>> {
    let page = s
        .app
        .settings
        .list_locations(a.principal(), &(&q).into())
        .await?;
    let names = Names::load(&s).await?;
    Ok(axum::Json(ListReply::from_page(page, |l| {
        names.location(l)
    })))
}

/// Creates a location.
#[utoipa::path(post, path = "/api/locations/", tag = "settings", security(("bearer" = [])), request_body = LocationForm,
    responses((status = 201, body = MessageData<LocationDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_location(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsNew>,
    Json(f): Json<LocationForm>,
) -> ApiResult<Created<LocationDto>> {
    let l = s
        .app
        .settings
        .create_location(a.principal(), f.into())
        .await?;
    Ok(created(
        "Location created successfully",
        Names::load(&s).await?.location(l),
    ))
}

/// One location.
#[utoipa::path(get, path = "/api/locations/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<LocationDto>), (status = 404, body = ErrorBody)))]
async fn get_location(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<LocationDto>>> {
    let l = s.app.settings.get_location(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: Names::load(&s).await?.location(l),
    }))
}

/// Updates a location.
#[utoipa::path(put, path = "/api/locations/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)), request_body = LocationForm,
    responses((status = 200, body = MessageData<LocationDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_location(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsEdit>,
    Path(id): Path<String>,
    Json(f): Json<LocationForm>,
) -> ApiResult<axum::Json<MessageData<LocationDto>>> {
    let l = s
        .app
        .settings
        .update_location(a.principal(), &id, f.into())
        .await?;
    Ok(updated(
        "Location updated successfully",
        Names::load(&s).await?.location(l),
    ))
}

/// Deletes a location.
#[utoipa::path(delete, path = "/api/locations/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_location(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    s.app.settings.delete_location(a.principal(), &id).await?;
    Ok(message("Location deleted successfully"))
}

/// `POST /api/locations/change-refiller/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangeRefillerRequest {
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 100)]
    pub location_ids: Vec<String>,
    /// The new refiller; null removes the refiller.
    #[serde(default)]
    pub refiller_id: Option<String>,
}

/// Gives several locations a new refiller, all or none.
#[utoipa::path(post, path = "/api/locations/change-refiller/", tag = "settings", security(("bearer" = [])), request_body = ChangeRefillerRequest,
    responses((status = 200, body = MessageData<Vec<LocationDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn change_refiller(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsEdit>,
    Json(r): Json<ChangeRefillerRequest>,
) -> ApiResult<axum::Json<MessageData<Vec<LocationDto>>>> {
    let changed = s
        .app
        .settings
        .change_refiller(a.principal(), &r.location_ids, r.refiller_id.as_deref())
        .await?;
    let names = Names::load(&s).await?;
    Ok(updated(
        "Refiller changed successfully",
        changed.into_iter().map(|l| names.location(l)).collect(),
    ))
}

/// Locations matching the list's filters as a CSV or XLSX file.
#[utoipa::path(get, path = "/api/locations/export/", tag = "settings", security(("bearer" = [])), params(LocationsQuery, crate::export::ExportQuery),
    responses((status = 200, response = inline(crate::export::Download)), (status = 400, body = ErrorBody)))]
async fn export_locations(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsExport>,
    Query(q): Query<LocationsQuery>,
    Query(e): Query<crate::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (items, _) = s
        .app
        .settings
        .filtered_locations(a.principal(), &(&q).into())
        .await?;
    let names = Names::load(&s).await?;
    let lang = a.principal().user.language;
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let header = vec![
        t("Name", "Nom", "Nome"),
        t("Address", "Adresse", "Indirizzo"),
        t("Type", "Type", "Tipo"),
        t("Region", "Région", "Regione"),
        t("Client", "Client", "Cliente"),
        t("Refiller", "Réassortisseur", "Addetto al rifornimento"),
        t("Latitude", "Latitude", "Latitudine"),
        t("Longitude", "Longitude", "Longitudine"),
        t("Time zone", "Fuseau horaire", "Fuso orario"),
    ];
    let rows = items
        .into_iter()
        .map(|l| {
            let d = names.location(l);
            vec![
                d.name.into(),
                d.address.into(),
                d.location_type.into(),
                d.region.into(),
                d.client_name.into(),
                d.refiller_name.into(),
                d.latitude.into(),
                d.longitude.into(),
                d.time_zone.into(),
            ]
        })
        .collect();
    Table {
        sheet: t("Locations", "Emplacements", "Ubicazioni"),
        header,
        rows,
    }
    .into_download(format, "locations", lang)
}

// ---------- machine models ----------

/// A machine model.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModelDto {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub model_type: String,
    pub manufacturer: String,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

impl From<MachineModel> for ModelDto {
    fn from(m: MachineModel) -> Self {
        ModelDto {
            id: m.id,
            name: m.name,
            model_type: m.model_type,
            manufacturer: m.manufacturer,
            created_at: m.created_at,
            updated_at: m.updated_at,
            version: m.version,
        }
    }
}

/// The machine-model form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    #[serde(default, rename = "type")]
    #[schema(required = true, max_length = 60)]
    pub model_type: String,
    #[serde(default)]
    #[schema(required = true, max_length = 100)]
    pub manufacturer: String,
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<ModelForm> for ModelInput {
    fn from(f: ModelForm) -> Self {
        ModelInput {
            name: f.name,
            model_type: f.model_type,
            manufacturer: f.manufacturer,
            version: f.version,
        }
    }
}

/// The models list's query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ModelsQuery {
    #[param(minimum = 1)]
    pub page: Option<i64>,
    #[param(minimum = 1, maximum = 200)]
    pub page_size: Option<i64>,
    pub search: Option<String>,
    /// name, created_at, model_type, manufacturer; `-` for descending.
    pub ordering: Option<String>,
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub model_type: Option<String>,
    pub manufacturer: Option<String>,
}

/// Machine models, paged, with type and manufacturer filters.
#[utoipa::path(get, path = "/api/machines/models/", tag = "settings", security(("bearer" = [])), params(ModelsQuery),
    responses((status = 200, body = ListReply<ModelDto>), (status = 400, body = ErrorBody)))]
async fn list_models(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelsList>,
    Query(q): Query<ModelsQuery>,
) -> ApiResult<axum::Json<ListReply<ModelDto>>> {
    let params = vendfleet_app::listing::ListParams {
        page: q.page,
        page_size: q.page_size,
        search: q.search,
        ordering: q.ordering,
    };
    let page = s
        .app
        .settings
        .list_models(&params, q.model_type.as_deref(), q.manufacturer.as_deref())
        .await?;
    Ok(axum::Json(ListReply::from_page(page, ModelDto::from)))
}

/// Creates a machine model.
#[utoipa::path(post, path = "/api/machines/models/", tag = "settings", security(("bearer" = [])), request_body = ModelForm,
    responses((status = 201, body = MessageData<ModelDto>), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_model(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelsNew>,
    Json(f): Json<ModelForm>,
) -> ApiResult<Created<ModelDto>> {
    Ok(created(
        "Model created successfully",
        s.app.settings.create_model(f.into()).await?.into(),
    ))
}

/// One machine model.
#[utoipa::path(get, path = "/api/machines/models/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<ModelDto>), (status = 404, body = ErrorBody)))]
async fn get_model(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelsList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<ModelDto>>> {
    Ok(axum::Json(Data {
        data: s.app.settings.models().get_or_404(&id).await?.into(),
    }))
}

/// Updates a machine model.
#[utoipa::path(put, path = "/api/machines/models/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)), request_body = ModelForm,
    responses((status = 200, body = MessageData<ModelDto>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_model(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelsEdit>,
    Path(id): Path<String>,
    Json(f): Json<ModelForm>,
) -> ApiResult<axum::Json<MessageData<ModelDto>>> {
    Ok(updated(
        "Model updated successfully",
        s.app.settings.update_model(&id, f.into()).await?.into(),
    ))
}

/// Deletes a machine model.
#[utoipa::path(delete, path = "/api/machines/models/{id}/", tag = "settings", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_model(
    State(s): State<AppState>,
    a: Authorized<perm::ModelsDelete>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Message>> {
    let visible = s.app.machines.visible_ids(a.principal()).await?;
    s.app.settings.delete_model(&id, &visible).await?;
    Ok(message("Model deleted successfully"))
}

// ---------- filters ----------

/// The clients the user may see.
#[utoipa::path(get, path = "/api/filters/clients/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn client_options(
    State(s): State<AppState>,
    a: Authorized<perm::ClientOptions>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(
        s.app
            .settings
            .visible_clients(a.principal())
            .await?
            .into_iter()
            .map(|c| (c.id, c.name)),
    ))
}

/// The locations the user may see.
#[utoipa::path(get, path = "/api/filters/locations/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn location_options(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(
        s.app
            .settings
            .visible_locations(a.principal())
            .await?
            .into_iter()
            .map(|l| (l.id, l.name)),
    ))
}

/// The location types in use.
#[utoipa::path(get, path = "/api/filters/locations/types/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<String>>)))]
async fn location_types(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<Vec<String>>>> {
    Ok(values(
        s.app
            .settings
            .location_values(a.principal(), |l| &l.location_type)
            .await?,
    ))
}

/// The regions in use.
#[utoipa::path(get, path = "/api/filters/regions/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<String>>)))]
async fn regions(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<Vec<String>>>> {
    Ok(values(
        s.app
            .settings
            .location_values(a.principal(), |l| &l.region)
            .await?,
    ))
}

/// The operator's calendar settings.
#[derive(Debug, Serialize, ToSchema)]
pub struct OperatorSettingsDto {
    /// IANA time zone of the operator (`VENDFLEET_TIME_ZONE`): fleet-wide "today", "this month",
    /// period presets and default ranges are local dates here.
    pub time_zone: String,
    /// The operator's local date now.
    pub today: chrono::NaiveDate,
}

/// The operator's time zone and today's local date (set by configuration, read-only here).
#[utoipa::path(get, path = "/api/settings/operator/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<OperatorSettingsDto>), (status = 401, body = ErrorBody)))]
async fn operator_settings(
    State(s): State<AppState>,
    _a: Authorized<SignedIn>,
) -> axum::Json<Data<OperatorSettingsDto>> {
    axum::Json(Data {
        data: OperatorSettingsDto {
            time_zone: s.app.calendar.time_zone().name().to_string(),
            today: s.app.calendar.today(),
        },
    })
}

/// A period preset with the operator-local dates it stands for today.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodDto {
    /// `current_month`, `previous_month`, `current_and_previous_month`, `current_year`,
    /// `previous_year` or `custom`.
    pub key: String,
    /// First local date (none for `custom`).
    pub date_from: Option<chrono::NaiveDate>,
    /// Last local date, inclusive (none for `custom`).
    pub date_to: Option<chrono::NaiveDate>,
}

/// The sales period presets, resolved in the operator's time zone.
#[utoipa::path(get, path = "/api/filters/periods/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<PeriodDto>>), (status = 401, body = ErrorBody)))]
async fn periods(
    State(s): State<AppState>,
    _a: Authorized<SignedIn>,
) -> axum::Json<Data<Vec<PeriodDto>>> {
    let today = s.app.calendar.today();
    axum::Json(Data {
        data: vendfleet_domain::Period::ALL
            .into_iter()
            .map(|p| {
                let range = p.range(today);
                PeriodDto {
                    key: p.key().into(),
                    date_from: range.map(|r| r.0),
                    date_to: range.map(|r| r.1),
                }
            })
            .collect(),
    })
}

/// Every IANA time zone.
#[utoipa::path(get, path = "/api/filters/timezones/", tag = "filters",
    responses((status = 200, body = Data<Vec<String>>)))]
async fn timezones() -> axum::Json<Data<Vec<String>>> {
    values(time_zones().into_iter().map(String::from).collect())
}

/// Every machine model.
#[utoipa::path(get, path = "/api/filters/machines/models/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OptionDto>>)))]
async fn model_options(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelOptions>,
) -> ApiResult<axum::Json<Data<Vec<OptionDto>>>> {
    Ok(options(
        s.app
            .settings
            .models()
            .all()
            .await?
            .into_iter()
            .map(|m| (m.id, m.name)),
    ))
}

/// The manufacturers of the machine models.
#[utoipa::path(get, path = "/api/filters/machines/models/manufacturer/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<String>>)))]
async fn model_manufacturers(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelOptions>,
) -> ApiResult<axum::Json<Data<Vec<String>>>> {
    Ok(values(
        s.app.settings.model_values(|m| &m.manufacturer).await?,
    ))
}

/// The types of the machine models.
#[utoipa::path(get, path = "/api/filters/machines/models/types/", tag = "filters", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<String>>)))]
async fn model_types(
    State(s): State<AppState>,
    _a: Authorized<perm::ModelOptions>,
) -> ApiResult<axum::Json<Data<Vec<String>>>> {
    Ok(values(
        s.app.settings.model_values(|m| &m.model_type).await?,
    ))
}
