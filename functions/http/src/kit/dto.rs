//! Request and reply shapes of the API, as the spec's contract gives them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use vendfleet_app::auth::Principal;
use vendfleet_app::users::{ListPage, RoleView, UserView};

/// `{"data": ...}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Data<T> {
    pub data: T,
}

/// `{"message": ..., "data": ...}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MessageData<T> {
    pub message: String,
    /// A stable code for the message (see [`Message::code`]), for the web to translate.
    pub code: String,
    /// The number in the message, when it has one ("3 users deleted successfully").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    pub data: T,
}

impl<T> MessageData<T> {
    /// `{message, code, data}` for the English `message`.
    pub fn new(message: impl Into<String>, data: T) -> Self {
        let m = Message::new(message);
        MessageData {
            message: m.message,
            code: m.code,
            count: m.count,
            data,
        }
    }
}

/// `{"message": ...}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Message {
    pub message: String,
    /// A stable code for the message, for the web to translate: the spec's English message in
    /// snake case, without numbers and "successfully" ("Client created successfully" →
    /// `client_created`, "3 users deleted successfully" → `users_deleted`).
    pub code: String,
    /// The number in the message, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
}

impl Message {
    /// `{message, code}` for the English `message`.
    pub fn new(message: impl Into<String>) -> Self {
        let message = message.into();
        let mut count = None;
        let mut words = Vec::new();
        for token in message.split_whitespace() {
            if let Ok(n) = token.parse::<u64>() {
                count.get_or_insert(n);
                continue;
            }
            let word: String = token
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .collect();
            if !word.is_empty() && word != "successfully" {
                words.push(word);
            }
        }
        Message {
            code: words.join("_"),
            message,
            count,
        }
    }
}

/// Where a list page stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct Pagination {
    pub count: usize,
    pub page: usize,
    pub page_size: usize,
}

/// `{"data": [...], "pagination": {...}}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListReply<T> {
    pub data: Vec<T>,
    pub pagination: Pagination,
}

impl<T> ListReply<T> {
    /// A reply of `data` with the paging of `page` (items converted by the caller).
    pub fn of<U>(page: &ListPage<U>, data: Vec<T>) -> Self {
        ListReply {
            pagination: Pagination {
                count: page.count,
                page: page.page,
                page_size: page.page_size,
            },
            data,
        }
    }

    /// A reply from a service page, converting each item.
    pub fn from_page<U>(page: ListPage<U>, f: impl Fn(U) -> T) -> Self {
        ListReply {
            pagination: Pagination {
                count: page.count,
                page: page.page,
                page_size: page.page_size,
            },
            data: page.items.into_iter().map(f).collect(),
        }
    }
}

/// Sign-in request.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginRequest {
    #[serde(default)]
    #[schema(required = true, max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password: String,
}

/// An access and a refresh token.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenDto {
    pub access: String,
    pub refresh: String,
}

/// Sign-in reply data.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginData {
    pub token: TokenDto,
    pub user: Profile,
}

/// Refresh reply data.
#[derive(Debug, Serialize, ToSchema)]
pub struct RefreshData {
    pub token: TokenDto,
}

/// `POST /auth/token/verify/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub token: String,
}

/// `POST /auth/token/refresh/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefreshRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub refresh: String,
}

/// Verification reply data.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifyData {
    pub valid: bool,
    pub user_id: String,
}

/// The signed-in user's modules.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModuleAccess {
    pub modules: Vec<String>,
    pub access_all_modules: bool,
}

/// The signed-in user's profile (spec section 3).
#[derive(Debug, Serialize, ToSchema)]
pub struct Profile {
    pub id: String,
    pub name: String,
    #[serde(rename = "displayName")]
    pub display_name: String,
    pub email: String,
    pub phone_number: String,
    pub role_name: Option<String>,
    pub role_id: Option<String>,
    /// Every permission key the user holds.
    pub permission: Vec<String>,
    pub positions: Vec<String>,
    pub module: ModuleAccess,
    #[schema(value_type = vendfleet_domain::Language, inline)]
    pub language: String,
    /// `admin` for users with access to all modules, else `user`.
    pub role_level: String,
    pub access_all_machines: bool,
    #[serde(rename = "photoURL")]
    pub photo_url: Option<String>,
}

