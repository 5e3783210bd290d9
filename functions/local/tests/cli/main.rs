//! The `vendfleet` command's test suite, one binary: `dex parse` on good and broken files, the
//! demo simulation, and a real server killed with SIGKILL during intake. Run one part with
//! `cargo test -p vendfleet-local --test cli <part>::`, e.g. `dex_parse::`.

mod dex_parse;
mod kill_recovery;
mod simulate;
