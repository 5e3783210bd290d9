//! Auth area: sign-in, token checks, the profile, registration and the interface language.

use crate::kit::dto::*;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{Authorized, ClientAddr, Json, SignedIn};
use crate::kit::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::auth::Registration;
use vendfleet_domain::Language;

/// The auth area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(verify))
        .routes(routes!(refresh))
        .routes(routes!(me, register))
        .routes(routes!(languages))
        .routes(routes!(switch_language))
        .routes(routes!(change_password))
}

/// Signs in with e-mail and password.
#[utoipa::path(post, path = "/auth/token/", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = Data<LoginData>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody, description = "Unknown e-mail or wrong password"),
              (status = 429, body = ErrorBody)))]
async fn login(
    State(s): State<AppState>,
    client: ClientAddr,
    Json(req): Json<LoginRequest>,
) -> ApiResult<axum::Json<Data<LoginData>>> {
    let (tokens, principal) = s
        .app
        .auth
        .login(&req.email, &req.password, &client.0)
        .await?;
    Ok(axum::Json(Data {
        data: LoginData {
            token: TokenDto {
                access: tokens.access,
                refresh: tokens.refresh,
            },
            user: Profile::from(&principal),
        },
    }))
}

/// Checks an access token: 200 when it is valid now, 401 otherwise.
#[utoipa::path(post, path = "/auth/token/verify/", tag = "auth", request_body = VerifyRequest,
    responses((status = 200, body = Data<VerifyData>), (status = 401, body = ErrorBody)))]
async fn verify(
    State(s): State<AppState>,
    Json(req): Json<VerifyRequest>,
) -> ApiResult<axum::Json<Data<VerifyData>>> {
    let p = s.app.auth.authenticate(req.token.trim()).await?;
    Ok(axum::Json(Data {
        data: VerifyData {
            valid: true,
            user_id: p.user.id,
        },
    }))
}

/// New tokens for a refresh token.
#[utoipa::path(post, path = "/auth/token/refresh/", tag = "auth", request_body = RefreshRequest,
    responses((status = 200, body = Data<RefreshData>), (status = 401, body = ErrorBody)))]
async fn refresh(
    State(s): State<AppState>,
    Json(req): Json<RefreshRequest>,
) -> ApiResult<axum::Json<Data<RefreshData>>> {
    let t = s.app.auth.refresh(req.refresh.trim()).await?;
    Ok(axum::Json(Data {
        data: RefreshData {
            token: TokenDto {
                access: t.access,
                refresh: t.refresh,
            },
        },
    }))
}

/// The signed-in user's profile.
#[utoipa::path(get, path = "/api/users/me/", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Data<Profile>), (status = 401, body = ErrorBody)))]
async fn me(auth: Authorized<SignedIn>) -> axum::Json<Data<Profile>> {
    axum::Json(Data {
        data: Profile::from(auth.principal()),
    })
}

/// Registers a new account (only when open registration is configured on; 403 otherwise).
#[utoipa::path(post, path = "/api/users/me/", tag = "auth", request_body = RegisterRequest,
    responses((status = 201, body = RegisterReply), (status = 400, body = ErrorBody),
              (status = 403, body = ErrorBody, description = "Registration is closed"), (status = 409, body = ErrorBody)))]
async fn register(
    State(s): State<AppState>,
    Json(req): Json<RegisterRequest>,
) -> ApiResult<(StatusCode, axum::Json<RegisterReply>)> {
    let (tokens, principal) = s
        .app
        .auth
        .register(Registration {
            email: req.email,
            password: req.password,
            first_name: req.first_name,
            last_name: req.last_name,
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(RegisterReply {
            access_token: tokens.access,
            refresh_token: tokens.refresh,
            user: Profile::from(&principal),
        }),
    ))
}

/// The interface languages.
#[utoipa::path(get, path = "/api/settings/languges/", tag = "auth",
    responses((status = 200, body = Data<Vec<LanguageDto>>)))]
async fn languages() -> axum::Json<Data<Vec<LanguageDto>>> {
    axum::Json(Data {
        data: Language::ALL
            .iter()
            .map(|l| LanguageDto {
                code: l.code().into(),
                name: l.native_name().into(),
            })
            .collect(),
    })
}

/// Changes the signed-in user's own password (the current one required). Every other session
/// ends; the caller goes on with the tokens answered.
#[utoipa::path(post, path = "/api/users/me/password/", tag = "auth", security(("bearer" = [])),
    request_body = ChangePasswordRequest,
    responses((status = 200, body = MessageData<RefreshData>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn change_password(
    State(s): State<AppState>,
    auth: Authorized<SignedIn>,
    Json(req): Json<ChangePasswordRequest>,
) -> ApiResult<axum::Json<MessageData<RefreshData>>> {
    let tokens = s
        .app
        .auth
        .change_own_password(auth.principal(), &req.current_password, &req.new_password)
        .await?;
    Ok(axum::Json(MessageData::new(
        "Password changed",
        RefreshData {
            token: TokenDto {
                access: tokens.access,
                refresh: tokens.refresh,
            },
        },
    )))
}

/// Sets the signed-in user's language.
#[utoipa::path(post, path = "/api/settings/languges/switch/", tag = "auth", security(("bearer" = [])),
    request_body = SwitchLanguageRequest,
    responses((status = 200, body = MessageData<LanguageData>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn switch_language(
    State(s): State<AppState>,
    auth: Authorized<SignedIn>,
    Json(req): Json<SwitchLanguageRequest>,
) -> ApiResult<axum::Json<MessageData<LanguageData>>> {
    let lang = s
        .app
        .auth
        .switch_language(auth.principal(), &req.language)
        .await?;
    Ok(axum::Json(MessageData::new(
        "Language updated",
        LanguageData {
            language: lang.code().into(),
        },
    )))
}