impl From<&Principal> for Profile {
    fn from(p: &Principal) -> Self {
        let u = &p.user;
        Profile {
            id: u.id.clone(),
            name: u.name.clone(),
            display_name: u.name.clone(),
            email: u.email.clone(),
            phone_number: u.phone.clone(),
            role_name: p.role.as_ref().map(|r| r.name.clone()),
            role_id: p.role.as_ref().map(|r| r.id.clone()),
            permission: p.grants.keys().into_iter().map(String::from).collect(),
            positions: if u.position.is_empty() {
                vec![]
            } else {
                vec![u.position.clone()]
            },
            module: ModuleAccess {
                modules: p
                    .role
                    .as_ref()
                    .map(|r| r.modules.clone())
                    .unwrap_or_default(),
                access_all_modules: u.access_all_modules,
            },
            language: u.language.code().into(),
            role_level: if u.access_all_modules {
                "admin"
            } else {
                "user"
            }
            .into(),
            access_all_machines: u.access_all_machines,
            photo_url: None,
        }
    }
}

/// Registration request (open registration only).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterRequest {
    #[serde(default)]
    #[schema(required = true, max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128)]
    pub password: String,
    #[serde(default, rename = "firstName")]
    #[schema(required = true, max_length = 75)]
    pub first_name: String,
    #[serde(default, rename = "lastName")]
    #[schema(required = true, max_length = 75)]
    pub last_name: String,
}

/// Registration reply.
#[derive(Debug, Serialize, ToSchema)]
pub struct RegisterReply {
    #[serde(rename = "accessToken")]
    pub access_token: String,
    #[serde(rename = "refreshToken")]
    pub refresh_token: String,
    pub user: Profile,
}

/// A language of the interface.
#[derive(Debug, Serialize, ToSchema)]
pub struct LanguageDto {
    #[schema(value_type = vendfleet_domain::Language, inline)]
    pub code: String,
    pub name: String,
}

/// `POST /api/users/me/password/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangePasswordRequest {
    #[serde(default)]
    #[schema(required = true)]
    pub current_password: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8, max_length = 128)]
    pub new_password: String,
}

/// `POST /api/settings/languges/switch/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SwitchLanguageRequest {
    #[serde(default)]
    #[schema(required = true, value_type = vendfleet_domain::Language, inline)]
    pub language: String,
}

/// Reply data of a language switch.
#[derive(Debug, Serialize, ToSchema)]
pub struct LanguageData {
    #[schema(value_type = vendfleet_domain::Language, inline)]
    pub language: String,
}

/// A user as the administration screens see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserDto {
    pub id: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub role_id: Option<String>,
    pub role_name: Option<String>,
    pub active: bool,
    pub last_login: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[schema(value_type = vendfleet_domain::Language, inline)]
    pub language: String,
    pub position: String,
    pub access_all_modules: bool,
    pub access_all_machines: bool,
    pub client_ids: Vec<String>,
    pub location_ids: Vec<String>,
    pub machine_tag_ids: Vec<String>,
    pub machine_ids: Vec<String>,
    pub version: u64,
    /// Whether the caller may edit, (de)activate or delete this user: false for users whose
    /// permissions or machine access lie beyond the caller's own (listed read-only).
    pub can_manage: bool,
}

impl From<UserView> for UserDto {
    fn from(v: UserView) -> Self {
        let u = v.user;
        UserDto {
            id: u.id,
            name: u.name,
            email: u.email,
            phone: u.phone,
            role_id: u.role_id,
            role_name: v.role_name,
            active: u.active,
            last_login: u.last_login,
            created_at: u.created_at,
            updated_at: u.updated_at,
            language: u.language.code().into(),
            position: u.position,
            access_all_modules: u.access_all_modules,
            access_all_machines: u.access_all_machines,
            client_ids: u.client_ids,
            location_ids: u.location_ids,
            machine_tag_ids: u.machine_tag_ids,
            machine_ids: u.machine_ids,
            version: u.version,
            can_manage: v.can_manage,
        }
    }
}

