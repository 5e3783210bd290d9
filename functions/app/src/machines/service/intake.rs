//! What the machines area publishes to machine-event intake: the machine with its location and
//! planogram (the webhook, which has no user, finds a machine through `machines()`).

use super::*;
use chrono_tz::Tz;

/// A machine as intake needs it: the machine, its location, the zone its days are counted in,
/// and its planogram (selections with their stored versions).
#[derive(Debug, Clone)]
pub struct MachineContext {
    pub machine: Machine,
    pub location: Option<Location>,
    pub zone: Tz,
    pub selections: Vec<Selection>,
}

impl MachinesService {
    /// The machine, its location, zone and planogram; `None` when it does not exist.
    pub async fn intake_context(&self, id: &str) -> AppResult<Option<MachineContext>> {
        let Some(machine) = self.machines.get(id).await? else {
            return Ok(None);
        };
        Ok(Some(self.intake_context_of(machine).await?))
    }

    /// [`MachinesService::intake_context`] of a machine already read (the webhook's, which
    /// read it to check the signature).
    pub async fn intake_context_of(&self, machine: Machine) -> AppResult<MachineContext> {
        let id = machine.id.clone();
        let location = match &machine.location_id {
            Some(l) => self.fleet.locations().get(l).await?,
            None => None,
        };
        let zone = self
            .calendar
            .zone_or_operator(location.as_ref().map(|l| l.time_zone.as_str()));
        let selections = self.raw_selections(&id).await?;
        Ok(MachineContext {
            machine,
            location,
            zone,
            selections,
        })
    }
}
