//! What the tables write besides their rows, kept as data: each table's columns with their
//! titles in three languages (`columns.json`) and the labels of the app's choices a table
//! writes (`labels.json`), each read once.

use crate::table::{col, Column};
use crate::{tr, Cell};
use std::collections::HashMap;
use std::sync::LazyLock;
use vendfleet_domain::Language;

/// `columns.json`: each table's columns in order, an entry `[key, en, fr, it]` each. Read once;
/// the texts are borrowed from the file (a title holds no JSON escape).
pub(super) static COLUMNS: LazyLock<HashMap<&'static str, Vec<Column>>> = LazyLock::new(|| {
    let file: HashMap<&'static str, Vec<[&'static str; 4]>> =
        serde_json::from_str(include_str!("columns.json"))
            .unwrap_or_else(|e| panic!("tables/columns.json: {e}"));
    file.into_iter()
        .map(|(table, entries)| {
            let cols = entries
                .into_iter()
                .map(|[k, en, fr, it]| col(k, en, fr, it));
            (table, cols.collect())
        })
        .collect()
});

/// The columns of `table` (one of [`TABLES`]), in order. A name `columns.json` lacks panics: the
/// tests check every name of [`TABLES`].
pub fn columns(table: &str) -> &'static [Column] {
    COLUMNS
        .get(table)
        .map(Vec::as_slice)
        .unwrap_or_else(|| panic!("tables/columns.json has no table “{table}”"))
}

/// `labels.json`: what a report writes for a choice of the app's (a visit's status, an
/// explanation's kind, a machine-day's settlement status), by group and by the choice's
/// serialised key, `[en, fr, it]`. Read once.
pub(super) static LABELS: LazyLock<
    HashMap<&'static str, HashMap<&'static str, [&'static str; 3]>>,
> = LazyLock::new(|| {
    serde_json::from_str(include_str!("labels.json"))
        .unwrap_or_else(|e| panic!("tables/labels.json: {e}"))
});

/// The label of `value` (a unit enum serialised as its key) in `group`, in `lang`; its key
/// where `labels.json` has none (the tests check every choice has one).
pub(crate) fn label(lang: Language, group: &str, value: impl serde::Serialize) -> String {
    let key = serde_json::to_value(value).ok();
    let key = key.as_ref().and_then(|v| v.as_str()).unwrap_or_default();
    match LABELS.get(group).and_then(|g| g.get(key)) {
        Some([en, fr, it]) => crate::tr(lang, en, fr, it),
        None => key.to_string(),
    }
}

/// A status cell: Active or Inactive in `lang` (the users' and machines' exports).
pub(crate) fn active_status(lang: Language, active: bool) -> Cell {
    if active {
        tr(lang, "Active", "Actif", "Attivo")
    } else {
        tr(lang, "Inactive", "Inactif", "Inattivo")
    }
    .into()
}
