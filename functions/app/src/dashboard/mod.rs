//! The dashboard: today and this month against the span before, the top products and machines
//! of the month, and the machines that need attention — all within the user's machine scope,
//! each part only for a user who may see the report behind it.

mod model;
mod service;

pub use model::*;
pub use service::*;
