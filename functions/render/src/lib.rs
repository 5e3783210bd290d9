//! Vendfleet's rendering: what turns the application's results into files and pictures, with no
//! HTTP in it. The table every export is made of (`table`, `cell`) and its CSV and XLSX files
//! (`xlsx`); the report tables of the report screens (`tables`), run with the parameters a report
//! runs with (`params`); the report generator's file writer and worker (`generator`); the mail of
//! a scheduled report (`mail`) and its chart (`chart`). Errors are the application's
//! (`AppError`), which the HTTP layer maps to its answers.

pub mod cell;
pub mod generator;
pub mod mail;
pub mod params;
pub mod table;
pub mod tables;
pub mod xlsx;

pub use cell::{Cell, CsvDialect};
pub use params::ReportParams;
pub use table::{col, titles, Column, ExportJob, Format, Table};

use vendfleet_domain::Language;

/// The text of `lang` among the three.
pub fn tr(lang: Language, en: &str, fr: &str, it: &str) -> String {
    match lang {
        Language::En => en,
        Language::Fr => fr,
        Language::It => it,
    }
    .to_string()
}
