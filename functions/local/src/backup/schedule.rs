//! Backups on a schedule inside the server (`VENDFLEET_BACKUP_DIR`), and which to keep: the
//! newest of each of the last N days and of each of the last M months.

use super::{create, made_at};
use crate::error::BoxError;
use chrono::{DateTime, Datelike, Utc};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;
use vendfleet_adapters_embedded::Database;

/// The server's backup schedule, from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub dir: PathBuf,
    pub every: Duration,
    pub keep_daily: usize,
    pub keep_monthly: usize,
}

impl Schedule {
    /// `VENDFLEET_BACKUP_DIR` (none: no scheduled backups), `VENDFLEET_BACKUP_EVERY` (a
    /// duration such as `6h` or `1day`, at least a minute; 24 h), `VENDFLEET_BACKUP_KEEP_DAILY`
    /// (7) and `VENDFLEET_BACKUP_KEEP_MONTHLY` (12).
    pub fn from_env() -> Result<Option<Schedule>, BoxError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let Some(dir) = var("VENDFLEET_BACKUP_DIR") else {
            return Ok(None);
        };
        let every = match var("VENDFLEET_BACKUP_EVERY") {
            Some(v) => humantime::parse_duration(v.trim())
                .map_err(|e| format!("VENDFLEET_BACKUP_EVERY={v}: {e}"))?,
            None => Duration::from_secs(24 * 3600),
        };
        if every < Duration::from_secs(60) {
            return Err("VENDFLEET_BACKUP_EVERY must be at least a minute".into());
        }
        let count = |name: &str, default: usize| -> Result<usize, BoxError> {
            match var(name) {
                Some(v) => v
                    .trim()
                    .parse()
                    .map_err(|_| format!("{name}={v}: not a whole number").into()),
                None => Ok(default),
            }
        };
        Ok(Some(Schedule {
            dir: PathBuf::from(dir),
            every,
            keep_daily: count("VENDFLEET_BACKUP_KEEP_DAILY", 7)?,
            keep_monthly: count("VENDFLEET_BACKUP_KEEP_MONTHLY", 12)?,
        }))
    }

    /// Whether a backup is due at `now`: none yet, or the last one `every` old.
    pub fn due(&self, now: DateTime<Utc>) -> bool {
        last_backup(&self.dir)
            .is_none_or(|last| (now - last).to_std().unwrap_or_default() >= self.every)
    }

    /// Makes a backup when one is due, then removes those not kept.
    pub async fn run_once(
        &self,
        data: &Path,
        db: &Database,
        now: DateTime<Utc>,
    ) -> Result<(), BoxError> {
        if !self.due(now) {
            return Ok(());
        }
        let made = create(data, db, &self.dir, now).await?;
        tracing::info!(
            path = %made.path.display(),
            bytes = made.bytes,
            files = made.manifest.files.len(),
            schema = made.manifest.schema_version,
            took_ms = made.took.as_millis() as u64,
            "backup made"
        );
        for old in to_prune(&backups(&self.dir), self.keep_daily, self.keep_monthly) {
            match std::fs::remove_file(&old) {
                Ok(()) => tracing::info!(path = %old.display(), "old backup removed"),
                Err(e) => {
                    tracing::warn!(path = %old.display(), error = %e, "removing an old backup")
                }
            }
        }
        Ok(())
    }
}

/// The backups in `dir` with the instants they were made.
pub fn backups(dir: &Path) -> Vec<(PathBuf, DateTime<Utc>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let at = made_at(&e.file_name().to_string_lossy())?;
            Some((e.path(), at))
        })
        .collect()
}

/// When the newest backup in `dir` was made.
pub fn last_backup(dir: &Path) -> Option<DateTime<Utc>> {
    backups(dir).into_iter().map(|(_, at)| at).max()
}

/// The backups not kept: kept are the newest, the newest of each of the `daily` most recent
/// days that have one, and the newest of each of the `monthly` most recent months (UTC).
pub fn to_prune(
    backups: &[(PathBuf, DateTime<Utc>)],
    daily: usize,
    monthly: usize,
) -> Vec<PathBuf> {
    let mut by_age: Vec<&(PathBuf, DateTime<Utc>)> = backups.iter().collect();
    by_age.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| b.0.cmp(&a.0)));
    let (mut days, mut months) = (HashSet::new(), HashSet::new());
    let mut out = Vec::new();
    for (i, (path, at)) in by_age.into_iter().enumerate() {
        let day = at.date_naive();
        let month = (at.year(), at.month());
        let mut keep = i == 0;
        if !days.contains(&day) && days.len() < daily {
            days.insert(day);
            keep = true;
        }
        if !months.contains(&month) && months.len() < monthly {
            months.insert(month);
            keep = true;
        }
        if !keep {
            out.push(path.clone());
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, 0, 0).unwrap()
    }

    fn named(t: DateTime<Utc>) -> (PathBuf, DateTime<Utc>) {
        (PathBuf::from(super::super::file_name(t)), t)
    }

    #[test]
    fn keeps_the_newest_of_each_recent_day_and_month() {
        // Every six hours from 2026-10-20 to 2026-12-02, across a month's end and a year's.
        let mut all = Vec::new();
        let mut t = at(2026, 10, 20, 0);
        while t <= at(2026, 12, 2, 18) {
            all.push(named(t));
            t += chrono::Duration::hours(6);
        }
        let pruned: HashSet<PathBuf> = to_prune(&all, 3, 2).into_iter().collect();
        let kept: Vec<DateTime<Utc>> = all
            .iter()
            .filter(|(p, _)| !pruned.contains(p))
            .map(|(_, t)| *t)
            .collect();
        // The last of Dec 2, Dec 1 and Nov 30 (the daily three); the last of November is Nov
        // 30's, already kept; the newest of December is the newest overall.
        let mut expected = vec![
            at(2026, 11, 30, 18),
            at(2026, 12, 1, 18),
            at(2026, 12, 2, 18),
        ];
        expected.sort();
        let mut kept_sorted = kept.clone();
        kept_sorted.sort();
        assert_eq!(kept_sorted, expected);
        // Four monthly keep October's last as well.
        let pruned: HashSet<PathBuf> = to_prune(&all, 3, 4).into_iter().collect();
        assert!(!pruned.contains(&named(at(2026, 10, 31, 18)).0));
        assert!(pruned.contains(&named(at(2026, 10, 31, 12)).0));
        // Nothing kept by count still keeps the newest.
        assert_eq!(to_prune(&all, 0, 0).len(), all.len() - 1);
    }

    #[test]
    fn names_carry_their_instant() {
        let t = at(2026, 1, 2, 23);
        assert_eq!(made_at(&super::super::file_name(t)), Some(t));
        assert_eq!(made_at("vendfleet-backup-garbage.tar.gz"), None);
        assert_eq!(made_at("notes.txt"), None);
    }
}
