//! `vendfleet dex parse FILE`: an EVA-DTS audit file as JSON (docs/dex.md).

use clap::Subcommand;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status of a file that is not a readable audit (an unreadable file exits 1).
const NOT_AN_AUDIT: u8 = 2;

#[derive(Subcommand)]
pub enum DexCommand {
    /// Print `{"audits": [...]}` for an EVA-DTS (DEX) audit file; exits 2 when it cannot be read.
    Parse {
        /// The audit file.
        file: PathBuf,
    },
}

pub fn run(command: DexCommand) -> ExitCode {
    match command {
        DexCommand::Parse { file } => parse(&file),
    }
}

fn parse(path: &Path) -> ExitCode {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("vendfleet: cannot read {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let file = match vendfleet_domain::dex::parse_bytes(&bytes) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(NOT_AN_AUDIT);
        }
    };
    let json = match serde_json::to_string_pretty(&file) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("vendfleet: {e}");
            return ExitCode::FAILURE;
        }
    };
    match writeln!(std::io::stdout().lock(), "{json}") {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vendfleet: {e}");
            ExitCode::FAILURE
        }
    }
}
