//! What a stored entity is: the [`Record`] and [`Stamped`] traits, the macros that declare
//! one (`entity!`, `record!`, `named_record!`, `stamped!`) and the version check.

use crate::error::{AppError, AppResult};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// A stored entity.
pub trait Record: Serialize + DeserializeOwned + Clone + Send + Sync + 'static {
    /// Upper-case kind, the key prefix (`CLIENT`).
    const KIND: &'static str;
    /// What people call one (`Client`), for messages.
    const LABEL: &'static str;
    /// The id.
    fn id(&self) -> &str;
    /// The stored version (not serialised; set from the item).
    fn version(&self) -> u64;
    /// Sets the version.
    fn set_version(&mut self, version: u64);
    /// A relation to index in GSI2 as (partition, sort), e.g. locations of a client.
    fn relation(&self) -> Option<(String, String)> {
        None
    }
    /// A value that must be unique among records of this kind (compared lower-case), with the
    /// field it comes from.
    fn unique(&self) -> Option<(&'static str, String)> {
        None
    }
}

/// A record that carries when it last changed (`updated_at`).
pub trait Stamped {
    /// Sets `updated_at`.
    fn stamp(&mut self, at: chrono::DateTime<chrono::Utc>);
}

/// Implements [`Stamped`] for entities with an `updated_at` field: `stamped!(Client, Location)`.
#[macro_export]
macro_rules! stamped {
    ($($t:ty),+ $(,)?) => {
        $( impl $crate::records::Stamped for $t {
            fn stamp(&mut self, at: chrono::DateTime<chrono::Utc>) {
                self.updated_at = at;
            }
        } )+
    };
}

/// Declares an entity as stored: `id`, `name`, the fields given, then `created_at`,
/// `updated_at`, the store's `version` (not serialised: the store keeps it beside the item) and
/// the stored `schema`, with its [`Stamped`]. `record "KIND", "Label";` after the struct (and a
/// GSI2 relation, as for [`named_record!`]) makes it a [`Record`] too:
///
/// ```ignore
/// entity! {
///     /// A make and type of machine.
///     #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
///     pub struct MachineModel {
///         #[serde(default)]
///         pub manufacturer: String,
///     }
///     record "MODEL", "Machine model";
/// }
/// ```
#[macro_export]
macro_rules! entity {
    (
        $(#[$meta:meta])*
        pub struct $t:ident { $($fields:tt)* }
        $(record $kind:literal, $label:literal $(, $relation:expr)?;)?
    ) => {
        $(#[$meta])*
        pub struct $t {
            pub id: String,
            pub name: String,
            $($fields)*
            pub created_at: chrono::DateTime<chrono::Utc>,
            pub updated_at: chrono::DateTime<chrono::Utc>,
            #[serde(skip)]
            pub version: u64,
            #[serde(default)]
            pub schema: u32,
        }
        $crate::stamped!($t);
        $( $crate::named_record!($t, $kind, $label $(, $relation)?); )?
    };
}

/// 409 when the caller loaded the record at another version than the stored one.
pub fn check_version<T: Record>(expected: Option<u64>, current: &T) -> AppResult<()> {
    match expected {
        Some(v) if v != current.version() => Err(AppError::stale()),
        _ => Ok(()),
    }
}

/// Implements [`Record`] for a record with `id` and a `#[serde(skip)] version` field, no unique
/// name: `record!(ScheduledTask, "QTASK", "Scheduled task")`, or with a GSI2 relation as a fourth
/// argument, as for [`named_record!`].
#[macro_export]
macro_rules! record {
    ($t:ty, $kind:literal, $label:literal) => {
        $crate::record!($t, $kind, $label, |_: &$t| None);
    };
    ($t:ty, $kind:literal, $label:literal, $relation:expr) => {
        $crate::record!(@impl $t, $kind, $label, $relation, |_: &$t| None);
    };
    (@impl $t:ty, $kind:literal, $label:literal, $relation:expr, $unique:expr) => {
        impl $crate::records::Record for $t {
            const KIND: &'static str = $kind;
            const LABEL: &'static str = $label;
            fn id(&self) -> &str {
                &self.id
            }
            fn version(&self) -> u64 {
                self.version
            }
            fn set_version(&mut self, version: u64) {
                self.version = version;
            }
            fn relation(&self) -> Option<(String, String)> {
                let relation: fn(&$t) -> Option<(String, String)> = $relation;
                relation(self)
            }
            fn unique(&self) -> Option<(&'static str, String)> {
                let unique: fn(&$t) -> Option<(&'static str, String)> = $unique;
                unique(self)
            }
        }
    };
}

/// Implements [`Record`] for an entity with `id`, `name` (unique) and a `#[serde(skip)] version`
/// field: `named_record!(Client, "CLIENT", "Client")`, or with a GSI2 relation as a fourth
/// argument, a function of the record: `named_record!(Location, "LOCATION", "Location", |l| …)`.
#[macro_export]
macro_rules! named_record {
    ($t:ty, $kind:literal, $label:literal) => {
        $crate::named_record!($t, $kind, $label, |_: &$t| None);
    };
    ($t:ty, $kind:literal, $label:literal, $relation:expr) => {
        $crate::record!(@impl $t, $kind, $label, $relation, |r: &$t| Some((
            "name",
            r.name.clone()
        )));
    };
}

/// The longest id a record may have (ids are ULIDs; anything longer is nobody's).
pub const MAX_ID_BYTES: usize = 255;
