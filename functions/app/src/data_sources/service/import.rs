//! History imports (docs/history-import.md): the saved mappings, and an import's life as the API
//! drives it — its file uploaded in parts, its preview and booking queued (the jobs that run
//! them: `import_job.rs`), deleted.

use super::import_job::ImportJob;
use super::DataSourcesService;
use crate::auth::Principal;
use crate::data_sources::history::{
    HistoryColumns, HistoryImport, HistoryMapping, ImportStatus, Preview, MAX_PARTS,
    MAX_PART_BYTES, NAYAX,
};
use crate::error::{AppError, AppResult};
use crate::records::{check_version, Records};
use vendfleet_domain::{validation, FieldErrors, Permission};

/// A mapping to save.
#[derive(Debug, Clone, Default)]
pub struct HistoryMappingInput {
    pub name: String,
    pub columns: HistoryColumns,
    pub date_format: Option<String>,
    pub time_format: Option<String>,
    pub zone: Option<String>,
    pub decimal_separator: Option<String>,
    pub cash_values: Option<Vec<String>>,
    pub skip_values: Option<Vec<String>>,
    pub version: Option<u64>,
}

impl DataSourcesService {
    fn admit_import(p: &Principal) -> AppResult<()> {
        p.require(Permission::DataSourcesImport)?;
        Self::admit(p)
    }

    fn mappings(&self) -> Records<HistoryMapping> {
        Records::new(self.store.clone())
    }

    pub(super) fn imports(&self) -> Records<HistoryImport> {
        Records::new(self.store.clone())
    }

    /// The saved mappings, by name.
    pub async fn history_mappings(&self, p: &Principal) -> AppResult<Vec<HistoryMapping>> {
        Self::admit_import(p)?;
        let mut all = self.mappings().all().await?;
        all.sort_by_key(|m| m.name.to_lowercase());
        Ok(all)
    }

