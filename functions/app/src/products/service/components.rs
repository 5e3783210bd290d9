//! Components: the ingredients and consumables composite products are made from.

use super::*;

impl ProductsService {
    /// One page of components.
    pub async fn list_components(
        &self,
        params: &ComponentListParams,
    ) -> AppResult<ListPage<Component>> {
        let mut errors = FieldErrors::new();
        let pg = paging(&params.list, &["name", "created_at", "unit"], &mut errors);
        let inactive = bool_filter(&mut errors, "inactive", &params.inactive);
        errors.into_result()?;
        let mut items: Vec<Component> = self
            .components
            .all()
            .await?
            .into_iter()
            .filter(|c| inactive.is_none_or(|v| c.inactive == v))
            .filter(|c| matches(&pg.search, &[&c.name, &c.unit]))
            .collect();
        sort_by(&mut items, &pg, "name", |c, f| match f {
            "created_at" => (sortable_instant(&c.created_at), c.id.clone()),
            "unit" => (c.unit.to_lowercase(), c.name.to_lowercase()),
            _ => (c.name.to_lowercase(), c.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    fn apply_component(input: ComponentInput, c: &mut Component) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        c.name = validation::required_text(&mut errors, "name", &input.name, 150);
        c.unit = validation::required_text(&mut errors, "unit", &input.unit, 20);
        c.inactive = input.inactive;
        errors.into_result().map_err(Into::into)
    }

    /// Creates a component.
    pub async fn create_component(&self, input: ComponentInput) -> AppResult<Component> {
        let now = self.clock.now();
        let mut c = Component {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            unit: String::new(),
            inactive: false,
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        Self::apply_component(input, &mut c)?;
        self.components.insert(&c).await?;
        Ok(c)
    }

    /// Updates a component.
    pub async fn update_component(&self, id: &str, input: ComponentInput) -> AppResult<Component> {
        let current = self.components.get_or_404(id).await?;
        let expected = input.version;
        self.components
            .update(current, expected, self.clock.now(), async |next| {
                Self::apply_component(input, next)
            })
            .await
    }

    /// Deletes a component no recipe uses (409 naming the composite products otherwise).
    pub async fn delete_component(&self, id: &str) -> AppResult<()> {
        let c = self.components.get_or_404(id).await?;
        let uses = query_all(
            self.store.as_ref(),
            Query::partition(Index::Gsi2, Component::use_partition(id)),
        )
        .await?;
        if !uses.is_empty() {
            let product_ids: Vec<String> = uses
                .iter()
                .filter_map(|i| i.to_value::<RecipeUse>().ok())
                .map(|u| u.product_id)
                .collect();
            let names = self
                .products
                .get_many(&product_ids)
                .await?
                .into_iter()
                .map(|p| p.name);
            return Err(AppError::in_use(
                "Component",
                &c.name,
                "composite products",
                names.map(Some),
            ));
        }
        self.components
            .apply(Records::<Component>::delete_writes(&c), &c)
            .await
    }
}
