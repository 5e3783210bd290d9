//! Planning: which machines to visit (ranked by need, within the user's machine scope), what to
//! bring (predictive picklists), in which order (a VRP solver for several refillers), and the
//! planned routes from loading to the visit report.

mod kept;
pub mod model;
mod service;
pub mod solver;

pub use kept::MachineState;
pub use model::*;
pub use service::*;
