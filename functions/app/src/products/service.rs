//! The products service: forms, lists, price history, recipes, tags and deletion rules.

use super::model::{
    ChangedBy, Component, PriceChange, Product, ProductTag, RecipeLine, RecipeUse, SCHEMA,
};
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::listing::{page_of, paging, sort_by, sortable_instant, ListPage, ListParams, Paging};
use crate::ports::{query_all, Clock, Condition, Index, Item, ItemStore, Query, StoreError, Write};
use crate::records::{check_version, Record, Records, MAX_CHANGE_WRITES};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use vendfleet_domain::{validation, FieldErrors};

mod components;
mod tags;

/// Most lines of one recipe (so that replacing a recipe fits one transaction).
pub const MAX_RECIPE_LINES: usize = 30;
/// Most products one `tags/manage` call changes (all or nothing).
pub const MAX_TAGGED_PRODUCTS: usize = 50;
/// Most price changes the product detail shows.
const PRICE_HISTORY: usize = 100;

/// Active ISO 4217 currency codes.
const CURRENCIES: &str = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD \
    BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP \
    ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK \
    JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK \
    MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG \
    QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT \
    TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW \
    ZWG";

/// Decimal places of a currency's minor unit (ISO 4217).
pub fn currency_exponent(code: &str) -> u32 {
    match code {
        "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX"
        | "VND" | "VUV" | "XAF" | "XOF" | "XPF" => 0,
        "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
        _ => 2,
    }
}

/// One line of a recipe form.
#[derive(Debug, Clone, Default)]
pub struct RecipeLineInput {
    pub component_id: String,
    pub quantity: Option<i64>,
}

/// The product form.
#[derive(Debug, Clone, Default)]
pub struct ProductInput {
    pub name: String,
    pub sku: String,
    pub price_minor: Option<i64>,
    /// Empty for the default (EUR).
    pub currency: String,
    pub vat_bps: Option<i64>,
    pub units: String,
    pub max_quantity: Option<i64>,
    pub case_size: Option<i64>,
    pub tag_ids: Vec<String>,
    pub inactive: bool,
    pub is_composite: bool,
    /// `None` keeps the current recipe (on update).
    pub recipe: Option<Vec<RecipeLineInput>>,
    pub version: Option<u64>,
}

/// The component form.
#[derive(Debug, Clone, Default)]
pub struct ComponentInput {
    pub name: String,
    pub unit: String,
    pub inactive: bool,
    pub version: Option<u64>,
}

/// The products list's parameters.
#[derive(Debug, Clone, Default)]
pub struct ProductListParams {
    pub list: ListParams,
    /// A tag id.
    pub tag: Option<String>,
    /// `true` or `false`.
    pub inactive: Option<String>,
    /// `true` or `false`.
    pub composite: Option<String>,
}

/// The components list's parameters.
#[derive(Debug, Clone, Default)]
pub struct ComponentListParams {
    pub list: ListParams,
    /// `true` or `false`.
    pub inactive: Option<String>,
}

/// `tags/manage`: tags to add to and remove from products.
#[derive(Debug, Clone, Default)]
pub struct TagsChange {
    pub product_ids: Vec<String>,
    pub add: Vec<String>,
    pub remove: Vec<String>,
}

/// The service.
#[derive(Clone)]
pub struct ProductsService {
    products: Records<Product>,
    components: Records<Component>,
    tags: Records<ProductTag>,
    machine_index: crate::fleet::MachineIndex,
    store: Arc<dyn ItemStore>,
    clock: Arc<dyn Clock>,
}

fn bool_filter(errors: &mut FieldErrors, field: &str, v: &Option<String>) -> Option<bool> {
    match v.as_deref().map(str::trim) {
        None | Some("") => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => {
            errors.add(field, "Choose true or false.");
            None
        }
    }
}

fn matches(search: &str, fields: &[&str]) -> bool {
    search.is_empty() || fields.iter().any(|f| f.to_lowercase().contains(search))
}

