//! The signed-in user with what they may do: their role's grants and their machine scope.

use super::model::{Role, User};
use crate::error::{AppError, AppResult};
use vendfleet_domain::{Grants, MachineScope, Permission};

/// The signed-in user with what they may do.
#[derive(Debug, Clone)]
pub struct Principal {
    pub user: User,
    pub role: Option<Role>,
    pub grants: Grants,
}

impl Principal {
    /// Builds the principal of `user` holding `role`.
    pub fn new(user: User, role: Option<Role>) -> Self {
        let grants = user.grants(role.as_ref());
        Principal { user, role, grants }
    }

    /// Whether the user holds `p`.
    pub fn can(&self, p: Permission) -> bool {
        self.grants.has(p)
    }

    /// 403 unless the user holds `p`.
    pub fn require(&self, p: Permission) -> AppResult<()> {
        if self.can(p) {
            Ok(())
        } else {
            Err(AppError::Forbidden(format!(
                "You do not have permission to do this ({}).",
                p.key()
            )))
        }
    }

    /// The machines the user may see.
    pub fn machine_scope(&self) -> MachineScope {
        self.user.machine_scope()
    }

    /// Whether the user administers access (users and roles) and sees every machine: who may
    /// set the operator's policies and read the audit trail.
    pub fn is_fleet_admin(&self) -> bool {
        self.grants.is_access_admin() && self.machine_scope() == MachineScope::All
    }
}
