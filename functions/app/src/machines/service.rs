//! The machines service: machines and tags, planograms, stock changes with their refill log,
//! and the user's machine access scope on every call.

use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::fleet::machine::*;
use crate::fleet::{FleetService, Location};
use crate::listing::{page_of, paging, ListPage, ListParams, Paging};
use crate::ports::{query_all, Condition, Index, ItemStore, Query, SortKey, Write};
use crate::products::ProductRef;
use crate::records::{Records, Shared, MAX_CHANGE_WRITES};
use chrono::{NaiveDate, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::calendar::latest_date_anywhere;
use vendfleet_domain::{validation, FieldErrors, MachineFacts, MachineScope};

mod intake;
pub(crate) mod planogram;
mod refills;
mod tags;

pub use intake::MachineContext;
pub use refills::ProductRefills;

/// The machine form.
#[derive(Debug, Clone, Default)]
pub struct MachineInput {
    pub name: String,
    pub serial: String,
    pub mcu_serial: String,
    pub model_id: Option<String>,
    pub location_id: Option<String>,
    pub firmware: String,
    pub connection_method: String,
    pub protocol: String,
    pub inactive: bool,
    pub tag_ids: Vec<String>,
    pub peripherals: Peripherals,
    pub currency: Option<String>,
    pub decimal_places: Option<i64>,
    /// Unchanged when absent.
    pub sales_source: Option<SalesSource>,
    /// The card processor's terminal id: unchanged when absent, cleared when empty.
    pub terminal_id: Option<String>,
    /// The machine's id at Nayax: unchanged when absent, cleared when empty.
    pub nayax_machine_id: Option<String>,
    pub version: Option<u64>,
}

/// The machines list's parameters.
#[derive(Debug, Clone, Default)]
pub struct MachineListParams {
    pub list: ListParams,
    pub location: Option<String>,
    pub client: Option<String>,
    pub model: Option<String>,
    pub tag: Option<String>,
    /// `active` or `inactive`.
    pub status: Option<String>,
}

/// One selection of the planogram form.
#[derive(Debug, Clone, Default)]
pub struct SelectionInput {
    pub selection: String,
    pub product_id: String,
    pub max: i64,
    pub price_minor: i64,
    pub current: i64,
    /// `YYYY-MM-DD`, or empty for none.
    pub expiry_date: Option<String>,
}

/// A selection with what the screens show beside it.
#[derive(Debug, Clone)]
pub struct SelectionView {
    pub selection: Selection,
    pub product_name: String,
    /// Units the slot can still take (max − current): what a refill brings.
    pub remaining: i64,
}

/// The refill log's parameters.
#[derive(Debug, Clone, Default)]
pub struct RefillListParams {
    pub page: Option<i64>,
    pub page_size: Option<i64>,
    pub machine: Option<String>,
    pub location: Option<String>,
    /// First and last local day (inclusive).
    pub from: Option<String>,
    pub to: Option<String>,
    /// Only these machines, when set (the reports' machine filters, resolved in the scope).
    pub machine_ids: Option<BTreeSet<String>>,
    /// Only these products, when set (the reports' product and product-tag filters).
    pub product_ids: Option<BTreeSet<String>>,
}

/// The machine overview; telemetry fields stay `None` until events exist.
#[derive(Debug, Clone)]
pub struct Overview {
    pub machine: Machine,
    pub status: String,
    pub last_sale: Option<chrono::DateTime<Utc>>,
    pub last_refill: Option<chrono::DateTime<Utc>>,
    pub last_encashment: Option<chrono::DateTime<Utc>>,
    pub cash_box_minor: Option<i64>,
    pub bill_stacker_minor: Option<i64>,
    pub tubes_minor: Option<i64>,
    pub last_updated: Option<chrono::DateTime<Utc>>,
    pub power: Option<String>,
    pub signal: Option<i64>,
}

/// One stock change of a selection, for its refill-log line.
pub(crate) struct StockChange<'a> {
    /// manual, fill-stock, empty-stock or route.
    pub(crate) source: &'a str,
    pub(crate) added: i64,
    pub(crate) removed: i64,
}

