//! The users-and-roles service: lists, forms, deletion, activation, and the guards that keep
//! at least one administrator and stop privilege escalation.

use super::directory::Directory;
use super::model::{Role, User};
use super::reach::{Reach, ScopeCatalogueSource};
use super::Principal;
use crate::error::{AppError, AppResult};
use crate::listing::{page_of, paging, ListPage, ListParams, Paging};
use crate::password;
use crate::ports::Clock;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use vendfleet_domain::{validation, FieldErrors, Grants, Language, Permission};

mod roles;

/// Most users or roles one delete call may remove (each takes two writes of a transaction).
pub const MAX_DELETE: usize = 50;
/// The users list's parameters.
#[derive(Debug, Clone, Default)]
pub struct UserListParams {
    pub list: ListParams,
    /// Only users holding this role.
    pub role: Option<String>,
    /// `active` or `inactive`.
    pub status: Option<String>,
}

/// A user with the name of their role.
#[derive(Debug, Clone)]
pub struct UserView {
    pub user: User,
    pub role_name: Option<String>,
    /// Whether the caller may edit, (de)activate or delete this user (the reach rule).
    pub can_manage: bool,
}

/// A role with how many users hold it.
#[derive(Debug, Clone)]
pub struct RoleView {
    pub role: Role,
    pub users_count: usize,
    /// Whether the caller may change or delete the role: every permission of it is the caller's
    /// and every user holding it is within the caller's reach.
    pub can_manage: bool,
}

/// The user form (create and update).
// The API's `UserForm` as it is.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = UserForm))]
pub struct UserInput {
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(required = true, max_length = 150))]
    pub name: String,
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(required = true, max_length = 254))]
    pub email: String,
    /// 6 to 20 digits, with an optional leading `+` and spaces, dots, dashes or parentheses.
    #[serde(default, deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "schema", schema(value_type = Option<String>))]
    pub phone: String,
    /// Required on create (8 to 128 characters); on update, a non-empty value changes it.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(max_length = 128))]
    pub password: Option<String>,
    #[serde(default)]
    pub role_id: Option<String>,
    #[serde(default)]
    pub active: Option<bool>,
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(value_type = Option<Language>, inline))]
    pub language: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "schema", schema(value_type = Option<String>, max_length = 100))]
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
    /// The version the form was loaded at; a stale one gives 409.
    #[serde(default)]
    pub version: Option<u64>,
}

/// A form field sent as null reads as absent: its default.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + serde::Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}

/// The role form.
#[derive(Debug, Clone, Default)]
pub struct RoleInput {
    pub name: String,
    pub modules: Vec<String>,
    pub version: Option<u64>,
}

/// The service.
#[derive(Clone)]
pub struct UsersService {
    directory: Directory,
    clock: Arc<dyn Clock>,
    catalogue: Arc<dyn ScopeCatalogueSource>,
}

fn clean_ids(errors: &mut FieldErrors, field: &str, ids: &[String]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for id in ids {
        let id = id.trim();
        if id.is_empty() || id.len() > 64 {
            errors.add(field, "Each entry must be a known id.");
        } else {
            out.insert(id.to_string());
        }
    }
    out.into_iter().collect()
}

impl UsersService {
    /// A service on `directory`; `catalogue` tells which scope ids exist and where machines are.
    pub fn new(
        directory: Directory,
        clock: Arc<dyn Clock>,
        catalogue: Arc<dyn ScopeCatalogueSource>,
    ) -> Self {
        UsersService {
            directory,
            clock,
            catalogue,
        }
    }

    /// The repository.
    pub fn directory(&self) -> &Directory {
        &self.directory
    }

    async fn views(&self) -> AppResult<(Vec<User>, HashMap<String, Role>)> {
        let roles = self.roles_by_id().await?;
        Ok((self.directory.all_users().await?, roles))
    }

    fn view(user: User, roles: &HashMap<String, Role>, reach: &Reach<'_>) -> UserView {
        let role_name = user
            .role_id
            .as_ref()
            .and_then(|id| roles.get(id))
            .map(|r| r.name.clone());
        let can_manage = reach.reaches(&user);
        UserView {
            user,
            role_name,
            can_manage,
        }
    }

