//! Templates: saved definitions, their author's to change, shown to others within their reach.

use super::*;

/// The parameters of a definition that name machines, or the places and owners of machines.
const REACH_PARAMS: [(&str, Named); 6] = [
    ("clients", Named::Client),
    ("locations", Named::Location),
    ("location", Named::Location),
    ("regions", Named::Region),
    ("machines", Named::Machine),
    ("machine", Named::Machine),
];

#[derive(Debug, Clone, Copy)]
enum Named {
    Client,
    Location,
    Region,
    Machine,
}

/// What a limited reader may choose in their own filters.
#[derive(Debug, Default)]
struct Choices {
    clients: BTreeSet<String>,
    locations: BTreeSet<String>,
    regions: BTreeSet<String>,
    machines: BTreeSet<String>,
}

impl Choices {
    /// Whether every id `spec`'s parameters name is one of these.
    fn admit(&self, spec: &ReportSpec) -> bool {
        REACH_PARAMS.iter().all(|(key, named)| {
            let Some(v) = spec.params.get(*key) else {
                return true;
            };
            let set = match named {
                Named::Client => &self.clients,
                Named::Location => &self.locations,
                Named::Region => &self.regions,
                Named::Machine => &self.machines,
            };
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .all(|id| set.contains(id))
        })
    }
}

impl GeneratorService {
    /// What `p` may choose in their filters (`None`: everything, they see the whole fleet).
    async fn choices(&self, p: &Principal) -> AppResult<Option<Choices>> {
        if p.machine_scope() == MachineScope::All {
            return Ok(None);
        }
        let locations = self.fleet.visible_locations(p).await?;
        Ok(Some(Choices {
            clients: self
                .fleet
                .visible_clients(p)
                .await?
                .into_iter()
                .map(|c| c.id)
                .collect(),
            regions: locations
                .iter()
                .map(|l| l.region.clone())
                .filter(|r| !r.is_empty())
                .collect(),
            locations: locations.into_iter().map(|l| l.id).collect(),
            machines: self.machines.visible_ids(p).await?,
        }))
    }

    /// Whether `p` sees a template: their own, or a public one naming nothing beyond their reach.
    fn template_visible(p: &Principal, t: &ReportTemplate, choices: &Option<Choices>) -> bool {
        t.owner_id == p.user.id
            || (t.visibility == Visibility::Public
                && choices.as_ref().is_none_or(|c| c.admit(&t.spec)))
    }

    fn check_template(input: &TemplateInput) -> AppResult<(String, Visibility, ReportSpec)> {
        let mut errors = FieldErrors::new();
        let name = validation::required_text(&mut errors, "name", &input.name, 120);
        let visibility = choice(
            &mut errors,
            "visibility",
            &input.visibility,
            Visibility::Private,
        );
        let spec = check_spec(&input.spec, &mut errors);
        errors.into_result()?;
        Ok((name, visibility, spec.expect("checked")))
    }

