//! Vendfleet application services (one module per area) and the ports they need.

pub mod auth;
pub mod config;
pub mod error;
pub mod listing;
pub mod ports;
pub mod records;
pub mod settings;
pub mod users;

#[cfg(feature = "testkit")]
pub mod testkit;

pub use error::{AppError, AppResult};

use std::sync::Arc;

/// Everything the HTTP layer needs, built once per process from the adapters.
#[derive(Clone)]
pub struct App {
    pub auth: auth::AuthService,
    pub users: users::UsersService,
    pub settings: settings::SettingsService,
    pub clock: Arc<dyn ports::Clock>,
}

impl App {
    /// Wires the services onto the given adapters.
    pub fn new(
        store: Arc<dyn ports::ItemStore>,
        clock: Arc<dyn ports::Clock>,
        settings: config::AuthSettings,
    ) -> Self {
        let directory = users::Directory::new(store.clone());
        App {
            auth: auth::AuthService::new(directory.clone(), clock.clone(), settings),
            users: users::UsersService::new(directory.clone(), clock.clone()),
            settings: settings::SettingsService::new(store, directory, clock.clone()),
            clock,
        }
    }
}
