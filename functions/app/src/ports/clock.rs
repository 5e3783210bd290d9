//! The clock port: injectable time.

use chrono::{DateTime, Duration, Utc};
use std::sync::Mutex;

/// Tells the time.
pub trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that only moves when told to (tests).
#[derive(Debug)]
pub struct ManualClock(Mutex<DateTime<Utc>>);

impl ManualClock {
    /// A clock standing at `at`.
    pub fn new(at: DateTime<Utc>) -> Self {
        ManualClock(Mutex::new(at))
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *t += by;
    }

    /// Sets the clock.
    pub fn set(&self, at: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = at;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A clock that starts at a given instant and runs on at the system's pace from there: the
/// embedded server's `VENDFLEET_CLOCK_START` (browser tests and demos that need a fixed hour,
/// e.g. "today so far" at 09:00).
#[derive(Debug, Clone, Copy)]
pub struct StartedClock {
    start: DateTime<Utc>,
    began: std::time::Instant,
}

impl StartedClock {
    /// A clock showing `start` now.
    pub fn new(start: DateTime<Utc>) -> Self {
        StartedClock {
            start,
            began: std::time::Instant::now(),
        }
    }
}

impl Clock for StartedClock {
    fn now(&self) -> DateTime<Utc> {
        let elapsed = Duration::from_std(self.began.elapsed()).unwrap_or_default();
        self.start + elapsed
    }
}
