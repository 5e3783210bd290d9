//! Machine events area: the signed webhook's checks, exactly-once intake into the sales store
//! and the item store, and the machine status, encashments and audit reads events leave.

mod audits;
mod draft;
mod intake;
mod model;
mod service;

pub use intake::{Applied, INTAKE_BUDGET, REFILL_LINES_PER_PART, RETRY_AFTER_SECS};
pub use model::{
    AuditRead, AuditState, Encashment, IntakeAnomaly, MachineStatus, ReusedId, SeenEvent, Stamped,
};
pub use service::{
    AuditEntry, AuditPreview, Delivery, EventsJob, EventsService, Review, MAX_JOB_BYTES,
};
