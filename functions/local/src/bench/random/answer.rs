//! A query's answer as keys and figures, ours from the API's JSON and DuckDB's from its rows,
//! and how two answers differ.

use super::draw::{Drawn, Kind, FIGURES};
use chrono::NaiveDate;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// A canonical answer: key → integers (the order of ranked lists is in the keys).
pub(super) type Answer = BTreeMap<String, Vec<i64>>;

fn figures_of(v: &Value) -> Vec<i64> {
    FIGURES
        .iter()
        .map(|f| v[f].as_i64().unwrap_or(i64::MIN))
        .collect()
}

/// Our answer in the canonical shape.
pub(super) fn ours(q: &Drawn, v: &Value) -> Answer {
    let mut out = Answer::new();
    let d = &v["data"];
    let empty = Vec::new();
    let arr = |v: &Value| v.as_array().unwrap_or(&empty).clone();
    match q.kind {
        Kind::TotalTable => {
            out.insert(
                format!(
                    "span:{}..{}",
                    d["date_from"].as_str().unwrap_or("?"),
                    d["date_to"].as_str().unwrap_or("?")
                ),
                vec![],
            );
            out.insert(
                "total".into(),
                [figures_of(&d["total"]), figures_of(&d["previous"])].concat(),
            );
            for r in arr(&d["rows"]) {
                out.insert(
                    format!("row:{}", r["id"].as_str().unwrap_or("?")),
                    [figures_of(&r), figures_of(&r["previous"])].concat(),
                );
            }
        }
        Kind::DetailTable => {
            out.insert(
                "count".into(),
                vec![v["pagination"]["count"].as_i64().unwrap_or(-1)],
            );
            for (i, r) in arr(d).iter().enumerate() {
                let id = r["id"].as_str().unwrap_or("?");
                out.insert(
                    format!("{i:04}:{id}"),
                    vec![r["total"].as_i64().unwrap_or(i64::MIN)],
                );
                for (date, x) in r["values"].as_object().into_iter().flatten() {
                    let x = x.as_i64().unwrap_or(i64::MIN);
                    if x != 0 {
                        out.insert(format!("{id}@{date}"), vec![x]);
                    }
                }
            }
        }
        Kind::LineChart => {
            for (side, dates, values) in [
                ("c", "dates", "current"),
                ("p", "previous_dates", "previous"),
            ] {
                for (date, x) in arr(&d[dates]).iter().zip(arr(&d[values])) {
                    let x = x.as_i64().unwrap_or(i64::MIN);
                    if x != 0 {
                        out.insert(format!("{side}:{}", date.as_str().unwrap_or("?")), vec![x]);
                    }
                }
            }
        }
        Kind::BarChart => {
            for (i, b) in arr(d).iter().enumerate() {
                let id = b["id"].as_str().unwrap_or("?");
                let key = if id == "others" && i == 20 {
                    "others".into()
                } else {
                    format!("{i:02}:{id}")
                };
                out.insert(
                    key,
                    vec![
                        b["current"].as_i64().unwrap_or(i64::MIN),
                        b["previous"].as_i64().unwrap_or(i64::MIN),
                    ],
                );
            }
        }
        Kind::TransactionCount => {
            out.insert(
                "count".into(),
                vec![v["pagination"]["count"].as_i64().unwrap_or(-1)],
            );
        }
        Kind::Dashboard => {
            // Today's figures (its same-hours comparisons need the vends' times of day, which
            // the exported ledger does not hold: `tests/api/dashboard.rs` checks them), and the
            // month against its comparison span.
            let today = d["today"]["date"].as_str().unwrap_or("?");
            out.insert("today".into(), figures_of(&d["today"]["figures"]));
            out.insert(format!("today-span:{today}..{today}"), vec![]);
            out.insert(
                "month".into(),
                [
                    figures_of(&d["month"]["figures"]),
                    figures_of(&d["month"]["previous"]),
                ]
                .concat(),
            );
            out.insert(
                format!(
                    "month-span:{}..{}",
                    d["month"]["date_from"].as_str().unwrap_or("?"),
                    d["month"]["date_to"].as_str().unwrap_or("?")
                ),
                vec![],
            );
            for (key, list) in [("tp", "top_products"), ("tm", "top_machines")] {
                for (i, t) in arr(&d[list]).iter().enumerate() {
                    out.insert(
                        format!("{key}:{i}:{}", t["id"].as_str().unwrap_or("?")),
                        figures_of(t),
                    );
                }
            }
        }
    }
    out
}

/// DuckDB's rows in the canonical shape, with the spans the query covers.
pub(super) fn theirs(q: &Drawn, rows: &Value, today: NaiveDate) -> Answer {
    let mut out: Answer = rows
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let r = r.as_array()?;
            let key = r.first()?.as_str()?.to_string();
            Some((
                key,
                r[1..]
                    .iter()
                    .map(|x| x.as_i64().unwrap_or(i64::MIN))
                    .collect(),
            ))
        })
        .collect();
    match q.kind {
        Kind::TotalTable => {
            out.insert(format!("span:{}..{}", q.from, q.to), vec![]);
        }
        Kind::Dashboard => {
            out.insert(format!("month-span:{}..{}", q.from, q.to), vec![]);
            out.insert(format!("today-span:{today}..{today}"), vec![]);
        }
        _ => {}
    }
    out
}

/// The first difference between two answers, if any.
pub(super) fn difference(ours: &Answer, theirs: &Answer) -> Option<String> {
    let keys: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    let diffs: Vec<String> = keys
        .into_iter()
        .filter(|k| ours.get(*k) != theirs.get(*k))
        .map(|k| format!("{k}: ours {:?}, DuckDB {:?}", ours.get(k), theirs.get(k)))
        .collect();
    (!diffs.is_empty()).then(|| {
        let shown: Vec<&str> = diffs.iter().take(3).map(String::as_str).collect();
        format!("{} keys differ, e.g. {}", diffs.len(), shown.join("; "))
    })
}
