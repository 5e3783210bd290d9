//! Machines, machine tags, selections (the planogram) and refill-log entries as stored.

use crate::named_record;
use crate::ports::{Item, Key};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// Version of the stored shape of machine entities.
pub const SCHEMA: u32 = 1;

/// A payment or change device fitted to a machine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Device {
    pub fitted: bool,
    #[serde(default)]
    pub serial: String,
    #[serde(default)]
    pub model: String,
}

/// The peripherals of a machine.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Peripherals {
    #[serde(default)]
    pub coin_changer: Device,
    #[serde(default)]
    pub bill_validator: Device,
    #[serde(default)]
    pub cashless: Device,
}

crate::entity! {
    /// One vending machine.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Machine {
        /// The machine's own serial number.
        #[serde(default)]
        pub serial: String,
        /// Serial of the telemetry modem (MCU).
        #[serde(default)]
        pub mcu_serial: String,
        pub model_id: Option<String>,
        pub location_id: Option<String>,
        #[serde(default)]
        pub firmware: String,
        /// How the machine reports: telemetry, audit (DEX read) or none.
        #[serde(default)]
        pub connection_method: String,
        /// Audit protocol, e.g. EVA-DTS.
        #[serde(default)]
        pub protocol: String,
        #[serde(default)]
        pub inactive: bool,
        #[serde(default)]
        pub tag_ids: Vec<String>,
        #[serde(default)]
        pub peripherals: Peripherals,
        /// ISO 4217 currency of the machine's prices.
        pub currency: String,
        /// Decimal places of the currency, for audits that omit them.
        pub decimal_places: u8,
        /// HMAC key of the machine's webhook (hex); shown only when made.
        pub webhook_secret: String,
        /// Where the machine's sales come from: its vend events, or the differences between its
        /// EVA-DTS audits.
        #[serde(default)]
        pub sales_source: SalesSource,
        /// The card processor's terminal id (settlement files name machines by it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub terminal_id: Option<String>,
        /// The machine's id at Nayax (`MachineId` in Nayax Core's messages): its data-source
        /// messages name the machine by it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub nayax_machine_id: Option<String>,
    }
}

/// Where a machine's sales figures come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SalesSource {
    /// Vend events; audits only reconcile.
    #[default]
    Events,
    /// Differences between consecutive EVA-DTS audit reads.
    Audit,
}

impl Machine {
    /// The prefix of a machine's partition (its selections, audits, status, refill log …).
    pub const PARTITION: &'static str = "MACHINE#";

    /// A machine's partition: the one key every record of the machine is stored under.
    pub fn partition(machine_id: &str) -> String {
        format!("{}{machine_id}", Self::PARTITION)
    }

    /// GSI2 partition of the machines at a location.
    pub fn location_partition(location_id: &str) -> String {
        format!("LOCMACHINES#{location_id}")
    }
}

named_record!(Machine, "MACHINE", "Machine", |m| {
    m.location_id
        .as_ref()
        .map(|l| (Machine::location_partition(l), Machine::partition(&m.id)))
});

/// A tag grouping machines (route, region, customer segment …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineTag {
    pub id: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
    #[serde(skip)]
    pub version: u64,
}

named_record!(MachineTag, "MTAG", "Tag");

/// One slot of a machine's planogram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    pub machine_id: String,
    /// The selection code shown on the machine (e.g. "12", "A3").
    pub selection: String,
    pub product_id: String,
    /// Capacity of the slot.
    pub max: i64,
    /// Selling price, minor units of the machine's currency.
    pub price_minor: i64,
    /// Units in the slot now.
    pub current: i64,
    pub expiry_date: Option<NaiveDate>,
    /// Last vend from this slot (telemetry; unknown until events arrive).
    #[serde(default)]
    pub last_purchase: Option<DateTime<Utc>>,
    /// Denormalised for "in use" messages.
    #[serde(default)]
    pub machine_name: String,
    pub updated_at: DateTime<Utc>,
    #[serde(skip)]
    pub version: u64,
}

impl Selection {
    /// Sort-key prefix of selections in a machine's partition.
    pub const PREFIX: &'static str = "SEL#";

    /// The item key.
    pub fn key(machine_id: &str, selection: &str) -> Key {
        Key::new(
            Machine::partition(machine_id),
            format!("{}{selection}", Self::PREFIX),
        )
    }

