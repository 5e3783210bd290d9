//! The report generator: templates (saved definitions, public or private), and generated
//! reports — a definition run by the background worker, with progress and a file.
//!
//! A generated report is a record (`REPORT#<id>`) and a queue message naming it. The worker
//! claims the message, marks the report running, writes the file (the same query as the report
//! screen, with the requester's machine scope at run time), stores it and marks the report done.
//! A failed attempt goes back to the queue with back-off; after [`MAX_ATTEMPTS`] the report is
//! failed with its reason. A worker that dies mid-report leaves the message to come back after
//! its visibility timeout: the next delivery starts over (or fails the report for good when the
//! worker stopped [`MAX_ATTEMPTS`] times), so no report stays "running".
//!
//! Who sees what (a file never shows what its reader may not see):
//! - A template is its author's to change, rename or delete; others may copy a public one into
//!   their own. A public template is shown to another user only when every client, location,
//!   region and machine its parameters name is one they may choose themselves; running it runs
//!   it in the runner's own reach.
//! - A report is listed to its author, and a public one to users whose machine scope covers
//!   every machine it covered. Its file is served only while the reader's reach — the author's
//!   too — still covers every machine it covered (403 with the reason otherwise).

pub mod model;
mod service;

pub use model::*;
pub use service::*;
