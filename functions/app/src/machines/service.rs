//! The machines service: machines and tags, planograms, stock changes with their refill log,
//! and the user's machine access scope on every call.

use super::model::*;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::listing::{page_of, paging, ListPage, ListParams, Paging};
use crate::ports::{
    query_all, Condition, Index, ItemStore, Query, SortKey, Write, MAX_TRANSACTION_WRITES,
};
use crate::products::ProductRef;
use crate::records::Records;
use crate::settings::{Location, SettingsService};
use chrono::{NaiveDate, Utc};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::calendar::latest_date_anywhere;
use vendfleet_domain::{validation, FieldErrors, MachineFacts, MachineScope};

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
struct StockChange<'a> {
    /// manual, fill-stock or empty-stock.
    source: &'a str,
    added: i64,
    removed: i64,
}

/// The service.
#[derive(Clone)]
pub struct MachinesService {
    machines: Records<Machine>,
    tags: Records<MachineTag>,
    settings: SettingsService,
    products: crate::products::ProductLookup,
    store: Arc<dyn ItemStore>,
    calendar: crate::Calendar,
}

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
    pub fn new(
        store: Arc<dyn ItemStore>,
        settings: SettingsService,
        calendar: crate::Calendar,
    ) -> Self {
        MachinesService {
            machines: Records::new(store.clone()),
            tags: Records::new(store.clone()),
            settings,
            products: crate::products::ProductLookup::new(store.clone()),
            store,
            calendar,
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

    async fn locations_by_id(&self) -> AppResult<HashMap<String, Location>> {
        Ok(self
            .settings
            .locations()
            .all()
            .await?
            .into_iter()
            .map(|l| (l.id.clone(), l))
            .collect())
    }

    fn admits(scope: &MachineScope, m: &Machine, locations: &HashMap<String, Location>) -> bool {
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
        let scope = p.machine_scope();
        let locations = self.locations_by_id().await?;
        Ok(self
            .machines
            .all()
            .await?
            .into_iter()
            .filter(|m| Self::admits(&scope, m, &locations))
            .collect())
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
        m.model_id = opt(&input.model_id).map(String::from);
        if let Some(id) = &m.model_id {
            if self.settings.models().get(id).await?.is_none() {
                errors.add("model_id", "Choose an existing model.");
            }
        }
        m.location_id = opt(&input.location_id).map(String::from);
        if let Some(id) = &m.location_id {
            match self.settings.locations().get(id).await? {
                Some(l)
                    if SettingsService::location_in_scope(&p.machine_scope(), &l)
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
        if sels.len() + 2 > MAX_TRANSACTION_WRITES {
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
                Query::partition(Index::Primary, format!("MACHINE#{id}"))
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

    // ---------- planogram ----------

    async fn raw_selections(&self, machine_id: &str) -> AppResult<Vec<Selection>> {
        let q = Query::partition(Index::Primary, format!("MACHINE#{machine_id}"))
            .sk(SortKey::BeginsWith(Selection::PREFIX.into()));
        let items = query_all(self.store.as_ref(), q).await?;
        items
            .iter()
            .map(|i| Selection::from_item(i).map_err(AppError::from))
            .collect()
    }

    async fn products(
        &self,
        ids: impl IntoIterator<Item = String>,
    ) -> AppResult<HashMap<String, ProductRef>> {
        self.products.refs(ids).await
    }

    fn view(s: Selection, products: &HashMap<String, ProductRef>) -> SelectionView {
        SelectionView {
            product_name: products
                .get(&s.product_id)
                .map(|p| p.name.clone())
                .unwrap_or_default(),
            remaining: (s.max - s.current).max(0),
            selection: s,
        }
    }

    /// The planogram of a machine, in selection order.
    pub async fn selections(
        &self,
        p: &Principal,
        machine_id: &str,
    ) -> AppResult<Vec<SelectionView>> {
        self.machine_for(p, machine_id).await?;
        let sels = self.raw_selections(machine_id).await?;
        let products = self
            .products(sels.iter().map(|s| s.product_id.clone()))
            .await?;
        let mut views: Vec<_> = sels.into_iter().map(|s| Self::view(s, &products)).collect();
        views.sort_by_key(|a| natural(&a.selection.selection));
        Ok(views)
    }

    fn check_selection(
        errors: &mut FieldErrors,
        prefix: &str,
        input: &SelectionInput,
        products: &HashMap<String, ProductRef>,
    ) -> (String, Option<NaiveDate>) {
        let f = |name: &str| {
            if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}.{name}")
            }
        };
        let code = input.selection.trim().to_string();
        if code.is_empty() {
            errors.add(f("selection"), "This field is required.");
        } else if code.len() > 10 || !code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            errors.add(f("selection"), "Use up to 10 letters, digits or dashes.");
        }
        match products.get(input.product_id.trim()) {
            None => errors.add(f("product_id"), "Choose an existing product."),
            Some(p) if p.inactive => errors.add(f("product_id"), "This product is inactive."),
            Some(_) => {}
        }
        if !(1..=10_000).contains(&input.max) {
            errors.add(f("max"), "Must be between 1 and 10000.");
        }
        if !(0..=100_000_000).contains(&input.price_minor) {
            errors.add(f("price_minor"), "Must be 0 or more (in cents).");
        }
        if input.current < 0 {
            errors.add(f("current"), "Must be 0 or more.");
        } else if input.current > input.max {
            errors.add(f("current"), "Cannot be more than max.");
        }
        let expiry = match input
            .expiry_date
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
        {
            None => None,
            Some(d) => match vendfleet_domain::calendar::parse_date(d) {
                Some(date) => Some(date),
                None => {
                    errors.add(f("expiry_date"), "Enter a real date as YYYY-MM-DD.");
                    None
                }
            },
        };
        (code, expiry)
    }

    async fn refill_entry(
        &self,
        p: &Principal,
        m: &Machine,
        s: &Selection,
        product: &str,
        change: StockChange<'_>,
    ) -> AppResult<RefillEntry> {
        let now = self.calendar.now();
        let location = match &m.location_id {
            Some(id) => self.settings.locations().get(id).await?,
            None => None,
        };
        let tz = self
            .calendar
            .zone_or_operator(location.as_ref().map(|l| l.time_zone.as_str()));
        Ok(RefillEntry {
            id: ulid::Ulid::new().to_string(),
            at: now,
            local_date: vendfleet_domain::calendar::local_date(now, tz),
            machine_id: m.id.clone(),
            machine_name: m.name.clone(),
            location_id: m.location_id.clone(),
            location_name: location.map(|l| l.name),
            employee_id: p.user.id.clone(),
            employee_name: p.user.name.clone(),
            source: change.source.into(),
            selection: s.selection.clone(),
            product_id: s.product_id.clone(),
            product_name: product.into(),
            added: change.added,
            removed: change.removed,
        })
    }

    /// Adds or changes one selection; a change of quantity is written to the refill log.
    pub async fn upsert_selection(
        &self,
        p: &Principal,
        machine_id: &str,
        input: SelectionInput,
    ) -> AppResult<SelectionView> {
        self.save_selection(p, machine_id, input, false).await
    }

    /// Saves a selection; `keep_inactive` lets stock change on a product made inactive since.
    async fn save_selection(
        &self,
        p: &Principal,
        machine_id: &str,
        input: SelectionInput,
        keep_inactive: bool,
    ) -> AppResult<SelectionView> {
        let m = self.machine_for(p, machine_id).await?;
        let mut products = self.products([input.product_id.trim().to_string()]).await?;
        if keep_inactive {
            products.values_mut().for_each(|p| p.inactive = false);
        }
        let mut errors = FieldErrors::new();
        let (code, expiry) = Self::check_selection(&mut errors, "", &input, &products);
        errors.into_result()?;
        let existing = self
            .store
            .get(&Selection::key(machine_id, &code))
            .await?
            .map(|i| Selection::from_item(&i))
            .transpose()?;
        if existing.is_none() && self.raw_selections(machine_id).await?.len() >= MAX_SELECTIONS {
            return Err(AppError::invalid_field(
                "selection",
                &format!("A machine has at most {MAX_SELECTIONS} selections."),
            ));
        }
        let next = Selection {
            machine_id: machine_id.into(),
            selection: code,
            product_id: input.product_id.trim().into(),
            max: input.max,
            price_minor: input.price_minor,
            current: input.current,
            expiry_date: expiry,
            last_purchase: existing.as_ref().and_then(|e| e.last_purchase),
            machine_name: m.name.clone(),
            updated_at: self.calendar.now(),
            version: existing.as_ref().map_or(1, |e| e.version + 1),
        };
        let before = existing.as_ref().map_or(0, |e| e.current);
        let product_name = products
            .get(&next.product_id)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let mut writes = vec![Write::Put {
            item: next.to_item()?,
            condition: Some(
                existing
                    .as_ref()
                    .map_or(Condition::NotExists, |e| Condition::VersionIs(e.version)),
            ),
        }];
        if next.current != before {
            let e = self
                .refill_entry(
                    p,
                    &m,
                    &next,
                    &product_name,
                    StockChange {
                        source: "manual",
                        added: (next.current - before).max(0),
                        removed: (before - next.current).max(0),
                    },
                )
                .await?;
            writes.push(Write::Put {
                item: e.to_item()?,
                condition: None,
            });
        }
        let old_price = existing.as_ref().map(|e| e.price_minor);
        if old_price != Some(next.price_minor) {
            let change = SelectionPriceChange {
                id: ulid::Ulid::new().to_string(),
                at: next.updated_at,
                machine_id: machine_id.into(),
                selection: next.selection.clone(),
                product_id: next.product_id.clone(),
                old_price_minor: old_price,
                new_price_minor: next.price_minor,
                changed_by_id: p.user.id.clone(),
                changed_by: p.user.name.clone(),
            };
            writes.push(Write::Put {
                item: change.to_item()?,
                condition: None,
            });
        }
        self.transact(writes).await?;
        Ok(Self::view(next, &products))
    }

    /// Sets the quantity and expiry of one selection (refillers), logging the change.
    pub async fn set_stock(
        &self,
        p: &Principal,
        machine_id: &str,
        code: &str,
        current: i64,
        expiry_date: Option<String>,
    ) -> AppResult<SelectionView> {
        self.machine_for(p, machine_id).await?;
        let s = self
            .store
            .get(&Selection::key(machine_id, code))
            .await?
            .map(|i| Selection::from_item(&i))
            .transpose()?
            .ok_or_else(|| AppError::NotFound("Selection not found".into()))?;
        let input = SelectionInput {
            selection: s.selection.clone(),
            product_id: s.product_id.clone(),
            max: s.max,
            price_minor: s.price_minor,
            current,
            expiry_date,
        };
        self.save_selection(p, machine_id, input, true).await
    }

    /// Removes selections from a machine's planogram.
    pub async fn delete_selections(
        &self,
        p: &Principal,
        machine_id: &str,
        codes: &[String],
    ) -> AppResult<usize> {
        self.machine_for(p, machine_id).await?;
        let codes = clean_ids(codes);
        if codes.is_empty() || codes.len() > MAX_TRANSACTION_WRITES {
            return Err(AppError::invalid_field(
                "selections",
                &format!("Choose 1 to {MAX_TRANSACTION_WRITES} selections."),
            ));
        }
        let existing: BTreeSet<String> = self
            .raw_selections(machine_id)
            .await?
            .into_iter()
            .map(|s| s.selection)
            .collect();
        if let Some(missing) = codes.iter().find(|c| !existing.contains(*c)) {
            return Err(AppError::NotFound(format!(
                "Selection not found: {missing}"
            )));
        }
        let writes = codes
            .iter()
            .map(|c| Write::Delete {
                key: Selection::key(machine_id, c),
                condition: Some(Condition::Exists),
            })
            .collect();
        self.transact(writes).await?;
        Ok(codes.len())
    }

    /// Fills (to max) or empties (to 0) selections — all of them when `codes` is empty — and logs
    /// every change; all or nothing.
    pub async fn restock(
        &self,
        p: &Principal,
        machine_id: &str,
        codes: &[String],
        fill: bool,
    ) -> AppResult<Vec<SelectionView>> {
        let m = self.machine_for(p, machine_id).await?;
        let all = self.raw_selections(machine_id).await?;
        let codes = clean_ids(codes);
        let chosen: Vec<Selection> = if codes.is_empty() {
            all
        } else {
            let by_code: HashMap<String, Selection> =
                all.into_iter().map(|s| (s.selection.clone(), s)).collect();
            let mut v = Vec::new();
            for c in &codes {
                v.push(
                    by_code
                        .get(c)
                        .cloned()
                        .ok_or_else(|| AppError::NotFound(format!("Selection not found: {c}")))?,
                );
            }
            v
        };
        let products = self
            .products(chosen.iter().map(|s| s.product_id.clone()))
            .await?;
        let mut writes = Vec::new();
        let mut out = Vec::new();
        for s in chosen {
            let target = if fill { s.max } else { 0 };
            if s.current == target {
                out.push(Self::view(s, &products));
                continue;
            }
            let mut next = s.clone();
            next.current = target;
            next.updated_at = self.calendar.now();
            next.version = s.version + 1;
            let name = products
                .get(&s.product_id)
                .map(|p| p.name.clone())
                .unwrap_or_default();
            let (added, removed) = if fill {
                (target - s.current, 0)
            } else {
                (0, s.current)
            };
            let entry = self
                .refill_entry(
                    p,
                    &m,
                    &next,
                    &name,
                    StockChange {
                        source: if fill { "fill-stock" } else { "empty-stock" },
                        added,
                        removed,
                    },
                )
                .await?;
            writes.push(Write::Put {
                item: next.to_item()?,
                condition: Some(Condition::VersionIs(s.version)),
            });
            writes.push(Write::Put {
                item: entry.to_item()?,
                condition: None,
            });
            out.push(Self::view(next, &products));
        }
        if writes.len() > MAX_TRANSACTION_WRITES {
            return Err(AppError::invalid_field(
                "selections",
                "Too many selections at once: choose at most 50.",
            ));
        }
        self.transact(writes).await?;
        out.sort_by_key(|a| natural(&a.selection.selection));
        Ok(out)
    }

    /// Copies a machine's planogram (products, max, prices; empty stock) onto other machines,
    /// replacing theirs; all or nothing.
    pub async fn copy_products(
        &self,
        p: &Principal,
        from: &str,
        to: &[String],
    ) -> AppResult<usize> {
        let source = self.machine_for(p, from).await?;
        let targets = clean_ids(to);
        if targets.is_empty() {
            return Err(AppError::invalid_field(
                "to_machine_ids",
                "Choose at least one machine.",
            ));
        }
        if targets.iter().any(|t| t == from) {
            return Err(AppError::invalid_field(
                "to_machine_ids",
                "Choose machines other than the source.",
            ));
        }
        let sels = self.raw_selections(&source.id).await?;
        let now = self.calendar.now();
        let mut writes = Vec::new();
        for t in &targets {
            let target = self.machine_for(p, t).await?;
            for old in self.raw_selections(t).await? {
                if !sels.iter().any(|s| s.selection == old.selection) {
                    writes.push(Write::Delete {
                        key: Selection::key(t, &old.selection),
                        condition: None,
                    });
                }
            }
            for s in &sels {
                let copy = Selection {
                    machine_id: t.clone(),
                    current: 0,
                    expiry_date: None,
                    last_purchase: None,
                    machine_name: target.name.clone(),
                    updated_at: now,
                    version: 1,
                    ..s.clone()
                };
                writes.push(Write::Put {
                    item: copy.to_item()?,
                    condition: None,
                });
            }
        }
        if writes.len() > MAX_TRANSACTION_WRITES {
            return Err(AppError::invalid_field(
                "to_machine_ids",
                "Too many selections to copy at once: copy to fewer machines.",
            ));
        }
        self.transact(writes).await?;
        Ok(targets.len())
    }

    async fn transact(&self, writes: Vec<Write>) -> AppResult<()> {
        match self.store.transact(writes).await {
            Err(crate::ports::StoreError::ConditionFailed { .. }) => Err(AppError::stale()),
            other => Ok(other?),
        }
    }

    // ---------- tags ----------

    /// Every machine tag, by name.
    pub async fn list_tags(&self) -> AppResult<Vec<MachineTag>> {
        let mut tags = self.tags.all().await?;
        tags.sort_by_key(|t| t.name.to_lowercase());
        Ok(tags)
    }

    /// Creates a tag.
    pub async fn create_tag(&self, name: &str) -> AppResult<MachineTag> {
        let mut errors = FieldErrors::new();
        let name = validation::required_text(&mut errors, "name", name, 60);
        errors.into_result()?;
        let tag = MachineTag {
            id: ulid::Ulid::new().to_string(),
            name,
            created_at: self.calendar.now(),
            version: 1,
        };
        self.tags.insert(&tag).await?;
        Ok(tag)
    }

    /// Deletes a tag and takes it off every machine, all or nothing.
    pub async fn delete_tag(&self, id: &str) -> AppResult<()> {
        let tag = self.tags.get_or_404(id).await?;
        let mut writes = Records::<MachineTag>::delete_writes(&tag);
        let tagged: Vec<Machine> = self
            .machines
            .all()
            .await?
            .into_iter()
            .filter(|m| m.tag_ids.iter().any(|t| t == id))
            .collect();
        let (untag, _) = Records::<Machine>::bulk_writes(tagged, self.calendar.now(), |next| {
            next.tag_ids.retain(|t| t != id)
        })?;
        writes.extend(untag);
        if writes.len() > MAX_TRANSACTION_WRITES {
            return Err(AppError::conflict(format!(
                "Tag \"{}\" is on more machines than one change can hold: take it off some machines first.",
                tag.name
            )));
        }
        self.tags.apply(writes, &tag).await
    }

    /// Adds and removes tags on several machines, all or nothing.
    pub async fn manage_tags(
        &self,
        p: &Principal,
        machine_ids: &[String],
        add: &[String],
        remove: &[String],
    ) -> AppResult<Vec<Machine>> {
        let ids = clean_ids(machine_ids);
        let (add, remove) = (clean_ids(add), clean_ids(remove));
        let mut errors = FieldErrors::new();
        if ids.is_empty() || ids.len() > MAX_TRANSACTION_WRITES {
            errors.add(
                "machine_ids",
                format!("Choose 1 to {MAX_TRANSACTION_WRITES} machines."),
            );
        }
        if add.is_empty() && remove.is_empty() {
            errors.add("add", "Choose tags to add or remove.");
        }
        let wanted: Vec<String> = add
            .iter()
            .chain(remove.iter())
            .cloned()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if self.tags.get_many(&wanted).await?.len() != wanted.len() {
            errors.add("add", "Choose existing tags.");
        }
        errors.into_result()?;
        let now = self.calendar.now();
        let mut machines = Vec::with_capacity(ids.len());
        for id in &ids {
            machines.push(self.machine_for(p, id).await?);
        }
        let (writes, out) = Records::<Machine>::bulk_writes(machines, now, |next| {
            let mut tags: BTreeSet<String> = next.tag_ids.iter().cloned().collect();
            tags.extend(add.iter().cloned());
            tags.retain(|t| !remove.contains(t));
            next.tag_ids = tags.into_iter().collect();
        })?;
        if !writes.is_empty() {
            self.machines.apply(writes, &out[0]).await?;
        }
        Ok(out)
    }

    // ---------- refill log ----------

    /// Refill-log entries the user may see, newest first.
    pub async fn refills(
        &self,
        p: &Principal,
        params: &RefillListParams,
    ) -> AppResult<ListPage<RefillEntry>> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            &ListParams {
                page: params.page,
                page_size: params.page_size,
                search: None,
                ordering: None,
            },
            &[],
            &mut errors,
        );
        let date = |field: &str, v: &Option<String>, errors: &mut FieldErrors| match opt(v) {
            None => None,
            Some(d) => vendfleet_domain::calendar::parse_date(d).or_else(|| {
                errors.add(field, "Enter a real date as YYYY-MM-DD.");
                None
            }),
        };
        // Without an end date the log runs up to now: to the latest local date begun anywhere,
        // so a location east of the operator shows the refills of its own "today" too.
        let to = date("to", &params.to, &mut errors)
            .unwrap_or_else(|| latest_date_anywhere(self.calendar.now()));
        // Without a start date: 30 of the operator's days before the end (or before today).
        let from = date("from", &params.from, &mut errors)
            .unwrap_or_else(|| self.calendar.today().min(to) - chrono::Duration::days(30));
        if from > to {
            errors.add("from", "Must be on or before the end date.");
        } else if (to - from).num_days() > 366 {
            errors.add("from", "Choose at most one year.");
        }
        errors.into_result()?;
        let visible: BTreeMap<String, Machine> = self
            .visible(p)
            .await?
            .into_iter()
            .map(|m| (m.id.clone(), m))
            .collect();
        let mut entries: Vec<RefillEntry> = Vec::new();
        if let Some(machine) = opt(&params.machine) {
            if !visible.contains_key(machine) {
                return Err(AppError::NotFound("Machine not found".into()));
            }
            let q = Query::partition(Index::Primary, format!("MACHINE#{machine}"))
                .sk(SortKey::BeginsWith("REFILL#".into()));
            for item in query_all(self.store.as_ref(), q).await? {
                entries.push(item.to_value()?);
            }
            entries.retain(|e| e.local_date >= from && e.local_date <= to);
        } else {
            let mut day = from;
            while day <= to {
                for item in query_all(
                    self.store.as_ref(),
                    Query::partition(Index::Gsi1, format!("REFILLDAY#{day}")),
                )
                .await?
                {
                    entries.push(item.to_value()?);
                }
                day += chrono::Duration::days(1);
            }
        }
        entries.retain(|e| visible.contains_key(&e.machine_id));
        if let Some(l) = opt(&params.location) {
            entries.retain(|e| e.location_id.as_deref() == Some(l));
        }
        entries.sort_by(|a, b| b.at.cmp(&a.at).then_with(|| b.id.cmp(&a.id)));
        Ok(page_of(entries, &pg))
    }

    /// The price changes of a machine's selections, newest first (at most `limit`).
    pub async fn price_history(
        &self,
        p: &Principal,
        machine_id: &str,
        limit: usize,
    ) -> AppResult<Vec<SelectionPriceChange>> {
        self.machine_for(p, machine_id).await?;
        let q = Query::partition(Index::Primary, format!("MACHINE#{machine_id}"))
            .sk(SortKey::BeginsWith("PRICE#".into()))
            .backward()
            .limit(limit.clamp(1, 500));
        let page = self.store.query(q).await?;
        page.items
            .iter()
            .map(|i| i.to_value().map_err(AppError::from))
            .collect()
    }

    /// Whether any machine stands at a location (settings use this before deleting one).
    pub async fn machines_at(&self, location_id: &str) -> AppResult<Vec<Machine>> {
        self.machines
            .related(&Machine::location_partition(location_id))
            .await
    }
}

#[async_trait::async_trait]
impl crate::users::ScopeCatalogueSource for MachinesService {
    async fn scope_catalogue(&self) -> AppResult<vendfleet_domain::ScopeCatalogue> {
        Ok(vendfleet_domain::ScopeCatalogue {
            client_ids: self
                .settings
                .clients()
                .all()
                .await?
                .into_iter()
                .map(|c| c.id)
                .collect(),
            locations: self
                .settings
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

/// Orders selection codes as people do: "2" before "10", "A2" before "A10".
fn natural(code: &str) -> (String, u64, String) {
    let prefix: String = code.chars().take_while(|c| !c.is_ascii_digit()).collect();
    let digits: String = code[prefix.len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let rest = code[prefix.len() + digits.len()..].to_string();
    (prefix, digits.parse().unwrap_or(0), rest)
}

#[cfg(test)]
mod tests {
    use super::natural;

    #[test]
    fn selection_codes_sort_naturally() {
        let mut v = vec!["10", "2", "A10", "A2", "1"];
        v.sort_by_key(|c| natural(c));
        assert_eq!(v, ["1", "2", "10", "A2", "A10"]);
    }
}
