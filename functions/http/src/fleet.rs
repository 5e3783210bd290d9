//! The fleet area: clients, locations and machine models, with their filters.

use crate::kit::crud;
use crate::kit::dto::{ListQuery, ListReply, Message, MessageData};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::export::Format;
use crate::kit::extract::{settings_perm as perm, Authorized, Json, Query, SignedIn};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::State;
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::fleet::{
    Client, ClientInput, Location, LocationInput, LocationListParams, MachineModel, ModelInput,
};
use vendfleet_render::tables::locations::locations_table;

/// The fleet area's routes.
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
}

/// The fleet area's filters (served by the filters function).
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(client_options))
        .routes(routes!(location_options))
        .routes(routes!(location_types))
        .routes(routes!(regions))
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

crate::kit::fields::from_fields! {
    Client => ClientDto {
        id, name, contact_name, email, phone, commission_bps, created_at, updated_at, version
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

crate::kit::fields::from_fields! {
    ClientForm => ClientInput {
        name, commission_bps, version;
        or_default: contact_name, email, phone
    }
}

crud::list! {
    /// Clients the user may see, paged; ordering by name, created_at or commission_bps.
    list_clients("/api/clients/", "settings") -> ClientDto,
    |s, a: perm::ClientsList, q: ListQuery| {
        let page = s.app.fleet.list_clients(a.principal(), &q.list()).await?;
        ListReply::from_page(page, ClientDto::from)
    }
}

crud::create! {
    /// Creates a client.
    create_client("/api/clients/", "settings") -> ClientDto, "Client created successfully",
    |s, _a: perm::ClientsNew, f: ClientForm| s.app.fleet.create_client(f.into()).await?.into()
}

crud::get! {
    /// One client.
    get_client("/api/clients/{id}/", "settings") -> ClientDto,
    |s, a: perm::ClientsList, id| s.app.fleet.get_client(a.principal(), &id).await?.into()
}

crud::update! {
    /// Updates a client.
    update_client("/api/clients/{id}/", "settings") -> ClientDto, "Client updated successfully",
    |s, a: perm::ClientsEdit, id, f: ClientForm| {
        s.app.fleet.update_client(a.principal(), &id, f.into()).await?.into()
    }
}

crud::delete! {
    /// Deletes a client that hosts no location.
    delete_client("/api/clients/{id}/", "settings"), "Client deleted successfully",
    |s, a: perm::ClientsDelete, id| s.app.fleet.delete_client(a.principal(), &id).await?,
    responses(
        (status = 200, body = Message),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "The client still hosts locations"),
    )
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
    clients: std::collections::BTreeMap<String, String>,
    users: HashMap<String, String>,
}

impl Names {
    async fn load(s: &AppState) -> ApiResult<Names> {
        let clients = s.app.fleet.client_names().await?;
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

crate::kit::fields::from_fields! {
    LocationForm => LocationInput {
        name, client_id, refiller_id, latitude, longitude, time_zone, version;
        or_default: address, location_type, region
    }
}

crate::kit::fields::list_query! {
    /// The locations list's query.
    pub struct LocationsQuery => LocationListParams {
        page,
        page_size,
        search,
        /// name, created_at, location_type, region, address; `-` for descending.
        ordering,
        pub client: Option<String>,
        #[serde(rename = "type")]
        #[param(rename = "type")]
        pub location_type: Option<String>,
        pub region: Option<String>,
        pub refiller: Option<String>,
    }
}

crud::list! {
    /// Locations the user may see, paged, with filters.
    list_locations("/api/locations/", "settings") -> LocationDto,
    |s, a: perm::LocationsList, q: LocationsQuery| {
        let page = s.app.fleet.list_locations(a.principal(), &(&q).into()).await?;
        let names = Names::load(&s).await?;
        ListReply::from_page(page, |l| names.location(l))
    }
}

crud::create! {
    /// Creates a location.
    create_location("/api/locations/", "settings") -> LocationDto, "Location created successfully",
    |s, a: perm::LocationsNew, f: LocationForm| {
        let l = s.app.fleet.create_location(a.principal(), f.into()).await?;
        Names::load(&s).await?.location(l)
    }
}

crud::get! {
    /// One location.
    get_location("/api/locations/{id}/", "settings") -> LocationDto,
    |s, a: perm::LocationsList, id| {
        let l = s.app.fleet.get_location(a.principal(), &id).await?;
        Names::load(&s).await?.location(l)
    }
}

crud::update! {
    /// Updates a location.
    update_location("/api/locations/{id}/", "settings") -> LocationDto,
    "Location updated successfully",
    |s, a: perm::LocationsEdit, id, f: LocationForm| {
        let l = s.app.fleet.update_location(a.principal(), &id, f.into()).await?;
        Names::load(&s).await?.location(l)
    }
}

crud::delete! {
    /// Deletes a location.
    delete_location("/api/locations/{id}/", "settings"), "Location deleted successfully",
    |s, a: perm::LocationsDelete, id| s.app.fleet.delete_location(a.principal(), &id).await?
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
        .fleet
        .change_refiller(a.principal(), &r.location_ids, r.refiller_id.as_deref())
        .await?;
    let names = Names::load(&s).await?;
    Ok(updated(
        "Refiller changed successfully",
        changed.into_iter().map(|l| names.location(l)).collect(),
    ))
}

/// Locations matching the list's filters as a CSV or XLSX file.
#[utoipa::path(get, path = "/api/locations/export/", tag = "settings", security(("bearer" = [])), params(LocationsQuery, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>), (status = 400, body = ErrorBody)))]
async fn export_locations(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsExport>,
    Query(q): Query<LocationsQuery>,
    Query(e): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (items, _) = s
        .app
        .fleet
        .filtered_locations(a.principal(), &(&q).into())
        .await?;
    let names = Names::load(&s).await?;
    let lang = a.principal().user.language;
    let table = locations_table(lang, items, &names.clients, &names.users);
    crate::kit::export::answer(table, &s, a.requester(), format, "locations").await
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

crate::kit::fields::from_fields! {
    MachineModel => ModelDto { id, name, model_type, manufacturer, created_at, updated_at, version }
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

crate::kit::fields::from_fields! {
    ModelForm => ModelInput { name, model_type, manufacturer, version }
}

crate::kit::fields::list_query! {
    /// The models list's query.
    pub struct ModelsQuery {
        page,
        page_size,
        search,
        /// name, created_at, model_type, manufacturer; `-` for descending.
        ordering,
        #[serde(rename = "type")]
        #[param(rename = "type")]
        pub model_type: Option<String>,
        pub manufacturer: Option<String>,
    }
}

crud::list! {
    /// Machine models, paged, with type and manufacturer filters.
    list_models("/api/machines/models/", "settings") -> ModelDto,
    |s, _a: perm::ModelsList, q: ModelsQuery| {
        let (model_type, manufacturer) = (q.model_type.as_deref(), q.manufacturer.as_deref());
        let page = s.app.fleet.list_models(&q.list(), model_type, manufacturer).await?;
        ListReply::from_page(page, ModelDto::from)
    },
    responses(
        (status = 200, body = ListReply<ModelDto>),
        (status = 400, body = ErrorBody),
    )
}

crud::create! {
    /// Creates a machine model.
    create_model("/api/machines/models/", "settings") -> ModelDto, "Model created successfully",
    |s, _a: perm::ModelsNew, f: ModelForm| s.app.fleet.create_model(f.into()).await?.into()
}

crud::get! {
    /// One machine model.
    get_model("/api/machines/models/{id}/", "settings") -> ModelDto,
    |s, _a: perm::ModelsList, id| s.app.fleet.models().get_or_404(&id).await?.into()
}

crud::update! {
    /// Updates a machine model.
    update_model("/api/machines/models/{id}/", "settings") -> ModelDto,
    "Model updated successfully",
    |s, _a: perm::ModelsEdit, id, f: ModelForm| {
        s.app.fleet.update_model(&id, f.into()).await?.into()
    }
}

crud::delete! {
    /// Deletes a machine model.
    delete_model("/api/machines/models/{id}/", "settings"), "Model deleted successfully",
    |s, a: perm::ModelsDelete, id| {
        let visible = s.app.machines.visible_ids(a.principal()).await?;
        s.app.fleet.delete_model(&id, &visible).await?
    }
}

// ---------- filters ----------

crud::options! {
    /// The clients the user may see.
    client_options("/api/filters/clients/"),
    |s, a: perm::ClientOptions| {
        let clients = s.app.fleet.visible_clients(a.principal()).await?;
        clients.into_iter().map(|c| (c.id, c.name))
    }
}

crud::options! {
    /// The locations the user may see.
    location_options("/api/filters/locations/"),
    |s, a: SignedIn| {
        let locations = s.app.fleet.visible_locations(a.principal()).await?;
        locations.into_iter().map(|l| (l.id, l.name))
    }
}

crud::values! {
    /// The location types in use.
    location_types("/api/filters/locations/types/"),
    |s, a: SignedIn| s.app.fleet.location_values(a.principal(), |l| &l.location_type).await?
}

crud::values! {
    /// The regions in use.
    regions("/api/filters/regions/"),
    |s, a: SignedIn| s.app.fleet.location_values(a.principal(), |l| &l.region).await?
}

crud::options! {
    /// Every machine model.
    model_options("/api/filters/machines/models/"),
    |s, _a: perm::ModelOptions| {
        s.app.fleet.models().all().await?.into_iter().map(|m| (m.id, m.name))
    }
}

crud::values! {
    /// The manufacturers of the machine models.
    model_manufacturers("/api/filters/machines/models/manufacturer/"),
    |s, _a: perm::ModelOptions| s.app.fleet.model_values(|m| &m.manufacturer).await?
}

crud::values! {
    /// The types of the machine models.
    model_types("/api/filters/machines/models/types/"),
    |s, _a: perm::ModelOptions| s.app.fleet.model_values(|m| &m.model_type).await?
}
