//! The state every handler sees.

use std::sync::Arc;
use vendfleet_app::App;

/// Shared handler state.
#[derive(Clone)]
pub struct AppState {
    pub app: Arc<App>,
    /// Exports of at most this many rows answer the file at once; larger ones become a job
    /// (`VENDFLEET_EXPORT_INLINE_ROWS`, default 5,000).
    pub inline_export_rows: usize,
}

/// Rows an export answers inline by default.
pub const INLINE_EXPORT_ROWS: usize = 5_000;

impl AppState {
    /// State over `app`, the inline export limit from `VENDFLEET_EXPORT_INLINE_ROWS`.
    pub fn new(app: App) -> Self {
        let inline_export_rows = std::env::var("VENDFLEET_EXPORT_INLINE_ROWS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(INLINE_EXPORT_ROWS);
        AppState {
            app: Arc::new(app),
            inline_export_rows,
        }
    }

    /// The same state with another inline export limit (tests).
    pub fn with_inline_export_rows(mut self, rows: usize) -> Self {
        self.inline_export_rows = rows;
        self
    }
}