    /// Users matching the filters, in the requested order, without paging (for lists and exports).
    /// Users beyond the caller's reach are listed too, read-only (`can_manage` false).
    pub async fn filtered_users(
        &self,
        actor: &Principal,
        params: &UserListParams,
    ) -> AppResult<(Vec<UserView>, ListPage<()>)> {
        let mut errors = FieldErrors::new();
        let p = paging(
            &params.list,
            &[
                "name",
                "email",
                "created_at",
                "last_login",
                "role",
                "active",
            ],
            &mut errors,
        );
        let status = match params.status.as_deref().map(str::trim) {
            None | Some("") => None,
            Some("active") => Some(true),
            Some("inactive") => Some(false),
            Some(_) => {
                errors.add("status", "Choose active or inactive.");
                None
            }
        };
        errors.into_result()?;
        let role = params
            .role
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty());
        let (users, roles) = self.views().await?;
        let reach = Reach::new(actor, self.catalogue.scope_catalogue().await?, &roles);
        let mut views: Vec<UserView> = users
            .into_iter()
            .filter(|u| status.is_none_or(|s| u.active == s))
            .filter(|u| role.is_none_or(|r| u.role_id.as_deref() == Some(r)))
            .filter(|u| {
                p.search.is_empty()
                    || [&u.name, &u.email, &u.phone, &u.position]
                        .iter()
                        .any(|f| f.to_lowercase().contains(&p.search))
            })
            .map(|u| Self::view(u, &roles, &reach))
            .collect();
        let (field, desc) = p.ordering.clone().unwrap_or(("created_at".into(), true));
        views.sort_by(|a, b| {
            let (x, y) = (&a.user, &b.user);
            let o = match field.as_str() {
                "name" => x.name.to_lowercase().cmp(&y.name.to_lowercase()),
                "email" => x.email.cmp(&y.email),
                "last_login" => x.last_login.cmp(&y.last_login),
                "role" => a.role_name.cmp(&b.role_name),
                "active" => x.active.cmp(&y.active),
                _ => x.created_at.cmp(&y.created_at),
            }
            .then_with(|| x.id.cmp(&y.id));
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        let meta = ListPage {
            items: vec![],
            count: views.len(),
            page: p.page,
            page_size: p.page_size,
        };
        Ok((views, meta))
    }

    /// One page of users.
    pub async fn list_users(
        &self,
        actor: &Principal,
        params: &UserListParams,
    ) -> AppResult<ListPage<UserView>> {
        let (views, meta) = self.filtered_users(actor, params).await?;
        let p = Paging {
            page: meta.page,
            page_size: meta.page_size,
            search: String::new(),
            ordering: None,
        };
        Ok(page_of(views, &p))
    }

    /// One user, as the caller sees it.
    pub async fn get_user(&self, actor: &Principal, id: &str) -> AppResult<UserView> {
        let (user, roles, catalogue) = self.with_reach_of(id).await?;
        let reach = Reach::new(actor, catalogue, &roles);
        Ok(Self::view(user, &roles, &reach))
    }

    /// A user, with the roles and the scope catalogue an actor's reach over it is judged by
    /// (404 when there is no such user).
    async fn with_reach_of(
        &self,
        id: &str,
    ) -> AppResult<(
        User,
        HashMap<String, Role>,
        vendfleet_domain::ScopeCatalogue,
    )> {
        Ok((
            self.directory.user_or_404(id).await?,
            self.roles_by_id().await?,
            self.catalogue.scope_catalogue().await?,
        ))
    }

    async fn roles_by_id(&self) -> AppResult<HashMap<String, Role>> {
        Ok(self
            .directory
            .all_roles()
            .await?
            .into_iter()
            .map(|r| (r.id.clone(), r))
            .collect())
    }

    /// Validates the form into `user` (which holds the current state on update). Invalid input
    /// is a 400; anything beyond the caller's own access (permissions, all modules, all machines,
    /// scope ids outside theirs) a 403, checked on the user as the form leaves them.
    async fn apply_form(
        &self,
        actor: &Principal,
        reach: &Reach<'_>,
        input: UserInput,
        user: &mut User,
        creating: bool,
    ) -> AppResult<Option<String>> {
        let before = user.clone();
        let mut errors = FieldErrors::new();
        let mut refused = FieldErrors::new();
        user.name = validation::required_text(&mut errors, "name", &input.name, 150);
        user.email = validation::email(&mut errors, "email", &input.email);
        user.phone = validation::phone(&mut errors, "phone", &input.phone);
        user.position = validation::optional_text(&mut errors, "position", &input.position, 100);
        let new_password = match input.password.as_deref() {
            Some(pw) if !pw.is_empty() => {
                validation::password(&mut errors, "password", pw);
                Some(pw.to_string())
            }
            _ if creating => {
                errors.add("password", "This field is required.");
                None
            }
            _ => None,
        };
        if let Some(code) = input
            .language
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            match Language::ALL.into_iter().find(|l| l.code() == code) {
                Some(l) => user.language = l,
                None => errors.add("language", "Choose one of: en, fr, it."),
            }
        }
        if let Some(active) = input.active {
            user.active = active;
        }
        let role = match input
            .role_id
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
        {
            None => None,
            Some(id) => match self.directory.role(id).await? {
                Some(r) => Some(r),
                None => {
                    errors.add("role_id", "Choose an existing role.");
                    None
                }
            },
        };
        user.client_ids = clean_ids(&mut errors, "client_ids", &input.client_ids);
        user.location_ids = clean_ids(&mut errors, "location_ids", &input.location_ids);
        user.machine_tag_ids = clean_ids(&mut errors, "machine_tag_ids", &input.machine_tag_ids);
        user.machine_ids = clean_ids(&mut errors, "machine_ids", &input.machine_ids);
        reach.check_known(&mut errors, &before, user);
        // Nobody grants what they do not hold.
        if input.access_all_modules && !user.access_all_modules && actor.grants != Grants::All {
            refused.add(
                "access_all_modules",
                "Only a user with access to all modules can grant it.",
            );
        }
        if input.access_all_machines
            && !user.access_all_machines
            && !(actor.can(Permission::AllMachinesAccessProvider) && actor.user.access_all_machines)
        {
            refused.add(
                "access_all_machines",
                "You are not allowed to grant access to all machines.",
            );
        }
        if let Some(r) = &role {
            let escalates = user.role_id.as_deref() != Some(r.id.as_str())
                && r.modules
                    .iter()
                    .any(|m| Permission::from_key(m).is_some_and(|p| !actor.can(p)));
            if escalates {
                refused.add("role_id", "This role grants permissions you do not hold.");
            }
        }
        if let (Some(v), false) = (input.version, creating) {
            if v != user.version {
                return Err(AppError::stale());
            }
        }
        errors.into_result()?;
        if !refused.is_empty() {
            return Err(AppError::OutOfReach {
                message: "You cannot grant access beyond your own.".into(),
                errors: refused,
            });
        }
        user.access_all_modules = input.access_all_modules;
        user.access_all_machines = input.access_all_machines;
        user.role_id = role.map(|r| r.id);
        reach.require_grantable(user)?;
        Ok(new_password)
    }

