//! The machines area's own resource (the handlers the other files of the area build on).

use crate::kit::crud;
use crate::kit::dto::{Data, ListReply, MessageData, OptionDto};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::export::Format;
use crate::kit::extract::{machines_perm as perm, Authorized, Query, SignedIn};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::response::Response;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::machines::{Device, Machine, MachineInput, MachineListParams, Peripherals};
use vendfleet_domain::{MachineScope, Permission};
use vendfleet_render::tables::machines::machines_table;

/// The machines' own routes (the machines list, a machine, its secret and overview).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_machines, create_machine))
        .routes(routes!(export_machines))
        .routes(routes!(machine_details))
        .routes(routes!(update_machine))
        .routes(routes!(delete_machine))
        .routes(routes!(rotate_secret))
        .routes(routes!(overview))
}

/// The machines' option lists.
pub fn filters() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(machine_options))
        .routes(routes!(tag_options))
        .routes(routes!(tags_by_permissions))
        .routes(routes!(mcu_options))
}

// ---------- DTOs ----------

/// A fitted device.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct DeviceDto {
    #[serde(default)]
    pub fitted: bool,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub serial: String,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub model: String,
}

/// The peripherals of a machine.
#[derive(Debug, Serialize, Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct PeripheralsDto {
    #[serde(default)]
    pub coin_changer: DeviceDto,
    #[serde(default)]
    pub bill_validator: DeviceDto,
    #[serde(default)]
    pub cashless: DeviceDto,
}

pub(super) fn device_in(d: DeviceDto) -> Device {
    Device {
        fitted: d.fitted,
        serial: d.serial.trim().into(),
        model: d.model.trim().into(),
    }
}

pub(super) fn device_out(d: Device) -> DeviceDto {
    DeviceDto {
        fitted: d.fitted,
        serial: d.serial,
        model: d.model,
    }
}

/// A machine.
#[derive(Debug, Serialize, ToSchema)]
pub struct MachineDto {
    pub id: String,
    pub name: String,
    /// The model's type.
    #[serde(rename = "type")]
    pub machine_type: Option<String>,
    pub serial: String,
    pub mcu_serial: String,
    pub model_id: Option<String>,
    pub model_name: Option<String>,
    pub location_id: Option<String>,
    pub location_name: Option<String>,
    pub firmware: String,
    pub connection_method: String,
    pub protocol: String,
    pub inactive: bool,
    pub tag_ids: Vec<String>,
    pub tags: Vec<OptionDto>,
    pub peripherals: PeripheralsDto,
    pub currency: String,
    pub decimal_places: u8,
    pub sales_source: SalesSourceDto,
    /// The card processor's terminal id (settlement files name machines by it).
    pub terminal_id: Option<String>,
    /// The machine's id at Nayax (`MachineId` in Nayax Core's messages).
    pub nayax_machine_id: Option<String>,
    /// Only in the replies that make a new secret (create, rotate): shown once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webhook_secret: Option<String>,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
}

pub(super) struct Lookups {
    models: HashMap<String, (String, String)>,
    locations: HashMap<String, String>,
    tags: HashMap<String, String>,
}

impl Lookups {
    pub(super) async fn load(s: &AppState) -> ApiResult<Lookups> {
        Ok(Lookups {
            models: s
                .app
                .fleet
                .models()
                .all()
                .await?
                .into_iter()
                .map(|m| (m.id, (m.name, m.model_type)))
                .collect(),
            locations: s
                .app
                .fleet
                .locations()
                .all()
                .await?
                .into_iter()
                .map(|l| (l.id, l.name))
                .collect(),
            tags: s
                .app
                .machines
                .tags()
                .all()
                .await?
                .into_iter()
                .map(|t| (t.id, t.name))
                .collect(),
        })
    }