    /// Creates (`id` none) or replaces a mapping.
    pub async fn save_history_mapping(
        &self,
        p: &Principal,
        id: Option<&str>,
        input: HistoryMappingInput,
    ) -> AppResult<HistoryMapping> {
        Self::admit_import(p)?;
        let mut errors = FieldErrors::new();
        let name = validation::required_text(&mut errors, "name", &input.name, 80);
        let mut columns = input.columns;
        for (field, v) in [
            ("columns.date", &mut columns.date),
            ("columns.machine", &mut columns.machine),
        ] {
            *v = validation::required_text(&mut errors, field, v, 200);
        }
        for v in [
            &mut columns.time,
            &mut columns.product,
            &mut columns.selection,
            &mut columns.quantity,
            &mut columns.unit_price,
            &mut columns.amount,
            &mut columns.payment,
            &mut columns.transaction_id,
            &mut columns.status,
            &mut columns.currency,
        ] {
            *v = v
                .take()
                .map(|s| s.trim().chars().take(200).collect::<String>())
                .filter(|s| !s.is_empty());
        }
        if columns.product.is_none() && columns.selection.is_none() {
            errors.add(
                "columns.product",
                "Name the product or the selection column.",
            );
        }
        if columns.unit_price.is_none() && columns.amount.is_none() {
            errors.add("columns.unit_price", "Name the price or the amount column.");
        }
        let format = |v: Option<String>, default: &str| {
            v.map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty())
                .unwrap_or_else(|| default.to_string())
        };
        let date_format = format(input.date_format, "%Y-%m-%d %H:%M:%S");
        let time_format = format(input.time_format, "%H:%M:%S");
        let probe = chrono::NaiveDate::from_ymd_opt(2026, 1, 31)
            .and_then(|d| d.and_hms_opt(13, 45, 30))
            .expect("a time");
        let reads_back = |f: &str| {
            let Some(shown) = crate::tabular::formatted(&probe, f) else {
                return false;
            };
            chrono::NaiveDateTime::parse_from_str(&shown, f)
                .map(|t| t.date() == probe.date())
                .or_else(|_| {
                    chrono::NaiveDate::parse_from_str(&shown, f).map(|d| d == probe.date())
                })
                .unwrap_or(false)
        };
        if date_format.len() > 100 || !date_format.split('|').all(reads_back) {
            errors.add(
                "date_format",
                "Give a date format such as %Y-%m-%d %H:%M:%S or %d/%m/%Y.",
            );
        }
        let time_read = crate::tabular::formatted(&probe, &time_format)
            .is_some_and(|shown| chrono::NaiveTime::parse_from_str(&shown, &time_format).is_ok());
        if time_format.len() > 50 || !time_read {
            errors.add("time_format", "Give a time format such as %H:%M:%S.");
        }
        let zone = format(input.zone, "machine");
        if zone != "machine" && zone.parse::<chrono_tz::Tz>().is_err() {
            errors.add(
                "zone",
                "Give \"machine\" or a time zone such as Europe/Paris.",
            );
        }
        let decimal_separator =
            crate::tabular::decimal_separator(&mut errors, input.decimal_separator.as_deref());
        let values = |v: Option<Vec<String>>, default: &[&str]| -> Vec<String> {
            v.map(|v| {
                v.iter()
                    .map(|s| s.trim().to_lowercase())
                    .filter(|s| !s.is_empty())
                    .take(50)
                    .collect()
            })
            .unwrap_or_else(|| default.iter().map(|s| s.to_string()).collect())
        };
        let cash_values = values(input.cash_values, &["cash", "3"]);
        let skip_values = values(
            input.skip_values,
            &["cancelled", "declined", "void", "refund"],
        );
        errors.into_result()?;
        let now = self.calendar.now();
        let draft = HistoryMapping {
            id: ulid::Ulid::new().to_string(),
            name,
            columns,
            date_format,
            time_format,
            zone,
            decimal_separator,
            cash_values,
            skip_values,
            created_at: now,
            updated_at: now,
            version: 1,
            schema: super::super::model::SCHEMA,
        };
        match id {
            None => {
                self.mappings().insert(&draft).await?;
                Ok(draft)
            }
            Some(id) => {
                let current = self.mappings().get_or_404(id).await?;
                check_version(input.version, &current)?;
                let next = HistoryMapping {
                    id: current.id.clone(),
                    created_at: current.created_at,
                    version: current.version + 1,
                    ..draft
                };
                self.mappings().replace(&current, &next).await?;
                Ok(next)
            }
        }
    }

    /// Deletes a mapping (what its imports booked stays booked).
    pub async fn delete_history_mapping(&self, p: &Principal, id: &str) -> AppResult<()> {
        Self::admit_import(p)?;
        let current = self.mappings().get_or_404(id).await?;
        self.mappings()
            .apply(Records::<HistoryMapping>::delete_writes(&current), &current)
            .await
    }

    /// The mapping an import reads through: a saved one, or Nayax Core's export.
    pub(super) async fn mapping(&self, id: &str) -> AppResult<Option<HistoryMapping>> {
        if id == NAYAX {
            return Ok(Some(HistoryMapping::nayax(self.calendar.now())));
        }
        self.mappings().get(id).await
    }

    /// The imports, newest first.
    pub async fn history_imports(&self, p: &Principal) -> AppResult<Vec<HistoryImport>> {
        Self::admit_import(p)?;
        let mut all = self.imports().all().await?;
        all.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
        Ok(all)
    }

    /// One import, with its preview once previewed.
    pub async fn history_import(
        &self,
        p: &Principal,
        id: &str,
    ) -> AppResult<(HistoryImport, Option<Preview>)> {
        Self::admit_import(p)?;
        let import = self.imports().get_or_404(id).await?;
        let preview = match self.blobs.get(&import.preview_key()).await? {
            Some(blob) => serde_json::from_slice(&blob.bytes).ok(),
            None => None,
        };
        Ok((import, preview))
    }

    /// Starts an import of a file read through `mapping_id` (a saved mapping or `nayax`).
    pub async fn create_history_import(
        &self,
        p: &Principal,
        file_name: &str,
        mapping_id: &str,
    ) -> AppResult<HistoryImport> {
        Self::admit_import(p)?;
        let mut errors = FieldErrors::new();
        let file_name = validation::required_text(&mut errors, "file_name", file_name, 200);
        let mapping = self.mapping(mapping_id.trim()).await?;
        if mapping.is_none() {
            errors.add("mapping_id", "No such mapping.");
        }
        errors.into_result()?;
        let mapping = mapping.expect("checked");
        let now = self.calendar.now();
        let import = HistoryImport {
            id: ulid::Ulid::new().to_string(),
            file_name,
            mapping_id: mapping.id,
            mapping_name: mapping.name,
            status: ImportStatus::Uploading,
            progress: 0,
            parts: 0,
            bytes: 0,
            created_by: p.user.id.clone(),
            created_by_name: p.user.name.clone(),
            created_at: now,
            updated_at: now,
            error: None,
            result: None,
            bad_rows: 0,
            mapping_version: 0,
            version: 1,
            schema: super::super::model::SCHEMA,
        };
        self.imports().insert(&import).await?;
        Ok(import)
    }

    /// Saves a change of an import's record.
    pub(super) async fn save_import(
        &self,
        current: &HistoryImport,
        change: impl FnOnce(&mut HistoryImport),
    ) -> AppResult<HistoryImport> {
        let mut next = current.clone();
        change(&mut next);
        next.updated_at = self.calendar.now();
        next.version = current.version + 1;
        self.imports().replace(current, &next).await?;
        Ok(next)
    }

    /// Stores part `n` of the file: the next part, while uploading.
    pub async fn put_history_part(
        &self,
        p: &Principal,
        id: &str,
        n: u32,
        bytes: Vec<u8>,
    ) -> AppResult<HistoryImport> {
        Self::admit_import(p)?;
        let import = self.imports().get_or_404(id).await?;
        if import.status != ImportStatus::Uploading {
            return Err(AppError::conflict(
                "The file is read already: start a new import to change it.",
            ));
        }
        if n != import.parts {
            return Err(AppError::invalid_field(
                "part",
                &format!("Send part {} next.", import.parts),
            ));
        }
        if n >= MAX_PARTS {
            return Err(AppError::invalid_field(
                "part",
                &format!("A file has at most {MAX_PARTS} parts."),
            ));
        }
        if bytes.is_empty() || bytes.len() > MAX_PART_BYTES {
            return Err(AppError::invalid_field(
                "part",
                &format!("A part holds 1 to {MAX_PART_BYTES} bytes."),
            ));
        }
        let len = bytes.len() as u64;
        self.blobs
            .put(&import.part_key(n), bytes, "application/octet-stream")
            .await?;
        self.save_import(&import, |i| {
            i.parts = n + 1;
            i.bytes += len;
        })
        .await
    }

    /// Queues the reading of the whole file into a preview.
    pub async fn preview_history(&self, p: &Principal, id: &str) -> AppResult<HistoryImport> {
        Self::admit_import(p)?;
        let import = self.imports().get_or_404(id).await?;
        if import.parts == 0 {
            return Err(AppError::invalid_field("parts", "Upload the file first."));
        }
        if matches!(
            import.status,
            ImportStatus::Previewing | ImportStatus::Booking | ImportStatus::Booked
        ) {
            return Err(AppError::conflict("The import is under way or booked."));
        }
        let mapping = self
            .mapping(&import.mapping_id)
            .await?
            .ok_or_else(|| AppError::invalid_field("mapping_id", "The mapping was deleted."))?;
        let import = self
            .save_import(&import, |i| i.mapping_version = mapping.version)
            .await?;
        self.queue_step(&import, "preview", false, ImportStatus::Previewing)
            .await
    }

    /// Queues the booking of a previewed file: refused (409) while it has rows in error, unless
    /// `skip_bad_rows`.
    pub async fn book_history(
        &self,
        p: &Principal,
        id: &str,
        skip_bad_rows: bool,
    ) -> AppResult<HistoryImport> {
        Self::admit_import(p)?;
        let import = self.imports().get_or_404(id).await?;
        let previewed = import.status == ImportStatus::Previewed
            || (import.status == ImportStatus::Failed
                && self.blobs.get(&import.preview_key()).await?.is_some());
        if !previewed {
            return Err(AppError::conflict("Preview the file before booking it."));
        }
        let mapping = self.mapping(&import.mapping_id).await?;
        if mapping.is_none_or(|m| m.version != import.mapping_version) {
            return Err(AppError::conflict(
                "The mapping changed since the preview: preview the file again.",
            ));
        }
        if import.bad_rows > 0 && !skip_bad_rows {
            return Err(AppError::conflict(format!(
                "{} rows are in error: fix the file, or book with skip_bad_rows.",
                import.bad_rows
            )));
        }
        self.queue_step(&import, "book", skip_bad_rows, ImportStatus::Booking)
            .await
    }

    async fn queue_step(
        &self,
        import: &HistoryImport,
        step: &str,
        skip_bad_rows: bool,
        status: ImportStatus,
    ) -> AppResult<HistoryImport> {
        let next = self
            .save_import(import, |i| {
                i.status = status;
                i.progress = 0;
                i.error = None;
            })
            .await?;
        let message = serde_json::to_string(&ImportJob {
            import_id: import.id.clone(),
            step: step.into(),
            skip_bad_rows,
        })
        .map_err(|e| AppError::Internal(format!("import job: {e}")))?;
        self.jobs.enqueue(&message).await?;
        Ok(next)
    }

    /// Deletes an import and its file (what it booked stays booked).
    pub async fn delete_history_import(&self, p: &Principal, id: &str) -> AppResult<()> {
        Self::admit_import(p)?;
        let import = self.imports().get_or_404(id).await?;
        if matches!(
            import.status,
            ImportStatus::Previewing | ImportStatus::Booking
        ) {
            return Err(AppError::conflict("The import is under way."));
        }
        for n in 0..import.parts {
            self.blobs.delete(&import.part_key(n)).await?;
        }
        self.blobs.delete(&import.preview_key()).await?;
        self.imports()
            .apply(Records::<HistoryImport>::delete_writes(&import), &import)
            .await
    }
}