fn ids(v: &[String]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    v.iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && seen.insert(s.clone()))
        .collect()
}

/// Runs a transaction of product-area writes: a failing name reservation is a taken name, a
/// failing component check a component deleted meanwhile, anything else a stale record.
async fn transact<T: Record>(
    store: &dyn ItemStore,
    writes: Vec<Write>,
    subject: &T,
) -> AppResult<()> {
    let reservation = writes
        .iter()
        .position(|w| w.key().sk == "UNIQUE" && matches!(w, Write::Put { .. }));
    let failed_check = |i: usize| matches!(writes.get(i), Some(Write::Check { .. }));
    let checks: Vec<bool> = (0..writes.len()).map(failed_check).collect();
    match store.transact(writes).await {
        Err(StoreError::ConditionFailed { index }) if Some(index) == reservation => {
            let field = subject.unique().map(|(f, _)| f).unwrap_or("name");
            Err(AppError::Conflict {
                message: format!(
                    "A {} with this {field} already exists",
                    T::LABEL.to_lowercase()
                ),
                errors: FieldErrors::single(field, "This value is already in use."),
            })
        }
        Err(StoreError::ConditionFailed { index }) if checks.get(index) == Some(&true) => Err(
            AppError::invalid_field("recipe", "A component of the recipe was just deleted."),
        ),
        Err(StoreError::ConditionFailed { .. }) => Err(AppError::stale()),
        other => Ok(other?),
    }
}

impl ProductsService {
    /// A service on `store`.
    pub fn new(store: Arc<dyn ItemStore>, clock: Arc<dyn Clock>) -> Self {
        ProductsService {
            products: Records::new(store.clone()),
            components: Records::new(store.clone()),
            tags: Records::new(store.clone()),
            machine_index: crate::fleet::MachineIndex::new(store.clone()),
            store,
            clock,
        }
    }

    /// The products repository.
    pub fn products(&self) -> &Records<Product> {
        &self.products
    }

    /// The components repository.
    pub fn components(&self) -> &Records<Component> {
        &self.components
    }

    /// The product tags repository.
    pub fn tags(&self) -> &Records<ProductTag> {
        &self.tags
    }

    /// The store (for multi-entity transactions of other areas, and tests).
    pub fn store(&self) -> &Arc<dyn ItemStore> {
        &self.store
    }

    // ---- products ----

    /// One page of products.
    pub async fn list_products(&self, params: &ProductListParams) -> AppResult<ListPage<Product>> {
        let (items, pg) = self.filtered_products(params, None).await?;
        Ok(page_of(items, &pg))
    }

    /// The products matching the filters, ordered, unpaged (lists and exports); `composite`
    /// forces the composite filter (the composite-products list).
    pub async fn filtered_products(
        &self,
        params: &ProductListParams,
        composite: Option<bool>,
    ) -> AppResult<(Vec<Product>, Paging)> {
        let mut errors = FieldErrors::new();
        let pg = paging(
            &params.list,
            &["name", "created_at", "price_minor", "vat_bps"],
            &mut errors,
        );
        let inactive = bool_filter(&mut errors, "inactive", &params.inactive);
        let composite = composite.or(bool_filter(&mut errors, "composite", &params.composite));
        errors.into_result()?;
        let tag = params
            .tag
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let mut items: Vec<Product> = self
            .products
            .all()
            .await?
            .into_iter()
            .filter(|p| inactive.is_none_or(|v| p.inactive == v))
            .filter(|p| composite.is_none_or(|v| p.is_composite == v))
            .filter(|p| tag.is_none_or(|t| p.tag_ids.iter().any(|x| x == t)))
            .filter(|p| matches(&pg.search, &[&p.name, &p.sku]))
            .collect();
        sort_by(&mut items, &pg, "name", |p, f| match f {
            "created_at" => (sortable_instant(&p.created_at), p.id.clone()),
            "price_minor" => (format!("{:020}", p.price_minor), p.name.to_lowercase()),
            "vat_bps" => (format!("{:010}", p.vat_bps), p.name.to_lowercase()),
            _ => (p.name.to_lowercase(), p.id.clone()),
        });
        Ok((items, pg))
    }

