//! The users list's export: the users matching the list's filters, a row each.

use crate::table::{titles, Table};
use crate::tr;
use vendfleet_app::auth::Principal;
use vendfleet_app::users::UserListParams;
use vendfleet_app::{App, AppResult};

/// Names the users export's columns in `columns.json` ([`super::columns`]).
pub const USERS: &str = "users";

/// The users matching the list's filters as a table (every user; paging ignored).
pub async fn users_table(app: &App, p: &Principal, params: &UserListParams) -> AppResult<Table> {
    let lang = p.user.language;
    let (users, _) = app.users.filtered_users(p, params).await?;
    let rows = users
        .into_iter()
        .map(|v| {
            let u = v.user;
            vec![
                u.name.into(),
                u.email.into(),
                u.phone.into(),
                v.role_name.into(),
                super::active_status(lang, u.active),
                u.position.into(),
                u.language.code().into(),
                u.last_login.into(),
                u.created_at.into(),
            ]
        })
        .collect();
    Ok(Table {
        sheet: tr(lang, "Users", "Utilisateurs", "Utenti"),
        header: titles(lang, super::columns(USERS)),
        rows,
    })
}