    /// Creates a user.
    pub async fn create_user(&self, actor: &Principal, input: UserInput) -> AppResult<UserView> {
        let now = self.clock.now();
        let mut user = User::new_account(String::new(), String::new(), String::new(), now);
        let roles = self.roles_by_id().await?;
        let reach = Reach::new(actor, self.catalogue.scope_catalogue().await?, &roles);
        let password = self
            .apply_form(actor, &reach, input, &mut user, true)
            .await?;
        user.password_hash = password::hash(password.unwrap_or_default()).await?;
        self.directory.insert_user(&user).await?;
        Ok(Self::view(user, &roles, &reach))
    }

    /// Updates a user.
    pub async fn update_user(
        &self,
        actor: &Principal,
        id: &str,
        input: UserInput,
    ) -> AppResult<UserView> {
        let (current, roles, catalogue) = self.with_reach_of(id).await?;
        let reach = Reach::new(actor, catalogue, &roles);
        reach.require_reach(&current)?;
        let mut next = current.clone();
        if let Some(pw) = self
            .apply_form(actor, &reach, input, &mut next, false)
            .await?
        {
            next.password_hash = password::hash(pw).await?;
            next.token_version += 1;
        }
        if current.active && !next.active {
            next.token_version += 1;
        }
        if next == current {
            return Ok(Self::view(current, &roles, &reach));
        }
        self.guard_admins(actor, &[(current.clone(), Some(next.clone()))])
            .await?;
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.directory.replace_user(&current, &next).await?;
        Ok(Self::view(next, &roles, &reach))
    }

    /// The caller's reach, or 403 for each user beyond it.
    async fn require_reach(&self, actor: &Principal, users: &[&User]) -> AppResult<()> {
        let roles = self.roles_by_id().await?;
        let reach = Reach::new(actor, self.catalogue.scope_catalogue().await?, &roles);
        users.iter().try_for_each(|u| reach.require_reach(u))
    }

