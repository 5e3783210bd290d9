//! Machine access scope: all machines, or the union of clients, locations, machine tags and machines.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a user may see of the fleet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MachineScope {
    /// Every machine of the operator.
    All,
    /// The union of these sets.
    Limited {
        client_ids: BTreeSet<String>,
        location_ids: BTreeSet<String>,
        machine_tag_ids: BTreeSet<String>,
        machine_ids: BTreeSet<String>,
    },
}

/// The facts about one machine that scope rules look at.
#[derive(Debug, Clone, Default)]
pub struct MachineFacts<'a> {
    pub machine_id: &'a str,
    pub location_id: Option<&'a str>,
    pub client_id: Option<&'a str>,
    pub tag_ids: &'a [String],
}

impl MachineScope {
    /// Whether the scope admits the machine described by `m`.
    pub fn admits(&self, m: &MachineFacts<'_>) -> bool {
        match self {
            MachineScope::All => true,
            MachineScope::Limited {
                client_ids,
                location_ids,
                machine_tag_ids,
                machine_ids,
            } => {
                machine_ids.contains(m.machine_id)
                    || m.location_id.is_some_and(|l| location_ids.contains(l))
                    || m.client_id.is_some_and(|c| client_ids.contains(c))
                    || m.tag_ids.iter().any(|t| machine_tag_ids.contains(t))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn limited_scope_is_a_union() {
        let scope = MachineScope::Limited {
            client_ids: set(&["c1"]),
            location_ids: set(&["l1"]),
            machine_tag_ids: set(&["t1"]),
            machine_ids: set(&["m9"]),
        };
        let tags = vec!["t1".to_string()];
        assert!(scope.admits(&MachineFacts {
            machine_id: "m9",
            ..Default::default()
        }));
        assert!(scope.admits(&MachineFacts {
            machine_id: "m1",
            location_id: Some("l1"),
            ..Default::default()
        }));
        assert!(scope.admits(&MachineFacts {
            machine_id: "m1",
            client_id: Some("c1"),
            ..Default::default()
        }));
        assert!(scope.admits(&MachineFacts {
            machine_id: "m1",
            tag_ids: &tags,
            ..Default::default()
        }));
        assert!(!scope.admits(&MachineFacts {
            machine_id: "m2",
            location_id: Some("l2"),
            ..Default::default()
        }));
        assert!(MachineScope::All.admits(&MachineFacts {
            machine_id: "x",
            ..Default::default()
        }));
    }
}