    /// GSI2 partition of the selections selling a product.
    pub fn product_partition(product_id: &str) -> String {
        format!("PRODUCTUSE#{product_id}")
    }

    /// GSI1 partition of every selection of the fleet.
    pub const FLEET: &'static str = "SELECTIONS";

    /// The store item (fleet-wide in GSI1, under its product in GSI2).
    pub fn to_item(&self) -> Result<Item, crate::ports::StoreError> {
        Ok(
            Item::from_value(Self::key(&self.machine_id, &self.selection), self)?
                .with_gsi1(
                    Self::FLEET,
                    format!("{}#{}", self.machine_id, self.selection),
                )
                .with_gsi2(
                    Self::product_partition(&self.product_id),
                    format!("SEL#{}#{}", self.machine_id, self.selection),
                )
                .with_version(self.version),
        )
    }

    /// The selection stored in `item`.
    pub fn from_item(item: &Item) -> Result<Selection, crate::ports::StoreError> {
        let mut s: Selection = item.to_value()?;
        s.version = item.version;
        Ok(s)
    }

    /// The one way a stock change is stored, whoever makes it (the planogram, machine events,
    /// a route's visit): this selection becomes the next version of the one read at
    /// `read_version` (changed at `now`), written only if the store still holds that version.
    pub fn stock_write(
        &mut self,
        read_version: u64,
        now: DateTime<Utc>,
    ) -> Result<crate::ports::Write, crate::ports::StoreError> {
        self.version = read_version + 1;
        self.updated_at = now;
        Ok(crate::ports::Write::Put {
            item: self.to_item()?,
            condition: Some(crate::ports::Condition::VersionIs(read_version)),
        })
    }
}

/// The machine a log's row is of (a refill, a cash collection, a sale), with its name and its
/// location as they were when the row was written: a log reads as it was on the day.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct MachineStamp {
    pub machine_id: String,
    pub machine_name: String,
    pub location_id: Option<String>,
    pub location_name: Option<String>,
}

impl MachineStamp {
    /// `machine` where it stands now (`location`: its location's record, when it has one).
    pub fn of(machine: &Machine, location: Option<&super::Location>) -> MachineStamp {
        MachineStamp {
            machine_id: machine.id.clone(),
            machine_name: machine.name.clone(),
            location_id: machine.location_id.clone(),
            location_name: location.map(|l| l.name.clone()),
        }
    }
}

/// One line of the refill log: a stock change of one selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RefillEntry {
    pub id: String,
    pub at: DateTime<Utc>,
    /// The day in the location's time zone.
    pub local_date: NaiveDate,
    #[serde(flatten)]
    pub stamp: MachineStamp,
    pub employee_id: String,
    pub employee_name: String,
    /// What made the change: manual, fill-stock, empty-stock, copy-products.
    pub source: String,
    pub selection: String,
    pub product_id: String,
    pub product_name: String,
    pub added: i64,
    pub removed: i64,
}

impl RefillEntry {
    /// The item: in the machine's partition by time, and fleet-wide by local day in GSI1.
    pub fn to_item(&self) -> Result<Item, crate::ports::StoreError> {
        Ok(Item::from_value(
            Key::new(
                Machine::partition(&self.stamp.machine_id),
                format!("REFILL#{}", self.id),
            ),
            self,
        )?
        .with_gsi1(
            format!("REFILLDAY#{}", self.local_date),
            format!("{}#{}", self.at.to_rfc3339(), self.id),
        ))
    }
}

/// A change of a selection's selling price, with who made it and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectionPriceChange {
    pub id: String,
    pub at: DateTime<Utc>,
    pub machine_id: String,
    pub selection: String,
    pub product_id: String,
    /// None when the selection was created.
    pub old_price_minor: Option<i64>,
    pub new_price_minor: i64,
    pub changed_by_id: String,
    pub changed_by: String,
}

impl SelectionPriceChange {
    /// The item, in the machine's partition in time order.
    pub fn to_item(&self) -> Result<Item, crate::ports::StoreError> {
        Item::from_value(
            Key::new(
                Machine::partition(&self.machine_id),
                format!("PRICE#{}", self.id),
            ),
            self,
        )
    }
}
