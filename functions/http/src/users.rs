//! Users area: users and roles administration.

use crate::dto::*;
use crate::error::{ApiResult, ErrorBody};
use crate::export::{Format, Table};
use crate::extract::{perm, Authorized, Json, Query};
use crate::reply::{tr, Created};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use utoipa_axum::{router::OpenApiRouter, routes};

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

/// Users, paged, with search, role and status filters.
#[utoipa::path(get, path = "/api/users/", tag = "users", security(("bearer" = [])), params(UsersQuery),
    responses((status = 200, body = ListReply<UserDto>), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_users(
    State(s): State<AppState>,
    a: Authorized<perm::UsersList>,
    Query(q): Query<UsersQuery>,
) -> ApiResult<axum::Json<ListReply<UserDto>>> {
    let page = s.app.users.list_users(a.principal(), &(&q).into()).await?;
    Ok(axum::Json(ListReply::from_page(page, UserDto::from)))
}

/// Creates a user.
#[utoipa::path(post, path = "/api/users/", tag = "users", security(("bearer" = [])), request_body = UserForm,
    responses((status = 201, body = MessageData<UserDto>, description = "User created"), (status = 400, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_user(
    State(s): State<AppState>,
    a: Authorized<perm::UsersNew>,
    Json(form): Json<UserForm>,
) -> ApiResult<Created<UserDto>> {
    let v = s.app.users.create_user(a.principal(), form.into()).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(MessageData::new("User created", v.into())),
    ))
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

/// One user.
#[utoipa::path(get, path = "/api/users/{id}/", tag = "users", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<UserDto>), (status = 404, body = ErrorBody)))]
async fn get_user(
    State(s): State<AppState>,
    a: Authorized<perm::UsersList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<UserDto>>> {
    Ok(axum::Json(Data {
        data: s.app.users.get_user(a.principal(), &id).await?.into(),
    }))
}

/// Updates a user.
#[utoipa::path(put, path = "/api/users/{id}/", tag = "users", security(("bearer" = [])), params(("id" = String, Path)), request_body = UserForm,
    responses((status = 200, body = MessageData<UserDto>, description = "User updated"), (status = 400, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_user(
    State(s): State<AppState>,
    a: Authorized<perm::UsersEdit>,
    Path(id): Path<String>,
    Json(form): Json<UserForm>,
) -> ApiResult<axum::Json<MessageData<UserDto>>> {
    let v = s
        .app
        .users
        .update_user(a.principal(), &id, form.into())
        .await?;
    Ok(axum::Json(MessageData::new("User updated", v.into())))
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
#[utoipa::path(get, path = "/api/users/export/", tag = "users", security(("bearer" = [])), params(UsersQuery, crate::export::ExportQuery),
    responses((status = 200, response = inline(crate::export::Download)),
              (status = 400, body = ErrorBody)))]
async fn export_users(
    State(s): State<AppState>,
    a: Authorized<perm::UsersExport>,
    Query(q): Query<UsersQuery>,
    Query(e): Query<crate::export::ExportQuery>,
) -> ApiResult<Response> {
    let format = Format::parse(e.format.as_deref())?;
    let (users, _) = s
        .app
        .users
        .filtered_users(a.principal(), &(&q).into())
        .await?;
    let lang = a.principal().user.language;
    let t = |en: &str, fr: &str, it: &str| tr(lang, en, fr, it);
    let header = vec![
        t("Name", "Nom", "Nome"),
        t("E-mail", "E-mail", "E-mail"),
        t("Phone", "Téléphone", "Telefono"),
        t("Role", "Rôle", "Ruolo"),
        t("Status", "Statut", "Stato"),
        t("Position", "Poste", "Posizione"),
        t("Language", "Langue", "Lingua"),
        t("Last signed in", "Dernière connexion", "Ultimo accesso"),
        t("Created on", "Créé le", "Creato il"),
    ];
    let (active, inactive) = (
        t("Active", "Actif", "Attivo"),
        t("Inactive", "Inactif", "Inattivo"),
    );
    let rows = users
        .into_iter()
        .map(|v| {
            let u = v.user;
            vec![
                u.name.into(),
                u.email.into(),
                u.phone.into(),
                v.role_name.into(),
                if u.active {
                    active.clone()
                } else {
                    inactive.clone()
                }
                .into(),
                u.position.into(),
                u.language.code().into(),
                u.last_login.into(),
                u.created_at.into(),
            ]
        })
        .collect();
    Table {
        sheet: t("Users", "Utilisateurs", "Utenti"),
        header,
        rows,
    }
    .into_download(format, "users", lang)
}

/// Roles, paged, with search.
#[utoipa::path(get, path = "/api/users/roles/", tag = "users", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = ListReply<RoleDto>), (status = 400, body = ErrorBody)))]
async fn list_roles(
    State(s): State<AppState>,
    a: Authorized<perm::RolesList>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<ListReply<RoleDto>>> {
    let page = s.app.users.list_roles(a.principal(), &q.into()).await?;
    Ok(axum::Json(ListReply::from_page(page, RoleDto::from)))
}

/// Creates a role.
#[utoipa::path(post, path = "/api/users/roles/", tag = "users", security(("bearer" = [])), request_body = RoleForm,
    responses((status = 201, body = MessageData<RoleDto>, description = "Role created successfully"), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_role(
    State(s): State<AppState>,
    a: Authorized<perm::RolesNew>,
    Json(form): Json<RoleForm>,
) -> ApiResult<Created<RoleDto>> {
    let input = vendfleet_app::users::RoleInput {
        name: form.name,
        modules: form.modules,
        version: form.version,
    };
    let v = s.app.users.create_role(a.principal(), input).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(MessageData::new("Role created successfully", v.into())),
    ))
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

/// One role.
#[utoipa::path(get, path = "/api/users/roles/{id}/", tag = "users", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<RoleDto>), (status = 404, body = ErrorBody)))]
async fn get_role(
    State(s): State<AppState>,
    a: Authorized<perm::RolesList>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<RoleDto>>> {
    Ok(axum::Json(Data {
        data: s.app.users.get_role(a.principal(), &id).await?.into(),
    }))
}

/// Updates a role.
#[utoipa::path(put, path = "/api/users/roles/{id}/", tag = "users", security(("bearer" = [])), params(("id" = String, Path)), request_body = RoleForm,
    responses((status = 200, body = MessageData<RoleDto>, description = "Role updated successfully"), (status = 400, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn update_role(
    State(s): State<AppState>,
    a: Authorized<perm::RolesEdit>,
    Path(id): Path<String>,
    Json(form): Json<RoleForm>,
) -> ApiResult<axum::Json<MessageData<RoleDto>>> {
    let input = vendfleet_app::users::RoleInput {
        name: form.name,
        modules: form.modules,
        version: form.version,
    };
    let v = s.app.users.update_role(a.principal(), &id, input).await?;
    Ok(axum::Json(MessageData::new(
        "Role updated successfully",
        v.into(),
    )))
}
