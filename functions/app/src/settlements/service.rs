//! The settlements service: imports (here) and reconciliation (`service/reconcile.rs`).

mod reconcile;

pub use reconcile::*;

use super::file::{self, read_table};
use super::model::*;

use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::fleet::Machine;
use crate::machines::MachinesService;
use crate::ports::{query_all, Index, ItemStore, Query, SortKey, StoreError};
use crate::records::{check_version, Records};
use crate::sales::SalesService;
use crate::Calendar;
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::{FieldErrors, Permission};

/// The settlements service.
#[derive(Clone)]
pub struct SettlementsService {
    store: Arc<dyn ItemStore>,
    mappings: Records<SettlementMapping>,
    imports: Records<SettlementImport>,
    machines: MachinesService,
    sales: SalesService,
    calendar: Calendar,
}

/// A mapping to save.
#[derive(Debug, Clone, Default)]
pub struct MappingInput {
    pub name: String,
    pub columns: Columns,
    pub date_format: Option<String>,
    pub decimal_separator: Option<String>,
    pub amounts_in_minor: bool,
    pub version: Option<u64>,
}

/// A file to import.
#[derive(Debug, Clone)]
pub struct ImportInput {
    pub mapping_id: String,
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// What an import answers.
#[derive(Debug, Clone)]
pub struct Imported {
    pub import: SettlementImport,
    /// True when this very file had been imported before: nothing changed.
    pub replayed: bool,
}

impl SettlementsService {
    pub fn new(
        store: Arc<dyn ItemStore>,
        machines: MachinesService,
        sales: SalesService,
        calendar: Calendar,
    ) -> Self {
        SettlementsService {
            mappings: Records::new(store.clone()),
            imports: Records::new(store.clone()),
            store,
            machines,
            sales,
            calendar,
        }
    }

    /// The processors' mappings, by name.
    pub async fn mappings(&self, p: &Principal) -> AppResult<Vec<SettlementMapping>> {
        p.require(Permission::SettlementsImport)?;
        let mut all = self.mappings.all().await?;
        all.sort_by_key(|a| a.name.to_lowercase());
        Ok(all)
    }

    /// Creates (`id` none) or replaces a mapping.
    pub async fn save_mapping(
        &self,
        p: &Principal,
        id: Option<&str>,
        input: &MappingInput,
    ) -> AppResult<SettlementMapping> {
        p.require(Permission::SettlementsImport)?;
        let mut errors = FieldErrors::new();
        let name =
            vendfleet_domain::validation::required_text(&mut errors, "name", &input.name, 80);
        let mut columns = input.columns.clone();
        for (field, v) in [
            ("columns.date", &mut columns.date),
            ("columns.terminal", &mut columns.terminal),
            ("columns.gross", &mut columns.gross),
            ("columns.payout_reference", &mut columns.payout_reference),
        ] {
            *v = vendfleet_domain::validation::required_text(&mut errors, field, v, 80);
        }
        for v in [
            &mut columns.fees,
            &mut columns.net,
            &mut columns.count,
            &mut columns.currency,
        ] {
            *v = v
                .take()
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty());
        }
        let date_format = input
            .date_format
            .as_deref()
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .unwrap_or("%Y-%m-%d")
            .to_string();
        let probe = chrono::NaiveDate::from_ymd_opt(2026, 1, 31).expect("a date");
        let shown =
            crate::tabular::formatted(&probe.and_time(chrono::NaiveTime::MIN), &date_format);
        let reads_back =
            shown.is_some_and(|s| chrono::NaiveDate::parse_from_str(&s, &date_format) == Ok(probe));
        if !reads_back {
            errors.add(
                "date_format",
                "Give a date format such as %Y-%m-%d or %d/%m/%Y.",
            );
        }
        let decimal_separator =
            crate::tabular::decimal_separator(&mut errors, input.decimal_separator.as_deref());
        errors.into_result()?;
        let now = self.calendar.now();
        match id {
            None => {
                let m = SettlementMapping {
                    id: ulid::Ulid::new().to_string(),
                    name,
                    columns,
                    date_format,
                    decimal_separator,
                    amounts_in_minor: input.amounts_in_minor,
                    created_at: now,
                    updated_at: now,
                    version: 1,
                    schema: SCHEMA,
                };
                self.mappings.insert(&m).await?;
                Ok(m)
            }
            Some(id) => {
                let current = self.mappings.get_or_404(id).await?;
                check_version(input.version, &current)?;
                let mut next = current.clone();
                next.name = name;
                next.columns = columns;
                next.date_format = date_format;
                next.decimal_separator = decimal_separator;
                next.amounts_in_minor = input.amounts_in_minor;
                next.updated_at = now;
                next.version = current.version + 1;
                self.mappings.replace(&current, &next).await?;
                Ok(next)
            }
        }
    }

    /// Deletes a mapping (the imports made with it keep their lines).
    pub async fn delete_mapping(&self, p: &Principal, id: &str) -> AppResult<()> {
        p.require(Permission::SettlementsImport)?;
        let current = self.mappings.get_or_404(id).await?;
        self.mappings
            .apply(
                Records::<SettlementMapping>::delete_writes(&current),
                &current,
            )
            .await
    }

