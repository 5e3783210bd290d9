//! The sign-in service.

use super::rate_limit::RateLimiter;
use super::token::{TokenError, TokenKind, TokenSigner};
use crate::config::AuthSettings;
use crate::error::{AppError, AppResult};
use crate::password;
use crate::ports::Clock;
use crate::users::Principal;
use crate::users::{Directory, User};
use std::collections::HashMap;
use std::sync::Arc;
use vendfleet_domain::{validation, FieldErrors, Language};

/// The message for an unknown e-mail and a wrong password alike.
pub const BAD_CREDENTIALS: &str = "Invalid e-mail or password";
/// The message for a correct password on a deactivated account.
pub const DEACTIVATED: &str = "This account is deactivated";

/// An access token with its refresh token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenPair {
    pub access: String,
    pub refresh: String,
}

/// A registration request.
#[derive(Debug, Clone, Default)]
pub struct Registration {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
}

/// Principals kept at most between requests (beyond, the kept ones are dropped).
const MAX_KEPT_PRINCIPALS: usize = 10_000;

/// The auth service.
#[derive(Clone)]
pub struct AuthService {
    /// Principals by user id, each with the count of user and role writes it was read at
    /// (where this process is the store's sole writer; see `check`).
    principals: Arc<std::sync::Mutex<HashMap<String, (u64, Principal)>>>,
    directory: Directory,
    clock: Arc<dyn Clock>,
    settings: AuthSettings,
    signer: TokenSigner,
    limiter: RateLimiter,
}

impl AuthService {
    /// A service on `directory` with `settings`.
    pub fn new(directory: Directory, clock: Arc<dyn Clock>, settings: AuthSettings) -> Self {
        let signer = TokenSigner::new(&settings.jwt_secret);
        let limiter = RateLimiter::new(directory.store().clone(), settings.login_window_secs);
        AuthService {
            principals: Default::default(),
            directory,
            clock,
            settings,
            signer,
            limiter,
        }
    }

    /// The settings in force.
    pub fn settings(&self) -> &AuthSettings {
        &self.settings
    }

    fn issue(&self, user: &User) -> AppResult<TokenPair> {
        let now = self.clock.now();
        let err = |_| AppError::Internal("token signing failed".into());
        Ok(TokenPair {
            access: self
                .signer
                .issue(
                    &user.id,
                    TokenKind::Access,
                    user.token_version,
                    now,
                    self.settings.access_ttl_secs,
                )
                .map_err(err)?,
            refresh: self
                .signer
                .issue(
                    &user.id,
                    TokenKind::Refresh,
                    user.token_version,
                    now,
                    self.settings.refresh_ttl_secs,
                )
                .map_err(err)?,
        })
    }

    /// Loads the principal of a user id, or None when the user is gone.
    pub async fn principal(&self, user: User) -> AppResult<Principal> {
        self.directory.principal(user).await
    }

    /// Signs in with e-mail and password; `client` is the caller's address for rate limiting.
    pub async fn login(
        &self,
        email: &str,
        password: &str,
        client: &str,
    ) -> AppResult<(TokenPair, Principal)> {
        let mut errors = FieldErrors::new();
        let email = validation::email(&mut errors, "email", email);
        if password.is_empty() {
            errors.add("password", "This field is required.");
        }
        errors.into_result()?;

        let now = self.clock.now().timestamp();
        let email_subject = format!("login-email#{email}");
        let client_subject = format!("login-client#{client}");
        let limited = self.limiter.count(&email_subject, now).await?
            >= self.settings.login_failures_per_email
            || self.limiter.hit(&client_subject, now).await?
                > self.settings.login_attempts_per_client;
        if limited {
            return Err(AppError::RateLimited {
                message: "Too many sign-in attempts. Try again later.".into(),
                retry_after_secs: self.limiter.retry_after(now),
            });
        }

        let user = self.directory.user_by_email(&email).await?;
        let hash = user
            .as_ref()
            .map(|u| u.password_hash.clone())
            .unwrap_or_else(|| password::decoy_hash().to_string());
        let ok = password::verify(password.to_string(), hash).await?;
        let user = match (user, ok) {
            (Some(u), true) => u,
            _ => {
                self.limiter.hit(&email_subject, now).await?;
                return Err(AppError::Unauthorized(BAD_CREDENTIALS.into()));
            }
        };
        if !user.active {
            return Err(AppError::Unauthorized(DEACTIVATED.into()));
        }
        let mut next = user.clone();
        next.last_login = Some(self.clock.now());
        next.version += 1;
        // A concurrent change of the user wins over the sign-in time.
        let user = match self.directory.replace_user(&user, &next).await {
            Ok(()) => next,
            Err(AppError::Conflict { .. }) => user,
            Err(e) => return Err(e),
        };
        let tokens = self.issue(&user)?;
        Ok((tokens, self.principal(user).await?))
    }

