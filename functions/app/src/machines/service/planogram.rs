//! Planograms and stock: selections, fill/empty/count, copy between machines, each stock change
//! written to the refill log in the same transaction.

use super::*;

/// Up to this many machines, their selections are read machine by machine.
pub const FEW_MACHINES: usize = 4;

impl MachinesService {
    /// The selections of these machines, by machine: up to [`FEW_MACHINES`] machines'
    /// partitions, or the fleet-wide index for more.
    pub async fn selections_of(
        &self,
        machine_ids: &[String],
    ) -> AppResult<HashMap<String, Vec<Selection>>> {
        let mut out: HashMap<String, Vec<Selection>> = HashMap::new();
        if machine_ids.len() <= FEW_MACHINES {
            for id in machine_ids {
                out.insert(id.clone(), self.raw_selections(id).await?);
            }
            return Ok(out);
        }
        let wanted: std::collections::HashSet<&str> =
            machine_ids.iter().map(String::as_str).collect();
        let q = Query::partition(Index::Gsi1, Selection::FLEET);
        for item in query_all(self.store.as_ref(), q).await? {
            let s = Selection::from_item(&item)?;
            if wanted.contains(s.machine_id.as_str()) {
                out.entry(s.machine_id.clone()).or_default().push(s);
            }
        }
        Ok(out)
    }

    pub(crate) async fn raw_selections(&self, machine_id: &str) -> AppResult<Vec<Selection>> {
        let q = Query::partition(
            Index::Primary,
            crate::machines::Machine::partition(machine_id),
        )
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

    pub(crate) async fn refill_entry(
        &self,
        p: &Principal,
        m: &Machine,
        s: &Selection,
        product: &str,
        change: StockChange<'_>,
    ) -> AppResult<RefillEntry> {
        let now = self.calendar.now();
        let location = match &m.location_id {
            Some(id) => self.fleet.locations().get(id).await?,
            None => None,
        };
        let tz = self
            .calendar
            .zone_or_operator(location.as_ref().map(|l| l.time_zone.as_str()));
        Ok(RefillEntry {
            id: crate::ids::ordered_id(now),
            at: now,
            local_date: vendfleet_domain::calendar::local_date(now, tz),
            stamp: MachineStamp::of(m, location.as_ref()),
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
                id: crate::ids::ordered_id(next.updated_at),
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
        if codes.is_empty() || codes.len() > MAX_CHANGE_WRITES {
            return Err(AppError::invalid_field(
                "selections",
                &format!("Choose 1 to {MAX_CHANGE_WRITES} selections."),
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
            let stock = next.stock_write(s.version, self.calendar.now())?;
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
            writes.push(stock);
            writes.push(Write::Put {
                item: entry.to_item()?,
                condition: None,
            });
            out.push(Self::view(next, &products));
        }
        if writes.len() > MAX_CHANGE_WRITES {
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
        if writes.len() > MAX_CHANGE_WRITES {
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
}

/// Orders selection codes as people do: "2" before "10", "A2" before "A10".
pub(crate) fn natural(code: &str) -> (String, u64, String) {
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
