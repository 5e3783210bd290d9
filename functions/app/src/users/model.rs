//! Users and roles as stored, and their keys in the item store.

use crate::ports::{Item, Key, StoreError};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use vendfleet_domain::{Grants, Language, MachineScope};

/// Version of the stored shape of users and roles.
pub const SCHEMA: u32 = 1;

crate::entity! {
    /// An operator's staff member who signs in.
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct User {
        pub email: String,
        #[serde(default)]
        pub phone: String,
        pub password_hash: String,
        #[serde(default)]
        pub role_id: Option<String>,
        pub active: bool,
        #[serde(default)]
        pub language: Language,
        #[serde(default)]
        pub position: String,
        #[serde(default)]
        pub access_all_modules: bool,
        #[serde(default)]
        pub access_all_machines: bool,
        #[serde(default)]
        pub client_ids: Vec<String>,
        #[serde(default)]
        pub location_ids: Vec<String>,
        #[serde(default)]
        pub machine_tag_ids: Vec<String>,
        #[serde(default)]
        pub machine_ids: Vec<String>,
        #[serde(default)]
        pub last_login: Option<DateTime<Utc>>,
        /// Bumped on deactivation and password change: tokens carrying an older one are refused.
        #[serde(default)]
        pub token_version: u64,
    }
}

crate::entity! {
    /// A named set of modules (permission keys).
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    pub struct Role {
        pub modules: Vec<String>,
    }
}

impl User {
    /// A new active account with no role, no modules and no machines.
    pub fn new_account(
        name: String,
        email: String,
        password_hash: String,
        now: DateTime<Utc>,
    ) -> User {
        User {
            id: ulid::Ulid::new().to_string(),
            name,
            email,
            phone: String::new(),
            password_hash,
            role_id: None,
            active: true,
            language: Language::En,
            position: String::new(),
            access_all_modules: false,
            access_all_machines: false,
            client_ids: vec![],
            location_ids: vec![],
            machine_tag_ids: vec![],
            machine_ids: vec![],
            last_login: None,
            created_at: now,
            updated_at: now,
            token_version: 0,
            version: 1,
            schema: SCHEMA,
        }
    }

    /// What the user may do, given their role.
    pub fn grants(&self, role: Option<&Role>) -> Grants {
        if self.access_all_modules {
            Grants::All
        } else {
            Grants::from_keys(
                role.into_iter()
                    .flat_map(|r| r.modules.iter().map(String::as_str)),
            )
        }
    }

    /// Which machines the user may see.
    pub fn machine_scope(&self) -> MachineScope {
        if self.access_all_machines {
            MachineScope::All
        } else {
            let set = |v: &Vec<String>| v.iter().cloned().collect::<BTreeSet<_>>();
            MachineScope::Limited {
                client_ids: set(&self.client_ids),
                location_ids: set(&self.location_ids),
                machine_tag_ids: set(&self.machine_tag_ids),
                machine_ids: set(&self.machine_ids),
            }
        }
    }

    /// The key of the user item.
    pub fn key(id: &str) -> Key {
        Key::new(format!("USER#{id}"), "USER")
    }

    /// The key of the item that reserves an e-mail address.
    pub fn email_key(email: &str) -> Key {
        Key::new(format!("EMAIL#{email}"), "EMAIL")
    }

    /// The store item for this user (listed in GSI1 `USERS`, by role in GSI2).
    pub fn to_item(&self) -> Result<Item, StoreError> {
        let mut item = Item::from_value(User::key(&self.id), self)?
            .with_gsi1("USERS", format!("USER#{}", self.id))
            .with_version(self.version);
        if let Some(role) = &self.role_id {
            item = item.with_gsi2(format!("ROLEUSERS#{role}"), format!("USER#{}", self.id));
        }
        Ok(item)
    }

    /// The user stored in `item`.
    pub fn from_item(item: &Item) -> Result<User, StoreError> {
        let mut u: User = item.to_value()?;
        u.version = item.version;
        Ok(u)
    }

    /// The item reserving this user's e-mail address.
    pub fn email_item(&self) -> Item {
        let mut attrs = serde_json::Map::new();
        attrs.insert("user_id".into(), self.id.clone().into());
        Item::new(User::email_key(&self.email), attrs)
    }
}

impl Role {
    /// The key of the role item.
    pub fn key(id: &str) -> Key {
        Key::new(format!("ROLE#{id}"), "ROLE")
    }

    /// The key of the item that reserves a role name (case-insensitive).
    pub fn name_key(name: &str) -> Key {
        Key::new(format!("ROLENAME#{}", name.to_lowercase()), "ROLENAME")
    }

    /// The store item for this role (listed in GSI1 `ROLES`).
    pub fn to_item(&self) -> Result<Item, StoreError> {
        Ok(Item::from_value(Role::key(&self.id), self)?
            .with_gsi1("ROLES", format!("ROLE#{}", self.id))
            .with_version(self.version))
    }

    /// The role stored in `item`.
    pub fn from_item(item: &Item) -> Result<Role, StoreError> {
        let mut r: Role = item.to_value()?;
        r.version = item.version;
        Ok(r)
    }

    /// The item reserving this role's name.
    pub fn name_item(&self) -> Item {
        let mut attrs = serde_json::Map::new();
        attrs.insert("role_id".into(), self.id.clone().into());
        Item::new(Role::name_key(&self.name), attrs)
    }
}
