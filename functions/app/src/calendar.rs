//! The operator's calendar: the clock read in the operator's time zone (used by every area that
//! speaks of "today", "this month" or a location's local day).

use std::sync::Arc;

use crate::{config, ports};

/// The operator's calendar: the clock read in the operator's time zone.
#[derive(Clone)]
pub struct Calendar {
    clock: Arc<dyn ports::Clock>,
    operator: config::OperatorSettings,
}

impl Calendar {
    /// A calendar on `clock` in the operator's zone.
    pub fn new(clock: Arc<dyn ports::Clock>, operator: config::OperatorSettings) -> Self {
        Calendar { clock, operator }
    }

    /// The operator's settings (zone, name, public address).
    pub fn operator(&self) -> &config::OperatorSettings {
        &self.operator
    }

    /// The operator's time zone.
    pub fn time_zone(&self) -> chrono_tz::Tz {
        self.operator.time_zone
    }

    /// The current instant.
    pub fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.clock.now()
    }

    /// The operator's local date now.
    pub fn today(&self) -> chrono::NaiveDate {
        vendfleet_domain::calendar::local_date(self.clock.now(), self.operator.time_zone)
    }

    /// The zone of a location: its own when it names a valid one, else the operator's.
    pub fn zone_or_operator(&self, zone: Option<&str>) -> chrono_tz::Tz {
        zone.and_then(vendfleet_domain::calendar::parse_zone)
            .unwrap_or(self.operator.time_zone)
    }
}
