//! Settings area: clients, locations and machine models, with their filters.

use crate::crud;
use crate::dto::{Data, ListQuery, ListReply, Message, MessageData};
use crate::error::{ApiResult, ErrorBody};
use crate::export::{Format, Table};
use crate::extract::{settings_perm as perm, Authorized, Json, Query, SignedIn};
use crate::reply::{tr, updated, values};
use crate::state::AppState;
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
        .routes(routes!(operator_settings, update_operator_settings))
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

crate::fields::from_fields! {
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

crate::fields::from_fields! {
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

crate::fields::from_fields! {
    LocationForm => LocationInput {
        name, client_id, refiller_id, latitude, longitude, time_zone, version;
        or_default: address, location_type, region
    }
}

crate::fields::list_query! {
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
#[utoipa::path(get, path = "/api/locations/export/", tag = "settings", security(("bearer" = [])), params(LocationsQuery, crate::export::ExportQuery),
    responses((status = 200, response = inline(crate::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::dto::MessageData<crate::jobs::JobDto>), (status = 400, body = ErrorBody)))]
async fn export_locations(
    State(s): State<AppState>,
    a: Authorized<perm::LocationsExport>,
    Query(q): Query<LocationsQuery>,
    Query(e): Query<crate::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (items, _) = s
        .app
        .fleet
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
    let table = Table {
        sheet: t("Locations", "Emplacements", "Ubicazioni"),
        header,
        rows,
    };
    crate::export::answer(table, &s, a.requester(), format, "locations").await
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

crate::fields::from_fields! {
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

crate::fields::from_fields! {
    ModelForm => ModelInput { name, model_type, manufacturer, version }
}

crate::fields::list_query! {
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

/// The operator's settings: the calendar (set by configuration) and the policy on data leaving
/// the system (set by an all-machines administrator).
#[derive(Debug, Serialize, ToSchema)]
pub struct OperatorSettingsDto {
    /// IANA time zone of the operator (`VENDFLEET_TIME_ZONE`): fleet-wide "today", "this month",
    /// period presets and default ranges are local dates here.
    pub time_zone: String,
    /// The operator's local date now.
    pub today: chrono::NaiveDate,
    /// Domains (`example.com`) or subdomain patterns (`*.example.com`) that scheduled reports may
    /// be mailed to besides users; empty: users only.
    pub mail_domains: Vec<String>,
    /// The shortest interval allowed between a scheduled task's runs.
    pub min_task_interval_minutes: u32,
    /// Whether the caller may change the policy (an all-machines administrator).
    pub editable: bool,
    /// The policy's version (0 until first changed).
    pub version: u64,
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

async fn operator_dto(
    s: &AppState,
    p: &vendfleet_app::auth::Principal,
    policy: vendfleet_app::operator_settings::OperatorPolicy,
) -> OperatorSettingsDto {
    OperatorSettingsDto {
        time_zone: s.app.calendar.time_zone().name().to_string(),
        today: s.app.calendar.today(),
        mail_domains: policy.mail_domains,
        min_task_interval_minutes: policy.min_task_interval_minutes,
        editable: p.is_fleet_admin(),
        version: policy.version,
        updated_at: policy.updated_at,
    }
}

/// The operator's time zone and today's local date (set by configuration), and the policy on data
/// leaving the system.
#[utoipa::path(get, path = "/api/settings/operator/", tag = "settings", security(("bearer" = [])),
    responses((status = 200, body = Data<OperatorSettingsDto>), (status = 401, body = ErrorBody)))]
async fn operator_settings(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<OperatorSettingsDto>>> {
    let policy = s.app.operator_settings.get().await?;
    Ok(axum::Json(Data {
        data: operator_dto(&s, a.principal(), policy).await,
    }))
}

/// The operator's policy form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OperatorPolicyBody {
    /// Domains or `*.domain` patterns; empty: scheduled reports go to users only.
    #[serde(default)]
    #[schema(max_items = 100)]
    pub mail_domains: Vec<crate::contract::MailDomain>,
    /// 1 to 1440 (default 15).
    #[schema(minimum = 1, maximum = 1440)]
    pub min_task_interval_minutes: Option<u32>,
    /// The version loaded.
    #[schema(minimum = 0)]
    pub version: Option<u64>,
}

/// Changes the policy on data leaving the system (an administrator of users and roles with
/// access to all machines).
#[utoipa::path(put, path = "/api/settings/operator/", tag = "settings", security(("bearer" = [])), request_body = OperatorPolicyBody,
    responses((status = 200, body = MessageData<OperatorSettingsDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_operator_settings(
    State(s): State<AppState>,
    a: Authorized<crate::extract::FleetAdmin>,
    Json(body): Json<OperatorPolicyBody>,
) -> ApiResult<axum::Json<MessageData<OperatorSettingsDto>>> {
    let policy = s
        .app
        .operator_settings
        .set(
            a.principal(),
            &vendfleet_app::operator_settings::PolicyInput {
                mail_domains: body.mail_domains.into_iter().map(|d| d.0).collect(),
                min_task_interval_minutes: body.min_task_interval_minutes,
                version: body.version,
            },
        )
        .await?;
    Ok(updated(
        "Settings updated successfully",
        operator_dto(&s, a.principal(), policy).await,
    ))
}

/// A period preset with the operator-local dates it stands for today.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodDto {
    /// `yesterday`, `current_week`, `previous_week`, `current_month`, `previous_month`,
    /// `current_and_previous_month`, `current_year`, `previous_year` or `custom`.
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
