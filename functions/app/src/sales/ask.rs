//! What a report asks of the figures: the machines and products it chose (and the catalogue it
//! names its groups from), its span and the span before, whether by period and by group; and the
//! groups a row of figures counts in.

use super::engine::Engine;
use super::model::NO_GROUP;
use super::query::SalesQuery;
use crate::fleet::Location;
use crate::machines::Machine;
use crate::ports::RollupRow;
use crate::products::Product;
use crate::records::Shared;
use chrono::NaiveDate;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use vendfleet_domain::report::{Cube, GroupBy};

/// The machines a query chose: the user's visible machines, shared between requests (not
/// cloned for each), and which of them.
pub(crate) struct ChosenMachines {
    pub(super) visible: Arc<Vec<Machine>>,
    pub(super) picked: Vec<u32>,
}

impl ChosenMachines {
    /// Their slots in the engine's columns (those of a shared list found once).
    pub fn slots(&self, engine: &Engine) -> Vec<Option<usize>> {
        engine.slots(&self.visible, |m: &Machine| m.id.as_str(), &self.picked)
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Machine> + Clone {
        self.picked.iter().map(|&i| &self.visible[i as usize])
    }

    pub fn len(&self) -> usize {
        self.picked.len()
    }

    pub fn is_empty(&self) -> bool {
        self.picked.is_empty()
    }
}

/// What a report needs to know of the catalogue.
pub(super) struct Catalogue {
    pub(super) machines: ChosenMachines,
    /// How many machines the fleet has.
    pub(super) fleet_size: usize,
    pub(super) locations: Arc<Shared<Location>>,
    /// Product filter: `None` for every product.
    pub(super) products: Option<BTreeSet<String>>,
    /// Every product by id (their tags, and the names of product groups).
    pub(super) all_products: Arc<Shared<Product>>,
    /// The names of the groups other than by product (those are named from `all_products`).
    pub(super) names: BTreeMap<String, String>,
}

/// The products `q`'s product and product-tag filters choose (`None`: no filter): the ids it
/// names (a product since deleted keeps its sales), and those of `all` with one of its tags.
pub(super) fn chosen_products(q: &SalesQuery, all: &[Product]) -> Option<BTreeSet<String>> {
    (!q.products.is_empty() || !q.product_tags.is_empty()).then(|| {
        let tagged = all
            .iter()
            .filter(|p| p.tag_ids.iter().any(|t| q.product_tags.contains(t)));
        let mut chosen = q.products.clone();
        chosen.extend(tagged.map(|p| p.id.clone()));
        chosen
    })
}

/// Adds a rollup row to a cube in `bucket` (or takes it off: `negate`) if its product is chosen,
/// and to its groups when `groups`. The machine is needed for groups other than by product or
/// product tag (`None`: a fleet row, or one taken off the fleet's).
#[allow(clippy::too_many_arguments)]
pub(super) fn add_row<'a>(
    cube: &mut Cube,
    q: &SalesQuery,
    cat: &'a Catalogue,
    machine: Option<&'a Machine>,
    r: &'a RollupRow,
    groups: bool,
    bucket: NaiveDate,
    negate: bool,
) {
    let product = r.product_id.as_deref().unwrap_or(NO_GROUP);
    if cat
        .products
        .as_ref()
        .is_some_and(|set| !set.contains(product))
    {
        return;
    }
    let keys = if groups {
        group_keys(q, cat, machine, product)
    } else {
        Vec::new()
    };
    let figures = if negate {
        r.figures.negated()
    } else {
        r.figures
    };
    cube.add(bucket, keys, &figures);
}

/// What a report asks of the figures: the query, its machines and products, the span and the
/// span before, and whether by period and by group.
#[derive(Clone, Copy)]
pub(super) struct Ask<'a> {
    pub(super) q: &'a SalesQuery,
    pub(super) cat: &'a Catalogue,
    pub(super) spans: [(NaiveDate, NaiveDate); 2],
    pub(super) by_period: bool,
    pub(super) groups: bool,
}

/// The groups of `q` a row of `machine` (`None`: a fleet row) and `product` counts in.
pub(super) fn group_keys<'a>(
    q: &SalesQuery,
    cat: &'a Catalogue,
    machine: Option<&'a Machine>,
    product: &'a str,
) -> Vec<&'a str> {
    let or_none = |tags: &'a [String]| -> Vec<&'a str> {
        if tags.is_empty() {
            vec![NO_GROUP]
        } else {
            tags.iter().map(String::as_str).collect()
        }
    };
    match (q.group_by, machine) {
        (GroupBy::Product, _) => vec![product],
        (GroupBy::ProductTag, _) => or_none(
            cat.all_products
                .get(product)
                .map_or(&[][..], |p| &p.tag_ids),
        ),
        (GroupBy::Machine, Some(m)) => vec![m.id.as_str()],
        (GroupBy::Location, Some(m)) => vec![m.location_id.as_deref().unwrap_or(NO_GROUP)],
        (GroupBy::Client, Some(m)) => {
            let location = m.location_id.as_ref().and_then(|l| cat.locations.get(l));
            vec![location
                .and_then(|l| l.client_id.as_deref())
                .unwrap_or(NO_GROUP)]
        }
        (GroupBy::MachineTag, Some(m)) => or_none(&m.tag_ids),
        (_, None) => Vec::new(),
    }
}
