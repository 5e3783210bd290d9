//! `vendfleet`: the whole product on one machine — API, web app, embedded adapters.

mod backup;
mod bench;
mod demo;
mod dex;
mod error;
mod nayax_sim;
mod ops;
mod server;
mod simulate;

use clap::{Parser, Subcommand};

/// mimalloc: a request's many small allocations cost a third of a page with glibc's malloc.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "vendfleet",
    version,
    about = "Vendfleet: the back office for vending machine fleets"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the web app on 127.0.0.1 (migrations applied at start).
    Serve {
        /// Data directory (SQLite file, blobs, secrets).
        #[arg(long, env = "VENDFLEET_DATA", default_value = "data")]
        data: PathBuf,
        /// Port on 127.0.0.1 (0 picks a free one).
        #[arg(long, env = "VENDFLEET_PORT", default_value_t = 8080)]
        port: u16,
        /// Built web app to serve (index.html and assets); skipped when missing.
        #[arg(long, env = "VENDFLEET_WEB", default_value = "web/dist")]
        web: PathBuf,
        /// On first start, also seed a demo fleet (clients, locations, products, machines).
        #[arg(long, env = "VENDFLEET_DEMO")]
        demo: bool,
    },
    /// Seed a demo fleet with its history into an empty fleet (deterministic for a seed).
    SeedDemo {
        #[arg(long, env = "VENDFLEET_DATA", default_value = "data")]
        data: PathBuf,
        /// The administrator acting (default: the first administrator).
        #[arg(long)]
        email: Option<String>,
        /// Machines to make.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        machines: u32,
        /// Days of history, ending now.
        #[arg(long, default_value_t = 90, value_parser = clap::value_parser!(u32).range(1..=3660))]
        days: u32,
        /// Seed of the random choices: the same seed gives the same fleet and history.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Post signed live events of the data directory's machines to a running server.
    Simulate(simulate::Args),
    /// Create an administrator with every module and machine, or reset one (idempotent).
    CreateAdmin {
        #[arg(long, env = "VENDFLEET_DATA", default_value = "data")]
        data: PathBuf,
        #[arg(long)]
        email: String,
        #[arg(long)]
        password: String,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// Measure the embedded store and the API on a temporary data directory (medians).
    Bench {
        /// Only the reports benchmark (the seeded fleet in target/bench-fleet/).
        #[arg(long)]
        reports_only: bool,
        /// Only the report generator: a year of the bench fleet's transaction log as CSV and
        /// XLSX (time, rows, file size, peak memory).
        #[arg(long)]
        report_file: bool,
        /// Only random report queries on the seeded fleet, each timed and compared with
        /// DuckDB's answer (fails when one differs).
        #[arg(long)]
        random: bool,
        /// With --random: how many queries.
        #[arg(long, default_value_t = 200, requires = "random")]
        queries: usize,
        /// With --random: the seed of the draw.
        #[arg(long, default_value_t = 7, requires = "random")]
        seed: u64,
        /// Only the history import: a year of a 200-machine fleet's Nayax export uploaded,
        /// previewed and booked, then again (rows a second, peak memory).
        #[arg(long)]
        import: bool,
        /// With --import: how many rows.
        #[arg(long, default_value_t = 2_000_000, requires = "import")]
        rows: usize,
    },
    /// Back up a data directory into a new archive in DEST while the server runs (the database
    /// copied consistently, the blobs and secrets beside it, a manifest with checksums).
    Backup {
        #[arg(long, env = "VENDFLEET_DATA", default_value = "data")]
        data: PathBuf,
        /// Directory the archive is written to (created when missing).
        #[arg(long)]
        to: PathBuf,
    },
    /// Restore a backup archive into a data directory (stop the server on it first).
    Restore {
        /// The archive (`vendfleet-backup-….tar.gz`).
        #[arg(long)]
        from: PathBuf,
        #[arg(long, env = "VENDFLEET_DATA", default_value = "data")]
        data: PathBuf,
        /// Restore even though the directory holds something: its contents are moved aside
        /// to DATA.before-restore-<instant>, never deleted.
        #[arg(long)]
        force: bool,
    },
    /// EVA-DTS (DEX) audit files.
    Dex {
        #[command(subcommand)]
        command: dex::DexCommand,
    },
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    init_logs();
    let result = match Cli::parse().command {
        Command::Serve {
            data,
            port,
            web,
            demo,
        } => server::serve(&data, port, &web, demo).await,
        Command::SeedDemo {
            data,
            email,
            machines,
            days,
            seed,
        } => {
            let opts = demo::Options {
                machines: machines as usize,
                days,
                seed,
            };
            server::seed_demo(&data, email.as_deref(), opts).await
        }
        Command::Simulate(args) if args.nayax.is_some() => nayax_sim::run(args).await,
        Command::Simulate(args) => simulate::run(args).await,
        Command::CreateAdmin {
            data,
            email,
            password,
        } => server::create_admin(&data, &email, &password).await,
        Command::Bench {
            reports_only,
            report_file,
            random,
            queries,
            seed,
            import,
            rows,
        } => {
            let random = random.then_some((queries, seed));
            bench::run(reports_only, report_file, random, import.then_some(rows)).await
        }
        Command::Backup { data, to } => backup::run_backup(&data, &to).await,
        Command::Restore { from, data, force } => backup::run_restore(&from, &data, force).await,
        Command::Dex { command } => return dex::run(command),
        Command::Openapi => {
            println!(
                "{}",
                serde_json::to_string_pretty(&vendfleet_http::openapi()).unwrap_or_default()
            );
            Ok(())
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vendfleet: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Logs on standard error, filtered by `RUST_LOG` (a level per module, e.g.
/// `info,vendfleet_http=debug`): JSON lines (one object an event, with the request's span:
/// method, path, request id) when `VENDFLEET_LOG_FORMAT=json`, or by default when standard error
/// is not a terminal; text for a person at a terminal.
fn init_logs() {
    use std::io::IsTerminal;
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let json = match std::env::var("VENDFLEET_LOG_FORMAT").as_deref() {
        Ok("json") => true,
        Ok("text") => false,
        _ => !std::io::stderr().is_terminal(),
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json {
        logs.json()
            .with_current_span(true)
            .with_span_list(false)
            .init();
    } else {
        logs.init();
    }
}
