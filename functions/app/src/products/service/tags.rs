//! Product tags: the catalogue of tags and putting them on products.

use super::*;

impl ProductsService {
    /// One page of product tags.
    pub async fn list_tags(&self, params: &ListParams) -> AppResult<ListPage<ProductTag>> {
        let mut errors = FieldErrors::new();
        let pg = paging(params, &["name", "created_at"], &mut errors);
        errors.into_result()?;
        let mut items: Vec<ProductTag> = self
            .tags
            .all()
            .await?
            .into_iter()
            .filter(|t| matches(&pg.search, &[&t.name]))
            .collect();
        sort_by(&mut items, &pg, "name", |t, f| match f {
            "created_at" => (sortable_instant(&t.created_at), t.id.clone()),
            _ => (t.name.to_lowercase(), t.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    /// Creates a product tag.
    pub async fn create_tag(&self, name: &str) -> AppResult<ProductTag> {
        let mut errors = FieldErrors::new();
        let name = validation::required_text(&mut errors, "name", name, 60);
        errors.into_result()?;
        let now = self.clock.now();
        let t = ProductTag {
            id: ulid::Ulid::new().to_string(),
            name,
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        self.tags.insert(&t).await?;
        Ok(t)
    }

    /// Renames a product tag.
    pub async fn update_tag(
        &self,
        id: &str,
        name: &str,
        version: Option<u64>,
    ) -> AppResult<ProductTag> {
        let current = self.tags.get_or_404(id).await?;
        self.tags
            .update(current, version, self.clock.now(), async |next| {
                let mut errors = FieldErrors::new();
                next.name = validation::required_text(&mut errors, "name", name, 60);
                Ok(errors.into_result()?)
            })
            .await
    }

    /// Deletes a tag and removes it from its products in the same transaction (409 when it is
    /// on more products than one transaction holds).
    pub async fn delete_tag(&self, id: &str) -> AppResult<()> {
        let t = self.tags.get_or_404(id).await?;
        let tagged: Vec<Product> = self
            .products
            .all()
            .await?
            .into_iter()
            .filter(|p| p.tag_ids.iter().any(|x| x == id))
            .collect();
        let room = MAX_CHANGE_WRITES - 2;
        if tagged.len() > room {
            return Err(AppError::conflict(format!(
                "Tag \"{}\" is on {} products; remove it from some of them first (at most {room} at once).",
                t.name,
                tagged.len()
            )));
        }
        let mut writes = Records::<ProductTag>::delete_writes(&t);
        let (untag, _) = Records::<Product>::bulk_writes(tagged, self.clock.now(), |next| {
            next.tag_ids.retain(|x| x != id)
        })?;
        writes.extend(untag);
        transact(self.store.as_ref(), writes, &t).await
    }

    /// Adds and removes tags on several products, all or nothing.
    pub async fn manage_tags(&self, change: &TagsChange) -> AppResult<Vec<Product>> {
        let product_ids = ids(&change.product_ids);
        let add = ids(&change.add);
        let remove = ids(&change.remove);
        let mut errors = FieldErrors::new();
        if product_ids.is_empty() {
            errors.add("product_ids", "Choose at least one product.");
        } else if product_ids.len() > MAX_TAGGED_PRODUCTS {
            errors.add(
                "product_ids",
                format!("At most {MAX_TAGGED_PRODUCTS} products at once."),
            );
        }
        if add.is_empty() && remove.is_empty() {
            errors.add("add", "Choose tags to add or to remove.");
        }
        if add.iter().any(|t| remove.contains(t)) {
            errors.add("remove", "A tag cannot be both added and removed.");
        }
        errors.into_result()?;
        let tag_ids: Vec<String> = add.iter().chain(&remove).cloned().collect();
        if self.tags.get_many(&tag_ids).await?.len() != tag_ids.len() {
            return Err(AppError::NotFound("Tag not found".into()));
        }
        let products = self.products.get_many(&product_ids).await?;
        if products.len() != product_ids.len() {
            return Err(AppError::NotFound("Product not found".into()));
        }
        let (writes, mut out) =
            Records::<Product>::bulk_writes(products, self.clock.now(), |next| {
                next.tag_ids.retain(|t| !remove.contains(t));
                for t in &add {
                    if !next.tag_ids.contains(t) {
                        next.tag_ids.push(t.clone());
                    }
                }
            })?;
        if let (Some(first), false) = (out.first(), writes.is_empty()) {
            transact(self.store.as_ref(), writes, first).await?;
        }
        let order: BTreeMap<&String, usize> = product_ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id, i))
            .collect();
        out.sort_by_key(|p| order.get(&p.id).copied().unwrap_or(usize::MAX));
        Ok(out)
    }
}
