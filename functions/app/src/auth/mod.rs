//! Sign-in, tokens, the signed-in user's profile and self-service (registration, language).

pub mod rate_limit;
mod service;
pub mod token;

pub use crate::password;
pub use crate::users::Principal;
pub use service::*;