    pub(super) fn machine(&self, m: Machine, show_secret: bool) -> MachineDto {
        let model = m.model_id.as_ref().and_then(|id| self.models.get(id));
        MachineDto {
            machine_type: model.map(|(_, t)| t.clone()),
            model_name: model.map(|(n, _)| n.clone()),
            location_name: m
                .location_id
                .as_ref()
                .and_then(|l| self.locations.get(l).cloned()),
            tags: m
                .tag_ids
                .iter()
                .filter_map(|t| {
                    self.tags.get(t).map(|n| OptionDto {
                        id: t.clone(),
                        name: n.clone(),
                    })
                })
                .collect(),
            webhook_secret: show_secret.then(|| m.webhook_secret.clone()),
            id: m.id,
            name: m.name,
            serial: m.serial,
            mcu_serial: m.mcu_serial,
            model_id: m.model_id,
            location_id: m.location_id,
            firmware: m.firmware,
            connection_method: m.connection_method,
            protocol: m.protocol,
            inactive: m.inactive,
            tag_ids: m.tag_ids,
            peripherals: PeripheralsDto {
                coin_changer: device_out(m.peripherals.coin_changer),
                bill_validator: device_out(m.peripherals.bill_validator),
                cashless: device_out(m.peripherals.cashless),
            },
            currency: m.currency,
            decimal_places: m.decimal_places,
            sales_source: m.sales_source.into(),
            terminal_id: m.terminal_id,
            nayax_machine_id: m.nayax_machine_id,
            created_at: m.created_at,
            updated_at: m.updated_at,
            version: m.version,
        }
    }
}

/// Where a machine's sales come from: its vend events (audits only reconcile), or the
/// differences between its EVA-DTS audit reads.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SalesSourceDto {
    Events,
    Audit,
}

impl From<SalesSourceDto> for vendfleet_app::machines::SalesSource {
    fn from(s: SalesSourceDto) -> Self {
        match s {
            SalesSourceDto::Events => vendfleet_app::machines::SalesSource::Events,
            SalesSourceDto::Audit => vendfleet_app::machines::SalesSource::Audit,
        }
    }
}

impl From<vendfleet_app::machines::SalesSource> for SalesSourceDto {
    fn from(s: vendfleet_app::machines::SalesSource) -> Self {
        match s {
            vendfleet_app::machines::SalesSource::Events => SalesSourceDto::Events,
            vendfleet_app::machines::SalesSource::Audit => SalesSourceDto::Audit,
        }
    }
}

/// The machine form (create and settings).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MachineForm {
    #[serde(default)]
    #[schema(required = true, max_length = 150)]
    pub name: String,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub serial: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub mcu_serial: Option<String>,
    #[serde(default)]
    pub model_id: Option<String>,
    #[serde(default)]
    pub location_id: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub firmware: Option<String>,
    #[serde(default)]
    #[schema(max_length = 40)]
    pub connection_method: Option<String>,
    #[serde(default)]
    #[schema(max_length = 40)]
    pub protocol: Option<String>,
    #[serde(default)]
    pub inactive: bool,
    #[serde(default)]
    pub tag_ids: Vec<String>,
    #[serde(default)]
    pub peripherals: PeripheralsDto,
    /// ISO 4217, default EUR.
    #[serde(default)]
    #[schema(pattern = "^[A-Z]{3}$")]
    pub currency: Option<String>,
    /// 0–4, default 2.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 4)]
    pub decimal_places: Option<i64>,
    /// Default `events`; unchanged when absent.
    #[serde(default)]
    pub sales_source: Option<SalesSourceDto>,
    /// The card processor's terminal id: unchanged when absent, cleared when empty.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub terminal_id: Option<String>,
    /// The machine's id at Nayax (`MachineId` in Nayax Core's messages): unchanged when
    /// absent, cleared when empty.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub nayax_machine_id: Option<String>,
    #[serde(default)]
    pub version: Option<u64>,
}

