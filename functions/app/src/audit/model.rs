//! The audit area's shapes.

use crate::generator::ReportScope;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The longest span one listing reads.
pub const MAX_SPAN_DAYS: i64 = 366;

vendfleet_domain::choice! {
    /// How the data left.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum ExitKind {
        /// A report screen's export answered with the file.
        Export,
        /// A large export written by the background worker for its requester.
        ExportJob,
        /// A generated report's file downloaded.
        ReportDownload,
        /// A scheduled report mailed.
        Mail,
    }
}

/// One time data left the system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct DataExit {
    pub id: String,
    pub at: DateTime<Utc>,
    pub kind: ExitKind,
    /// Who took it (a mailed report: the task's owner, as whom it ran).
    pub user_id: String,
    /// The definition: the export's request (path and query), or the report's module and
    /// parameters.
    pub what: String,
    /// The file's name.
    pub file_name: String,
    /// The machines the file covers.
    pub reach: ReportScope,
    /// Where it went: the addresses of a mailed report (empty for a download: its taker).
    #[serde(default)]
    pub recipients: Vec<String>,
    /// Data rows, where known.
    pub rows: Option<u64>,
    /// The generated report, for downloads and mail.
    pub report_id: Option<String>,
    /// The scheduled task that mailed it.
    #[serde(default)]
    pub task_id: Option<String>,
}

/// What is recorded of an exit (the id and the instant are the trail's).
#[derive(Debug, Clone)]
pub struct NewExit {
    pub kind: ExitKind,
    pub user_id: String,
    pub what: String,
    pub file_name: String,
    pub reach: ReportScope,
    pub recipients: Vec<String>,
    pub rows: Option<u64>,
    pub report_id: Option<String>,
    pub task_id: Option<String>,
}

/// The trail's filters.
#[derive(Debug, Clone, Default)]
pub struct ExitFilter {
    /// UTC dates (YYYY-MM-DD), inclusive (default: the last 30 days).
    pub date_from: Option<String>,
    pub date_to: Option<String>,
    pub kind: Option<String>,
    pub user_id: Option<String>,
}
