//! The state every handler sees.

use std::sync::Arc;
use vendfleet_app::App;

/// Shared handler state.
#[derive(Clone)]
pub struct AppState {
    pub app: Arc<App>,
}

impl AppState {
    /// State over `app`.
    pub fn new(app: App) -> Self {
        AppState { app: Arc::new(app) }
    }
}
