//! A history import's steps as the jobs worker runs them: the whole file read as it streams,
//! part by part, into a preview, or booked through the intake a machine's batch at a time.

use super::DataSourcesService;
use crate::data_sources::history::{
    HistoryImport, HistoryMapping, ImportResult, ImportStatus, Lookup, Preview, Reading, Row, Tally,
};
use crate::error::{AppError, AppResult};
use crate::ports::Job;
use crate::records::Records;
use crate::tabular::{self, Cell, Rows};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Read;
use vendfleet_domain::events::MachineEvent;

/// The jobs queue's message of an import's step.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct ImportJob {
    pub(super) import_id: String,
    /// `preview` or `book`.
    pub(super) step: String,
    #[serde(default)]
    pub(super) skip_bad_rows: bool,
}

/// Sales of one machine handed to the intake at once.
const BATCH: usize = 500;

impl DataSourcesService {
    /// True when a jobs-queue message is an import's step.
    pub fn is_import_job(payload: &str) -> bool {
        serde_json::from_str::<ImportJob>(payload).is_ok()
    }

    /// Runs an import's step delivered by the jobs queue, then acknowledges it. A failure is
    /// kept on the import (`failed`, with why); its step may be asked again.
    pub async fn run_import_job(&self, delivery: Job) -> AppResult<()> {
        let job: ImportJob = serde_json::from_str(&delivery.payload)
            .map_err(|e| AppError::Internal(format!("import job: {e}")))?;
        let Some(import) = self.imports().get(&job.import_id).await? else {
            return Ok(self.jobs.ack(&delivery.receipt).await?);
        };
        let expected = if job.step == "book" {
            ImportStatus::Booking
        } else {
            ImportStatus::Previewing
        };
        if import.status != expected {
            // A late duplicate delivery.
            return Ok(self.jobs.ack(&delivery.receipt).await?);
        }
        let outcome = self.run_step(&import, &job).await;
        let current = self.imports().get_or_404(&import.id).await?;
        match outcome {
            Ok((preview, result)) => {
                if let Some(preview) = &preview {
                    let bytes = serde_json::to_vec(preview)
                        .map_err(|e| AppError::Internal(format!("preview: {e}")))?;
                    self.blobs
                        .put(&import.preview_key(), bytes, "application/json")
                        .await?;
                }
                self.save_import(&current, |i| {
                    i.progress = 100;
                    match result {
                        Some(r) => {
                            i.status = ImportStatus::Booked;
                            i.result = Some(r);
                        }
                        None => {
                            i.status = ImportStatus::Previewed;
                            i.bad_rows = preview.as_ref().map_or(0, |p| p.bad_rows);
                        }
                    }
                })
                .await?;
            }
            Err(e) => {
                tracing::warn!(import = %import.id, error = %e, "history import failed");
                self.save_import(&current, |i| {
                    i.status = ImportStatus::Failed;
                    i.error = Some(said(&e).chars().take(1000).collect());
                })
                .await?;
            }
        }
        self.jobs.ack(&delivery.receipt).await?;
        Ok(())
    }

    /// Reads the whole file (a preview, or a booking with its result), off the async threads:
    /// the file streams part by part, the sales go to the intake a machine's batch at a time.
    async fn run_step(
        &self,
        import: &HistoryImport,
        job: &ImportJob,
    ) -> AppResult<(Option<Preview>, Option<ImportResult>)> {
        let mapping = self
            .mapping(&import.mapping_id)
            .await?
            .ok_or_else(|| AppError::invalid_field("mapping_id", "The mapping was deleted."))?;
        let machines = self.machines.machines().all().await?;
        let mut contexts = Vec::new();
        for m in machines.into_iter().filter(|m| !m.inactive) {
            contexts.push(self.machines.intake_context_of(m).await?);
        }
        let products = self.products.products().all().await?;
        let lookup = Lookup::new(contexts, &products);
        let booking = job.step == "book";
        let started = std::time::Instant::now();
        let handle = tokio::runtime::Handle::current();
        let this = self.clone();
        let import = import.clone();
        let skip_bad_rows = job.skip_bad_rows;
        tokio::task::spawn_blocking(move || {
            let mut scan = Scan {
                service: &this,
                handle: &handle,
                mapping: &mapping,
                lookup: &lookup,
                reading: None,
                occurrences: HashMap::new(),
                tally: Tally::default(),
                booking,
                batches: HashMap::new(),
                result: ImportResult::default(),
                failure: None,
            };
            let mut parts = Parts {
                service: &this,
                handle: &handle,
                import: &import,
                next: 0,
                current: std::io::Cursor::new(Vec::new()),
            };
            let first = parts.load_next()?.unwrap_or_default();
            let read = if tabular::is_xlsx(&import.file_name, &first) {
                let mut whole = first;
                while let Some(more) = parts.load_next()? {
                    whole.extend(more);
                }
                tabular::read_xlsx(&whole, &mut scan)
            } else {
                parts.current = std::io::Cursor::new(first);
                tabular::read_csv(&mut parts, &mut scan)
            };
            if let Some(e) = scan.failure.take() {
                return Err(e);
            }
            read.map_err(|e| AppError::invalid_field("file", &e))?;
            if scan.reading.is_none() {
                return Err(AppError::invalid_field(
                    "file",
                    "The file has no header row.",
                ));
            }
            if booking {
                if scan.tally.preview.bad_rows > 0 && !skip_bad_rows {
                    return Err(AppError::conflict(format!(
                        "{} rows are in error: nothing was booked.",
                        scan.tally.preview.bad_rows
                    )));
                }
                scan.flush_all()?;
                let p = &scan.tally.preview;
                let mut result = scan.result.clone();
                result.skipped = p.rows - p.sales;
                result.seconds = started.elapsed().as_secs_f64();
                Ok((None, Some(result)))
            } else {
                Ok((Some(scan.tally.finish()), None))
            }
        })
        .await
        .map_err(|e| AppError::Internal(format!("import: {e}")))?
    }
}

