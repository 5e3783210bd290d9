//! A planned route's export: each stop's picklist with what its visit booked.

use crate::table::{titles, Table};
use crate::{tr, Cell};
use std::collections::HashMap;
use vendfleet_app::auth::Principal;
use vendfleet_app::{App, AppResult};
use vendfleet_domain::report::Choice;

/// Names a planned route's export columns in `columns.json` ([`super::columns`]).
pub const ROUTE: &str = "route";

/// A planned route as a table: a row a picklist line of each stop (in the route's order), with
/// what the visit booked.
pub async fn route_table(app: &App, p: &Principal, id: &str) -> AppResult<Table> {
    let lang = p.user.language;
    let (route, stops) = app.planning.route_with_stops(p, id).await?;
    let order: HashMap<&str, usize> = route
        .stops
        .iter()
        .enumerate()
        .map(|(i, s)| (s.stop.machine_id.as_str(), i + 1))
        .collect();
    let mut rows = Vec::new();
    for st in &stops {
        let summary = route
            .stops
            .iter()
            .find(|s| s.stop.machine_id == st.machine_id);
        let visited = st.visited_lines();
        for l in &st.lines {
            let v = visited.get(l.selection.as_str());
            rows.push(vec![
                Cell::Int(order.get(st.machine_id.as_str()).copied().unwrap_or(0) as i64),
                summary
                    .map(|s| s.stop.machine_name.clone())
                    .unwrap_or_default()
                    .into(),
                summary
                    .and_then(|s| s.stop.location_name.clone())
                    .unwrap_or_default()
                    .into(),
                summary.and_then(|s| s.stop.arrival).into(),
                l.selection.clone().into(),
                l.product_name.clone().into(),
                l.current.into(),
                ((l.predicted_at_visit * 10.0).round() / 10.0).into(),
                l.to_bring.into(),
                v.map(|v| v.found).into(),
                v.map(|v| v.filled).into(),
                v.map(|v| v.removed).into(),
                v.and_then(|v| v.removed_reason)
                    .map(|r| r.key().to_string())
                    .unwrap_or_default()
                    .into(),
            ]);
        }
    }
    Ok(Table {
        sheet: tr(lang, "Route", "Tournée", "Percorso"),
        header: titles(lang, super::columns(ROUTE)),
        rows,
    })
}