    /// The imports, newest first (the history, corrections included).
    pub async fn imports(&self, p: &Principal) -> AppResult<Vec<SettlementImport>> {
        p.require(Permission::SettlementsList)?;
        let mut all = self.imports.all().await?;
        all.sort_by(|a, b| {
            b.imported_at
                .cmp(&a.imported_at)
                .then_with(|| b.id.cmp(&a.id))
        });
        Ok(all)
    }

    /// Imports a file through its mapping: all its lines or none (400 naming each bad row and
    /// column); the same file again changes nothing (`replayed`).
    pub async fn import(&self, p: &Principal, input: &ImportInput) -> AppResult<Imported> {
        p.require(Permission::SettlementsImport)?;
        let mapping = self
            .mappings
            .get(input.mapping_id.trim())
            .await?
            .ok_or_else(|| AppError::invalid_field("mapping_id", "No such mapping."))?;
        let id = hex::encode(&Sha256::digest(&input.bytes)[..16]);
        if let Some(done) = self.imports.get(&id).await? {
            return Ok(Imported {
                import: done,
                replayed: true,
            });
        }
        let table = read_table(&input.file_name, &input.bytes)
            .map_err(|e| AppError::invalid_field("file", &e))?;
        let (visible, _) = self.machines.visible_shared(p).await?;
        let by_terminal: HashMap<String, &Machine> = visible
            .iter()
            .filter_map(|m| {
                m.terminal_id
                    .as_ref()
                    .map(|t| (t.trim().to_string(), m))
                    .filter(|(t, _)| !t.is_empty())
            })
            .collect();
        let lines = file::lines(&table, &mapping, &by_terminal).map_err(AppError::invalid)?;
        let payouts: BTreeSet<String> = lines.iter().map(|l| l.payout_reference.clone()).collect();
        let now = self.calendar.now();
        let chunks: Vec<&[SettlementLine]> = lines.chunks(CHUNK_LINES).collect();
        let mut header = SettlementImport {
            id: id.clone(),
            mapping_id: mapping.id.clone(),
            processor: mapping.name.clone(),
            file_name: input.file_name.trim().chars().take(200).collect(),
            imported_at: now,
            imported_by: p.user.id.clone(),
            imported_by_name: p.user.name.clone(),
            rows: lines.len(),
            date_from: lines.iter().map(|l| l.date).min().expect("lines"),
            date_to: lines.iter().map(|l| l.date).max().expect("lines"),
            payouts: payouts.iter().cloned().collect(),
            chunks: chunks.len(),
            gross_minor: lines.iter().map(|l| l.gross_minor).sum(),
            fees_minor: lines.iter().map(|l| l.fees_minor).sum(),
            net_minor: lines.iter().map(|l| l.net_minor).sum(),
            supersedes: Vec::new(),
            superseded: Default::default(),
            version: 1,
            schema: SCHEMA,
        };
        // The lines first, invisible until the header is written.
        for (n, chunk) in chunks.iter().enumerate() {
            let item = LineChunk {
                lines: chunk.to_vec(),
            }
            .to_item(&id, n)?;
            self.store.put(item, None).await?;
        }
        // The header and the corrections of earlier imports, in one step.
        let mut writes = Vec::new();
        for earlier in self.imports.all().await? {
            let corrected: Vec<&String> = earlier
                .payouts
                .iter()
                .filter(|r| payouts.contains(*r) && !earlier.superseded.contains_key(*r))
                .collect();
            if corrected.is_empty() {
                continue;
            }
            let mut next = earlier.clone();
            for r in corrected {
                next.superseded.insert(r.clone(), id.clone());
            }
            next.version = earlier.version + 1;
            header.supersedes.push(earlier.id.clone());
            writes.extend(Records::<SettlementImport>::replace_writes(
                &earlier, &next,
            )?);
        }
        writes.extend(Records::<SettlementImport>::insert_writes(&header)?);
        if writes.len() > crate::records::MAX_CHANGE_WRITES {
            return Err(AppError::conflict(
                "The file corrects too many earlier imports at once: import it in parts.",
            ));
        }
        match self.store.transact(writes).await {
            Ok(()) => Ok(Imported {
                import: header,
                replayed: false,
            }),
            Err(StoreError::ConditionFailed { .. }) => match self.imports.get(&id).await? {
                // The same file, imported meanwhile by another request.
                Some(done) => Ok(Imported {
                    import: done,
                    replayed: true,
                }),
                None => Err(AppError::conflict(
                    "Another import changed the same payouts meanwhile: try again.",
                )),
            },
            Err(e) => Err(e.into()),
        }
    }

    /// The lines of an import (all of them, superseded ones included).
    pub async fn lines_of(&self, import: &SettlementImport) -> AppResult<Vec<SettlementLine>> {
        let q = Query::partition(Index::Primary, LineChunk::partition(&import.id))
            .sk(SortKey::BeginsWith(LineChunk::PREFIX.into()));
        let mut out = Vec::new();
        for item in query_all(self.store.as_ref(), q).await? {
            let chunk: LineChunk = item.to_value()?;
            out.extend(chunk.lines);
        }
        Ok(out)
    }
}
