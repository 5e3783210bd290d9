//! Clients, locations and machine models as stored.

use crate::named_record;
use serde::{Deserialize, Serialize};

/// Version of the stored shape of settings entities.
pub const SCHEMA: u32 = 1;

crate::entity! {
    /// A business that hosts machines at its sites and may get a commission.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Client {
        #[serde(default)]
        pub contact_name: String,
        #[serde(default)]
        pub email: String,
        #[serde(default)]
        pub phone: String,
        /// Commission on sales, basis points (0–10,000).
        #[serde(default)]
        pub commission_bps: u32,
    }
    record "CLIENT", "Client";
}

crate::entity! {
    /// A site where machines stand.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Location {
        #[serde(default)]
        pub address: String,
        /// Kind of site (office, school, hospital …); free text offered from earlier values.
        #[serde(default)]
        pub location_type: String,
        #[serde(default)]
        pub region: String,
        #[serde(default)]
        pub client_id: Option<String>,
        /// The employee who refills the location's machines.
        #[serde(default)]
        pub refiller_id: Option<String>,
        #[serde(default)]
        pub latitude: Option<f64>,
        #[serde(default)]
        pub longitude: Option<f64>,
        /// IANA time zone the location's sales days are counted in.
        pub time_zone: String,
    }
}

impl Location {
    /// GSI2 partition of the locations of a client.
    pub fn client_partition(client_id: &str) -> String {
        format!("CLIENTLOCATIONS#{client_id}")
    }
}
named_record!(Location, "LOCATION", "Location", |l| {
    l.client_id
        .as_ref()
        .map(|c| (Location::client_partition(c), format!("LOCATION#{}", l.id)))
});

crate::entity! {
    /// A make and type of machine.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct MachineModel {
        #[serde(default)]
        pub model_type: String,
        #[serde(default)]
        pub manufacturer: String,
    }
    record "MODEL", "Machine model";
}