    /// One product.
    pub async fn get_product(&self, id: &str) -> AppResult<Product> {
        self.products.get_or_404(id).await
    }

    /// One composite product (404 for other products).
    pub async fn get_composite(&self, id: &str) -> AppResult<Product> {
        match self.products.get(id).await? {
            Some(p) if p.is_composite => Ok(p),
            _ => Err(AppError::NotFound("Composite product not found".into())),
        }
    }

    /// The newest price changes of a product, newest first.
    pub async fn price_history(&self, id: &str) -> AppResult<Vec<PriceChange>> {
        let page = self
            .store
            .query(
                Query::partition(Index::Primary, Product::prices_partition(id))
                    .backward()
                    .limit(PRICE_HISTORY),
            )
            .await?;
        page.items
            .iter()
            .map(|i| i.to_value().map_err(Into::into))
            .collect()
    }

    async fn check_recipe(
        &self,
        errors: &mut FieldErrors,
        lines: &[RecipeLineInput],
    ) -> AppResult<Vec<RecipeLine>> {
        if lines.len() > MAX_RECIPE_LINES {
            errors.add(
                "recipe",
                format!("At most {MAX_RECIPE_LINES} components in one recipe."),
            );
            return Ok(vec![]);
        }
        let wanted: Vec<String> = ids(&lines
            .iter()
            .map(|l| l.component_id.clone())
            .collect::<Vec<_>>());
        let known: BTreeSet<String> = self
            .components
            .get_many(&wanted)
            .await?
            .into_iter()
            .map(|c| c.id)
            .collect();
        let mut seen = BTreeSet::new();
        let mut out = Vec::with_capacity(lines.len());
        for (i, l) in lines.iter().enumerate() {
            let cid = l.component_id.trim().to_string();
            let field = format!("recipe[{i}].component_id");
            if cid.is_empty() {
                errors.add(field, "This field is required.");
            } else if !known.contains(&cid) {
                errors.add(field, "Choose an existing component.");
            } else if !seen.insert(cid.clone()) {
                errors.add(field, "This component is already in the recipe.");
            }
            let quantity = match l.quantity {
                None => {
                    errors.add(format!("recipe[{i}].quantity"), "This field is required.");
                    0
                }
                Some(q) if !(1..=1_000_000_000).contains(&q) => {
                    errors.add(
                        format!("recipe[{i}].quantity"),
                        "Must be more than 0 (and at most 1000000000).",
                    );
                    0
                }
                Some(q) => q,
            };
            out.push(RecipeLine {
                component_id: cid,
                quantity,
            });
        }
        Ok(out)
    }

