//! Reads and writes of users and roles on the item store.

use super::model::{Role, User};
use crate::error::{AppError, AppResult};
use crate::ports::{query_all, Condition, Index, ItemStore, Query, StoreError, Write};
use crate::records::SnapshotStore;
use std::sync::Arc;

/// The users-and-roles repository.
#[derive(Clone)]
pub struct Directory {
    store: Arc<dyn ItemStore>,
}

impl Directory {
    /// A repository on `store`.
    pub fn new(store: Arc<dyn ItemStore>) -> Self {
        Directory { store }
    }

    /// The underlying store.
    pub fn store(&self) -> &Arc<dyn ItemStore> {
        &self.store
    }

    /// The count of user and role writes (`records::Counted::People`), where this process is
    /// the store's sole writer: a principal read while it stood is current while it stands.
    pub fn people_count(&self) -> Option<u64> {
        let store: &dyn std::any::Any = self.store.as_ref();
        let touched = store.downcast_ref::<SnapshotStore>()?.touched()?;
        Some(touched.count(crate::records::Counted::People))
    }

    /// One user by id.
    pub async fn user(&self, id: &str) -> AppResult<Option<User>> {
        match self.store.get(&User::key(id)).await? {
            Some(item) => Ok(Some(User::from_item(&item)?)),
            None => Ok(None),
        }
    }

    /// One user by id, or 404.
    pub async fn user_or_404(&self, id: &str) -> AppResult<User> {
        self.user(id)
            .await?
            .ok_or_else(|| AppError::NotFound("User not found".into()))
    }

    /// One user by (normalised) e-mail address.
    pub async fn user_by_email(&self, email: &str) -> AppResult<Option<User>> {
        let Some(reservation) = self.store.get(&User::email_key(email)).await? else {
            return Ok(None);
        };
        match reservation.attrs.get("user_id").and_then(|v| v.as_str()) {
            Some(id) => self.user(id).await,
            None => Ok(None),
        }
    }

    /// Every user.
    pub async fn all_users(&self) -> AppResult<Vec<User>> {
        let items = query_all(self.store.as_ref(), Query::partition(Index::Gsi1, "USERS")).await?;
        items
            .iter()
            .map(|i| User::from_item(i).map_err(AppError::from))
            .collect()
    }

    /// The users that hold role `role_id`.
    pub async fn users_with_role(&self, role_id: &str) -> AppResult<Vec<User>> {
        let q = Query::partition(Index::Gsi2, format!("ROLEUSERS#{role_id}"));
        let items = query_all(self.store.as_ref(), q).await?;
        items
            .iter()
            .map(|i| User::from_item(i).map_err(AppError::from))
            .collect()
    }

    /// One role by id.
    pub async fn role(&self, id: &str) -> AppResult<Option<Role>> {
        match self.store.get(&Role::key(id)).await? {
            Some(item) => Ok(Some(Role::from_item(&item)?)),
            None => Ok(None),
        }
    }

    /// The principal of `user`: the user with their role, as they stand now.
    pub async fn principal(&self, user: User) -> AppResult<super::Principal> {
        let role = match &user.role_id {
            Some(id) => self.role(id).await?,
            None => None,
        };
        Ok(super::Principal::new(user, role))
    }

    /// One role by id, or 404.
    pub async fn role_or_404(&self, id: &str) -> AppResult<Role> {
        self.role(id)
            .await?
            .ok_or_else(|| AppError::NotFound("Role not found".into()))
    }

    /// Every role.
    pub async fn all_roles(&self) -> AppResult<Vec<Role>> {
        let items = query_all(self.store.as_ref(), Query::partition(Index::Gsi1, "ROLES")).await?;
        items
            .iter()
            .map(|i| Role::from_item(i).map_err(AppError::from))
            .collect()
    }

