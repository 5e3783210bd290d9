//! `vendfleet dex parse FILE`, run as the built binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../domain/tests/dex")
        .join(name)
}

fn dex_parse(file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vendfleet"))
        .args(["dex", "parse"])
        .arg(file)
        .output()
        .expect("runs vendfleet")
}

#[test]
fn dex_parse_prints_the_audits_as_json() {
    let out = dex_parse(&sample("full_crlf.dex"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let audits = json["audits"].as_array().expect("audits");
    assert_eq!(audits.len(), 1);
    let audit = &audits[0];
    assert_eq!(audit["machine"]["serial"], "123456789012");
    assert_eq!(audit["decimal_places"], 2);
    assert_eq!(audit["currency_code"], "1978");
    assert_eq!(audit["checksum"], "ok");
    assert_eq!(audit["selections"].as_array().unwrap().len(), 4);
    assert_eq!(audit["selections"][0]["sales"]["vends_since_init"], 412);
    assert_eq!(audit["paid_vends"]["value_since_init_minor"], 154490);
    assert_eq!(audit["warnings"], serde_json::json!([]));
}

#[test]
fn dex_parse_of_a_file_whose_line_ends_were_changed_checks_its_crlf_form() {
    // full_crlf.dex with its CR LF turned into LF, as editors, git and mail do: G85 still
    // matches the file as the machine transmitted it.
    let out = dex_parse(&sample("full_lf.dex"));
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let audit = &json["audits"][0];
    assert_eq!(audit["checksum"], "ok");
    assert_eq!(audit["checksum_line_ends"], "crlf");
    assert_eq!(audit["truncated"], false);
    let warnings = audit["warnings"].to_string();
    assert!(
        warnings.contains("matches the audit with CR LF line ends"),
        "{warnings}"
    );

    let out = dex_parse(&sample("full_crlf.dex"));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["audits"][0]["checksum_line_ends"], "crlf");
}

#[test]
fn dex_parse_reads_every_audit_and_reports_warnings() {
    let out = dex_parse(&sample("two_audits.dex"));
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["audits"].as_array().unwrap().len(), 2);

    let out = dex_parse(&sample("truncated.dex"));
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["audits"][0]["checksum"], "absent");
    assert_eq!(json["audits"][0]["truncated"], true);
    assert_eq!(
        json["audits"][0]["checksum_line_ends"],
        serde_json::Value::Null
    );
    let warnings = json["audits"][0]["warnings"].to_string();
    assert!(warnings.contains("truncated after line 25"), "{warnings}");
}

#[test]
fn dex_parse_of_a_broken_file_exits_2_with_line_and_segment() {
    let dir = tempfile::tempdir().unwrap();
    let not_dex = dir.path().join("notes.txt");
    std::fs::write(&not_dex, "Machine 12 read at 09:14\r\nall fine\r\n").unwrap();
    let out = dex_parse(&not_dex);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("line 1, segment "), "{stderr}");
    assert!(stderr.contains("no EVA-DTS audit here"), "{stderr}");

    let broken = dir.path().join("broken.dex");
    let good = std::fs::read_to_string(sample("full_crlf.dex")).unwrap();
    std::fs::write(&broken, good.replace("CA15*4110", "\u{0}\u{0}garbage")).unwrap();
    let out = dex_parse(&broken);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("line 14, segment "), "{stderr}");
    assert!(stderr.contains("not an EVA-DTS segment"), "{stderr}");
}

#[test]
fn dex_parse_of_a_missing_file_names_the_os_error() {
    let out = dex_parse(Path::new("/nonexistent/audit.dex"));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read /nonexistent/audit.dex"),
        "{stderr}"
    );
}