impl From<MachineForm> for MachineInput {
    fn from(f: MachineForm) -> Self {
        MachineInput {
            name: f.name,
            serial: f.serial.unwrap_or_default(),
            mcu_serial: f.mcu_serial.unwrap_or_default(),
            model_id: f.model_id,
            location_id: f.location_id,
            firmware: f.firmware.unwrap_or_default(),
            connection_method: f.connection_method.unwrap_or_default(),
            protocol: f.protocol.unwrap_or_default(),
            inactive: f.inactive,
            tag_ids: f.tag_ids,
            peripherals: Peripherals {
                coin_changer: device_in(f.peripherals.coin_changer),
                bill_validator: device_in(f.peripherals.bill_validator),
                cashless: device_in(f.peripherals.cashless),
            },
            currency: f.currency,
            decimal_places: f.decimal_places,
            sales_source: f.sales_source.map(Into::into),
            terminal_id: f.terminal_id,
            nayax_machine_id: f.nayax_machine_id,
            version: f.version,
        }
    }
}

crate::kit::fields::list_query! {
    /// The machines list's query.
    pub struct MachinesQuery => MachineListParams {
        page,
        page_size,
        search,
        /// name, created_at, serial, location; `-` for descending.
        ordering,
        pub location: Option<String>,
        pub client: Option<String>,
        pub model: Option<String>,
        pub tag: Option<String>,
        /// `active` or `inactive`.
        #[param(value_type = Option<crate::kit::contract::StatusFilter>, inline)]
        pub status: Option<String>,
    }
}

// ---------- machines ----------

crud::list! {
    /// The machines the user may see, paged, with filters.
    list_machines("/api/machines/", "machines") -> MachineDto,
    |s, a: perm::MachinesList, q: MachinesQuery| {
        let page = s.app.machines.list(a.principal(), &(&q).into()).await?;
        let l = Lookups::load(&s).await?;
        ListReply::from_page(page, |m| l.machine(m, false))
    }
}

crud::create! {
    /// Creates a machine; the reply carries its webhook secret, shown this once. Given a Nayax
    /// machine id, the data sources' messages kept for that id are taken again.
    create_machine("/api/machines/", "machines") -> MachineDto, "Machine created successfully",
    |s, a: perm::MachinesNew, f: MachineForm| {
        let m = s.app.machines.create(a.principal(), f.into()).await?;
        if let Some(nayax) = &m.nayax_machine_id {
            s.app.data_sources.retake_machine(nayax).await?;
        }
        Lookups::load(&s).await?.machine(m, true)
    }
}

crud::get! {
    /// One machine.
    machine_details("/api/machines/{id}/details/", "machines") -> MachineDto,
    |s, a: perm::MachinesList, id| {
        let m = s.app.machines.machine_for(a.principal(), &id).await?;
        Lookups::load(&s).await?.machine(m, false)
    }
}

crud::update! {
    /// Updates a machine's settings. Given a Nayax machine id, the data sources' messages kept
    /// for that id are booked to it (exactly once).
    update_machine("/api/machines/{id}/settings/", "machines") -> MachineDto,
    "Machine updated successfully",
    |s, a: perm::MachinesEdit, id, f: MachineForm| {
        let m = s.app.machines.update(a.principal(), &id, f.into()).await?;
        if let Some(nayax) = &m.nayax_machine_id {
            s.app.data_sources.retake_machine(nayax).await?;
        }
        Lookups::load(&s).await?.machine(m, false)
    }
}

crud::delete! {
    /// Deletes a machine and its planogram.
    delete_machine("/api/machines/{id}/", "machines"), "Machine deleted successfully",
    |s, a: perm::MachinesDelete, id| s.app.machines.delete(a.principal(), &id).await?
}

