//! The settings service: forms, lists, deletion rules and the machine access scope on locations.

use super::model::{Client, Location, MachineModel, SCHEMA};
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::listing::{page_of, paging, sort_by, sortable_instant, ListPage, ListParams, Paging};
use crate::ports::{Clock, ItemStore};
use crate::records::Records;
use crate::users::Directory;
use std::collections::BTreeSet;
use std::sync::Arc;
use vendfleet_domain::{validation, FieldErrors, MachineScope};

/// The client form.
#[derive(Debug, Clone, Default)]
pub struct ClientInput {
    pub name: String,
    pub contact_name: String,
    pub email: String,
    pub phone: String,
    pub commission_bps: Option<i64>,
    pub version: Option<u64>,
}

/// The location form.
#[derive(Debug, Clone, Default)]
pub struct LocationInput {
    pub name: String,
    pub address: String,
    pub location_type: String,
    pub region: String,
    pub client_id: Option<String>,
    pub refiller_id: Option<String>,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub time_zone: String,
    pub version: Option<u64>,
}

/// The machine-model form.
#[derive(Debug, Clone, Default)]
pub struct ModelInput {
    pub name: String,
    pub model_type: String,
    pub manufacturer: String,
    pub version: Option<u64>,
}

/// The locations list's parameters.
#[derive(Debug, Clone, Default)]
pub struct LocationListParams {
    pub list: ListParams,
    pub client: Option<String>,
    pub location_type: Option<String>,
    pub region: Option<String>,
    pub refiller: Option<String>,
}

/// The service.
#[derive(Clone)]
pub struct FleetService {
    clients: Records<Client>,
    locations: Records<Location>,
    models: Records<MachineModel>,
    directory: Directory,
    machine_index: super::MachineIndex,
    store: Arc<dyn ItemStore>,
    clock: Arc<dyn Clock>,
}

fn opt_id(v: Option<&str>) -> Option<String> {
    v.map(str::trim).filter(|s| !s.is_empty()).map(String::from)
}

impl FleetService {
    /// A service on `store`.
    pub fn new(store: Arc<dyn ItemStore>, directory: Directory, clock: Arc<dyn Clock>) -> Self {
        FleetService {
            clients: Records::new(store.clone()),
            locations: Records::new(store.clone()),
            models: Records::new(store.clone()),
            directory,
            machine_index: super::MachineIndex::new(store.clone()),
            store,
            clock,
        }
    }

    /// The clients repository.
    pub fn clients(&self) -> &Records<Client> {
        &self.clients
    }

    /// Every client's name, by id.
    pub async fn client_names(&self) -> AppResult<std::collections::BTreeMap<String, String>> {
        Ok(self
            .clients
            .all()
            .await?
            .into_iter()
            .map(|c| (c.id, c.name))
            .collect())
    }

    /// The locations repository.
    pub fn locations(&self) -> &Records<Location> {
        &self.locations
    }

    /// The machine models repository.
    pub fn models(&self) -> &Records<MachineModel> {
        &self.models
    }

    // ---- scope ----

    /// Whether the user's machine scope reaches a location (directly or through its client).
    pub fn location_in_scope(scope: &MachineScope, l: &Location) -> bool {
        match scope {
            MachineScope::All => true,
            MachineScope::Limited {
                client_ids,
                location_ids,
                ..
            } => {
                location_ids.contains(&l.id)
                    || l.client_id.as_ref().is_some_and(|c| client_ids.contains(c))
            }
        }
    }

    /// The locations the user may see.
    pub async fn visible_locations(&self, p: &Principal) -> AppResult<Vec<Location>> {
        let scope = p.machine_scope();
        Ok(self
            .locations
            .all()
            .await?
            .into_iter()
            .filter(|l| Self::location_in_scope(&scope, l))
            .collect())
    }

