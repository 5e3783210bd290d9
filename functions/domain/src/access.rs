//! Machine access scope: all machines, or the union of clients, locations, machine tags and machines.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

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

/// A machine as scope rules see it (owned, for the catalogue).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MachinePlace {
    pub location_id: Option<String>,
    pub tag_ids: Vec<String>,
}

/// What the fleet catalogue holds, as far as scopes are concerned: which ids exist, the client of
/// each location and the place of each machine.
#[derive(Debug, Clone, Default)]
pub struct ScopeCatalogue {
    pub client_ids: BTreeSet<String>,
    /// Location id → its client, if any.
    pub locations: BTreeMap<String, Option<String>>,
    pub machine_tag_ids: BTreeSet<String>,
    pub machines: BTreeMap<String, MachinePlace>,
}

impl ScopeCatalogue {
    /// The scope facts of a known machine.
    pub fn facts<'a>(&'a self, machine_id: &'a str) -> Option<MachineFacts<'a>> {
        let m = self.machines.get(machine_id)?;
        Some(MachineFacts {
            machine_id,
            location_id: m.location_id.as_deref(),
            client_id: m
                .location_id
                .as_ref()
                .and_then(|l| self.locations.get(l))
                .and_then(|c| c.as_deref()),
            tag_ids: &m.tag_ids,
        })
    }
}

/// Why one scope does not cover another: the first thing the wider scope holds beyond it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScopeGap {
    AllMachines,
    Client(String),
    Location(String),
    MachineTag(String),
    Machine(String),
}

impl ScopeGap {
    /// The form field the gap is about.
    pub fn field(&self) -> &'static str {
        match self {
            ScopeGap::AllMachines => "access_all_machines",
            ScopeGap::Client(_) => "client_ids",
            ScopeGap::Location(_) => "location_ids",
            ScopeGap::MachineTag(_) => "machine_tag_ids",
            ScopeGap::Machine(_) => "machine_ids",
        }
    }

    /// What lies beyond, in words.
    pub fn describe(&self) -> String {
        match self {
            ScopeGap::AllMachines => "access to all machines".into(),
            ScopeGap::Client(id) => format!("client {id}"),
            ScopeGap::Location(id) => format!("location {id}"),
            ScopeGap::MachineTag(id) => format!("machine tag {id}"),
            ScopeGap::Machine(id) => format!("machine {id}"),
        }
    }
}

impl MachineScope {
    /// Whether this scope covers `other` for good, not only for today's catalogue: every id
    /// `other` names lies inside this scope by the rule that will keep holding when machines
    /// move — a client only through the same client, a location through itself or its client,
    /// a machine tag only through the same tag (a tag can be put on any machine later), a machine
    /// through anything that admits it now. All machines is covered only by all machines.
    pub fn covers(&self, other: &MachineScope, catalogue: &ScopeCatalogue) -> Result<(), ScopeGap> {
        let MachineScope::Limited {
            client_ids,
            location_ids,
            machine_tag_ids,
            machine_ids,
        } = self
        else {
            return Ok(());
        };
        let MachineScope::Limited {
            client_ids: their_clients,
            location_ids: their_locations,
            machine_tag_ids: their_tags,
            machine_ids: their_machines,
        } = other
        else {
            return Err(ScopeGap::AllMachines);
        };
        if let Some(c) = their_clients.iter().find(|c| !client_ids.contains(*c)) {
            return Err(ScopeGap::Client(c.clone()));
        }
        if let Some(l) = their_locations.iter().find(|l| {
            !location_ids.contains(*l)
                && !catalogue
                    .locations
                    .get(*l)
                    .and_then(|c| c.as_ref())
                    .is_some_and(|c| client_ids.contains(c))
        }) {
            return Err(ScopeGap::Location(l.clone()));
        }
        if let Some(t) = their_tags.iter().find(|t| !machine_tag_ids.contains(*t)) {
            return Err(ScopeGap::MachineTag(t.clone()));
        }
        if let Some(m) = their_machines.iter().find(|m| {
            !machine_ids.contains(*m) && !catalogue.facts(m).is_some_and(|f| self.admits(&f))
        }) {
            return Err(ScopeGap::Machine(m.clone()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn limited(c: &[&str], l: &[&str], t: &[&str], m: &[&str]) -> MachineScope {
        MachineScope::Limited {
            client_ids: set(c),
            location_ids: set(l),
            machine_tag_ids: set(t),
            machine_ids: set(m),
        }
    }

    fn catalogue() -> ScopeCatalogue {
        let place = |l: Option<&str>, tags: &[&str]| MachinePlace {
            location_id: l.map(String::from),
            tag_ids: tags.iter().map(|s| s.to_string()).collect(),
        };
        ScopeCatalogue {
            client_ids: set(&["c1", "c2"]),
            locations: [
                ("l1".to_string(), Some("c1".to_string())),
                ("l2".to_string(), Some("c2".to_string())),
                ("l3".to_string(), None),
            ]
            .into_iter()
            .collect(),
            machine_tag_ids: set(&["t1", "t2"]),
            machines: [
                ("m1".to_string(), place(Some("l1"), &[])),
                ("m2".to_string(), place(Some("l2"), &["t1"])),
                ("m3".to_string(), place(Some("l3"), &[])),
            ]
            .into_iter()
            .collect(),
        }
    }

    #[test]
    fn coverage_follows_ids_not_todays_machines() {
        let cat = catalogue();
        let all = MachineScope::All;
        let c1 = limited(&["c1"], &[], &[], &[]);
        // All covers everything; nothing limited covers all.
        assert_eq!(all.covers(&c1, &cat), Ok(()));
        assert_eq!(all.covers(&all, &cat), Ok(()));
        assert_eq!(c1.covers(&all, &cat), Err(ScopeGap::AllMachines));
        // A client covers its locations and their machines, not another client's.
        assert_eq!(
            c1.covers(&limited(&[], &["l1"], &[], &["m1"]), &cat),
            Ok(())
        );
        assert_eq!(
            c1.covers(&limited(&[], &["l2"], &[], &[]), &cat),
            Err(ScopeGap::Location("l2".into()))
        );
        assert_eq!(
            c1.covers(&limited(&["c2"], &[], &[], &[]), &cat),
            Err(ScopeGap::Client("c2".into()))
        );
        // A location does not cover its client, nor a tag; a tag only the same tag.
        let l1 = limited(&[], &["l1"], &[], &[]);
        assert_eq!(
            l1.covers(&limited(&["c1"], &[], &[], &[]), &cat),
            Err(ScopeGap::Client("c1".into()))
        );
        assert_eq!(
            l1.covers(&limited(&[], &[], &["t1"], &[]), &cat),
            Err(ScopeGap::MachineTag("t1".into()))
        );
        let t1 = limited(&[], &[], &["t1"], &[]);
        assert_eq!(t1.covers(&limited(&[], &[], &[], &["m2"]), &cat), Ok(()));
        assert_eq!(
            t1.covers(&limited(&[], &[], &[], &["m1"]), &cat),
            Err(ScopeGap::Machine("m1".into()))
        );
        // Unknown machines are never covered by a limited scope.
        assert_eq!(
            l1.covers(&limited(&[], &[], &[], &["nope"]), &cat),
            Err(ScopeGap::Machine("nope".into()))
        );
        // Every scope covers itself and the empty scope.
        for s in [&c1, &l1, &t1] {
            assert_eq!(s.covers(s, &cat), Ok(()));
            assert_eq!(s.covers(&limited(&[], &[], &[], &[]), &cat), Ok(()));
        }
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