/// The service.
#[derive(Clone)]
pub struct MachinesService {
    machines: Records<Machine>,
    tags: Records<MachineTag>,
    fleet: FleetService,
    products: crate::products::ProductLookup,
    store: Arc<dyn ItemStore>,
    calendar: crate::Calendar,
    visible: Arc<std::sync::Mutex<Vec<Visible>>>,
}

/// The machines a scope admits, computed from two catalogue snapshots and kept as long as they
/// are the current ones (the snapshots are held, so a match by pointer is a match by content).
struct Visible {
    scope: MachineScope,
    machines: Arc<Shared<Machine>>,
    locations: Arc<Shared<Location>>,
    admitted: Arc<Vec<Machine>>,
}

/// Scopes whose visible machines are kept (the most recently used).
const VISIBLE_KEPT: usize = 16;

/// Most selections of one machine.
pub const MAX_SELECTIONS: usize = 200;

fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::Rng::fill(&mut rand::rng(), &mut bytes);
    hex::encode(bytes)
}

fn clean_ids(ids: &[String]) -> Vec<String> {
    ids.iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn opt(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

impl MachinesService {
    /// A service on `store`.
    pub fn new(store: Arc<dyn ItemStore>, fleet: FleetService, calendar: crate::Calendar) -> Self {
        MachinesService {
            machines: Records::new(store.clone()),
            tags: Records::new(store.clone()),
            fleet,
            products: crate::products::ProductLookup::new(store.clone()),
            store,
            calendar,
            visible: Arc::default(),
        }
    }

    /// The machines repository.
    pub fn machines(&self) -> &Records<Machine> {
        &self.machines
    }

    /// The machine tags repository.
    pub fn tags(&self) -> &Records<MachineTag> {
        &self.tags
    }

    async fn locations_by_id(&self) -> AppResult<Arc<Shared<Location>>> {
        self.fleet.locations().all_shared().await
    }

    fn admits(scope: &MachineScope, m: &Machine, locations: &Shared<Location>) -> bool {
        let loc = m.location_id.as_ref().and_then(|l| locations.get(l));
        scope.admits(&MachineFacts {
            machine_id: &m.id,
            location_id: m.location_id.as_deref(),
            client_id: loc.and_then(|l| l.client_id.as_deref()),
            tag_ids: &m.tag_ids,
        })
    }

    /// The machines the user may see.
    pub async fn visible(&self, p: &Principal) -> AppResult<Vec<Machine>> {
        Ok(self.visible_shared(p).await?.0.as_ref().clone())
    }

    /// The active machines the user may see.
    pub async fn active_visible(&self, p: &Principal) -> AppResult<Vec<Machine>> {
        let (all, _) = self.visible_shared(p).await?;
        Ok(all.iter().filter(|m| !m.inactive).cloned().collect())
    }

    /// The machines the user may see, and how many machines the fleet has (whoever asks),
    /// from one read of the catalogue; shared: worked out once per scope and catalogue version
    /// rather than machine by machine on every request.
    pub async fn visible_shared(&self, p: &Principal) -> AppResult<(Arc<Vec<Machine>>, usize)> {
        let scope = p.machine_scope();
        let locations = self.locations_by_id().await?;
        let all = self.machines.all_shared().await?;
        let fleet = all.len();
        let mut kept = self.visible.lock().unwrap_or_else(|e| e.into_inner());
        let found = kept.iter().position(|v| {
            v.scope == scope
                && Arc::ptr_eq(&v.machines, &all)
                && Arc::ptr_eq(&v.locations, &locations)
        });
        let entry = match found {
            Some(i) => kept.remove(i),
            None => Visible {
                admitted: Arc::new(
                    all.iter()
                        .filter(|m| Self::admits(&scope, m, &locations))
                        .cloned()
                        .collect(),
                ),
                scope,
                machines: all,
                locations,
            },
        };
        let admitted = entry.admitted.clone();
        kept.insert(0, entry);
        kept.truncate(VISIBLE_KEPT);
        Ok((admitted, fleet))
    }

    /// The ids of the machines the user may see.
    pub async fn visible_ids(&self, p: &Principal) -> AppResult<BTreeSet<String>> {
        Ok(self.visible(p).await?.into_iter().map(|m| m.id).collect())
    }

    /// One machine the user may see, or 404 (also when it exists outside their scope).
    pub async fn machine_for(&self, p: &Principal, id: &str) -> AppResult<Machine> {
        let m = self.machines.get_or_404(id).await?;
        let locations = self.locations_by_id().await?;
        if Self::admits(&p.machine_scope(), &m, &locations) {
            Ok(m)
        } else {
            Err(AppError::NotFound("Machine not found".into()))
        }
    }

    /// Machines matching the filters, ordered, unpaged.
    pub async fn filtered(
        &self,
        p: &Principal,
        params: &MachineListParams,
    ) -> AppResult<(Vec<Machine>, Paging)> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            &params.list,
            &["name", "created_at", "serial", "location"],
            &mut errors,
        );
        let status = match opt(&params.status) {
            None => None,
            Some("active") => Some(false),
            Some("inactive") => Some(true),
            Some(_) => {
                errors.add("status", "Choose active or inactive.");
                None
            }
        };
        errors.into_result()?;
        let locations = self.locations_by_id().await?;
        let scope = p.machine_scope();
        let mut items: Vec<Machine> = self
            .machines
            .all()
            .await?
            .into_iter()
            .filter(|m| Self::admits(&scope, m, &locations))
            .filter(|m| status.is_none_or(|inactive| m.inactive == inactive))
            .filter(|m| opt(&params.location).is_none_or(|l| m.location_id.as_deref() == Some(l)))
            .filter(|m| opt(&params.model).is_none_or(|x| m.model_id.as_deref() == Some(x)))
            .filter(|m| opt(&params.tag).is_none_or(|t| m.tag_ids.iter().any(|x| x == t)))
            .filter(|m| {
                opt(&params.client).is_none_or(|c| {
                    m.location_id
                        .as_ref()
                        .and_then(|l| locations.get(l))
                        .and_then(|l| l.client_id.as_deref())
                        == Some(c)
                })
            })
            .filter(|m| {
                pg.search.is_empty()
                    || [&m.name, &m.serial, &m.mcu_serial]
                        .iter()
                        .any(|f| f.to_lowercase().contains(&pg.search))
            })
            .collect();
        let (field, desc) = pg.ordering.clone().unwrap_or(("name".into(), false));
        let loc_name = |m: &Machine| {
            m.location_id
                .as_ref()
                .and_then(|l| locations.get(l))
                .map(|l| l.name.to_lowercase())
                .unwrap_or_default()
        };
        items.sort_by(|a, b| {
            let o = match field.as_str() {
                "created_at" => a.created_at.cmp(&b.created_at),
                "serial" => a.serial.cmp(&b.serial),
                "location" => loc_name(a).cmp(&loc_name(b)),
                _ => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
            }
            .then_with(|| a.id.cmp(&b.id));
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        Ok((items, pg))
    }

    /// One page of machines.
    pub async fn list(
        &self,
        p: &Principal,
        params: &MachineListParams,
    ) -> AppResult<ListPage<Machine>> {
        let (items, pg) = self.filtered(p, params).await?;
        Ok(page_of(items, &pg))
    }

    async fn apply_form(
        &self,
        p: &Principal,
        input: MachineInput,
        m: &mut Machine,
    ) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        m.name = validation::required_text(&mut errors, "name", &input.name, 150);
        m.serial = validation::optional_text(&mut errors, "serial", &input.serial, 64);
        m.mcu_serial = validation::optional_text(&mut errors, "mcu_serial", &input.mcu_serial, 64);
        m.firmware = validation::optional_text(&mut errors, "firmware", &input.firmware, 64);
        m.connection_method = validation::optional_text(
            &mut errors,
            "connection_method",
            &input.connection_method,
            40,
        );
        m.protocol = validation::optional_text(&mut errors, "protocol", &input.protocol, 40);
        m.inactive = input.inactive;
        for (field, d) in [
            ("peripherals.coin_changer", &input.peripherals.coin_changer),
            (
                "peripherals.bill_validator",
                &input.peripherals.bill_validator,
            ),
            ("peripherals.cashless", &input.peripherals.cashless),
        ] {
            validation::optional_text(&mut errors, field, &d.serial, 64);
            validation::optional_text(&mut errors, field, &d.model, 64);
        }
        m.peripherals = input.peripherals.clone();
        if let Some(c) = input
            .currency
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            if c.len() == 3 && c.chars().all(|ch| ch.is_ascii_uppercase()) {
                m.currency = c.to_string();
            } else {
                errors.add("currency", "Use a three-letter ISO 4217 code such as EUR.");
            }
        }
        match input.decimal_places {
            None => {}
            Some(d) if (0..=4).contains(&d) => m.decimal_places = d as u8,
            Some(_) => errors.add("decimal_places", "Must be between 0 and 4."),
        }
        if let Some(src) = input.sales_source {
            m.sales_source = src;
        }
        if input.terminal_id.is_some() || input.nayax_machine_id.is_some() {
            let others = self.machines.all_shared().await?;
            let others: Vec<&Machine> = others.iter().filter(|o| o.id != m.id).collect();
            let field = ExternalId {
                name: "terminal_id",
                taken: "Another machine has this terminal id.",
                of: |o: &Machine| o.terminal_id.as_deref(),
            };
            if let Some(v) = field.check(&mut errors, input.terminal_id.as_deref(), &others) {
                m.terminal_id = v;
            }
            let field = ExternalId {
                name: "nayax_machine_id",
                taken: "Another machine has this Nayax machine id.",
                of: |o: &Machine| o.nayax_machine_id.as_deref(),
            };
            if let Some(v) = field.check(&mut errors, input.nayax_machine_id.as_deref(), &others) {
                // Linking a Nayax id books the data sources' messages kept for it (every
                // machine's, unclaimed): an administrator's, as the data sources are.
                if v != m.nayax_machine_id && p.machine_scope() != MachineScope::All {
                    errors.add(
                        "nayax_machine_id",
                        "Only a user who sees every machine links a Nayax machine id.",
                    );
                } else {
                    m.nayax_machine_id = v;
                }
            }
        }
        m.model_id = opt(&input.model_id).map(String::from);
        if let Some(id) = &m.model_id {
            if self.fleet.models().get(id).await?.is_none() {
                errors.add("model_id", "Choose an existing model.");
            }
        }
        m.location_id = opt(&input.location_id).map(String::from);
        if let Some(id) = &m.location_id {
            match self.fleet.locations().get(id).await? {
                Some(l)
                    if FleetService::location_in_scope(&p.machine_scope(), &l)
                        || p.machine_scope() == MachineScope::All => {}
                Some(_) | None => errors.add("location_id", "Choose one of your locations."),
            }
        }
        m.tag_ids = clean_ids(&input.tag_ids);
        if !m.tag_ids.is_empty() {
            let known = self.tags.get_many(&m.tag_ids).await?;
            if known.len() != m.tag_ids.len() {
                errors.add("tag_ids", "Choose existing tags.");
            }
        }
        if errors.is_empty() {
            let locations = self.locations_by_id().await?;
            if !Self::admits(&p.machine_scope(), m, &locations) {
                errors.add("location_id", "You would lose access to this machine.");
            }
        }
        errors.into_result().map_err(Into::into)
    }

    /// Creates a machine with a fresh webhook secret.
    pub async fn create(&self, p: &Principal, input: MachineInput) -> AppResult<Machine> {
        let now = self.calendar.now();
        let mut m = Machine {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            serial: String::new(),
            mcu_serial: String::new(),
            model_id: None,
            location_id: None,
            firmware: String::new(),
            connection_method: String::new(),
            protocol: String::new(),
            inactive: false,
            tag_ids: vec![],
            peripherals: Peripherals::default(),
            currency: "EUR".into(),
            decimal_places: 2,
            webhook_secret: new_secret(),
            sales_source: SalesSource::Events,
            terminal_id: None,
            nayax_machine_id: None,
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        self.apply_form(p, input, &mut m).await?;
        self.machines.insert(&m).await?;
        Ok(m)
    }

    /// Updates a machine's settings.
    pub async fn update(&self, p: &Principal, id: &str, input: MachineInput) -> AppResult<Machine> {
        let current = self.machine_for(p, id).await?;
        let expected = input.version;
        self.machines
            .update(current, expected, self.calendar.now(), async |next| {
                self.apply_form(p, input, next).await
            })
            .await
    }

    /// Replaces the webhook secret; the old one stops working at once.
    pub async fn rotate_secret(&self, p: &Principal, id: &str) -> AppResult<Machine> {
        let current = self.machine_for(p, id).await?;
        self.machines
            .update(current, None, self.calendar.now(), async |next| {
                next.webhook_secret = new_secret();
                Ok(())
            })
            .await
    }

    /// Deletes a machine with its planogram.
    pub async fn delete(&self, p: &Principal, id: &str) -> AppResult<()> {
        let m = self.machine_for(p, id).await?;
        let sels = self.raw_selections(id).await?;
        if sels.len() + 2 > MAX_CHANGE_WRITES {
            return Err(AppError::conflict("Remove the machine's selections first."));
        }
        let mut writes = Records::<Machine>::delete_writes(&m);
        writes.extend(sels.iter().map(|s| Write::Delete {
            key: Selection::key(id, &s.selection),
            condition: None,
        }));
        self.machines.apply(writes, &m).await
    }

    /// The overview of a machine.
    pub async fn overview(&self, p: &Principal, id: &str) -> AppResult<Overview> {
        let machine = self.machine_for(p, id).await?;
        let last = self
            .store
            .query(
                Query::partition(Index::Primary, crate::machines::Machine::partition(id))
                    .sk(SortKey::BeginsWith("REFILL#".into()))
                    .backward()
                    .limit(1),
            )
            .await?;
        let last_refill = last
            .items
            .first()
            .and_then(|i| i.to_value::<RefillEntry>().ok())
            .map(|r| r.at);
        Ok(Overview {
            status: if machine.inactive {
                "inactive".into()
            } else {
                "unknown".into()
            },
            machine,
            last_sale: None,
            last_refill,
            last_encashment: None,
            cash_box_minor: None,
            bill_stacker_minor: None,
            tubes_minor: None,
            last_updated: None,
            power: None,
            signal: None,
        })
    }
}

#[async_trait::async_trait]
impl crate::users::ScopeCatalogueSource for MachinesService {
    async fn scope_catalogue(&self) -> AppResult<vendfleet_domain::ScopeCatalogue> {
        Ok(vendfleet_domain::ScopeCatalogue {
            client_ids: self
                .fleet
                .clients()
                .all()
                .await?
                .into_iter()
                .map(|c| c.id)
                .collect(),
            locations: self
                .fleet
                .locations()
                .all()
                .await?
                .into_iter()
                .map(|l| (l.id, l.client_id))
                .collect(),
            machine_tag_ids: self.tags.all().await?.into_iter().map(|t| t.id).collect(),
            machines: self
                .machines
                .all()
                .await?
                .into_iter()
                .map(|m| {
                    (
                        m.id,
                        vendfleet_domain::MachinePlace {
                            location_id: m.location_id,
                            tag_ids: m.tag_ids,
                        },
                    )
                })
                .collect(),
        })
    }
}

/// A machine's id in another system (a card terminal, a telemetry provider): at most 64
/// characters, unique among machines.
struct ExternalId<F: Fn(&Machine) -> Option<&str>> {
    name: &'static str,
    taken: &'static str,
    of: F,
}

impl<F: Fn(&Machine) -> Option<&str>> ExternalId<F> {
    /// The field's new value (`Some(None)`: cleared), or `None` when it is unchanged (absent)
    /// or refused (the error is added).
    fn check(
        &self,
        errors: &mut FieldErrors,
        input: Option<&str>,
        others: &[&Machine],
    ) -> Option<Option<String>> {
        let t = input?.trim();
        if t.chars().count() > 64 {
            errors.add(self.name, "At most 64 characters.");
            None
        } else if t.is_empty() {
            Some(None)
        } else if others.iter().any(|o| (self.of)(o) == Some(t)) {
            errors.add(self.name, self.taken);
            None
        } else {
            Some(Some(t.to_string()))
        }
    }
}
