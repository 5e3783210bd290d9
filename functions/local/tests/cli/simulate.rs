//! `vendfleet simulate` against a real `vendfleet serve`: a tiny seeded fleet, a few seconds of
//! live signed events, the server's figures grow and every retry comes back as a duplicate.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::Duration;
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::ports::ManualClock;
use vendfleet_app::App;

fn vendfleet(args: &[&str], data: &Path) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_vendfleet"))
        .args(args)
        .arg("--data")
        .arg(data)
        .env("RUST_LOG", "warn")
        .output()
        .expect("runs vendfleet");
    assert!(
        out.status.success(),
        "vendfleet {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The server, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `vendfleet serve` on a free port; its base URL.
fn serve(data: &Path) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vendfleet"))
        .args(["serve", "--port", "0", "--web", "none", "--data"])
        .arg(data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts vendfleet serve");
    let stdout = child.stdout.take().expect("stdout");
    let server = Server(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("Vendfleet is serving ") {
                let url = rest.split('/').take(3).collect::<Vec<_>>().join("/");
                let _ = tx.send(url);
            }
        }
    });
    let url = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the server prints its address");
    (server, url)
}

/// Ledger rows and event receipts over every machine of the data directory.
fn figures(data: &Path) -> (usize, usize, usize) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let embedded = vendfleet_adapters_embedded::Embedded::open(data, b"test").unwrap();
        let app = App::new(
            embedded.adapters(),
            Arc::new(ManualClock::new("2026-01-01T00:00:00Z".parse().unwrap())),
            AuthSettings::with_secret(Secret::new("x".repeat(32))),
            Default::default(),
        );
        let from = chrono::NaiveDate::from_ymd_opt(2000, 1, 1).unwrap();
        let to = chrono::NaiveDate::from_ymd_opt(2100, 1, 1).unwrap();
        let machines = app.machines.machines().all().await.unwrap();
        let mut rows = 0;
        let mut statuses = 0;
        for m in &machines {
            rows += app
                .sales
                .store()
                .ledger(&m.id, from, to)
                .await
                .unwrap()
                .len();
            statuses += usize::from(app.events.status(&m.id).await.unwrap().is_some());
        }
        (machines.len(), rows, statuses)
    })
}

/// `accepted A, duplicates D, rejected R (… T retries re-sending N events, F failed requests)`.
fn counts(line: &str) -> [usize; 5] {
    let number_before = |word: &str| -> usize {
        let i = line
            .find(word)
            .unwrap_or_else(|| panic!("{word} in {line}"));
        line[..i]
            .split_whitespace()
            .last()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a number before {word} in {line}"))
    };
    let number_after = |word: &str| -> usize {
        let i = line
            .find(word)
            .unwrap_or_else(|| panic!("{word} in {line}"))
            + word.len();
        line[i..]
            .split(|c: char| !c.is_ascii_digit())
            .find(|s| !s.is_empty())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a number after {word} in {line}"))
    };
    [
        number_after("accepted "),
        number_after("duplicates "),
        number_after("rejected "),
        number_after("re-sending "),
        number_before("failed requests"),
    ]
}

#[test]
fn simulate_posts_signed_events_that_the_server_counts_and_retries_are_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    vendfleet(
        &[
            "create-admin",
            "--email",
            "admin@sim.test",
            "--password",
            "sim-password-1",
        ],
        data,
    );
    let seeded = vendfleet(
        &["seed-demo", "--machines", "3", "--days", "2", "--seed", "5"],
        data,
    );
    let text = String::from_utf8_lossy(&seeded.stdout);
    assert!(text.contains("3 machines"), "{text}");
    let (machines, rows_before, _) = figures(data);
    assert_eq!(machines, 3);
    assert!(rows_before > 0, "the seeded history has sales");

    let (_server, url) = serve(data);
    let out = vendfleet(
        &[
            "simulate",
            "--url",
            &url,
            "--rate",
            "60",
            "--duration",
            "3",
            "--seed",
            "11",
        ],
        data,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("simulate: "))
        .unwrap_or_else(|| panic!("a closing line in {stdout}"));
    let [accepted, duplicates, rejected, retried, failed] = counts(last);
    assert_eq!(failed, 0, "{stdout}");
    assert_eq!(
        rejected,
        0,
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(accepted >= 60, "{stdout}");
    assert!(retried > 0, "{stdout}");
    assert_eq!(
        duplicates, retried,
        "every re-sent event is a duplicate: {stdout}"
    );

    let (_, rows_after, statuses) = figures(data);
    assert!(rows_after > rows_before, "{rows_before} → {rows_after}");
    assert!(rows_after - rows_before <= accepted);
    assert_eq!(statuses, 3);
    let lines: BTreeSet<&str> = stdout.lines().filter(|l| l.starts_with('[')).collect();
    assert!(!lines.is_empty(), "progress lines: {stdout}");
}