    /// The clients the user may see: their clients and the clients of their locations.
    pub async fn visible_clients(&self, p: &Principal) -> AppResult<Vec<Client>> {
        let scope = p.machine_scope();
        let all = self.clients.all().await?;
        match &scope {
            MachineScope::All => Ok(all),
            MachineScope::Limited { client_ids, .. } => {
                let via_locations: BTreeSet<String> = self
                    .visible_locations(p)
                    .await?
                    .into_iter()
                    .filter_map(|l| l.client_id)
                    .collect();
                Ok(all
                    .into_iter()
                    .filter(|c| client_ids.contains(&c.id) || via_locations.contains(&c.id))
                    .collect())
            }
        }
    }

    async fn location_for(&self, p: &Principal, id: &str) -> AppResult<Location> {
        let l = self.locations.get_or_404(id).await?;
        if Self::location_in_scope(&p.machine_scope(), &l) {
            Ok(l)
        } else {
            Err(AppError::NotFound("Location not found".into()))
        }
    }

    async fn client_for(&self, p: &Principal, id: &str) -> AppResult<Client> {
        let c = self.clients.get_or_404(id).await?;
        if self.visible_clients(p).await?.iter().any(|v| v.id == c.id) {
            Ok(c)
        } else {
            Err(AppError::NotFound("Client not found".into()))
        }
    }

    // ---- clients ----

