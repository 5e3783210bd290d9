//! Machine events area: the signed webhook's checks, exactly-once intake into the sales store
//! and the item store, and the machine status, encashments and audit reads events leave.

mod anomalies;
mod audits;
mod intake;
mod model;
mod review;
mod service;

pub use anomalies::{IntakeAnomaly, ReusedId, SeenEvent};
pub use intake::{Applied, REFILL_LINES_PER_PART};
pub use model::{AuditRead, AuditState, Encashment, MachineStatus, Stamped};
pub use review::{AuditEntry, AuditPreview, Review};
pub use service::{
    Delivery, EventsJob, EventsService, INTAKE_BUDGET, MAX_JOB_BYTES, RETRY_AFTER_SECS,
};
