//! What the query scheduler stores: tasks, their recipients, runs and deliveries.

use crate::generator::{GeneratedReport, ReportSpec, SpecInput};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use vendfleet_domain::schedule::CronFields;

/// Version of the stored shape of a task.
pub const SCHEMA: u32 = 1;
/// Deliveries kept on a task (newest first).
pub const KEPT_DELIVERIES: usize = 20;
/// Recipients of one task at most.
pub const MAX_RECIPIENTS: usize = 50;
/// Runs a schedule preview shows at most.
pub const MAX_PREVIEW_RUNS: i64 = 20;

vendfleet_domain::choice! {
    /// Whether a task runs.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    #[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
    pub enum TaskStatus {
        Active,
        Paused,
    }
}

/// Who gets a task's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recipients {
    /// Vendfleet users (mailed in their language).
    #[serde(default)]
    pub user_ids: Vec<String>,
    /// Other addresses (mailed in the owner's language).
    #[serde(default)]
    pub emails: Vec<String>,
}

/// One run of a task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastRun {
    pub at: DateTime<Utc>,
    /// The first of the run's reports.
    pub report_id: Option<String>,
    /// Every report of the run: one per distinct reach and language of its recipients.
    #[serde(default)]
    pub report_ids: Vec<String>,
    /// The run's reports not yet mailed.
    #[serde(default)]
    pub pending: Vec<String>,
    /// `queued`, `done`, `failed`.
    pub status: String,
    pub error: Option<String>,
}

/// What became of one recipient of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailDelivery {
    pub at: DateTime<Utc>,
    pub recipient: String,
    /// A [`DeliveryStatus`] key: `sent`, `refused`, `bounced`, `complained` or `withheld`.
    pub status: String,
    pub error: Option<String>,
    /// The report whose file the recipient was sent.
    #[serde(default)]
    pub report_id: Option<String>,
    /// That file's name.
    #[serde(default)]
    pub file_name: Option<String>,
}

impl MailDelivery {
    /// What befell the message to `recipient` at `at`.
    pub fn new(
        at: DateTime<Utc>,
        recipient: impl Into<String>,
        status: DeliveryStatus,
        error: Option<String>,
    ) -> Self {
        MailDelivery {
            at,
            recipient: recipient.into(),
            status: status.key().to_string(),
            error,
            report_id: None,
            file_name: None,
        }
    }

    /// The same delivery, of report `r`'s file.
    pub fn of(mut self, r: &GeneratedReport) -> Self {
        self.report_id = Some(r.id.clone());
        self.file_name = Some(r.file_name.clone());
        self
    }
}

/// What the mail service did with a message to one recipient.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryStatus {
    /// Taken for delivery.
    Sent,
    /// Refused at once (a rejected message, an address on the suppression list, an invalid
    /// address).
    Refused,
    /// Returned later by the recipient's server.
    Bounced,
    /// Marked as spam by the recipient.
    Complained,
    /// Not sent: the recipient may not receive the report (no access to its module, an inactive
    /// user, a domain the operator does not allow).
    Withheld,
}

impl DeliveryStatus {
    /// The status as stored and answered.
    pub fn key(self) -> &'static str {
        match self {
            DeliveryStatus::Sent => "sent",
            DeliveryStatus::Refused => "refused",
            DeliveryStatus::Bounced => "bounced",
            DeliveryStatus::Complained => "complained",
            DeliveryStatus::Withheld => "withheld",
        }
    }
}

/// A scheduled task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScheduledTask {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub spec: ReportSpec,
    /// A template to follow (its definition when the task runs), else the task's own.
    pub template_id: Option<String>,
    pub cron: CronFields,
    pub time_zone: String,
    pub status: TaskStatus,
    /// Why the task was paused by the system (its template deleted), when it was.
    #[serde(default)]
    pub paused_reason: Option<String>,
    pub recipients: Recipients,
    pub owner_id: String,
    /// The next run (none while paused).
    pub next_run: Option<DateTime<Utc>>,
    pub last_run: Option<LastRun>,
    #[serde(default)]
    pub deliveries: Vec<MailDelivery>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(skip)]
    pub version: u64,
    #[serde(default)]
    pub schema: u32,
}

crate::record!(ScheduledTask, "QTASK", "Scheduled task");
crate::stamped!(ScheduledTask);

/// The queue message a schedule delivers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskMessage {
    pub task_id: String,
}

/// The task form.
#[derive(Debug, Clone, Default)]
pub struct TaskInput {
    pub name: String,
    pub spec: SpecInput,
    pub template_id: Option<String>,
    pub cron: CronFields,
    pub time_zone: String,
    pub status: String,
    pub recipients: Recipients,
    pub version: Option<u64>,
}

/// Why a task following a template was paused when the template went.
pub const TEMPLATE_GONE: &str = "The template this task follows was deleted or is no longer shared with its owner: choose another definition to resume it.";
