//! The generator's service: templates (`service/templates.rs`), generated reports and their
//! worker step (`service/worker.rs`).

mod templates;
mod worker;

use super::model::*;
use crate::auth::Principal;
use crate::error::{AppError, AppResult};
use crate::fleet::FleetService;
use crate::listing::{page_of, paging, sort_by, sortable_instant, ListPage, ListParams};
use crate::ports::{BlobStore, Clock, Job as Delivery, JobQueue};
use crate::records::{check_version, Records};
use crate::users::Directory;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;
use vendfleet_domain::reach::Reach;
use vendfleet_domain::report::Choice;
use vendfleet_domain::{validation, FieldErrors, MachineScope, Permission};

/// Attempts of a report before it is failed for good.
pub const MAX_ATTEMPTS: u32 = 3;
/// How long a claimed report is hidden from other workers (a year of transaction log for a
/// large fleet takes minutes).
pub const VISIBILITY: Duration = Duration::from_secs(900);
/// The first retry's delay (doubled on each further attempt).
pub const BACKOFF: Duration = Duration::from_secs(5);
/// How long a download link stays valid.
pub const LINK_TTL: Duration = Duration::from_secs(15 * 60);
/// The longest parameter value kept, in characters (id lists of a few hundred machines fit).
pub const MAX_PARAM_CHARS: usize = 20_000;
/// The longest search text of a definition.
pub const MAX_SEARCH_CHARS: usize = 200;

/// The queue message of a report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportMessage {
    pub report_id: String,
}

/// A definition as a form sends it (keys not yet checked).
#[derive(Debug, Clone, Default)]
pub struct SpecInput {
    pub module: String,
    pub params: BTreeMap<String, String>,
    pub format: String,
    pub graph: String,
    pub columns: Vec<String>,
}

/// The template form (and the ad-hoc report's: its name and visibility).
#[derive(Debug, Clone, Default)]
pub struct TemplateInput {
    pub name: String,
    pub visibility: String,
    pub spec: SpecInput,
    pub version: Option<u64>,
}

fn choice<C: Choice>(errors: &mut FieldErrors, field: &str, value: &str, default: C) -> C {
    if value.trim().is_empty() {
        return default;
    }
    C::from_key(value).unwrap_or_else(|| {
        let keys: Vec<&str> = C::ALL.iter().map(|c| c.key()).collect();
        errors.add(field, format!("Choose one of: {}.", keys.join(", ")));
        default
    })
}

/// Checks a definition's keys; the module's own parameters are checked by whoever runs it.
pub fn check_spec(input: &SpecInput, errors: &mut FieldErrors) -> Option<ReportSpec> {
    let module = if input.module.trim().is_empty() {
        errors.add("module", "This field is required.");
        None
    } else {
        let m = Module::from_key(&input.module);
        if m.is_none() {
            let keys: Vec<&str> = Module::ALL.iter().map(|c| c.key()).collect();
            errors.add("module", format!("Choose one of: {}.", keys.join(", ")));
        }
        m
    };
    let format = choice(errors, "format", &input.format, FileFormat::Xlsx);
    let graph = choice(errors, "graph", &input.graph, Graph::None);
    if let Some(m) = module {
        if graph != Graph::None && !m.has_graph() {
            errors.add("graph", "This report has no chart: choose none.");
        }
    }
    for (k, v) in &input.params {
        let max = if k == "search" {
            MAX_SEARCH_CHARS
        } else {
            MAX_PARAM_CHARS
        };
        if k.len() > 64 || !k.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
            errors.add("params", format!("“{k}” is not a parameter."));
        } else if v.chars().count() > max {
            errors.add(format!("params.{k}"), format!("At most {max} characters."));
        }
    }
    let columns: Vec<String> = input
        .columns
        .iter()
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    if columns.len() > 100 {
        errors.add("columns", "At most 100 columns.");
    }
    Some(ReportSpec {
        module: module?,
        params: input
            .params
            .iter()
            .map(|(k, v)| (k.clone(), v.trim().to_string()))
            .filter(|(_, v)| !v.is_empty())
            .collect(),
        format,
        graph,
        columns,
    })
}

