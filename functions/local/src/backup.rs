//! Backups of the embedded deployment (issue 32): one compressed archive (`.tar.gz`) per backup
//! holding a consistent copy of the database (`VACUUM INTO` while the server serves), every
//! other file of the data directory (blobs, secrets, the mail outbox) and a manifest (format,
//! schema version, rows per table, size and SHA-256 of every file). A restore checks all of it
//! before anything is put in place, then migrates the copy forward.

use crate::error::BoxError;
use chrono::{DateTime, NaiveDateTime, Utc};
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};
use vendfleet_adapters_embedded::{inspect_copy, live_database_files, Database, DATABASE_FILE};

mod schedule;
pub use schedule::{last_backup, Schedule};

/// The manifest's name inside an archive (its last entry).
pub const MANIFEST: &str = "manifest.json";
/// The archive format this build writes and reads.
pub const FORMAT: u32 = 1;
const PREFIX: &str = "vendfleet-backup-";
const SUFFIX: &str = ".tar.gz";
const STAMP: &str = "%Y%m%dT%H%M%SZ";

/// What an archive holds, written beside the files it lists.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    pub format: u32,
    pub created_at: DateTime<Utc>,
    pub vendfleet_version: String,
    /// Migrations applied to the database copy.
    pub schema_version: i64,
    /// Rows of every table of the database copy.
    pub rows: BTreeMap<String, u64>,
    pub files: Vec<FileEntry>,
}

/// One file of an archive: its path inside the data directory, size and SHA-256 (hex).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct FileEntry {
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

/// A backup made.
#[derive(Debug)]
pub struct Made {
    pub path: PathBuf,
    pub bytes: u64,
    pub manifest: Manifest,
    pub took: Duration,
}

impl std::fmt::Display for Made {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let data: u64 = self.manifest.files.iter().map(|e| e.bytes).sum();
        write!(
            f,
            "Backup {}: {} files, {} of data in {} compressed, schema {}, {:.1} s",
            self.path.display(),
            self.manifest.files.len(),
            size(data),
            size(self.bytes),
            self.manifest.schema_version,
            self.took.as_secs_f64()
        )
    }
}

/// Bytes in a unit a person reads.
pub fn size(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        0..1_000_000 => format!("{:.1} kB", b / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", b / 1e6),
        _ => format!("{:.2} GB", b / 1e9),
    }
}

/// The file name of a backup made at `at`.
pub fn file_name(at: DateTime<Utc>) -> String {
    format!("{PREFIX}{}{SUFFIX}", at.format(STAMP))
}

/// When the backup named `name` was made, when it is a backup's name.
pub fn made_at(name: &str) -> Option<DateTime<Utc>> {
    let stamp = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    NaiveDateTime::parse_from_str(stamp, STAMP)
        .ok()
        .map(|t| t.and_utc())
}

/// Backs up the data directory `data` (whose database `db` is) into a new archive in `dest`,
/// while the server goes on: the database through `VACUUM INTO`, then the other files.
pub async fn create(
    data: &Path,
    db: &Database,
    dest: &Path,
    now: DateTime<Utc>,
) -> Result<Made, BoxError> {
    let started = Instant::now();
    std::fs::create_dir_all(dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    let path = dest.join(file_name(now));
    if path.exists() {
        return Err(format!("{} exists already", path.display()).into());
    }
    let staging = tempfile::Builder::new()
        .prefix(".vendfleet-backup-")
        .tempdir_in(dest)?;
    let copy = staging.path().join(DATABASE_FILE);
    db.snapshot_into(&copy).await?;
    let (data, dest) = (data.to_path_buf(), dest.to_path_buf());
    let made = tokio::task::spawn_blocking(move || archive(&copy, &data, &dest, now)).await??;
    drop(staging);
    Ok(Made {
        took: started.elapsed(),
        ..made
    })
}

/// Writes the archive of the database copy `copy` (a file no server has open) and the other
/// files of `data` into `dest`, named for `now`. Blocking.
pub fn archive(
    copy: &Path,
    data: &Path,
    dest: &Path,
    now: DateTime<Utc>,
) -> Result<Made, BoxError> {
    std::fs::create_dir_all(dest)?;
    let contents = inspect_copy(copy)?;
    if contents.integrity != "ok" {
        return Err(format!("the database copy is damaged: {}", contents.integrity).into());
    }
    let mut files = vec![(DATABASE_FILE.to_string(), copy.to_path_buf())];
    files.extend(other_files(data, dest)?);
    let partial = dest.join(format!(".{}.partial", file_name(now)));
    let out = std::fs::File::create(&partial)?;
    let gz = GzEncoder::new(std::io::BufWriter::new(out), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    let mut entries = Vec::with_capacity(files.len());
    for (name, path) in &files {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            // Deleted since the directory was listed (a finished job's input): not kept.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("{}: {e}", path.display()).into()),
        };
        let bytes = file.metadata()?.len();
        let mut hashing = Hashing::new(file);
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes);
        header.set_mode(0o600);
        header.set_mtime(now.timestamp().max(0) as u64);
        tar.append_data(&mut header, name, &mut hashing)?;
        entries.push(FileEntry {
            path: name.clone(),
            bytes,
            sha256: hashing.hex(),
        });
    }
    let manifest = Manifest {
        format: FORMAT,
        created_at: now,
        vendfleet_version: env!("CARGO_PKG_VERSION").to_string(),
        schema_version: contents.schema_version,
        rows: contents.rows,
        files: entries,
    };
    let json = serde_json::to_vec_pretty(&manifest)?;
    let mut header = tar::Header::new_gnu();
    header.set_size(json.len() as u64);
    header.set_mode(0o600);
    header.set_mtime(now.timestamp().max(0) as u64);
    tar.append_data(&mut header, MANIFEST, json.as_slice())?;
    let out = tar
        .into_inner()?
        .finish()?
        .into_inner()
        .map_err(|e| e.into_error())?;
    out.sync_all()?;
    set_private(&partial)?;
    let path = dest.join(file_name(now));
    std::fs::rename(&partial, &path)?;
    if let Ok(dir) = std::fs::File::open(dest) {
        let _ = dir.sync_all();
    }
    Ok(Made {
        bytes: std::fs::metadata(&path)?.len(),
        path,
        manifest,
        took: Duration::ZERO,
    })
}

