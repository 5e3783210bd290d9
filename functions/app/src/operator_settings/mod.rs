//! Operator settings: the operator's policy on data leaving the system: the e-mail domains scheduled reports may
//! be mailed to (beyond the operator's own users), and the shortest interval between a
//! scheduled task's runs. One record, changed only by an all-machines administrator.

mod model;
mod service;

pub use model::*;
pub use service::*;