/// 403 unless `p` may export `module`'s report (and so generate it).
pub fn require_module(p: &Principal, module: Module) -> AppResult<()> {
    let needs = module.export_permissions();
    if needs.iter().any(|perm| p.can(*perm)) {
        Ok(())
    } else {
        let keys: Vec<&str> = needs.iter().map(|perm| perm.key()).collect();
        Err(AppError::Forbidden(format!(
            "You need the permission {}",
            keys.join(" or ")
        )))
    }
}

/// A claimed report: its record and the queue delivery.
pub struct ClaimedReport {
    pub report: GeneratedReport,
    delivery: Delivery,
}

/// The service.
#[derive(Clone)]
pub struct GeneratorService {
    templates: Records<ReportTemplate>,
    reports: Records<GeneratedReport>,
    blobs: Arc<dyn BlobStore>,
    queue: Arc<dyn JobQueue>,
    directory: Directory,
    machines: crate::machines::MachinesService,
    fleet: FleetService,
    clock: Arc<dyn Clock>,
    backoff: Duration,
    visibility: Duration,
}

/// Where a report comes from: a template, a scheduled task (and the recipients its file is cut
/// for), or neither (an ad-hoc definition).
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub template_id: Option<String>,
    pub task_id: Option<String>,
    pub audience: Option<ReportAudience>,
}

impl GeneratorService {
    /// The same service with other retry timings: the first back-off (doubled on each further
    /// attempt) and how long a claimed report stays hidden from other workers (tests shorten
    /// both).
    pub fn with_timing(mut self, backoff: Duration, visibility: Duration) -> Self {
        self.backoff = backoff;
        self.visibility = visibility;
        self
    }

    /// How long a claimed report stays hidden from other workers.
    pub fn visibility(&self) -> Duration {
        self.visibility
    }

    /// A service on the adapters.
    pub fn new(
        store: Arc<dyn crate::ports::ItemStore>,
        blobs: Arc<dyn BlobStore>,
        queue: Arc<dyn JobQueue>,
        directory: Directory,
        machines: crate::machines::MachinesService,
        fleet: FleetService,
        clock: Arc<dyn Clock>,
    ) -> Self {
        GeneratorService {
            templates: Records::new(store.clone()),
            reports: Records::new(store),
            blobs,
            queue,
            directory,
            machines,
            fleet,
            clock,
            backoff: BACKOFF,
            visibility: VISIBILITY,
        }
    }

    // ---- reports ----

    /// Queues a report of `spec` for `p` (who needs the run permission and the module's export
    /// permission); the worker writes it.
    pub async fn submit(
        &self,
        p: &Principal,
        name: String,
        visibility: Visibility,
        spec: ReportSpec,
        origin: Origin,
    ) -> AppResult<GeneratedReport> {
        p.require(Permission::ReportGeneratorRun)?;
        require_module(p, spec.module)?;
        let now = self.clock.now();
        let id = ulid::Ulid::new().to_string();
        let (content_type, ext) = match spec.format {
            FileFormat::Xlsx => (
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "xlsx",
            ),
            FileFormat::Csv => ("text/csv; charset=utf-8", "csv"),
        };
        let r = GeneratedReport {
            file_name: format!("{}.{ext}", file_stem(&name, spec.module)),
            id: id.clone(),
            name,
            spec,
            visibility,
            template_id: origin.template_id,
            task_id: origin.task_id,
            audience: origin.audience,
            owner_id: p.user.id.clone(),
            status: ReportStatus::Queued,
            archived: false,
            progress: 0,
            error: None,
            rows: 0,
            content_type: content_type.into(),
            result_key: None,
            scope: None,
            attempts: 0,
            created_at: now,
            updated_at: now,
            finished_at: None,
            version: 1,
            schema: SCHEMA,
        };
        self.reports.insert(&r).await?;
        let message = serde_json::to_string(&ReportMessage { report_id: id })
            .map_err(|e| AppError::Internal(format!("report message: {e}")))?;
        self.queue.enqueue(&message).await?;
        Ok(r)
    }

    /// Queues a report of a template `p` sees.
    pub async fn generate_template(
        &self,
        p: &Principal,
        template_id: &str,
    ) -> AppResult<GeneratedReport> {
        p.require(Permission::ReportGeneratorRun)?;
        let t = self.template_for(p, template_id).await?;
        let origin = Origin {
            template_id: Some(t.id),
            ..Origin::default()
        };
        self.submit(p, t.name, t.visibility, t.spec, origin).await
    }

