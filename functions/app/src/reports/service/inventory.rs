//! The inventory report: the stock in the machines the user may see, by product (quantity,
//! value at the selections' prices, capacity, sold-out and low selections, the soonest expiry)
//! and by component (a composite's stock counted into its components through its recipe), and
//! one machine's selections, expiring soonest first.

use super::ReportsService;
use crate::auth::Principal;
use crate::machines::Selection;
use crate::sales::SalesParams;
use crate::AppResult;
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet};
use vendfleet_domain::attention::LOW_SHARE;

/// A product's stock across the chosen machines.
// The API's `ProductStockDto` as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = ProductStockDto))]
pub struct ProductStock {
    pub product_id: String,
    pub name: String,
    pub units: String,
    pub quantity: i64,
    /// Σ current × the selection's price, minor units.
    pub value_minor: i64,
    /// Σ max.
    pub capacity: i64,
    pub machines: usize,
    pub selections: usize,
    pub sold_out: usize,
    /// Selections below a quarter of their max (not sold out).
    pub low: usize,
    pub next_expiry: Option<NaiveDate>,
}

/// A component's stock: what the composite products' stock holds of it.
// The API's `ComponentStockDto` as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = ComponentStockDto))]
pub struct ComponentStock {
    pub component_id: String,
    pub name: String,
    pub unit: String,
    pub quantity: i64,
    pub machines: usize,
}

/// One selection of a machine with its product's name.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectionStock {
    pub selection: Selection,
    pub product_name: String,
    pub value_minor: i64,
    pub sold_out: bool,
    pub low: bool,
}

/// Rows with the machines they were seen in: each row given its machine count, most first
/// (by `key`'s quantity), then by name.
fn ranked<T>(
    by: BTreeMap<String, (T, BTreeSet<String>)>,
    set_machines: fn(&mut T, usize),
    key: fn(&T) -> (i64, &String),
) -> Vec<T> {
    let mut out: Vec<T> = by
        .into_values()
        .map(|(mut row, machines)| {
            set_machines(&mut row, machines.len());
            row
        })
        .collect();
    out.sort_by(|a, b| {
        let ((qa, na), (qb, nb)) = (key(a), key(b));
        qb.cmp(&qa).then_with(|| na.cmp(nb))
    });
    out
}

fn low(s: &Selection) -> bool {
    s.current > 0 && (s.current as f64) < LOW_SHARE * s.max as f64
}

impl ReportsService {
    /// The selections of the chosen machines (the sales filters' machine part), by machine.
    async fn stock(
        &self,
        p: &Principal,
        params: &SalesParams,
    ) -> AppResult<BTreeMap<String, Vec<Selection>>> {
        let q = params.check(self.calendar.today())?;
        let (machines, _) = self.sales.chosen_machines(p, &q).await?;
        let mut out = BTreeMap::new();
        for m in machines {
            let sels = self.machines.raw_selections(&m.id).await?;
            out.insert(m.id, sels);
        }
        Ok(out)
    }

    /// Stock by product, most units first.
    pub async fn product_stock(
        &self,
        p: &Principal,
        params: &SalesParams,
    ) -> AppResult<Vec<ProductStock>> {
        let stock = self.stock(p, params).await?;
        let products = self.products.products().all().await?;
        let names: BTreeMap<&str, (&str, &str)> = products
            .iter()
            .map(|p| (p.id.as_str(), (p.name.as_str(), p.units.as_str())))
            .collect();
        let mut by: BTreeMap<String, (ProductStock, BTreeSet<String>)> = BTreeMap::new();
        for (machine, sels) in &stock {
            for s in sels {
                let (t, machines) = by.entry(s.product_id.clone()).or_insert_with(|| {
                    let (name, units) = names
                        .get(s.product_id.as_str())
                        .copied()
                        .unwrap_or_default();
                    (
                        ProductStock {
                            product_id: s.product_id.clone(),
                            name: name.to_string(),
                            units: units.to_string(),
                            ..ProductStock::default()
                        },
                        BTreeSet::new(),
                    )
                });
                machines.insert(machine.clone());
                t.quantity += s.current;
                t.value_minor += s.current.max(0) * s.price_minor;
                t.capacity += s.max;
                t.selections += 1;
                t.sold_out += usize::from(s.max > 0 && s.current <= 0);
                t.low += usize::from(low(s));
                if s.current > 0 {
                    if let Some(d) = s.expiry_date {
                        t.next_expiry = Some(t.next_expiry.map_or(d, |e| e.min(d)));
                    }
                }
            }
        }
        Ok(ranked(by, |t, n| t.machines = n, |t| (t.quantity, &t.name)))
    }

    /// Stock by component: each composite product's units × its recipe, most first.
    pub async fn component_stock(
        &self,
        p: &Principal,
        params: &SalesParams,
    ) -> AppResult<Vec<ComponentStock>> {
        let stock = self.stock(p, params).await?;
        let products = self.products.products().all().await?;
        let recipes: BTreeMap<&str, &[crate::products::RecipeLine]> = products
            .iter()
            .filter(|p| p.is_composite)
            .map(|p| (p.id.as_str(), p.recipe.as_slice()))
            .collect();
        let components = self.products.components().all().await?;
        let mut by: BTreeMap<String, (ComponentStock, BTreeSet<String>)> = components
            .into_iter()
            .map(|c| {
                let row = ComponentStock {
                    component_id: c.id.clone(),
                    name: c.name,
                    unit: c.unit,
                    ..ComponentStock::default()
                };
                (c.id, (row, BTreeSet::new()))
            })
            .collect();
        for (machine, sels) in &stock {
            for s in sels {
                for line in recipes
                    .get(s.product_id.as_str())
                    .copied()
                    .unwrap_or_default()
                {
                    if let Some((row, machines)) = by.get_mut(&line.component_id) {
                        row.quantity += s.current.max(0) * line.quantity;
                        machines.insert(machine.clone());
                    }
                }
            }
        }
        by.retain(|_, (_, machines)| !machines.is_empty());
        Ok(ranked(by, |c, n| c.machines = n, |c| (c.quantity, &c.name)))
    }

    /// One machine's selections with their value, expiring soonest first (then by selection).
    pub async fn machine_stock(
        &self,
        p: &Principal,
        machine_id: &str,
    ) -> AppResult<Vec<SelectionStock>> {
        let views = self.machines.selections(p, machine_id).await?;
        let mut out: Vec<SelectionStock> = views
            .into_iter()
            .map(|v| SelectionStock {
                value_minor: v.selection.current.max(0) * v.selection.price_minor,
                sold_out: v.selection.max > 0 && v.selection.current <= 0,
                low: low(&v.selection),
                product_name: v.product_name,
                selection: v.selection,
            })
            .collect();
        // Soonest expiry first; selections without a date after them, in planogram order.
        out.sort_by_key(|s| {
            s.selection
                .expiry_date
                .map_or((1, NaiveDate::MAX), |d| (0, d))
        });
        Ok(out)
    }
}
