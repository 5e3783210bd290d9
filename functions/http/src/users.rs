//! Users area: users and roles administration.

use crate::kit::crud;
use crate::kit::dto::*;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::export::Format;
use crate::kit::extract::{perm, Authorized, Json, Query};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::users::UserInput;
use vendfleet_render::tables::users::users_table;

mod filters;
pub use filters::filters;

/// The users area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_users, create_user, delete_users))
        .routes(routes!(export_users))
        .routes(routes!(get_user, update_user))
        .routes(routes!(set_active))
        .routes(routes!(list_roles, create_role, delete_roles))
        .routes(routes!(get_role, update_role))
}

crud::list! {
    /// Users, paged, with search, role and status filters.
    list_users("/api/users/", "users") -> UserDto,
    |s, a: perm::UsersList, q: UsersQuery| {
        let page = s.app.users.list_users(a.principal(), &(&q).into()).await?;
        ListReply::from_page(page, UserDto::from)
    }
}

crud::create! {
    /// Creates a user.
    create_user("/api/users/", "users") -> UserDto, "User created",
    |s, a: perm::UsersNew, form: UserInput| {
        s.app.users.create_user(a.principal(), form).await?.into()
    },
    responses(
        (status = 201, body = MessageData<UserDto>, description = "User created"),
        (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody),
    )
}

/// Deletes users, all or none.
#[utoipa::path(delete, path = "/api/users/", tag = "users", security(("bearer" = [])), request_body = DeleteUsersRequest,
    responses((status = 200, body = Message), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_users(
    State(s): State<AppState>,
    a: Authorized<perm::UsersDelete>,
    Json(req): Json<DeleteUsersRequest>,
) -> ApiResult<axum::Json<Message>> {
    let n = s
        .app
        .users
        .delete_users(a.principal(), &req.user_ids)
        .await?;
    let message = if n == 1 {
        "User deleted successfully".to_string()
    } else {
        format!("{n} users deleted successfully")
    };
    Ok(axum::Json(Message::new(message)))
}

crud::get! {
    /// One user.
    get_user("/api/users/{id}/", "users") -> UserDto,
    |s, a: perm::UsersList, id| s.app.users.get_user(a.principal(), &id).await?.into()
}

crud::update! {
    /// Updates a user.
    update_user("/api/users/{id}/", "users") -> UserDto, "User updated",
    |s, a: perm::UsersEdit, id, form: UserInput| {
        s.app.users.update_user(a.principal(), &id, form).await?.into()
    },
    responses(
        (status = 200, body = MessageData<UserDto>, description = "User updated"),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
    )
}

/// Activates or deactivates a user (deactivation signs them out everywhere at once).
#[utoipa::path(post, path = "/api/users/{id}/active/", tag = "users", security(("bearer" = [])), params(("id" = String, Path)),
    request_body = ActiveRequest,
    responses((status = 200, body = MessageData<UserDto>), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn set_active(
    State(s): State<AppState>,
    a: Authorized<perm::UsersEdit>,
    Path(id): Path<String>,
    Json(req): Json<ActiveRequest>,
) -> ApiResult<axum::Json<MessageData<UserDto>>> {
    let v = s
        .app
        .users
        .set_active(a.principal(), &id, req.active)
        .await?;
    let message = if req.active {
        "User activated"
    } else {
        "User deactivated"
    };
    Ok(axum::Json(MessageData::new(message, v.into())))
}

/// Users matching the list's filters as a CSV or XLSX file.
#[utoipa::path(get, path = "/api/users/export/", tag = "users", security(("bearer" = [])), params(UsersQuery, crate::kit::export::ExportQuery),
    responses((status = 200, response = inline(crate::kit::export::Download)),
              (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/", body = crate::kit::dto::MessageData<crate::kit::export::JobDto>),
              (status = 400, body = ErrorBody)))]
async fn export_users(
    State(s): State<AppState>,
    a: Authorized<perm::UsersExport>,
    Query(q): Query<UsersQuery>,
    Query(e): Query<crate::kit::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let table = users_table(&s.app, a.principal(), &(&q).into()).await?;
    crate::kit::export::answer(table, &s, a.requester(), format, "users").await
}

crud::list! {
    /// Roles, paged, with search.
    list_roles("/api/users/roles/", "users") -> RoleDto,
    |s, a: perm::RolesList, q: ListQuery| {
        let page = s.app.users.list_roles(a.principal(), &q.list()).await?;
        ListReply::from_page(page, RoleDto::from)
    },
    responses(
        (status = 200, body = ListReply<RoleDto>),
        (status = 400, body = ErrorBody),
    )
}

crud::create! {
    /// Creates a role.
    create_role("/api/users/roles/", "users") -> RoleDto, "Role created successfully",
    |s, a: perm::RolesNew, form: RoleForm| {
        s.app.users.create_role(a.principal(), form.into()).await?.into()
    },
    responses(
        (status = 201, body = MessageData<RoleDto>, description = "Role created successfully"),
        (status = 400, body = ErrorBody),
        (status = 409, body = ErrorBody),
    )
}

/// Deletes roles, all or none; a role in use is refused.
#[utoipa::path(delete, path = "/api/users/roles/", tag = "users", security(("bearer" = [])), request_body = DeleteRolesRequest,
    responses((status = 200, body = Message), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "The role is in use")))]
async fn delete_roles(
    State(s): State<AppState>,
    a: Authorized<perm::RolesDelete>,
    Json(req): Json<DeleteRolesRequest>,
) -> ApiResult<axum::Json<Message>> {
    let n = s
        .app
        .users
        .delete_roles(a.principal(), &req.role_ids)
        .await?;
    let message = if n == 1 {
        "Role deleted successfully".to_string()
    } else {
        format!("{n} roles deleted successfully")
    };
    Ok(axum::Json(Message::new(message)))
}

crud::get! {
    /// One role.
    get_role("/api/users/roles/{id}/", "users") -> RoleDto,
    |s, a: perm::RolesList, id| s.app.users.get_role(a.principal(), &id).await?.into()
}

crud::update! {
    /// Updates a role.
    update_role("/api/users/roles/{id}/", "users") -> RoleDto, "Role updated successfully",
    |s, a: perm::RolesEdit, id, form: RoleForm| {
        s.app.users.update_role(a.principal(), &id, form.into()).await?.into()
    },
    responses(
        (status = 200, body = MessageData<RoleDto>, description = "Role updated successfully"),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody),
    )
}