/// Why a step failed, in the words an operator reads: a field error's messages.
fn said(e: &AppError) -> String {
    match e {
        AppError::Validation { errors, .. } if !errors.is_empty() => errors
            .0
            .values()
            .flatten()
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        e => e.to_string(),
    }
}

/// The file's parts read one after the other as one stream (a part in memory at a time), the
/// import's progress noted as each is loaded.
struct Parts<'a> {
    service: &'a DataSourcesService,
    handle: &'a tokio::runtime::Handle,
    import: &'a HistoryImport,
    next: u32,
    current: std::io::Cursor<Vec<u8>>,
}

impl Parts<'_> {
    fn load_next(&mut self) -> AppResult<Option<Vec<u8>>> {
        if self.next >= self.import.parts {
            return Ok(None);
        }
        let key = self.import.part_key(self.next);
        let blob = self
            .handle
            .block_on(self.service.blobs.get(&key))?
            .ok_or_else(|| AppError::Internal(format!("import part {key} is missing")))?;
        self.next += 1;
        let progress =
            u8::try_from(u64::from(self.next) * 95 / u64::from(self.import.parts)).unwrap_or(95);
        let id = self.import.id.clone();
        self.handle.block_on(async {
            let records: Records<HistoryImport> = self.service.imports();
            if let Some(current) = records.get(&id).await? {
                self.service
                    .save_import(&current, |i| i.progress = progress.max(1))
                    .await?;
            }
            AppResult::Ok(())
        })?;
        Ok(Some(blob.bytes))
    }
}

impl Read for Parts<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.current.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            match self.load_next() {
                Ok(Some(bytes)) => self.current = std::io::Cursor::new(bytes),
                Ok(None) => return Ok(0),
                Err(e) => return Err(std::io::Error::other(e.to_string())),
            }
        }
    }
}

/// The rows as they come: tallied, and when booking, batched per machine into the intake.
struct Scan<'a> {
    service: &'a DataSourcesService,
    handle: &'a tokio::runtime::Handle,
    mapping: &'a HistoryMapping,
    lookup: &'a Lookup,
    reading: Option<Reading>,
    occurrences: HashMap<u64, u32>,
    tally: Tally,
    booking: bool,
    batches: HashMap<usize, Vec<MachineEvent>>,
    result: ImportResult,
    /// Why the booking stopped (the store failed).
    failure: Option<AppError>,
}

impl Scan<'_> {
    fn flush(&mut self, machine: usize) -> AppResult<()> {
        let Some(events) = self.batches.remove(&machine) else {
            return Ok(());
        };
        let id = &self.lookup.contexts[machine].machine.id;
        let applied = self
            .handle
            .block_on(self.service.events.apply_history(id, &events))?;
        self.result.stored += applied.stored as u64;
        self.result.already += applied.already as u64;
        Ok(())
    }

    fn flush_all(&mut self) -> AppResult<()> {
        let mut machines: Vec<usize> = self.batches.keys().copied().collect();
        machines.sort_unstable();
        for m in machines {
            self.flush(m)?;
        }
        Ok(())
    }
}

impl Rows for Scan<'_> {
    fn headers(&mut self, headers: &[String]) -> Result<(), String> {
        match Reading::new(self.mapping, headers) {
            Ok(r) => {
                self.reading = Some(r);
                Ok(())
            }
            Err(errors) => {
                let message = errors
                    .0
                    .into_values()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" ");
                Err(message)
            }
        }
    }

    fn row(&mut self, line: u32, cells: &[Cell]) -> Result<(), String> {
        let reading = self.reading.as_ref().ok_or("no header row")?;
        let row = reading.row(line, cells, self.lookup, &mut self.occurrences);
        self.tally.add(line, &row, self.lookup);
        // A booking of a file with rows in error stops at once unless told to skip them.
        if !self.booking {
            return Ok(());
        }
        if let Row::Sale(sale) = row {
            let batch = self.batches.entry(sale.machine).or_default();
            batch.push(sale.event);
            if batch.len() >= BATCH {
                if let Err(e) = self.flush(sale.machine) {
                    let message = e.to_string();
                    self.failure = Some(e);
                    return Err(message);
                }
            }
        }
        Ok(())
    }
}
