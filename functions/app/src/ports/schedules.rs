//! The schedules port: where the query scheduler's tasks are timed. On AWS each active task is
//! an EventBridge Scheduler schedule that sends the task's message to the jobs queue; embedded,
//! nothing is kept outside the store and the in-process scheduler times the tasks itself.

use async_trait::async_trait;

/// One task's schedule as the timing service keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleSpec {
    /// The schedule's name (the task id).
    pub name: String,
    /// `cron(...)` in EventBridge's syntax (see `vendfleet_domain::schedule`).
    pub expression: String,
    /// IANA zone the expression is read in.
    pub time_zone: String,
    /// Paused tasks keep a disabled schedule.
    pub enabled: bool,
    /// The message the schedule delivers.
    pub payload: String,
}

/// Why a schedules call failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error("schedules backend: {0}")]
    Backend(String),
}

/// The timing service.
#[async_trait]
pub trait Schedules: Send + Sync {
    /// Whether tasks are timed by this service (true) or by the in-process scheduler (false).
    fn external(&self) -> bool;
    /// Creates or replaces a schedule.
    async fn put(&self, schedule: &ScheduleSpec) -> Result<(), ScheduleError>;
    /// Removes a schedule; removing a missing one succeeds.
    async fn delete(&self, name: &str) -> Result<(), ScheduleError>;
    /// A schedule as stored, if any.
    async fn get(&self, name: &str) -> Result<Option<ScheduleSpec>, ScheduleError>;
}

/// No timing service: the in-process scheduler times the tasks (the embedded deployment).
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcessSchedules;

#[async_trait]
impl Schedules for InProcessSchedules {
    fn external(&self) -> bool {
        false
    }
    async fn put(&self, _: &ScheduleSpec) -> Result<(), ScheduleError> {
        Ok(())
    }
    async fn delete(&self, _: &str) -> Result<(), ScheduleError> {
        Ok(())
    }
    async fn get(&self, _: &str) -> Result<Option<ScheduleSpec>, ScheduleError> {
        Ok(None)
    }
}