    /// One page of the clients the user may see.
    pub async fn list_clients(
        &self,
        p: &Principal,
        params: &ListParams,
    ) -> AppResult<ListPage<Client>> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            params,
            &["name", "created_at", "commission_bps"],
            &mut errors,
        );
        errors.into_result()?;
        let mut items: Vec<Client> = self
            .visible_clients(p)
            .await?
            .into_iter()
            .filter(|c| {
                pg.search.is_empty()
                    || [&c.name, &c.contact_name, &c.email]
                        .iter()
                        .any(|f| f.to_lowercase().contains(&pg.search))
            })
            .collect();
        sort_by(&mut items, &pg, "name", |c, f| match f {
            "created_at" => (sortable_instant(&c.created_at), c.id.clone()),
            "commission_bps" => (format!("{:010}", c.commission_bps), c.id.clone()),
            _ => (c.name.to_lowercase(), c.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    /// One client.
    pub async fn get_client(&self, p: &Principal, id: &str) -> AppResult<Client> {
        self.client_for(p, id).await
    }

    fn apply_client(input: ClientInput, c: &mut Client) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        c.name = validation::required_text(&mut errors, "name", &input.name, 150);
        c.contact_name =
            validation::optional_text(&mut errors, "contact_name", &input.contact_name, 150);
        c.email = if input.email.trim().is_empty() {
            String::new()
        } else {
            validation::email(&mut errors, "email", &input.email)
        };
        c.phone = validation::phone(&mut errors, "phone", &input.phone);
        match input.commission_bps {
            None => {}
            Some(v) if (0..=10_000).contains(&v) => c.commission_bps = v as u32,
            Some(_) => errors.add(
                "commission_bps",
                "Must be between 0 and 10000 basis points (0–100 %).",
            ),
        }
        errors.into_result().map_err(Into::into)
    }

    /// Creates a client.
    pub async fn create_client(&self, input: ClientInput) -> AppResult<Client> {
        let now = self.clock.now();
        let mut c = Client {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            contact_name: String::new(),
            email: String::new(),
            phone: String::new(),
            commission_bps: 0,
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        Self::apply_client(input, &mut c)?;
        self.clients.insert(&c).await?;
        Ok(c)
    }

    /// Updates a client.
    pub async fn update_client(
        &self,
        p: &Principal,
        id: &str,
        input: ClientInput,
    ) -> AppResult<Client> {
        let current = self.client_for(p, id).await?;
        let expected = input.version;
        self.clients
            .update(current, expected, self.clock.now(), async |next| {
                Self::apply_client(input, next)
            })
            .await
    }

    /// Deletes a client that hosts no location (409 naming them otherwise).
    pub async fn delete_client(&self, p: &Principal, id: &str) -> AppResult<()> {
        let c = self.client_for(p, id).await?;
        let used = self
            .locations
            .related(&Location::client_partition(id))
            .await?;
        if !used.is_empty() {
            let scope = p.machine_scope();
            return Err(AppError::in_use(
                "Client",
                &c.name,
                "locations",
                used.iter()
                    .map(|l| Self::location_in_scope(&scope, l).then(|| l.name.clone())),
            ));
        }
        self.clients
            .apply(Records::<Client>::delete_writes(&c), &c)
            .await
    }

    // ---- locations ----

    /// One page of the locations the user may see.
    pub async fn list_locations(
        &self,
        p: &Principal,
        params: &LocationListParams,
    ) -> AppResult<ListPage<Location>> {
        let (items, pg) = self.filtered_locations(p, params).await?;
        Ok(page_of(items, &pg))
    }

    /// The locations matching the filters, ordered, unpaged (lists and exports).
    pub async fn filtered_locations(
        &self,
        p: &Principal,
        params: &LocationListParams,
    ) -> AppResult<(Vec<Location>, Paging)> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            &params.list,
            &["name", "created_at", "location_type", "region", "address"],
            &mut errors,
        );
        errors.into_result()?;
        let eq = |want: &Option<String>, have: &str| {
            want.as_deref()
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .is_none_or(|w| w == have)
        };
        let mut items: Vec<Location> = self
            .visible_locations(p)
            .await?
            .into_iter()
            .filter(|l| eq(&params.client, l.client_id.as_deref().unwrap_or("")))
            .filter(|l| eq(&params.location_type, &l.location_type))
            .filter(|l| eq(&params.region, &l.region))
            .filter(|l| eq(&params.refiller, l.refiller_id.as_deref().unwrap_or("")))
            .filter(|l| {
                pg.search.is_empty()
                    || [&l.name, &l.address, &l.region]
                        .iter()
                        .any(|f| f.to_lowercase().contains(&pg.search))
            })
            .collect();
        sort_by(&mut items, &pg, "name", |l, f| match f {
            "created_at" => (sortable_instant(&l.created_at), l.id.clone()),
            "location_type" => (l.location_type.to_lowercase(), l.name.to_lowercase()),
            "region" => (l.region.to_lowercase(), l.name.to_lowercase()),
            "address" => (l.address.to_lowercase(), l.id.clone()),
            _ => (l.name.to_lowercase(), l.id.clone()),
        });
        Ok((items, pg))
    }

    /// One location.
    pub async fn get_location(&self, p: &Principal, id: &str) -> AppResult<Location> {
        self.location_for(p, id).await
    }

    async fn check_refiller(
        &self,
        errors: &mut FieldErrors,
        field: &str,
        id: &Option<String>,
    ) -> AppResult<()> {
        if let Some(id) = id {
            if !self.directory.user(id).await?.is_some_and(|u| u.active) {
                errors.add(field, "Choose an active employee.");
            }
        }
        Ok(())
    }

    async fn apply_location(
        &self,
        p: &Principal,
        input: LocationInput,
        l: &mut Location,
    ) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        l.name = validation::required_text(&mut errors, "name", &input.name, 150);
        l.address = validation::optional_text(&mut errors, "address", &input.address, 300);
        l.location_type = validation::optional_text(&mut errors, "type", &input.location_type, 60);
        l.region = validation::optional_text(&mut errors, "region", &input.region, 60);
        l.time_zone = validation::time_zone(&mut errors, "time_zone", &input.time_zone);
        l.latitude = validation::coordinate(&mut errors, "latitude", input.latitude, 90.0);
        l.longitude = validation::coordinate(&mut errors, "longitude", input.longitude, 180.0);
        if l.latitude.is_some() != l.longitude.is_some() {
            errors.add(
                if l.latitude.is_some() {
                    "longitude"
                } else {
                    "latitude"
                },
                "Give both latitude and longitude, or neither.",
            );
        }
        let client_id = opt_id(input.client_id.as_deref());
        if let Some(c) = &client_id {
            if self.clients.get(c).await?.is_none() {
                errors.add("client_id", "Choose an existing client.");
            }
        }
        let refiller_id = opt_id(input.refiller_id.as_deref());
        self.check_refiller(&mut errors, "refiller_id", &refiller_id)
            .await?;
        l.client_id = client_id;
        l.refiller_id = refiller_id;
        // A scoped user cannot move a location out of their own reach.
        if errors.is_empty() && !Self::location_in_scope(&p.machine_scope(), l) {
            errors.add("client_id", "You would lose access to this location.");
        }
        errors.into_result().map_err(Into::into)
    }

    /// Creates a location (a scoped user only within their scope).
    pub async fn create_location(
        &self,
        p: &Principal,
        input: LocationInput,
    ) -> AppResult<Location> {
        let now = self.clock.now();
        let mut l = Location {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            address: String::new(),
            location_type: String::new(),
            region: String::new(),
            client_id: None,
            refiller_id: None,
            latitude: None,
            longitude: None,
            time_zone: String::new(),
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        self.apply_location(p, input, &mut l).await?;
        self.locations.insert(&l).await?;
        Ok(l)
    }

    /// Updates a location.
    pub async fn update_location(
        &self,
        p: &Principal,
        id: &str,
        input: LocationInput,
    ) -> AppResult<Location> {
        let current = self.location_for(p, id).await?;
        let expected = input.version;
        self.locations
            .update(current, expected, self.clock.now(), async |next| {
                self.apply_location(p, input, next).await
            })
            .await
    }

    /// Deletes a location where no machine stands (409 naming them otherwise).
    pub async fn delete_location(&self, p: &Principal, id: &str) -> AppResult<()> {
        let l = self.location_for(p, id).await?;
        let machines = self.machine_index.at_location(id).await?;
        if !machines.is_empty() {
            // Every machine at a location in the caller's scope is in it too.
            return Err(AppError::in_use(
                "Location",
                &l.name,
                "machines",
                machines.into_iter().map(|m| Some(m.name)),
            ));
        }
        self.locations
            .apply(Records::<Location>::delete_writes(&l), &l)
            .await
    }

    /// Gives several locations a new refiller, all or none.
    pub async fn change_refiller(
        &self,
        p: &Principal,
        ids: &[String],
        refiller_id: Option<&str>,
    ) -> AppResult<Vec<Location>> {
        let ids: BTreeSet<String> = ids
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        let mut errors = FieldErrors::new();
        if ids.is_empty() {
            errors.add("location_ids", "Choose at least one location.");
        } else if ids.len() > crate::records::MAX_CHANGE_WRITES {
            errors.add(
                "location_ids",
                format!(
                    "At most {} locations at once.",
                    crate::records::MAX_CHANGE_WRITES
                ),
            );
        }
        let refiller = opt_id(refiller_id);
        self.check_refiller(&mut errors, "refiller_id", &refiller)
            .await?;
        errors.into_result()?;
        let mut current = Vec::with_capacity(ids.len());
        for id in &ids {
            current.push(self.location_for(p, id).await?);
        }
        let (writes, changed) =
            Records::<Location>::bulk_writes(current, self.clock.now(), |next| {
                next.refiller_id = refiller.clone();
            })?;
        if !writes.is_empty() {
            self.locations.apply(writes, &changed[0]).await?;
        }
        Ok(changed)
    }

    /// Distinct non-empty values of a location field, among the user's locations.
    pub async fn location_values(
        &self,
        p: &Principal,
        field: fn(&Location) -> &str,
    ) -> AppResult<Vec<String>> {
        let set: BTreeSet<String> = self
            .visible_locations(p)
            .await?
            .iter()
            .map(|l| field(l).to_string())
            .filter(|v| !v.is_empty())
            .collect();
        Ok(set.into_iter().collect())
    }

    // ---- machine models ----

    /// One page of machine models.
    pub async fn list_models(
        &self,
        params: &ListParams,
        model_type: Option<&str>,
        manufacturer: Option<&str>,
    ) -> AppResult<ListPage<MachineModel>> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            params,
            &["name", "created_at", "model_type", "manufacturer"],
            &mut errors,
        );
        errors.into_result()?;
        let want = |w: Option<&str>, have: &str| {
            w.map(str::trim)
                .filter(|w| !w.is_empty())
                .is_none_or(|w| w == have)
        };
        let mut items: Vec<MachineModel> = self
            .models
            .all()
            .await?
            .into_iter()
            .filter(|m| want(model_type, &m.model_type) && want(manufacturer, &m.manufacturer))
            .filter(|m| {
                pg.search.is_empty()
                    || [&m.name, &m.manufacturer, &m.model_type]
                        .iter()
                        .any(|f| f.to_lowercase().contains(&pg.search))
            })
            .collect();
        sort_by(&mut items, &pg, "name", |m, f| match f {
            "created_at" => (sortable_instant(&m.created_at), m.id.clone()),
            "model_type" => (m.model_type.to_lowercase(), m.name.to_lowercase()),
            "manufacturer" => (m.manufacturer.to_lowercase(), m.name.to_lowercase()),
            _ => (m.name.to_lowercase(), m.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    fn apply_model(input: ModelInput, m: &mut MachineModel) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        m.name = validation::required_text(&mut errors, "name", &input.name, 150);
        m.model_type = validation::required_text(&mut errors, "type", &input.model_type, 60);
        m.manufacturer =
            validation::required_text(&mut errors, "manufacturer", &input.manufacturer, 100);
        errors.into_result().map_err(Into::into)
    }

    /// Creates a machine model.
    pub async fn create_model(&self, input: ModelInput) -> AppResult<MachineModel> {
        let now = self.clock.now();
        let mut m = MachineModel {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            model_type: String::new(),
            manufacturer: String::new(),
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        Self::apply_model(input, &mut m)?;
        self.models.insert(&m).await?;
        Ok(m)
    }

    /// Updates a machine model.
    pub async fn update_model(&self, id: &str, input: ModelInput) -> AppResult<MachineModel> {
        let current = self.models.get_or_404(id).await?;
        let expected = input.version;
        self.models
            .update(current, expected, self.clock.now(), async |next| {
                Self::apply_model(input, next)
            })
            .await
    }

    /// Deletes a machine model no machine is of (409 naming them otherwise).
    /// Machines of the model in `visible_machines` are named in the 409, the others not.
    pub async fn delete_model(
        &self,
        id: &str,
        visible_machines: &BTreeSet<String>,
    ) -> AppResult<()> {
        let m = self.models.get_or_404(id).await?;
        let users: Vec<Option<String>> = self
            .machine_index
            .of_model(id)
            .await?
            .into_iter()
            .map(|m| visible_machines.contains(&m.id).then_some(m.name))
            .collect();
        if !users.is_empty() {
            return Err(AppError::in_use(
                "Model",
                &m.name,
                "machines",
                users.into_iter(),
            ));
        }
        self.models
            .apply(Records::<MachineModel>::delete_writes(&m), &m)
            .await
    }

    /// Distinct values of a model field.
    pub async fn model_values(&self, field: fn(&MachineModel) -> &str) -> AppResult<Vec<String>> {
        let set: BTreeSet<String> = self
            .models
            .all()
            .await?
            .iter()
            .map(|m| field(m).to_string())
            .filter(|v| !v.is_empty())
            .collect();
        Ok(set.into_iter().collect())
    }

    /// The store (for multi-entity transactions of later areas).
    pub fn store(&self) -> &Arc<dyn ItemStore> {
        &self.store
    }
}
