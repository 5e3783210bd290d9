//! Password hashing with argon2id (PHC strings).

use argon2::password_hash::{phc::PasswordHash, PasswordHasher, PasswordVerifier};
use argon2::Argon2;

use crate::error::{AppError, AppResult};

/// Hashes a password with argon2id and a random salt; runs on a blocking thread.
pub async fn hash(password: String) -> AppResult<String> {
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .map_err(|e| AppError::Internal(format!("hash task: {e}")))?
}

/// Checks a password against a PHC hash; runs on a blocking thread.
pub async fn verify(password: String, phc: String) -> AppResult<bool> {
    tokio::task::spawn_blocking(move || Ok(verify_blocking(&password, &phc)))
        .await
        .map_err(|e| AppError::Internal(format!("verify task: {e}")))?
}

fn hash_blocking(password: &str) -> AppResult<String> {
    // argon2id v19 with the crate's default cost and a random salt from the OS.
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| AppError::Internal(format!("argon2: {e}")))
}

fn verify_blocking(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

/// A valid hash of a random password: verified against when the e-mail is unknown, so an
/// unknown address costs the same time as a wrong password.
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let mut pw = [0u8; 24];
        rand::Rng::fill(&mut rand::rng(), &mut pw);
        hash_blocking(&String::from_utf8_lossy(&pw)).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_and_verify() {
        let h = hash("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(verify("correct horse".into(), h.clone()).await.unwrap());
        assert!(!verify("wrong horse".into(), h.clone()).await.unwrap());
        assert!(!verify("x".into(), "not a hash".into()).await.unwrap());
        assert_ne!(h, hash("correct horse".into()).await.unwrap(), "salted");
    }
}
