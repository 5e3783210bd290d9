//! Vendfleet application services (one module per area) and the ports they need.

pub mod auth;
pub mod config;
pub mod error;
pub mod listing;
pub mod machines;
pub mod ports;
pub mod products;
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
    pub machines: machines::MachinesService,
    pub products: products::ProductsService,
    pub clock: Arc<dyn ports::Clock>,
}

impl App {
    /// Wires the services onto the given adapters.
    pub fn new(
        store: Arc<dyn ports::ItemStore>,
        clock: Arc<dyn ports::Clock>,
        auth_settings: config::AuthSettings,
    ) -> Self {
        let directory = users::Directory::new(store.clone());
        let settings =
            settings::SettingsService::new(store.clone(), directory.clone(), clock.clone());
        App {
            auth: auth::AuthService::new(directory.clone(), clock.clone(), auth_settings),
            users: users::UsersService::new(directory.clone(), clock.clone()),
            machines: machines::MachinesService::new(
                store.clone(),
                settings.clone(),
                clock.clone(),
            ),
            products: products::ProductsService::new(store.clone(), clock.clone()),
            settings,
            clock,
        }
    }
}
