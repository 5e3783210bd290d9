//! What the report generator stores: templates (a saved report definition) and generated
//! reports (one run of a definition: its status, progress and file).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use vendfleet_domain::reach::Reach;
use vendfleet_domain::report::Choice;
use vendfleet_domain::{Language, Permission};

/// Version of the stored shape of generator records.
pub const SCHEMA: u32 = 1;

vendfleet_domain::choice! {
    /// The report a definition produces (`/api/filters/reports/generator/modules/`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum Module {
        SalesOverview,
        Encashment,
        RefillLog,
        Inventory,
        TransactionLog,
    }
}

impl Module {
    /// What one must hold (any of) to export the module's report, and so to generate it.
    pub fn export_permissions(self) -> &'static [Permission] {
        match self {
            Module::SalesOverview => &[
                Permission::SalesOverviewExport,
                Permission::SalesOverviewFullAccess,
            ],
            Module::Encashment => &[Permission::EncashmentExport],
            Module::RefillLog => &[Permission::RefillLogExport],
            Module::Inventory => &[
                Permission::InventoryProductsExport,
                Permission::InventoryComponentsExport,
            ],
            Module::TransactionLog => &[
                Permission::TransactionLogExport,
                Permission::TransactionLogFullAccess,
            ],
        }
    }

    /// Whether the module's file can carry a chart.
    pub fn has_graph(self) -> bool {
        matches!(self, Module::SalesOverview)
    }
}

vendfleet_domain::choice! {
    /// The file a report is written to.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum FileFormat {
        Xlsx,
        Csv,
    }
}

vendfleet_domain::choice! {
    /// The chart drawn in an XLSX file.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum Graph {
        None,
        /// The chosen value over time (the total of each period).
        Line,
        /// The chosen value by group (each row's total).
        Bar,
    }
}

vendfleet_domain::choice! {
    /// Who sees a template or a report.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum Visibility {
        /// Every user with the list permission (a report: those whose scope covers its machines).
        Public,
        /// Its author only.
        Private,
    }
}

/// What a report is: a module's query (the query-string parameters of its screen), the file
/// and its chart, and the columns kept (empty: all).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportSpec {
    pub module: Module,
    pub params: BTreeMap<String, String>,
    pub format: FileFormat,
    pub graph: Graph,
    #[serde(default)]
    pub columns: Vec<String>,
}

impl ReportSpec {
    /// The definition in words, for the audit trail: `“name” module?key=value&…`.
    pub fn definition(&self, name: &str) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("“{name}” {}?{}", self.module.key(), params.join("&"))
    }
}

/// A saved report definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportTemplate {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub spec: ReportSpec,
    pub visibility: Visibility,
    pub owner_id: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

/// Where a generated report is. Moves: queued → running → done | failed; running → queued
/// (a failed attempt to be retried, or a worker that stopped); `archived` is a flag beside a
/// finished status (see `docs/api.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    Queued,
    Running,
    Done,
    Failed,
}

impl ReportStatus {
    /// Whether the report has ended (its file or its reason is there).
    pub fn finished(self) -> bool {
        matches!(self, ReportStatus::Done | ReportStatus::Failed)
    }
}

/// The machines a generated report covers: what its requester could see when it ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ReportScope {
    /// The requester saw the whole fleet.
    pub all: bool,
    /// Otherwise, the machines they saw.
    #[serde(default)]
    pub machine_ids: Vec<String>,
}

impl ReportScope {
    /// The machines as a reach.
    pub fn reach(&self) -> Reach {
        if self.all {
            Reach::All
        } else {
            Reach::Machines(self.machine_ids.iter().cloned().collect())
        }
    }
}

impl From<Reach> for ReportScope {
    fn from(r: Reach) -> Self {
        match r {
            Reach::All => ReportScope {
                all: true,
                machine_ids: Vec::new(),
            },
            Reach::Machines(ids) => ReportScope {
                all: false,
                machine_ids: ids.into_iter().collect(),
            },
        }
    }
}

/// Who a scheduled report's file is for: the recipients sharing it, the machines it is cut to
/// (the owner's reach intersected with theirs) and the language it is written in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportAudience {
    /// The machines the file is cut to; `None`: the owner's whole reach.
    pub machine_ids: Option<Vec<String>>,
    pub language: Language,
    /// The addresses it is mailed to.
    pub addresses: Vec<String>,
    /// Their users, where they are users.
    #[serde(default)]
    pub user_ids: Vec<String>,
}

/// One run of a definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GeneratedReport {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub spec: ReportSpec,
    pub visibility: Visibility,
    pub template_id: Option<String>,
    /// The scheduled task that asked for it.
    #[serde(default)]
    pub task_id: Option<String>,
    /// A scheduled report's recipients and the reach its file is cut to.
    #[serde(default)]
    pub audience: Option<ReportAudience>,
    pub owner_id: String,
    pub status: ReportStatus,
    #[serde(default)]
    pub archived: bool,
    /// 0 to 100.
    pub progress: u8,
    pub error: Option<String>,
    /// Rows written.
    #[serde(default)]
    pub rows: u64,
    pub file_name: String,
    pub content_type: String,
    pub result_key: Option<String>,
    pub scope: Option<ReportScope>,
    /// Attempts started.
    #[serde(default)]
    pub attempts: u32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

crate::record!(ReportTemplate, "RTEMPLATE", "Template");
crate::record!(GeneratedReport, "REPORT", "Report");
crate::stamped!(ReportTemplate, GeneratedReport);
