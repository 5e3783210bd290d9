//! Machine events area: the signed webhook's checks, exactly-once intake into the sales store
//! and the item store, and the machine status, encashments and audit reads events leave.

mod intake;
mod model;
mod service;

pub use intake::{Applied, REFILL_LINES_PER_PART};
pub use model::{AuditRead, AuditState, Encashment, MachineStatus, Stamped};
pub use service::{Delivery, EventsJob, EventsService, MAX_JOB_BYTES};