    async fn check(&self, token: &str, kind: TokenKind) -> AppResult<Principal> {
        let claims = self
            .signer
            .check(token, kind, self.clock.now())
            .map_err(|e| {
                AppError::Unauthorized(match e {
                    TokenError::Expired => "Token has expired".into(),
                    _ => "Token is invalid".into(),
                })
            })?;
        let current = |u: &User| u.active && u.token_version == claims.ver;
        let gone = || AppError::Unauthorized("Token is no longer valid".into());
        // Where this process writes every user and role, the principal read while the count of
        // their writes stood is current while it stands (counted before the reads below).
        let count = self.directory.people_count();
        if let Some(count) = count {
            let kept = self.principals.lock().unwrap_or_else(|e| e.into_inner());
            // One that no longer matches the token is read again, not refused from memory.
            let found = kept
                .get(&claims.sub)
                .filter(|(c, p)| *c == count && current(&p.user));
            if let Some((_, p)) = found {
                return Ok(p.clone());
            }
        }
        let user = self
            .directory
            .user(&claims.sub)
            .await?
            .filter(current)
            .ok_or_else(gone)?;
        let principal = self.principal(user).await?;
        if let Some(count) = count {
            let mut kept = self.principals.lock().unwrap_or_else(|e| e.into_inner());
            if kept.len() >= MAX_KEPT_PRINCIPALS {
                kept.clear();
            }
            kept.insert(claims.sub, (count, principal.clone()));
        }
        Ok(principal)
    }

    /// The principal of a valid access token: signature, expiry, the user still active and the
    /// token's version current (401 otherwise).
    pub async fn authenticate(&self, access_token: &str) -> AppResult<Principal> {
        self.check(access_token, TokenKind::Access).await
    }

    /// New tokens for a valid refresh token.
    pub async fn refresh(&self, refresh_token: &str) -> AppResult<TokenPair> {
        let principal = self.check(refresh_token, TokenKind::Refresh).await?;
        self.issue(&principal.user)
    }

    /// Open registration: creates an active user with no role and signs them in.
    pub async fn register(&self, r: Registration) -> AppResult<(TokenPair, Principal)> {
        if !self.settings.open_registration {
            return Err(AppError::Forbidden("Registration is closed".into()));
        }
        let mut errors = FieldErrors::new();
        let email = validation::email(&mut errors, "email", &r.email);
        validation::password(&mut errors, "password", &r.password);
        let first = validation::required_text(&mut errors, "firstName", &r.first_name, 75);
        let last = validation::required_text(&mut errors, "lastName", &r.last_name, 75);
        errors.into_result()?;
        let now = self.clock.now();
        let mut user = User::new_account(
            format!("{first} {last}"),
            email,
            password::hash(r.password).await?,
            now,
        );
        user.last_login = Some(now);
        self.directory.insert_user(&user).await?;
        let tokens = self.issue(&user)?;
        Ok((tokens, Principal::new(user, None)))
    }