/// Makes a new webhook secret; the old one stops working at once.
#[utoipa::path(post, path = "/api/machines/{id}/webhook-secret/", tag = "machines", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = MessageData<MachineDto>), (status = 404, body = ErrorBody)))]
pub(super) async fn rotate_secret(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<MessageData<MachineDto>>> {
    let m = s.app.machines.rotate_secret(a.principal(), &id).await?;
    Ok(updated(
        "Webhook secret rotated",
        Lookups::load(&s).await?.machine(m, true),
    ))
}

/// Machines matching the list's filters as a CSV or XLSX file.
#[utoipa::path(get, path = "/api/machines/export/", tag = "machines", security(("bearer" = [])), params(MachinesQuery, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)), (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>), (status = 400, body = ErrorBody)))]
pub(super) async fn export_machines(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesExport>,
    Query(q): Query<MachinesQuery>,
    Query(e): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (items, _) = s.app.machines.filtered(a.principal(), &(&q).into()).await?;
    let l = Lookups::load(&s).await?;
    let lang = a.principal().user.language;
    let table = machines_table(lang, items, &l.models, &l.locations, &l.tags);
    crate::kit::export::answer(table, &s, a.requester(), format, "machines").await
}

/// The machine overview (spec section 3); telemetry fields are null until events arrive.
#[derive(Debug, Serialize, ToSchema)]
pub struct OverviewDto {
    pub connection_method: String,
    pub protocol: String,
    pub firmware: String,
    /// `unknown` until telemetry arrives; `inactive` for an inactive machine.
    pub status: String,
    pub last_sale: Option<DateTime<Utc>>,
    pub last_refill: Option<DateTime<Utc>>,
    pub last_encashment: Option<DateTime<Utc>>,
    pub cash_box: Option<i64>,
    pub bill_stacker: Option<i64>,
    pub value_of_tubes: Option<i64>,
    pub currency: String,
    pub last_updated: Option<DateTime<Utc>>,
    pub power: Option<String>,
    pub signal: Option<i64>,
}

/// The machine overview.
#[utoipa::path(get, path = "/api/machines/{id}/dashboard/overview/", tag = "machines", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<OverviewDto>), (status = 404, body = ErrorBody)))]
pub(super) async fn overview(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<OverviewDto>>> {
    let o = s.app.events.overview(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: OverviewDto {
            connection_method: o.machine.connection_method,
            protocol: o.machine.protocol,
            firmware: o.machine.firmware,
            status: o.status,
            last_sale: o.last_sale,
            last_refill: o.last_refill,
            last_encashment: o.last_encashment,
            cash_box: o.cash_box_minor,
            bill_stacker: o.bill_stacker_minor,
            value_of_tubes: o.tubes_minor,
            currency: o.machine.currency,
            last_updated: o.last_updated,
            power: o.power,
            signal: o.signal,
        },
    }))
}

// ---------- filters ----------

crud::options! {
    /// The machines the user may see.
    machine_options("/api/filters/machines/"),
    |s, a: SignedIn| {
        s.app.machines.visible(a.principal()).await?.into_iter().map(|m| (m.id, m.name))
    }
}

crud::options! {
    /// Every machine tag.
    tag_options("/api/filters/machines/tags/"),
    |s, _a: SignedIn| s.app.machines.list_tags().await?.into_iter().map(|t| (t.id, t.name))
}

crud::options! {
    /// The tags the user may hand out: all of them with the all-tags permission or all machines,
    /// else the tags of their own machines and scope.
    tags_by_permissions("/api/filters/machines/tags/all-by-permissions/"),
    |s, a: SignedIn| {
        let p = a.principal();
        let tags = s.app.machines.list_tags().await?;
        let all = p.can(Permission::AllMachineTagsAccessProvider)
            || p.machine_scope() == MachineScope::All;
        let mine: BTreeSet<String> = if all {
            BTreeSet::new()
        } else {
            let mut set: BTreeSet<String> = p.user.machine_tag_ids.iter().cloned().collect();
            let machines = s.app.machines.visible(p).await?;
            set.extend(machines.into_iter().flat_map(|m| m.tag_ids));
            set
        };
        tags.into_iter()
            .filter(move |t| all || mine.contains(&t.id))
            .map(|t| (t.id, t.name))
    }
}

crud::options! {
    /// The MCU serials of the machines the user may see.
    mcu_options("/api/filters/mcu/"),
    |s, a: SignedIn| {
        let machines = s.app.machines.visible(a.principal()).await?;
        machines.into_iter().filter(|m| !m.mcu_serial.is_empty()).map(|m| (m.id, m.mcu_serial))
    }
}