    /// Activates or deactivates a user; deactivation revokes their tokens at once.
    pub async fn set_active(
        &self,
        actor: &Principal,
        id: &str,
        active: bool,
    ) -> AppResult<UserView> {
        let (current, roles, catalogue) = self.with_reach_of(id).await?;
        let reach = Reach::new(actor, catalogue, &roles);
        reach.require_reach(&current)?;
        if current.active == active {
            return Ok(Self::view(current, &roles, &reach));
        }
        if !active && current.id == actor.user.id {
            return Err(AppError::conflict(
                "You cannot deactivate your own account.",
            ));
        }
        let mut next = current.clone();
        next.active = active;
        if !active {
            next.token_version += 1;
        }
        self.guard_admins(actor, &[(current.clone(), Some(next.clone()))])
            .await?;
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.directory.replace_user(&current, &next).await?;
        Ok(Self::view(next, &roles, &reach))
    }

    /// Deletes users all-or-nothing.
    pub async fn delete_users(&self, actor: &Principal, ids: &[String]) -> AppResult<usize> {
        let ids: BTreeSet<&str> = ids.iter().map(|s| s.trim()).collect();
        if ids.is_empty() || ids.contains("") {
            return Err(AppError::invalid_field(
                "user_ids",
                "Give at least one user id.",
            ));
        }
        if ids.len() > MAX_DELETE {
            return Err(AppError::invalid_field(
                "user_ids",
                &format!("At most {MAX_DELETE} users at once."),
            ));
        }
        if ids.contains(actor.user.id.as_str()) {
            return Err(AppError::conflict("You cannot delete your own account."));
        }
        let mut users = Vec::new();
        for id in &ids {
            match self.directory.user(id).await? {
                Some(u) => users.push(u),
                None => return Err(AppError::NotFound(format!("User not found: {id}"))),
            }
        }
        self.require_reach(actor, &users.iter().collect::<Vec<_>>())
            .await?;
        let changes: Vec<_> = users.iter().map(|u| (u.clone(), None)).collect();
        self.guard_admins(actor, &changes).await?;
        self.directory.delete_users(&users).await?;
        Ok(users.len())
    }

    /// Refuses a change that would leave no active administrator, or that takes the actor's own
    /// administrator rights away.
    async fn guard_admins(
        &self,
        actor: &Principal,
        changes: &[(User, Option<User>)],
    ) -> AppResult<()> {
        let (users, roles) = self.views().await?;
        self.guard_admins_with(actor, users, &roles, changes)
    }

    fn guard_admins_with(
        &self,
        actor: &Principal,
        users: Vec<User>,
        roles: &HashMap<String, Role>,
        changes: &[(User, Option<User>)],
    ) -> AppResult<()> {
        let is_admin = |u: &User| {
            u.active
                && u.grants(u.role_id.as_ref().and_then(|r| roles.get(r)))
                    .is_access_admin()
        };
        let changed: HashMap<&str, Option<&User>> = changes
            .iter()
            .map(|(before, after)| (before.id.as_str(), after.as_ref()))
            .collect();
        let actor_was_admin = is_admin(&actor.user);
        let mut admins_after = 0;
        for u in &users {
            let after = match changed.get(u.id.as_str()) {
                Some(next) => *next,
                None => Some(u),
            };
            let admin = after.is_some_and(is_admin);
            if u.id == actor.user.id && actor_was_admin && !admin {
                return Err(AppError::conflict(
                    "You cannot remove your own administrator rights.",
                ));
            }
            admins_after += admin as usize;
        }
        if admins_after == 0 {
            return Err(AppError::conflict(
                "At least one active administrator must remain.",
            ));
        }
        Ok(())
    }

    /// `{id, name}` of every role, by name.
    pub async fn role_options(&self) -> AppResult<Vec<(String, String)>> {
        let mut roles: Vec<_> = self
            .directory
            .all_roles()
            .await?
            .into_iter()
            .map(|r| (r.id, r.name))
            .collect();
        roles.sort_by_key(|(_, n)| n.to_lowercase());
        Ok(roles)
    }

    /// `{id, name}` of every active user, by name.
    pub async fn employee_options(&self) -> AppResult<Vec<(String, String)>> {
        let mut users: Vec<_> = self
            .directory
            .all_users()
            .await?
            .into_iter()
            .filter(|u| u.active)
            .map(|u| (u.id, u.name))
            .collect();
        users.sort_by_key(|(_, n)| n.to_lowercase());
        Ok(users)
    }

    /// The distinct positions held by users.
    pub async fn positions(&self) -> AppResult<Vec<String>> {
        let set: BTreeSet<String> = self
            .directory
            .all_users()
            .await?
            .into_iter()
            .map(|u| u.position)
            .filter(|p| !p.is_empty())
            .collect();
        Ok(set.into_iter().collect())
    }
}
