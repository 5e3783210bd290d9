//! The query scheduler: tasks that generate a report on a cron schedule in a time zone and
//! e-mail it to users and addresses.
//!
//! A task is a record (`QTASK#<id>`) holding its definition (a template's, followed at run time,
//! or its own), its five cron fields and zone, its recipients, its next run and what became of
//! its last runs. When a task is due it is *fired*: its recipients are split by what each may see
//! as they stand now (`domain::reach::split_audiences`) and one report is queued per distinct
//! reach and language — the owner's definition with the owner's permissions, cut to the machines
//! both the owner and those recipients see. Once the worker has written a file it is mailed to
//! its recipients only (see `vendfleet_http::scheduler`). A user recipient who lost access to the
//! module gets nothing, and the delivery says why; plain addresses carry the owner's reach and
//! only to domains the operator allows (`settings::OperatorPolicy`).
//!
//! A task runs at most as often as the operator allows (`min_task_interval_minutes`, 15 by
//! default); a task whose template is deleted, or no longer shared with its owner, is paused and
//! says why.
//!
//! Timing: on AWS each active task is an EventBridge Scheduler schedule that sends
//! `{"task_id"}` to the jobs queue (the [`Schedules`] port); embedded, the in-process loop calls
//! [`SchedulerService::tick`], which fires every active task whose `next_run` has come, once,
//! and moves `next_run` to the first run after now — so a run missed while the process was down
//! runs once at the next start, not once per missed time.

mod model;
mod service;

pub use model::*;
pub use service::*;