    /// Changes the signed-in user's own password: the current one must be given. Every other
    /// session ends (the user's token version moves on); the caller's goes on with the new
    /// tokens answered. Wrong current passwords count towards the sign-in limit of the e-mail.
    pub async fn change_own_password(
        &self,
        principal: &Principal,
        current_password: &str,
        new_password: &str,
    ) -> AppResult<TokenPair> {
        let mut errors = FieldErrors::new();
        if current_password.is_empty() {
            errors.add("current_password", "This field is required.");
        }
        validation::password(&mut errors, "new_password", new_password);
        if !new_password.is_empty() && new_password == current_password {
            errors.add(
                "new_password",
                "Choose a password other than the current one.",
            );
        }
        errors.into_result()?;
        let now = self.clock.now().timestamp();
        let subject = format!("login-email#{}", principal.user.email);
        if self.limiter.count(&subject, now).await? >= self.settings.login_failures_per_email {
            return Err(AppError::RateLimited {
                message: "Too many wrong passwords. Try again later.".into(),
                retry_after_secs: self.limiter.retry_after(now),
            });
        }
        let hash = password::hash(new_password.to_string()).await?;
        for _ in 0..3 {
            let current = self.directory.user_or_404(&principal.user.id).await?;
            if !password::verify(current_password.to_string(), current.password_hash.clone())
                .await?
            {
                self.limiter.hit(&subject, now).await?;
                return Err(AppError::invalid_field(
                    "current_password",
                    "The current password is not right.",
                ));
            }
            let mut next = current.clone();
            next.password_hash = hash.clone();
            next.token_version += 1;
            next.updated_at = self.clock.now();
            next.version += 1;
            match self.directory.replace_user(&current, &next).await {
                Err(AppError::Conflict { .. }) => continue,
                Err(e) => return Err(e),
                Ok(()) => return self.issue(&next),
            }
        }
        Err(AppError::stale())
    }

    /// Sets the signed-in user's interface language.
    pub async fn switch_language(&self, principal: &Principal, code: &str) -> AppResult<Language> {
        let language = Language::parse(code)
            .filter(|l| l.code() == code.trim().to_ascii_lowercase())
            .ok_or_else(|| AppError::invalid_field("language", "Choose one of: en, fr, it."))?;
        for _ in 0..3 {
            let current = self.directory.user_or_404(&principal.user.id).await?;
            let mut next = current.clone();
            next.language = language;
            next.updated_at = self.clock.now();
            next.version += 1;
            match self.directory.replace_user(&current, &next).await {
                Err(AppError::Conflict { .. }) => continue,
                other => return other.map(|_| language),
            }
        }
        Err(AppError::stale())
    }

    /// Creates (or resets) an administrator with every module and every machine; idempotent.
    /// Returns true when a user was created.
    pub async fn ensure_admin(&self, email: &str, password: &str) -> AppResult<bool> {
        let mut errors = FieldErrors::new();
        let email = validation::email(&mut errors, "email", email);
        validation::password(&mut errors, "password", password);
        errors.into_result()?;
        let now = self.clock.now();
        let hash = password::hash(password.to_string()).await?;
        if let Some(existing) = self.directory.user_by_email(&email).await? {
            let mut next = existing.clone();
            let password_changed =
                !password::verify(password.to_string(), existing.password_hash.clone()).await?;
            if password_changed {
                next.password_hash = hash;
                next.token_version += 1;
            }
            next.active = true;
            next.access_all_modules = true;
            next.access_all_machines = true;
            if next != existing {
                next.updated_at = now;
                next.version += 1;
                self.directory.replace_user(&existing, &next).await?;
            }
            return Ok(false);
        }
        let mut user = User::new_account("Administrator".into(), email, hash, now);
        user.position = "Administrator".into();
        user.access_all_modules = true;
        user.access_all_machines = true;
        self.directory.insert_user(&user).await?;
        Ok(true)
    }
}
