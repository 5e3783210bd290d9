//! Fixed-window counters on the item store, for sign-in rate limits.

use crate::error::AppResult;
use crate::ports::{Condition, Item, ItemStore, Key, StoreError};
use std::sync::Arc;

/// Counts events per subject in fixed windows; counters expire with their window.
#[derive(Clone)]
pub struct RateLimiter {
    store: Arc<dyn ItemStore>,
    window_secs: i64,
}

impl RateLimiter {
    /// A limiter with windows of `window_secs`.
    pub fn new(store: Arc<dyn ItemStore>, window_secs: i64) -> Self {
        RateLimiter {
            store,
            window_secs: window_secs.max(1),
        }
    }

    fn key(&self, subject: &str, now_secs: i64) -> (Key, i64) {
        let start = now_secs - now_secs.rem_euclid(self.window_secs);
        (
            Key::new(format!("RATE#{subject}"), format!("W#{start}")),
            start + self.window_secs,
        )
    }

    /// The count in the current window.
    pub async fn count(&self, subject: &str, now_secs: i64) -> AppResult<i64> {
        let (key, _) = self.key(subject, now_secs);
        Ok(self
            .store
            .get(&key)
            .await?
            .and_then(|i| i.attrs.get("n").and_then(|v| v.as_i64()))
            .unwrap_or(0))
    }

    /// Adds one to the current window and returns the new count; the counter item expires when
    /// the window ends.
    pub async fn hit(&self, subject: &str, now_secs: i64) -> AppResult<i64> {
        let (key, end) = self.key(subject, now_secs);
        // Create the window's counter with its expiry first (a no-op when it exists), so the
        // add below never races with a write of the expiry.
        let fresh = Item::new(key.clone(), serde_json::Map::new()).with_ttl(end + 60);
        match self.store.put(fresh, Some(Condition::NotExists)).await {
            Ok(()) | Err(StoreError::ConditionFailed { .. }) => {}
            Err(e) => return Err(e.into()),
        }
        Ok(self.store.add(&key, "n", 1).await?)
    }

    /// Seconds until the current window ends.
    pub fn retry_after(&self, now_secs: i64) -> u64 {
        (self.window_secs - now_secs.rem_euclid(self.window_secs)) as u64
    }
}
