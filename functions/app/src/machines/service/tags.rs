//! Machine tags: the catalogue of tags and putting them on machines.

use super::*;

impl MachinesService {
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
        if writes.len() > MAX_CHANGE_WRITES {
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
        if ids.is_empty() || ids.len() > MAX_CHANGE_WRITES {
            errors.add(
                "machine_ids",
                format!("Choose 1 to {MAX_CHANGE_WRITES} machines."),
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
}
