//! Nayax Core's Amazon SQS messages (transactions, events/alerts, DEX audit files) read into
//! Vendfleet's machine events. The formats, field for field, with what each field means and what
//! Nayax leaves undocumented: `docs/nayax-format.md`; what we map and keep unmapped:
//! `docs/nayax.md`.
//!
//! Pure: the application resolves the machine (by Nayax's `MachineId`) and its products, then
//! asks [`Transaction::vends`], [`Alert::telemetry`] or [`AuditMessage::event`] for the events
//! the intake books.

mod alert;
mod audit;
mod message;
mod model;
mod transaction;
mod value;

pub use alert::Alert;
pub use audit::AuditMessage;
pub use message::Message;
pub use model::{Feed, Unreadable};
pub use transaction::{Line, Transaction, TransactionKind};
pub use value::{local_instant, minor_units};

#[cfg(test)]
mod tests;
