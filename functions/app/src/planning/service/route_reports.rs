//! What a planned route did: stock loaded, filled and returned, and forecast accuracy (the
//! predicted need against the need the refiller found). Pure.

use super::*;

/// A product's movement on a route.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StockRow {
    pub product_id: String,
    pub product_name: String,
    pub loaded: i64,
    pub filled: i64,
    pub removed: i64,
    pub returned: i64,
}

/// Forecast accuracy of one line (or a total).
// The API's `AccuracyRowDto` as it is.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = AccuracyRowDto))]
pub struct AccuracyRow {
    pub machine_id: String,
    pub machine_name: String,
    pub product_id: String,
    pub product_name: String,
    /// The need predicted when the route was saved (before case rounding).
    pub predicted: i64,
    /// The need found at the visit (max − found).
    pub actual: i64,
    pub filled: i64,
    // These three: set by `settle`.
    /// `predicted − actual`.
    pub error: i64,
    pub abs_error: i64,
    /// 1 − |error| / actual, to three decimals; null when nothing was needed.
    pub accuracy: Option<f64>,
}

impl AccuracyRow {
    /// Computes the error and the accuracy from the predicted and actual needs.
    fn settle(&mut self) {
        self.error = self.predicted - self.actual;
        self.abs_error = self.error.abs();
        self.accuracy = accuracy(std::slice::from_ref(self));
    }
}

/// 1 − Σ|predicted − actual| / Σ actual, to three decimals; none when nothing was needed.
pub fn accuracy(rows: &[AccuracyRow]) -> Option<f64> {
    let actual: i64 = rows.iter().map(|r| r.actual).sum();
    let err: i64 = rows.iter().map(|r| (r.predicted - r.actual).abs()).sum();
    (actual > 0).then(|| ((1.0 - err as f64 / actual as f64) * 1000.0).round() / 1000.0)
}

/// A route's forecast accuracy.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Accuracy {
    pub lines: Vec<AccuracyRow>,
    /// By machine (product fields empty).
    pub machines: Vec<AccuracyRow>,
    /// By product (machine fields empty).
    pub products: Vec<AccuracyRow>,
}

/// What went into the van and where it went, by product, and by component (with its unit) for
/// composite products.
pub fn stock_report(stops: &[RouteStop]) -> (Vec<StockRow>, Vec<(StockRow, String)>) {
    let mut products: BTreeMap<String, StockRow> = BTreeMap::new();
    let mut components: BTreeMap<String, (StockRow, String)> = BTreeMap::new();
    for st in stops {
        let visited = st.visited_lines();
        let mut add = |id: &str, name: &str, loaded: i64, filled: i64, removed: i64| {
            let r = products.entry(id.to_string()).or_insert_with(|| StockRow {
                product_id: id.to_string(),
                product_name: name.to_string(),
                ..StockRow::default()
            });
            r.loaded += loaded;
            r.filled += filled;
            r.removed += removed;
        };
        let mut seen = BTreeSet::new();
        for l in &st.lines {
            let v = visited.get(l.selection.as_str());
            let (filled, removed) = v.map_or((0, 0), |v| (v.filled, v.removed));
            seen.insert(l.selection.as_str());
            add(&l.product_id, &l.product_name, l.to_bring, filled, removed);
            for c in &l.components {
                let r = components.entry(c.component_id.clone()).or_insert_with(|| {
                    (
                        StockRow {
                            product_id: c.component_id.clone(),
                            product_name: c.name.clone(),
                            ..StockRow::default()
                        },
                        c.unit.clone(),
                    )
                });
                r.0.loaded += c.quantity;
                r.0.filled += filled * c.per_unit;
                r.0.removed += removed * c.per_unit;
            }
        }
        // Selections booked at the visit that the picklist did not hold.
        for v in visited
            .values()
            .filter(|v| !seen.contains(v.selection.as_str()))
        {
            add(&v.product_id, &v.product_name, 0, v.filled, v.removed);
        }
    }
    let finish = |r: &mut StockRow| r.returned = r.loaded - r.filled;
    let mut p: Vec<StockRow> = products.into_values().collect();
    p.iter_mut().for_each(finish);
    p.sort_by(|a, b| {
        b.loaded
            .cmp(&a.loaded)
            .then_with(|| a.product_name.cmp(&b.product_name))
    });
    let mut c: Vec<(StockRow, String)> = components.into_values().collect();
    c.iter_mut().for_each(|(r, _)| finish(r));
    c.sort_by(|a, b| {
        b.0.loaded
            .cmp(&a.0.loaded)
            .then_with(|| a.0.product_name.cmp(&b.0.product_name))
    });
    (p, c)
}

/// The predicted need against the need found, for every picklist line of a visited stop, and
/// summed by machine and by product.
pub fn forecast_accuracy(route: &PlannedRoute, stops: &[RouteStop]) -> Accuracy {
    let names: HashMap<&str, &str> = route
        .stops
        .iter()
        .map(|s| (s.stop.machine_id.as_str(), s.stop.machine_name.as_str()))
        .collect();
    let mut out = Accuracy::default();
    for st in stops {
        let Some(visit) = &st.visit else { continue };
        let booked: HashMap<&str, &VisitLine> = visit
            .lines
            .iter()
            .map(|l| (l.selection.as_str(), l))
            .collect();
        for l in &st.lines {
            let Some(v) = booked.get(l.selection.as_str()) else {
                continue;
            };
            out.lines.push(AccuracyRow {
                machine_id: st.machine_id.clone(),
                machine_name: names
                    .get(st.machine_id.as_str())
                    .copied()
                    .unwrap_or("")
                    .into(),
                product_id: l.product_id.clone(),
                product_name: l.product_name.clone(),
                predicted: l.need,
                actual: (l.max - v.found).max(0),
                filled: v.filled,
                ..AccuracyRow::default()
            });
        }
    }
    let group = |key: fn(&AccuracyRow) -> (String, String), machine: bool| {
        let mut by: BTreeMap<(String, String), AccuracyRow> = BTreeMap::new();
        for r in &out.lines {
            let (id, name) = key(r);
            let t = by.entry((name.clone(), id.clone())).or_insert_with(|| {
                if machine {
                    AccuracyRow {
                        machine_id: id,
                        machine_name: name,
                        ..AccuracyRow::default()
                    }
                } else {
                    AccuracyRow {
                        product_id: id,
                        product_name: name,
                        ..AccuracyRow::default()
                    }
                }
            });
            t.predicted += r.predicted;
            t.actual += r.actual;
            t.filled += r.filled;
        }
        by.into_values().collect::<Vec<_>>()
    };
    out.machines = group(|r| (r.machine_id.clone(), r.machine_name.clone()), true);
    out.products = group(|r| (r.product_id.clone(), r.product_name.clone()), false);
    out.lines
        .iter_mut()
        .chain(&mut out.machines)
        .chain(&mut out.products)
        .for_each(AccuracyRow::settle);
    out
}
