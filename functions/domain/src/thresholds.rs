//! The operator's thresholds: when a selection is low, stock is expiring, a cash box is full and a
//! machine is offline. The dashboard's attention rules (`attention`) and route planning's needs
//! (`planning`) both read them; neither depends on the other.

use serde::{Deserialize, Serialize};

/// A machine that has reported nothing for this long is offline (or its data is stale).
pub const STALE_HOURS: i64 = 24;
/// A selection holding less than this share of its max is low.
pub const LOW_SHARE_PCT: u32 = 25;
/// [`LOW_SHARE_PCT`] as a share.
pub const LOW_SHARE: f64 = LOW_SHARE_PCT as f64 / 100.0;
/// Stock expiring within this many days (or already expired) needs a visit.
pub const EXPIRY_DAYS: i64 = 3;
/// A cash box holding at least this much (minor units) should be collected.
pub const CASH_BOX_FULL_MINOR: i64 = 10_000;

/// Thresholds that decide need; one set per operator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// A selection below this share of its max (percent) is low.
    pub low_share_pct: u32,
    /// Stock expiring within this many days needs a visit.
    pub expiry_days: i64,
    /// Cash box amount (minor units) at which the machine should be collected.
    pub auto_collect_minor: i64,
    /// Hours without an event after which a machine is offline.
    pub stale_hours: i64,
    /// Days ahead in which a selection predicted to go low makes the need `soon`.
    pub horizon_days: i64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            low_share_pct: LOW_SHARE_PCT,
            expiry_days: EXPIRY_DAYS,
            auto_collect_minor: CASH_BOX_FULL_MINOR,
            stale_hours: STALE_HOURS,
            horizon_days: 2,
        }
    }
}

impl Thresholds {
    /// The level under which a selection of capacity `max` is low.
    pub fn low_level(&self, max: i64) -> f64 {
        max as f64 * f64::from(self.low_share_pct) / 100.0
    }
}
