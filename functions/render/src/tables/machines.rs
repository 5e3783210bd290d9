//! The machines list's export: the machines matching the list's filters, a row each, with the
//! names of their model, location and tags.

use crate::table::{titles, Table};
use crate::tr;
use std::collections::HashMap;
use vendfleet_app::machines::Machine;
use vendfleet_domain::Language;

/// Names the machines export's columns in `columns.json` ([`super::columns`]).
pub const MACHINES: &str = "machines";

/// `machines` as a table. `models` names each model id with its name and type, `locations` and
/// `tags` each id with its name; an unknown tag is left out.
pub fn machines_table(
    lang: Language,
    machines: Vec<Machine>,
    models: &HashMap<String, (String, String)>,
    locations: &HashMap<String, String>,
    tags: &HashMap<String, String>,
) -> Table {
    let rows = machines
        .into_iter()
        .map(|m| {
            let model = m.model_id.as_ref().and_then(|id| models.get(id));
            let tag_names: Vec<&str> = m
                .tag_ids
                .iter()
                .filter_map(|t| tags.get(t).map(String::as_str))
                .collect();
            vec![
                m.name.into(),
                m.serial.into(),
                m.mcu_serial.into(),
                model.map(|(name, _)| name.clone()).into(),
                model.map(|(_, kind)| kind.clone()).into(),
                m.location_id
                    .as_ref()
                    .and_then(|id| locations.get(id).cloned())
                    .into(),
                tag_names.join(", ").into(),
                m.firmware.into(),
                super::active_status(lang, !m.inactive),
            ]
        })
        .collect();
    Table {
        sheet: tr(lang, "Machines", "Machines", "Macchine"),
        header: titles(lang, super::columns(MACHINES)),
        rows,
    }
}