    async fn apply_product(&self, input: ProductInput, p: &mut Product) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        p.name = validation::required_text(&mut errors, "name", &input.name, 150);
        p.sku = validation::optional_text(&mut errors, "sku", &input.sku, 64);
        match input.price_minor {
            None => errors.add("price_minor", "This field is required."),
            Some(v) if (0..=1_000_000_000_000).contains(&v) => p.price_minor = v,
            Some(v) if v < 0 => errors.add("price_minor", "Must be 0 or more."),
            Some(_) => errors.add("price_minor", "Must be at most 1000000000000."),
        }
        let currency = input.currency.trim().to_uppercase();
        if currency.is_empty() {
            p.currency = "EUR".into();
        } else if currency.len() == 3
            && currency.bytes().all(|b| b.is_ascii_uppercase())
            && CURRENCIES.split_whitespace().any(|c| c == currency)
        {
            p.currency = currency;
        } else {
            errors.add("currency", "Enter an ISO 4217 currency code (e.g. EUR).");
        }
        match input.vat_bps {
            None => errors.add("vat_bps", "This field is required."),
            Some(v) if (0..=10_000).contains(&v) => p.vat_bps = v as u32,
            Some(_) => errors.add(
                "vat_bps",
                "Must be between 0 and 10000 basis points (0–100 %).",
            ),
        }
        p.units = validation::optional_text(&mut errors, "units", &input.units, 20);
        if p.units.is_empty() {
            p.units = "pcs".into();
        }
        match input.max_quantity {
            None => p.max_quantity = None,
            Some(v) if (1..=1_000_000).contains(&v) => p.max_quantity = Some(v),
            Some(_) => errors.add("max_quantity", "Must be between 1 and 1000000."),
        }
        match input.case_size {
            None => p.case_size = None,
            Some(v) if (1..=10_000).contains(&v) => p.case_size = Some(v),
            Some(_) => errors.add("case_size", "Must be between 1 and 10000."),
        }
        let tag_ids = ids(&input.tag_ids);
        let known: BTreeSet<String> = self
            .tags
            .get_many(&tag_ids)
            .await?
            .into_iter()
            .map(|t| t.id)
            .collect();
        if let Some(unknown) = tag_ids.iter().find(|t| !known.contains(*t)) {
            errors.add(
                "tag_ids",
                format!("Choose existing tags ({unknown} is not one)."),
            );
        }
        p.tag_ids = tag_ids;
        p.inactive = input.inactive;
        p.is_composite = input.is_composite;
        match (input.is_composite, input.recipe) {
            (false, Some(lines)) if !lines.is_empty() => {
                errors.add("recipe", "Only a composite product has a recipe.")
            }
            (false, _) => p.recipe.clear(),
            (true, Some(lines)) => p.recipe = self.check_recipe(&mut errors, &lines).await?,
            (true, None) => {}
        }
        if p.is_composite && p.recipe.is_empty() && !errors.0.contains_key("recipe") {
            errors.add(
                "recipe",
                "A composite product needs at least one component.",
            );
        }
        errors.into_result().map_err(Into::into)
    }

    /// The writes that save `next` over `previous` (none for a new product): the product, its
    /// name reservation, a price change when the price moved, the recipe-line items that changed
    /// and a check that each newly used component still exists.
    fn save_writes(
        &self,
        by: &Principal,
        previous: Option<&Product>,
        next: &Product,
    ) -> AppResult<Vec<Write>> {
        let mut writes = match previous {
            None => Records::<Product>::insert_writes(next)?,
            Some(prev) => Records::<Product>::replace_writes(prev, next)?,
        };
        let old_price = previous.map(|p| (p.price_minor, p.currency.clone()));
        if old_price != Some((next.price_minor, next.currency.clone())) {
            let change = PriceChange {
                product_id: next.id.clone(),
                old_price_minor: previous.map(|p| p.price_minor),
                new_price_minor: next.price_minor,
                currency: next.currency.clone(),
                changed_by: ChangedBy {
                    id: by.user.id.clone(),
                    name: by.user.name.clone(),
                },
                changed_at: next.updated_at,
                schema: SCHEMA,
            };
            let key = change.key(&ulid::Ulid::new().to_string());
            writes.push(Write::Put {
                item: Item::from_value(key, &change)?,
                condition: Some(Condition::NotExists),
            });
        }
        let old: BTreeMap<&str, i64> = previous
            .map(|p| {
                p.recipe
                    .iter()
                    .map(|l| (l.component_id.as_str(), l.quantity))
                    .collect()
            })
            .unwrap_or_default();
        let new: BTreeMap<&str, i64> = next
            .recipe
            .iter()
            .map(|l| (l.component_id.as_str(), l.quantity))
            .collect();
        for c in old.keys().filter(|c| !new.contains_key(*c)) {
            writes.push(Write::Delete {
                key: RecipeUse::key(&next.id, c),
                condition: None,
            });
        }
        let mut checks = Vec::new();
        for l in &next.recipe {
            if old.get(l.component_id.as_str()) != Some(&l.quantity) {
                writes.push(Write::Put {
                    item: RecipeUse::item(&next.id, l)?,
                    condition: None,
                });
            }
            if !old.contains_key(l.component_id.as_str()) {
                checks.push(Write::Check {
                    key: Records::<Component>::key(&l.component_id),
                    condition: Condition::Exists,
                });
            }
        }
        writes.extend(checks);
        Ok(writes)
    }

    /// Creates a product (its first price counts as a price change by `by`).
    pub async fn create_product(&self, by: &Principal, input: ProductInput) -> AppResult<Product> {
        let now = self.clock.now();
        let mut p = Product {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            sku: String::new(),
            price_minor: 0,
            currency: "EUR".into(),
            vat_bps: 0,
            units: String::new(),
            max_quantity: None,
            case_size: None,
            tag_ids: vec![],
            inactive: false,
            is_composite: false,
            recipe: vec![],
            created_at: now,
            updated_at: now,
            version: 1,
            schema: SCHEMA,
        };
        self.apply_product(input, &mut p).await?;
        let writes = self.save_writes(by, None, &p)?;
        transact(self.store.as_ref(), writes, &p).await?;
        Ok(p)
    }

    /// Updates a product; a price change is recorded with who and when.
    pub async fn update_product(
        &self,
        by: &Principal,
        id: &str,
        input: ProductInput,
    ) -> AppResult<Product> {
        let current = self.products.get_or_404(id).await?;
        check_version(input.version, &current)?;
        let mut next = current.clone();
        self.apply_product(input, &mut next).await?;
        self.save(by, current, next).await
    }

    async fn save(
        &self,
        by: &Principal,
        current: Product,
        mut next: Product,
    ) -> AppResult<Product> {
        if next == current {
            return Ok(current);
        }
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        let writes = self.save_writes(by, Some(&current), &next)?;
        transact(self.store.as_ref(), writes, &next).await?;
        Ok(next)
    }

    /// Replaces the recipe of a composite product, all or nothing.
    pub async fn replace_recipe(
        &self,
        by: &Principal,
        id: &str,
        lines: &[RecipeLineInput],
        version: Option<u64>,
    ) -> AppResult<Product> {
        let current = self.get_composite(id).await?;
        check_version(version, &current)?;
        let mut errors = FieldErrors::new();
        let recipe = self.check_recipe(&mut errors, lines).await?;
        if lines.is_empty() {
            errors.add(
                "recipe",
                "A composite product needs at least one component.",
            );
        }
        errors.into_result()?;
        let mut next = current.clone();
        next.recipe = recipe;
        self.save(by, current, next).await
    }

    /// Deletes a product no machine sells (409 naming the machines otherwise, those in
    /// `visible_machines` by name), with its recipe lines; its price history goes after.
    pub async fn delete_product(
        &self,
        id: &str,
        composite_only: bool,
        visible_machines: &BTreeSet<String>,
    ) -> AppResult<()> {
        let p = if composite_only {
            self.get_composite(id).await?
        } else {
            self.products.get_or_404(id).await?
        };
        let uses = self.machine_index.selling(id).await?;
        if !uses.is_empty() {
            return Err(AppError::in_use(
                "Product",
                &p.name,
                "machines",
                uses.into_iter()
                    .map(|m| visible_machines.contains(&m.id).then_some(m.name)),
            ));
        }
        let mut writes = Records::<Product>::delete_writes(&p);
        writes.extend(p.recipe.iter().map(|l| Write::Delete {
            key: RecipeUse::key(&p.id, &l.component_id),
            condition: None,
        }));
        transact(self.store.as_ref(), writes, &p).await?;
        // The history of a deleted product is never read again: remove it, best effort.
        if let Ok(items) = query_all(
            self.store.as_ref(),
            Query::partition(Index::Primary, Product::prices_partition(id)),
        )
        .await
        {
            for i in items {
                if let Err(e) = self.store.delete(&i.key, None).await {
                    tracing::warn!(error = %e, product = id, "price history not removed");
                    break;
                }
            }
        }
        Ok(())
    }
}