    /// The machines `p` sees now, as a report scope.
    pub async fn scope_of(&self, p: &Principal) -> AppResult<ReportScope> {
        Ok(self.reach_of(p).await?.into())
    }

    /// The machines `p` sees now.
    pub async fn reach_of(&self, p: &Principal) -> AppResult<Reach> {
        Ok(match p.machine_scope() {
            MachineScope::All => Reach::All,
            MachineScope::Limited { .. } => Reach::Machines(self.machines.visible_ids(p).await?),
        })
    }

    /// Whether `p` finds report `r` in their list: their own, or a finished public one whose
    /// machines they all see.
    fn report_listed(p: &Principal, r: &GeneratedReport, seen: &Reach) -> bool {
        r.owner_id == p.user.id
            || (r.visibility == Visibility::Public
                && r.status == ReportStatus::Done
                && r.scope.as_ref().is_some_and(|s| seen.covers(&s.reach())))
    }

    /// Why a reader who sees `seen` may not have report `r`'s file (its author included), if so.
    pub fn file_refusal(r: &GeneratedReport, seen: &Reach) -> Option<String> {
        let scope = r.scope.as_ref()?;
        (!seen.covers(&scope.reach())).then(|| {
            "This report covers machines you no longer have access to: generate it again for your current access"
                .to_string()
        })
    }

    /// The reports `p` sees, archived or not.
    pub async fn list_reports(
        &self,
        p: &Principal,
        params: &ListParams,
        archived: bool,
    ) -> AppResult<ListPage<GeneratedReport>> {
        p.require(Permission::ReportGeneratorReportsList)?;
        let mut errors = FieldErrors::new();
        let pg = paging(
            params,
            &["name", "created_at", "status", "module"],
            &mut errors,
        );
        errors.into_result()?;
        let seen = self.reach_of(p).await?;
        let mut items: Vec<GeneratedReport> = self
            .reports
            .all()
            .await?
            .into_iter()
            .filter(|r| r.archived == archived && Self::report_listed(p, r, &seen))
            .filter(|r| pg.search.is_empty() || r.name.to_lowercase().contains(&pg.search))
            .collect();
        let mut pg = pg;
        if pg.ordering.is_none() {
            pg.ordering = Some(("created_at".into(), true));
        }
        sort_by(&mut items, &pg, "created_at", |r, f| match f {
            "name" => (r.name.to_lowercase(), r.id.clone()),
            "status" => (format!("{:?}", r.status), r.id.clone()),
            "module" => (r.spec.module.key().to_string(), r.id.clone()),
            _ => (sortable_instant(&r.created_at), r.id.clone()),
        });
        Ok(page_of(items, &pg))
    }

    /// One report `p` sees (404 otherwise), with what `p` sees of the fleet now.
    pub async fn report_seen(
        &self,
        p: &Principal,
        id: &str,
    ) -> AppResult<(GeneratedReport, Reach)> {
        p.require(Permission::ReportGeneratorReportsList)?;
        let seen = self.reach_of(p).await?;
        let r = self
            .reports
            .get(id)
            .await?
            .filter(|r| Self::report_listed(p, r, &seen))
            .ok_or_else(|| AppError::NotFound("Report not found".into()))?;
        Ok((r, seen))
    }

    /// One report `p` sees (404 otherwise).
    pub async fn get_report(&self, p: &Principal, id: &str) -> AppResult<GeneratedReport> {
        Ok(self.report_seen(p, id).await?.0)
    }

    /// A finished report whose file `p` may have now: 403 with the reason when it covers machines
    /// beyond their reach, 409 while it has no file.
    async fn readable_report(
        &self,
        p: &Principal,
        id: &str,
    ) -> AppResult<(GeneratedReport, String)> {
        let (r, seen) = self.report_seen(p, id).await?;
        if let Some(why) = Self::file_refusal(&r, &seen) {
            return Err(AppError::Forbidden(why));
        }
        match (&r.result_key, r.status) {
            (Some(key), ReportStatus::Done) => {
                let key = key.clone();
                Ok((r, key))
            }
            _ => Err(AppError::conflict("The report has no file yet")),
        }
    }