    /// Stores a new user and reserves its e-mail; 409 when the address is taken.
    pub async fn insert_user(&self, user: &User) -> AppResult<()> {
        let writes = vec![
            Write::Put {
                item: user.email_item(),
                condition: Some(Condition::NotExists),
            },
            Write::Put {
                item: user.to_item()?,
                condition: Some(Condition::NotExists),
            },
        ];
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { index: 0 }) => Err(email_taken()),
            other => Ok(other?),
        }
    }

    /// Replaces a user whose stored version is `previous.version`, moving the e-mail
    /// reservation when the address changed; `next.version` must be the new version.
    pub async fn replace_user(&self, previous: &User, next: &User) -> AppResult<()> {
        let mut writes = vec![Write::Put {
            item: next.to_item()?,
            condition: Some(Condition::VersionIs(previous.version)),
        }];
        if previous.email != next.email {
            writes.push(Write::Put {
                item: next.email_item(),
                condition: Some(Condition::NotExists),
            });
            writes.push(Write::Delete {
                key: User::email_key(&previous.email),
                condition: None,
            });
        }
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { index: 0 }) => Err(AppError::stale()),
            Err(StoreError::ConditionFailed { index: 1 }) => Err(email_taken()),
            other => Ok(other?),
        }
    }

    /// Deletes users (with their e-mail reservations) all-or-nothing.
    pub async fn delete_users(&self, users: &[User]) -> AppResult<()> {
        let writes = users
            .iter()
            .flat_map(|u| {
                [
                    Write::Delete {
                        key: User::key(&u.id),
                        condition: Some(Condition::VersionIs(u.version)),
                    },
                    Write::Delete {
                        key: User::email_key(&u.email),
                        condition: None,
                    },
                ]
            })
            .collect();
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { .. }) => Err(AppError::stale()),
            other => Ok(other?),
        }
    }

    /// Stores a new role and reserves its name; 409 when the name is taken.
    pub async fn insert_role(&self, role: &Role) -> AppResult<()> {
        let writes = vec![
            Write::Put {
                item: role.name_item(),
                condition: Some(Condition::NotExists),
            },
            Write::Put {
                item: role.to_item()?,
                condition: Some(Condition::NotExists),
            },
        ];
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { index: 0 }) => Err(role_name_taken()),
            other => Ok(other?),
        }
    }

    /// Replaces a role whose stored version is `previous.version`.
    pub async fn replace_role(&self, previous: &Role, next: &Role) -> AppResult<()> {
        let mut writes = vec![Write::Put {
            item: next.to_item()?,
            condition: Some(Condition::VersionIs(previous.version)),
        }];
        if previous.name.to_lowercase() != next.name.to_lowercase() {
            writes.push(Write::Put {
                item: next.name_item(),
                condition: Some(Condition::NotExists),
            });
            writes.push(Write::Delete {
                key: Role::name_key(&previous.name),
                condition: None,
            });
        } else if previous.name != next.name {
            writes.push(Write::Put {
                item: next.name_item(),
                condition: None,
            });
        }
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { index: 0 }) => Err(AppError::stale()),
            Err(StoreError::ConditionFailed { index: 1 }) => Err(role_name_taken()),
            other => Ok(other?),
        }
    }

    /// Deletes roles (with their name reservations) all-or-nothing.
    pub async fn delete_roles(&self, roles: &[Role]) -> AppResult<()> {
        let writes = roles
            .iter()
            .flat_map(|r| {
                [
                    Write::Delete {
                        key: Role::key(&r.id),
                        condition: Some(Condition::VersionIs(r.version)),
                    },
                    Write::Delete {
                        key: Role::name_key(&r.name),
                        condition: None,
                    },
                ]
            })
            .collect();
        match self.store.transact(writes).await {
            Err(StoreError::ConditionFailed { .. }) => Err(AppError::stale()),
            other => Ok(other?),
        }
    }
}

fn email_taken() -> AppError {
    AppError::Conflict {
        message: "A user with this e-mail already exists".into(),
        errors: vendfleet_domain::FieldErrors::single(
            "email",
            "This e-mail address is already in use.",
        ),
    }
}

fn role_name_taken() -> AppError {
    AppError::Conflict {
        message: "A role with this name already exists".into(),
        errors: vendfleet_domain::FieldErrors::single("name", "This role name is already in use."),
    }
}