#[cfg(unix)]
fn set_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}

#[cfg(not(unix))]
fn set_private(_: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Every regular file under `data` but the live database's and what lies in `dest` (backups
/// kept inside the data directory) or is being written (`@tmp-` blobs, dot files), by path.
fn other_files(data: &Path, dest: &Path) -> Result<Vec<(String, PathBuf)>, BoxError> {
    let live = live_database_files();
    let dest = dest.canonicalize().unwrap_or_else(|_| dest.to_path_buf());
    let mut out = Vec::new();
    let mut todo = vec![data.to_path_buf()];
    while let Some(dir) = todo.pop() {
        if dir.canonicalize().is_ok_and(|d| d == dest) {
            continue;
        }
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().to_string();
            let path = entry.path();
            let kind = entry.file_type()?;
            if name.starts_with('.') || name.contains("@tmp-") {
                continue;
            }
            if kind.is_dir() {
                todo.push(path);
            } else if kind.is_file() {
                let relative = path.strip_prefix(data)?;
                let relative = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                if !live.contains(&relative) {
                    out.push((relative, path));
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// A reader that hashes and counts what passes through it.
struct Hashing<R> {
    inner: R,
    hash: Sha256,
}

impl<R> Hashing<R> {
    fn new(inner: R) -> Self {
        Hashing {
            inner,
            hash: Sha256::new(),
        }
    }

    fn hex(self) -> String {
        format!("{:x}", self.hash.finalize())
    }
}

impl<R: Read> Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

/// A restore done.
#[derive(Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// The schema after migrating the copy forward.
    pub schema_version: i64,
    /// Where the directory's former contents went (with `--force`).
    pub moved_aside: Option<PathBuf>,
    pub took: Duration,
}

/// Why a restore was refused.
fn damaged(why: impl std::fmt::Display) -> BoxError {
    format!("the backup is damaged or is not a Vendfleet backup: {why}").into()
}

/// Restores the archive `from` into the data directory `data`: refused when `data` holds
/// anything unless `force` (its contents are then moved aside, never deleted); every file is
/// checked against the manifest, and the database's integrity and rows, before anything is put
/// in place; then the database is migrated forward. Blocking.
pub fn restore(
    from: &Path,
    data: &Path,
    force: bool,
    now: DateTime<Utc>,
) -> Result<Restored, BoxError> {
    let started = Instant::now();
    let occupied = match std::fs::read_dir(data) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(e) => return Err(format!("{}: {e}", data.display()).into()),
    };
    if occupied && !force {
        return Err(format!(
            "{} is not empty: restore into an empty or new directory, or pass --force to move \
             what it holds aside (to {}.before-restore-…) and restore in its place",
            data.display(),
            data.display()
        )
        .into());
    }
    let parent = match data.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)?;
    let staging = tempfile::Builder::new()
        .prefix(".vendfleet-restoring-")
        .tempdir_in(&parent)?;
    let manifest = unpack(from, staging.path())?;
    let known = vendfleet_adapters_embedded::MIGRATIONS.len() as i64;
    if manifest.schema_version > known {
        return Err(format!(
            "the backup's schema version {} is newer than this build's ({known}): restore it \
             with the Vendfleet that made it ({})",
            manifest.schema_version, manifest.vendfleet_version
        )
        .into());
    }
    let contents = inspect_copy(&staging.path().join(DATABASE_FILE)).map_err(damaged)?;
    if contents.integrity != "ok" {
        return Err(damaged(format!("the database: {}", contents.integrity)));
    }
    if contents.rows != manifest.rows || contents.schema_version != manifest.schema_version {
        return Err(damaged("the database's rows differ from the manifest's"));
    }
    // Migrates the copy forward (an older schema), as the server would at start.
    let schema_version = {
        let db = Database::open(staging.path())?;
        let path = db.path().to_path_buf();
        drop(db);
        inspect_copy(&path)?.schema_version
    };
    let moved_aside = if data.exists() {
        if occupied {
            let aside = PathBuf::from(format!(
                "{}.before-restore-{}",
                data.display(),
                now.format(STAMP)
            ));
            std::fs::rename(data, &aside)?;
            Some(aside)
        } else {
            std::fs::remove_dir(data)?;
            None
        }
    } else {
        None
    };
    let staged = staging.keep();
    std::fs::rename(&staged, data)?;
    Ok(Restored {
        manifest,
        schema_version,
        moved_aside,
        took: started.elapsed(),
    })
}

/// Unpacks the archive `from` into `into` and checks every file against its manifest.
fn unpack(from: &Path, into: &Path) -> Result<Manifest, BoxError> {
    let file = std::fs::File::open(from).map_err(|e| format!("{}: {e}", from.display()))?;
    let mut archive = tar::Archive::new(GzDecoder::new(std::io::BufReader::new(file)));
    let mut found: BTreeMap<String, (u64, String)> = BTreeMap::new();
    let mut manifest: Option<Manifest> = None;
    for entry in archive.entries().map_err(damaged)? {
        let mut entry = entry.map_err(damaged)?;
        if !entry.header().entry_type().is_file() {
            return Err(damaged("an entry is not a plain file"));
        }
        let name = entry.path().map_err(damaged)?.to_path_buf();
        if !name.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(damaged(format!(
                "an entry's path leaves the directory: {}",
                name.display()
            )));
        }
        let key = name.to_string_lossy().replace('\\', "/");
        if key == MANIFEST {
            let mut json = Vec::new();
            entry.read_to_end(&mut json).map_err(damaged)?;
            manifest = Some(serde_json::from_slice(&json).map_err(damaged)?);
            continue;
        }
        let target = into.join(&name);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut out = std::fs::File::create(&target)?;
        let mut hashing = Hashing::new(&mut entry);
        let bytes = std::io::copy(&mut hashing, &mut out).map_err(damaged)?;
        out.flush()?;
        out.sync_all()?;
        found.insert(key, (bytes, hashing.hex()));
    }
    let manifest = manifest.ok_or_else(|| damaged("it has no manifest"))?;
    if manifest.format != FORMAT {
        return Err(format!(
            "the backup's format {} is not one this build reads ({FORMAT})",
            manifest.format
        )
        .into());
    }
    for listed in &manifest.files {
        match found.remove(&listed.path) {
            None => return Err(damaged(format!("{} is missing", listed.path))),
            Some((bytes, sha)) if bytes != listed.bytes || sha != listed.sha256 => {
                return Err(damaged(format!(
                    "{}: its checksum differs from the manifest's",
                    listed.path
                )))
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = found.keys().next() {
        return Err(damaged(format!("{extra} is not in the manifest")));
    }
    if !manifest.files.iter().any(|f| f.path == DATABASE_FILE) {
        return Err(damaged("it holds no database"));
    }
    Ok(manifest)
}

/// `vendfleet backup`.
pub async fn run_backup(data: &Path, to: &Path) -> Result<(), BoxError> {
    if !data.join(DATABASE_FILE).is_file() {
        return Err(format!(
            "no database in {}: give the server's --data",
            data.display()
        )
        .into());
    }
    let db = Database::open(data)?;
    let made = create(data, &db, to, Utc::now()).await?;
    println!("{made}");
    Ok(())
}

/// `vendfleet restore`.
pub async fn run_restore(from: &Path, data: &Path, force: bool) -> Result<(), BoxError> {
    let (from, data) = (from.to_path_buf(), data.to_path_buf());
    let done = tokio::task::spawn_blocking(move || {
        restore(&from, &data, force, Utc::now()).map(|r| (r, data))
    })
    .await??;
    let (r, data) = done;
    let bytes: u64 = r.manifest.files.iter().map(|f| f.bytes).sum();
    println!(
        "Restored the backup of {} into {}: {} files, {}, schema {}{}, {:.1} s",
        r.manifest.created_at.to_rfc3339(),
        data.display(),
        r.manifest.files.len(),
        size(bytes),
        r.manifest.schema_version,
        if r.schema_version == r.manifest.schema_version {
            String::new()
        } else {
            format!(" migrated to {}", r.schema_version)
        },
        r.took.as_secs_f64()
    );
    if let Some(aside) = r.moved_aside {
        println!("What {} held is now in {}", data.display(), aside.display());
    }
    Ok(())
}
