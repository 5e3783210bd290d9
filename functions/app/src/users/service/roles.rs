//! Roles: named sets of permissions, administered within the administrator's own grants.

use super::*;

impl UsersService {
    /// One page of roles.
    pub async fn list_roles(
        &self,
        actor: &Principal,
        params: &ListParams,
    ) -> AppResult<ListPage<RoleView>> {
        let mut errors = FieldErrors::new();
        let p = paging(params, &["name", "created_at", "users_count"], &mut errors);
        errors.into_result()?;
        let (users, roles) = self.views().await?;
        let reach = Reach::new(actor, self.catalogue.scope_catalogue().await?, &roles);
        let mut views: Vec<RoleView> = roles
            .values()
            .filter(|r| p.search.is_empty() || r.name.to_lowercase().contains(&p.search))
            .map(|r| Self::role_view(actor, &reach, r.clone(), &users))
            .collect();
        let (field, desc) = p.ordering.clone().unwrap_or(("name".into(), false));
        views.sort_by(|a, b| {
            let o = match field.as_str() {
                "created_at" => a.role.created_at.cmp(&b.role.created_at),
                "users_count" => a.users_count.cmp(&b.users_count),
                _ => a.role.name.to_lowercase().cmp(&b.role.name.to_lowercase()),
            }
            .then_with(|| a.role.id.cmp(&b.role.id));
            if desc {
                o.reverse()
            } else {
                o
            }
        });
        Ok(page_of(views, &p))
    }

    /// One role, as the caller sees it.
    pub async fn get_role(&self, actor: &Principal, id: &str) -> AppResult<RoleView> {
        let role = self.directory.role_or_404(id).await?;
        let holders = self.directory.users_with_role(id).await?;
        let roles = self.roles_by_id().await?;
        let reach = Reach::new(actor, self.catalogue.scope_catalogue().await?, &roles);
        Ok(Self::role_view(actor, &reach, role, &holders))
    }

    /// A role with its holders' count and whether the caller may manage it.
    fn role_view(actor: &Principal, reach: &Reach<'_>, role: Role, users: &[User]) -> RoleView {
        let holders: Vec<&User> = users
            .iter()
            .filter(|u| u.role_id.as_deref() == Some(role.id.as_str()))
            .collect();
        let can_manage = Self::require_role_within(actor, &role).is_ok()
            && holders.iter().all(|u| reach.reaches(u));
        RoleView {
            users_count: holders.len(),
            role,
            can_manage,
        }
    }

    fn apply_role_form(actor: &Principal, input: RoleInput, role: &mut Role) -> AppResult<()> {
        let mut errors = FieldErrors::new();
        role.name = validation::required_text(&mut errors, "name", &input.name, 100);
        let mut modules = BTreeSet::new();
        for key in &input.modules {
            match Permission::from_key(key.trim()) {
                Some(p) if actor.can(p) => {
                    modules.insert(p);
                }
                Some(_) => errors.add(
                    "modules",
                    format!("You cannot grant a permission you do not hold: {key}."),
                ),
                None => errors.add("modules", format!("Unknown permission: {key}.")),
            }
        }
        errors.into_result()?;
        // Stored in catalogue order.
        role.modules = Permission::ALL
            .iter()
            .filter(|p| modules.contains(p))
            .map(|p| p.key().to_string())
            .collect();
        Ok(())
    }

    /// Creates a role.
    pub async fn create_role(&self, actor: &Principal, input: RoleInput) -> AppResult<RoleView> {
        let now = self.clock.now();
        let mut role = Role {
            id: ulid::Ulid::new().to_string(),
            name: String::new(),
            modules: vec![],
            created_at: now,
            updated_at: now,
            version: 1,
            schema: super::super::model::SCHEMA,
        };
        Self::apply_role_form(actor, input, &mut role)?;
        self.directory.insert_role(&role).await?;
        Ok(RoleView {
            role,
            users_count: 0,
            // Made of the caller's own permissions, held by nobody yet.
            can_manage: true,
        })
    }

    /// Updates a role.
    pub async fn update_role(
        &self,
        actor: &Principal,
        id: &str,
        input: RoleInput,
    ) -> AppResult<RoleView> {
        let current = self.directory.role_or_404(id).await?;
        if input.version.is_some_and(|v| v != current.version) {
            return Err(AppError::stale());
        }
        Self::require_role_within(actor, &current)?;
        // A role change changes its holders: each must be within the caller's reach.
        let holders = self.directory.users_with_role(id).await?;
        self.require_reach(actor, &holders.iter().collect::<Vec<_>>())
            .await?;
        let mut next = current.clone();
        Self::apply_role_form(actor, input, &mut next)?;
        if next == current {
            return self.get_role(actor, id).await;
        }
        let (users, mut roles) = self.views().await?;
        roles.insert(next.id.clone(), next.clone());
        // Same users, new role: the admin guard sees the role's new modules.
        self.guard_admins_with(actor, users, &roles, &[])?;
        next.updated_at = self.clock.now();
        next.version = current.version + 1;
        self.directory.replace_role(&current, &next).await?;
        self.get_role(actor, id).await
    }

    /// 403 unless every permission of `role` is the caller's too.
    fn require_role_within(actor: &Principal, role: &Role) -> AppResult<()> {
        if role
            .modules
            .iter()
            .any(|m| Permission::from_key(m).is_some_and(|p| !actor.can(p)))
        {
            return Err(AppError::OutOfReach {
                message: format!(
                    "You cannot manage role \"{}\": it grants permissions you do not hold.",
                    role.name
                ),
                errors: FieldErrors::new(),
            });
        }
        Ok(())
    }

    /// Deletes roles all-or-nothing; a role held by anyone is refused (409 naming the users), and
    /// so is a role granting permissions the caller does not hold (403).
    pub async fn delete_roles(&self, actor: &Principal, ids: &[String]) -> AppResult<usize> {
        let ids: BTreeSet<&str> = ids.iter().map(|s| s.trim()).collect();
        if ids.is_empty() || ids.contains("") {
            return Err(AppError::invalid_field(
                "role_ids",
                "Give at least one role id.",
            ));
        }
        if ids.len() > MAX_DELETE {
            return Err(AppError::invalid_field(
                "role_ids",
                &format!("At most {MAX_DELETE} roles at once."),
            ));
        }
        let mut roles = Vec::new();
        for id in &ids {
            let role = match self.directory.role(id).await? {
                Some(r) => r,
                None => return Err(AppError::NotFound(format!("Role not found: {id}"))),
            };
            Self::require_role_within(actor, &role)?;
            let holders = self.directory.users_with_role(id).await?;
            if !holders.is_empty() {
                let mut names: Vec<_> = holders.iter().map(|u| u.email.clone()).collect();
                names.sort();
                let more = names.len().saturating_sub(10);
                names.truncate(10);
                let tail = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                return Err(AppError::conflict(format!(
                    "Role \"{}\" is in use by: {}{tail}",
                    role.name,
                    names.join(", ")
                )));
            }
            roles.push(role);
        }
        self.directory.delete_roles(&roles).await?;
        Ok(roles.len())
    }
}
