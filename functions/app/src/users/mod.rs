//! Users and roles: administration of who signs in and what they may do.

mod directory;
mod model;
mod principal;
mod reach;
mod service;

pub use crate::listing::{ListPage, ListParams};
pub use directory::Directory;
pub use model::{Role, User, SCHEMA};
pub use principal::Principal;
pub use reach::{Beyond, Reach, ScopeCatalogueSource};
pub use service::{
    RoleInput, RoleView, UserInput, UserListParams, UserView, UsersService, MAX_DELETE,
};
