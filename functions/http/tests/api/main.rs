//! The HTTP test suite: one binary, one module per area, all on the real router (`common::Harness`)
//! over SQLite and over DynamoDB/S3 in moto. One binary links the application once, not once per
//! area. Run one area with `cargo test -p vendfleet-http --test api <area>::`, e.g. `reach::`.

#[macro_use]
mod common;

mod audit_property;
mod audit_truth;
mod audits;
mod auth;
mod comparisons;
mod contract;
mod dashboard;
mod data_sources;
mod dynamo_reads;
mod events;
mod events_contract;
mod events_property;
mod generator;
mod history_import;
mod jobs;
mod machines;
mod my_day;
mod planning;
mod products;
mod reach;
mod reports;
mod sales;
mod scheduled_mail;
mod scheduler;
mod settings;
mod settlements;
mod users;
mod vat;
mod visit_ledger;
