//! The demo's card settlements: the processor's mapping and last month's settlement file,
//! generated from the machines' own card sales with the mismatches a real month has — a few
//! charge-backs (short), a duplicate payout line (over), the month's last days of some machines
//! not settled yet, a settlement for a machine-day without card sales — and imported, so the
//! reconciliation screen has a month to show.

use chrono::{Datelike, Duration, NaiveDate};
use rand::SeedableRng;
use vendfleet_app::auth::Principal;
use vendfleet_app::sales::SalesParams;
use vendfleet_app::settlements::{Columns, ImportInput, MappingInput, Status};
use vendfleet_app::App;

fn err(what: &'static str) -> impl Fn(vendfleet_app::AppError) -> String {
    move |e| format!("seeding the demo's settlements ({what}): {e}")
}

/// The demo processor's export: `;`, decimal commas, day-first dates.
pub const HEADER: &str =
    "Transaction day;Terminal;Gross amount;Commission;Net amount;Tx count;Payout ID;Cur";

fn amount(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    format!("{sign}{},{:02}", minor.abs() / 100, minor.abs() % 100)
}

/// The first and last day of the month before `today`.
pub fn last_month(today: NaiveDate) -> (NaiveDate, NaiveDate) {
    let first_this = today.with_day(1).expect("day 1");
    let last = first_this - Duration::days(1);
    (last.with_day(1).expect("day 1"), last)
}

/// Makes the mapping and imports last month's file; answers the file's name and rows.
pub async fn seed(app: &App, admin: &Principal, seed: u64) -> Result<(String, usize), String> {
    let mapping = app
        .settlements
        .save_mapping(
            admin,
            None,
            &MappingInput {
                name: "Nayax".into(),
                columns: Columns {
                    date: "Transaction day".into(),
                    terminal: "Terminal".into(),
                    gross: "Gross amount".into(),
                    fees: Some("Commission".into()),
                    net: Some("Net amount".into()),
                    count: Some("Tx count".into()),
                    payout_reference: "Payout ID".into(),
                    currency: Some("Cur".into()),
                },
                date_format: Some("%d/%m/%Y".into()),
                decimal_separator: Some(",".into()),
                amounts_in_minor: false,
                version: None,
            },
        )
        .await
        .map_err(err("the mapping"))?;
    app.settlements
        .save_mapping(
            admin,
            None,
            &MappingInput {
                name: "Generic format".into(),
                columns: Columns::generic(),
                ..MappingInput::default()
            },
        )
        .await
        .map_err(err("the generic mapping"))?;
    let (from, to) = last_month(app.calendar.today());
    // Before any import every machine-day with card sales is "not settled": its sales.
    let open = app
        .settlements
        .reconcile(
            admin,
            &SalesParams {
                period: Some("custom".into()),
                date_from: Some(from.to_string()),
                date_to: Some(to.to_string()),
                ..SalesParams::default()
            },
        )
        .await
        .map_err(err("the month's card sales"))?;
    // Some machines' last two days are paid next month.
    let settled: Vec<_> = open
        .rows
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r.status == Status::NotSettled && !(r.date > to - Duration::days(2) && i % 23 == 0)
        })
        .map(|(_, r)| r)
        .collect();
    // A few charge-backs (one sale reversed) and a line paid twice, about one a fortnight per
    // 25 machines.
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x005e_771e);
    let machines: std::collections::BTreeSet<&str> =
        settled.iter().map(|r| r.machine_id.as_str()).collect();
    let (shorts, overs) = (2 + machines.len() / 25, 1 + machines.len() / 50);
    let picked =
        rand::seq::index::sample(&mut rng, settled.len(), (shorts + overs).min(settled.len()));
    let mut change: std::collections::HashMap<usize, bool> = std::collections::HashMap::new();
    for (n, i) in picked.iter().enumerate() {
        change.insert(i, n < shorts);
    }
    let mut lines = vec![HEADER.to_string()];
    for (i, row) in settled.iter().enumerate() {
        let mut gross = row.sales_minor;
        let mut count = row.transactions;
        match change.get(&i) {
            Some(true) if count > 1 => {
                gross -= (gross / count).max(50);
                count -= 1;
            }
            Some(false) => gross += gross / count.max(1),
            _ => {}
        }
        let week = (row.date.day0() / 7) + 1;
        let payout = format!("NYX-{}-W{week}", from.format("%Y%m"));
        let fees = gross * 29 / 1000;
        lines.push(format!(
            "{};{};{};{};{};{count};{payout};{}",
            row.date.format("%d/%m/%Y"),
            row.terminal_id,
            amount(gross),
            amount(fees),
            amount(gross - fees),
            row.currency
        ));
    }
    // A settlement for a machine on a day it sold nothing by card (a test card, a refund): the
    // first machine (in the reconciliation's order) with such a day.
    let sold: std::collections::BTreeSet<(&str, NaiveDate)> = open
        .rows
        .iter()
        .map(|r| (r.machine_id.as_str(), r.date))
        .collect();
    let quiet = open.rows.iter().find_map(|r| {
        (0..)
            .map(|d| from + Duration::days(d))
            .take_while(|d| *d <= to)
            .find(|d| !sold.contains(&(r.machine_id.as_str(), *d)))
            .map(|d| (r, d))
    });
    if let Some((r, d)) = quiet {
        lines.push(format!(
            "{};{};1,00;0,03;0,97;1;NYX-{}-W{};{}",
            d.format("%d/%m/%Y"),
            r.terminal_id,
            from.format("%Y%m"),
            d.day0() / 7 + 1,
            r.currency
        ));
    }
    let name = format!("nayax-{}.csv", from.format("%Y-%m"));
    let rows = lines.len() - 1;
    if rows == 0 {
        return Ok((name, 0));
    }
    app.settlements
        .import(
            admin,
            &ImportInput {
                mapping_id: mapping.id,
                file_name: name.clone(),
                bytes: lines.join("\r\n").into_bytes(),
            },
        )
        .await
        .map_err(err("last month's file"))?;
    Ok((name, rows))
}
