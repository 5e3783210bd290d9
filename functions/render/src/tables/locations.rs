//! The locations list's export: the locations matching the list's filters, a row each, with the
//! names of their client and refiller.

use crate::table::{titles, Table};
use crate::tr;
use std::collections::{BTreeMap, HashMap};
use vendfleet_app::fleet::Location;
use vendfleet_domain::Language;

/// Names the locations export's columns in `columns.json` ([`super::columns`]).
pub const LOCATIONS: &str = "locations";

/// `locations` as a table; `clients` names each client id, `users` each employee id.
pub fn locations_table(
    lang: Language,
    locations: Vec<Location>,
    clients: &BTreeMap<String, String>,
    users: &HashMap<String, String>,
) -> Table {
    let rows = locations
        .into_iter()
        .map(|l| {
            let client = l.client_id.as_ref().and_then(|id| clients.get(id));
            let refiller = l.refiller_id.as_ref().and_then(|id| users.get(id));
            vec![
                l.name.into(),
                l.address.into(),
                l.location_type.into(),
                l.region.into(),
                client.cloned().into(),
                refiller.cloned().into(),
                l.latitude.into(),
                l.longitude.into(),
                l.time_zone.into(),
            ]
        })
        .collect();
    Table {
        sheet: tr(lang, "Locations", "Emplacements", "Ubicazioni"),
        header: titles(lang, super::columns(LOCATIONS)),
        rows,
    }
}