    /// A link to a finished report's file, and the report.
    pub async fn download_url(
        &self,
        p: &Principal,
        id: &str,
    ) -> AppResult<(String, GeneratedReport)> {
        let (r, key) = self.readable_report(p, id).await?;
        let url = self
            .blobs
            .download_url(&key, &r.file_name, LINK_TTL)
            .await?;
        Ok((url, r))
    }

    /// A finished report's file, read whole (tests and small files).
    pub async fn file(&self, p: &Principal, id: &str) -> AppResult<crate::ports::Blob> {
        let (r, _) = self.readable_report(p, id).await?;
        match &r.result_key {
            Some(key) if r.status == ReportStatus::Done => self
                .blobs
                .get(key)
                .await?
                .ok_or_else(|| AppError::NotFound("The report's file is gone".into())),
            _ => Err(AppError::conflict("The report has no file yet")),
        }
    }

    /// Archives (`true`) or restores a finished report of `p`'s own (409 while it runs).
    pub async fn set_archived(
        &self,
        p: &Principal,
        id: &str,
        archived: bool,
    ) -> AppResult<GeneratedReport> {
        let current = self.get_report(p, id).await?;
        if current.owner_id != p.user.id && !p.can(Permission::ReportGeneratorDeleteReport) {
            return Err(AppError::Forbidden(
                "Only the report's author archives it".into(),
            ));
        }
        if !current.status.finished() {
            return Err(AppError::conflict(
                "A report is archived or restored once it has finished",
            ));
        }
        let mut next = current.clone();
        next.archived = archived;
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.reports.replace(&current, &next).await?;
        Ok(next)
    }

    /// Deletes a report and its file (409 while it runs).
    pub async fn delete_report(&self, p: &Principal, id: &str) -> AppResult<()> {
        p.require(Permission::ReportGeneratorDeleteReport)?;
        let r = self.get_report(p, id).await?;
        if r.status == ReportStatus::Running {
            return Err(AppError::conflict("The report is being written"));
        }
        if let Some(key) = &r.result_key {
            self.blobs.delete(key).await?;
        }
        self.reports
            .apply(Records::<GeneratedReport>::delete_writes(&r), &r)
            .await
    }
}

/// A file name from a report's name: letters, digits and dashes (the module's key when nothing
/// is left).
fn file_stem(name: &str, module: Module) -> String {
    let mut stem = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            stem.push(c.to_ascii_lowercase());
        } else if !stem.ends_with('-') && !stem.is_empty() {
            stem.push('-');
        }
    }
    let stem = stem
        .trim_end_matches('-')
        .chars()
        .take(80)
        .collect::<String>();
    if stem.is_empty() {
        module.key().replace('_', "-")
    } else {
        stem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_blob_keys() {
        assert_eq!(
            file_stem("Ventes — Lundi 07:00", Module::SalesOverview),
            "ventes-lundi-07-00"
        );
        assert_eq!(file_stem("€€€", Module::TransactionLog), "transaction-log");
        assert!(crate::ports::check_blob_key(&format!(
            "reports/X/{}.xlsx",
            file_stem("../../x", Module::Inventory)
        ))
        .is_ok());
    }

    #[test]
    fn specs_are_checked() {
        let mut e = FieldErrors::new();
        let s = check_spec(
            &SpecInput {
                module: "sales_overview".into(),
                format: "csv".into(),
                graph: "bar".into(),
                ..Default::default()
            },
            &mut e,
        );
        assert!(e.is_empty());
        assert_eq!(s.unwrap().graph, Graph::Bar);
        let mut e = FieldErrors::new();
        check_spec(
            &SpecInput {
                module: "encashment".into(),
                graph: "line".into(),
                params: [("Bad Key".to_string(), "x".to_string())].into(),
                ..Default::default()
            },
            &mut e,
        );
        let j = serde_json::to_value(&e).unwrap();
        assert!(j.get("graph").is_some() && j.get("params").is_some(), "{j}");
        let mut e = FieldErrors::new();
        assert!(check_spec(&SpecInput::default(), &mut e).is_none());
        assert!(!e.is_empty());
    }
}