/// `DELETE /api/users/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteUsersRequest {
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 50)]
    pub user_ids: Vec<String>,
}

/// `POST /api/users/{id}/active/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActiveRequest {
    pub active: bool,
}

/// A role.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoleDto {
    pub id: String,
    pub name: String,
    pub modules: Vec<String>,
    pub users_count: usize,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
    /// Whether the caller may change or delete the role: all its permissions are the caller's
    /// and every user holding it is within the caller's reach.
    pub can_manage: bool,
}

impl From<RoleView> for RoleDto {
    fn from(v: RoleView) -> Self {
        RoleDto {
            id: v.role.id,
            name: v.role.name,
            modules: v.role.modules,
            users_count: v.users_count,
            created_at: v.role.created_at,
            updated_at: v.role.updated_at,
            version: v.role.version,
            can_manage: v.can_manage,
        }
    }
}

/// The role form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RoleForm {
    #[serde(default)]
    #[schema(required = true, max_length = 100)]
    pub name: String,
    #[serde(default)]
    pub modules: Vec<String>,
    #[serde(default)]
    pub version: Option<u64>,
}

crate::kit::fields::from_fields! {
    RoleForm => vendfleet_app::users::RoleInput { name, modules, version }
}

/// `DELETE /api/users/roles/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteRolesRequest {
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 50)]
    pub role_ids: Vec<String>,
}

crate::kit::fields::list_query! {
    /// Paging, search and ordering of a list.
    pub struct ListQuery {
        /// Page number, from 1.
        page,
        /// Items per page, 1 to 200 (default 25).
        page_size,
        /// Case-insensitive text search.
        search,
        /// A field to order by; `-field` for descending.
        ordering,
    }
}

crate::kit::fields::list_query! {
    /// The users list's query.
    pub struct UsersQuery => vendfleet_app::users::UserListParams {
        page,
        page_size,
        search,
        /// name, email, created_at, last_login, role, active; `-` prefix for descending.
        ordering,
        /// Role id.
        pub role: Option<String>,
        /// `active` or `inactive`.
        #[param(value_type = Option<crate::kit::contract::StatusFilter>, inline)]
        pub status: Option<String>,
    }
}

/// An option of a filter: id and display name.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionDto {
    pub id: String,
    pub name: String,
}

/// A node of the permission catalogue.
#[derive(Debug, Serialize, ToSchema)]
#[schema(no_recursion)]
pub struct CatalogueNodeDto {
    pub key: String,
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<CatalogueNodeDto>,
}

impl From<vendfleet_domain::permissions::CatalogueNode> for CatalogueNodeDto {
    fn from(n: vendfleet_domain::permissions::CatalogueNode) -> Self {
        CatalogueNodeDto {
            key: n.key,
            name: n.name,
            children: n.children.into_iter().map(Into::into).collect(),
        }
    }
}

/// `?lang=` of localised filters.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LangQuery {
    /// en, fr or it; defaults to the user's language.
    #[param(value_type = Option<vendfleet_domain::Language>, inline)]
    pub lang: Option<String>,
}

/// The machine a log's row (a refill, a collection, a sale) is of and where it stood then, as
/// the API names them.
#[derive(Debug, Serialize, ToSchema)]
pub struct MachineStampDto {
    pub machine_id: String,
    /// The machine's name when the row was written.
    pub machine: String,
    /// Where the machine stood then.
    pub location_id: Option<String>,
    pub location: Option<String>,
}

impl From<vendfleet_app::fleet::MachineStamp> for MachineStampDto {
    fn from(s: vendfleet_app::fleet::MachineStamp) -> Self {
        MachineStampDto {
            machine_id: s.machine_id,
            machine: s.machine_name,
            location_id: s.location_id,
            location: s.location_name,
        }
    }
}