    /// The templates `p` sees: public ones and their own.
    pub async fn list_templates(
        &self,
        p: &Principal,
        params: &ListParams,
        module: Option<&str>,
    ) -> AppResult<ListPage<ReportTemplate>> {
        p.require(Permission::ReportGeneratorTemplatesList)?;
        let mut errors = FieldErrors::new();
        let pg = paging(
            params,
            &["name", "module", "created_at", "updated_at"],
            &mut errors,
        );
        let module = match module.map(str::trim).filter(|m| !m.is_empty()) {
            None => None,
            Some(m) => {
                let c = Module::from_key(m);
                if c.is_none() {
                    errors.add("module", "Not a report module.");
                }
                c
            }
        };
        errors.into_result()?;
        let choices = self.choices(p).await?;
        let mut items: Vec<ReportTemplate> = self
            .templates
            .all()
            .await?
            .into_iter()
            .filter(|t| Self::template_visible(p, t, &choices))
            .filter(|t| module.is_none_or(|m| t.spec.module == m))
            .filter(|t| pg.search.is_empty() || t.name.to_lowercase().contains(&pg.search))
            .collect();
        sort_by(&mut items, &pg, "name", |t, f| match f {
            "module" => (t.spec.module.key().to_string(), t.id.clone()),
            "created_at" => (sortable_instant(&t.created_at), t.id.clone()),
            "updated_at" => (sortable_instant(&t.updated_at), t.id.clone()),
            _ => (t.name.to_lowercase(), t.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    /// One template `p` sees (404 otherwise).
    pub async fn get_template(&self, p: &Principal, id: &str) -> AppResult<ReportTemplate> {
        p.require(Permission::ReportGeneratorTemplatesList)?;
        self.template_for(p, id).await
    }

    pub(super) async fn template_for(&self, p: &Principal, id: &str) -> AppResult<ReportTemplate> {
        let Some(t) = self.templates.get(id).await? else {
            return Err(AppError::NotFound("Template not found".into()));
        };
        let choices = if t.owner_id == p.user.id {
            None
        } else {
            self.choices(p).await?
        };
        Some(t)
            .filter(|t| Self::template_visible(p, t, &choices))
            .ok_or_else(|| AppError::NotFound("Template not found".into()))
    }

    /// The template `p` may change: their own (403 on another's, which they may copy).
    async fn own_template(&self, p: &Principal, id: &str) -> AppResult<ReportTemplate> {
        let t = self.template_for(p, id).await?;
        if t.owner_id != p.user.id {
            return Err(AppError::Forbidden(
                "Only the template's author changes or deletes it: save a copy of your own instead"
                    .into(),
            ));
        }
        Ok(t)
    }

    /// Whether `p` may change or delete a template they see: only its author may.
    pub fn template_editable(p: &Principal, t: &ReportTemplate) -> bool {
        p.can(Permission::ReportGeneratorEditTemplate) && t.owner_id == p.user.id
    }

    /// Whether `p` may copy a template they see into their own.
    pub fn template_copyable(p: &Principal, _t: &ReportTemplate) -> bool {
        p.can(Permission::ReportGeneratorNew)
    }

    /// Saves a new template.
    pub async fn create_template(
        &self,
        p: &Principal,
        input: &TemplateInput,
    ) -> AppResult<ReportTemplate> {
        p.require(Permission::ReportGeneratorNew)?;
        let (name, visibility, spec) = Self::check_template(input)?;
        require_module(p, spec.module)?;
        self.insert_template(p, name, visibility, spec).await
    }

    /// Stores a new template of `p`'s.
    async fn insert_template(
        &self,
        p: &Principal,
        name: String,
        visibility: Visibility,
        spec: ReportSpec,
    ) -> AppResult<ReportTemplate> {
        let now = self.clock.now();
        let t = ReportTemplate {
            id: ulid::Ulid::new().to_string(),
            name,
            spec,
            visibility,
            owner_id: p.user.id.clone(),
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        self.templates.insert(&t).await?;
        Ok(t)
    }

    /// Changes a template (409 when `version` is not the stored one).
    pub async fn update_template(
        &self,
        p: &Principal,
        id: &str,
        input: &TemplateInput,
    ) -> AppResult<ReportTemplate> {
        p.require(Permission::ReportGeneratorEditTemplate)?;
        let current = self.own_template(p, id).await?;
        let (name, visibility, spec) = Self::check_template(input)?;
        require_module(p, spec.module)?;
        check_version(input.version, &current)?;
        let mut next = current.clone();
        next.name = name;
        next.visibility = visibility;
        next.spec = spec;
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.templates.replace(&current, &next).await?;
        Ok(next)
    }

    /// Deletes a template (the reports made from it stay).
    pub async fn delete_template(&self, p: &Principal, id: &str) -> AppResult<()> {
        p.require(Permission::ReportGeneratorDeleteTemplate)?;
        let t = self.own_template(p, id).await?;
        self.templates
            .apply(Records::<ReportTemplate>::delete_writes(&t), &t)
            .await
    }

    /// Copies a template `p` sees into a new private one of their own ("save as"), named `name`
    /// (or after the original).
    pub async fn copy_template(
        &self,
        p: &Principal,
        id: &str,
        name: Option<&str>,
    ) -> AppResult<ReportTemplate> {
        p.require(Permission::ReportGeneratorNew)?;
        let source = self.template_for(p, id).await?;
        require_module(p, source.spec.module)?;
        let mut errors = FieldErrors::new();
        let name = match name.map(str::trim).filter(|n| !n.is_empty()) {
            Some(n) => validation::required_text(&mut errors, "name", n, 120),
            None => source.name.chars().take(120).collect(),
        };
        errors.into_result()?;
        self.insert_template(p, name, Visibility::Private, source.spec)
            .await
    }

    /// A template as its user `owner` sees it now (a scheduled task following it): `None` when
    /// it is gone, or no longer theirs to see.
    pub async fn template_seen_by(
        &self,
        owner: &Principal,
        id: &str,
    ) -> AppResult<Option<ReportTemplate>> {
        match self.template_for(owner, id).await {
            Ok(t) => Ok(Some(t)),
            Err(AppError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}
