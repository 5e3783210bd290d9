//! The reach rule of user administration: nobody grants what they do not hold, for machine
//! access as for permissions. A caller administers a user only when the user's permissions and
//! machine access lie within the caller's own, and grants only ids inside their own scope.

use super::model::{Role, User};
use super::Principal;
use crate::error::{AppError, AppResult};
use async_trait::async_trait;
use std::collections::HashMap;
use vendfleet_domain::{FieldErrors, Grants, MachineScope, ScopeCatalogue, ScopeGap};

/// What the fleet catalogue publishes for scope checks (the machines area implements it).
#[async_trait]
pub trait ScopeCatalogueSource: Send + Sync {
    /// Every client, location (with its client), machine tag and machine (with its place).
    async fn scope_catalogue(&self) -> AppResult<ScopeCatalogue>;
}

/// The caller's reach, with the catalogue and roles it is judged against.
pub struct Reach<'a> {
    actor: &'a Principal,
    scope: MachineScope,
    pub(super) catalogue: ScopeCatalogue,
    roles: &'a HashMap<String, Role>,
}

/// Why a user lies beyond the caller's reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Beyond {
    AllModules,
    Permissions,
    Scope(ScopeGap),
}

impl Beyond {
    fn field(&self) -> &'static str {
        match self {
            Beyond::AllModules => "access_all_modules",
            Beyond::Permissions => "role_id",
            Beyond::Scope(g) => g.field(),
        }
    }

    fn reason(&self) -> String {
        match self {
            Beyond::AllModules => "access to all modules".into(),
            Beyond::Permissions => "permissions you do not hold".into(),
            Beyond::Scope(g) => g.describe(),
        }
    }
}

impl<'a> Reach<'a> {
    /// The reach of `actor`.
    pub fn new(
        actor: &'a Principal,
        catalogue: ScopeCatalogue,
        roles: &'a HashMap<String, Role>,
    ) -> Self {
        Reach {
            actor,
            scope: actor.machine_scope(),
            catalogue,
            roles,
        }
    }

    fn grants_of(&self, u: &User) -> Grants {
        u.grants(u.role_id.as_ref().and_then(|r| self.roles.get(r)))
    }

    /// What of `u` lies beyond the caller, if anything.
    pub fn beyond(&self, u: &User) -> Option<Beyond> {
        let grants = self.grants_of(u);
        if !self.actor.grants.covers(&grants) {
            return Some(if grants == Grants::All {
                Beyond::AllModules
            } else {
                Beyond::Permissions
            });
        }
        self.scope
            .covers(&u.machine_scope(), &self.catalogue)
            .err()
            .map(Beyond::Scope)
    }

    /// Whether the caller may administer `u`.
    pub fn reaches(&self, u: &User) -> bool {
        self.beyond(u).is_none()
    }

    /// 403 unless the caller may administer `u` as it stands.
    pub fn require_reach(&self, u: &User) -> AppResult<()> {
        match self.beyond(u) {
            None => Ok(()),
            Some(b) => Err(AppError::OutOfReach {
                message: format!(
                    "You cannot manage {}: they have {}, beyond your own access.",
                    u.email,
                    b.reason()
                ),
                errors: FieldErrors::new(),
            }),
        }
    }

    /// 403 unless what the caller is about to give `u` lies within the caller's own access.
    pub fn require_grantable(&self, u: &User) -> AppResult<()> {
        match self.beyond(u) {
            None => Ok(()),
            Some(b) => {
                let message = format!(
                    "You cannot grant {}: it is beyond your own access.",
                    b.reason()
                );
                Err(AppError::OutOfReach {
                    errors: FieldErrors::single(b.field(), &message),
                    message,
                })
            }
        }
    }

    /// 400 on the field for newly given ids the catalogue does not know. Ids the user already
    /// held stay (a deleted location does not block their form).
    pub fn check_known(&self, errors: &mut FieldErrors, before: &User, after: &User) {
        let c = &self.catalogue;
        let mut check =
            |field: &str, old: &[String], new: &[String], known: &dyn Fn(&str) -> bool| {
                for id in new.iter().filter(|id| !old.contains(id)) {
                    if !known(id) {
                        errors.add(field, format!("Unknown id: {id}."));
                    }
                }
            };
        check("client_ids", &before.client_ids, &after.client_ids, &|id| {
            c.client_ids.contains(id)
        });
        check(
            "location_ids",
            &before.location_ids,
            &after.location_ids,
            &|id| c.locations.contains_key(id),
        );
        check(
            "machine_tag_ids",
            &before.machine_tag_ids,
            &after.machine_tag_ids,
            &|id| c.machine_tag_ids.contains(id),
        );
        check(
            "machine_ids",
            &before.machine_ids,
            &after.machine_ids,
            &|id| c.machines.contains_key(id),
        );
    }
}
