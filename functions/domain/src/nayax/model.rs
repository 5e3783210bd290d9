//! The feeds and why a message cannot be read.

use serde::{Deserialize, Serialize};

/// The three feeds Nayax Core delivers, one queue each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = NayaxFeed))]
#[serde(rename_all = "snake_case")]
pub enum Feed {
    Transactions,
    Events,
    Dex,
}

impl Feed {
    pub const ALL: [Feed; 3] = [Feed::Transactions, Feed::Events, Feed::Dex];

    /// The feed's key (`transactions`, `events`, `dex`).
    pub fn key(self) -> &'static str {
        match self {
            Feed::Transactions => "transactions",
            Feed::Events => "events",
            Feed::Dex => "dex",
        }
    }
}

/// Why a message cannot be read: it is kept with this reason, never booked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("not JSON: {0}")]
    NotJson(String),
    #[error("not a JSON object")]
    NotAnObject,
    #[error("{field} is missing")]
    Missing { field: &'static str },
    #[error("{field} is not {expected}: {found}")]
    Invalid {
        field: String,
        expected: &'static str,
        found: String,
    },
}
