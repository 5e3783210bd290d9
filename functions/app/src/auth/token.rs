//! Access and refresh tokens: JWT, HS256 only.

use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use jsonwebtoken::crypto::{CryptoProvider, JwtSigner, JwtVerifier, KeyUtils};
use jsonwebtoken::errors::{Error as JwtError, ErrorKind};
use jsonwebtoken::signature::{Error as SignatureError, Signer, Verifier};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::config::Secret;

/// What a token is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    Access,
    Refresh,
}

/// The claims we sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// User id.
    pub sub: String,
    /// Access or refresh.
    pub typ: TokenKind,
    /// The user's token version when issued.
    pub ver: u64,
    pub iat: i64,
    pub exp: i64,
    /// Unique id of the token.
    pub jti: String,
}

/// jsonwebtoken's cryptography for the one algorithm we sign with. Its RustCrypto provider
/// brings RSA, ECDSA and EdDSA (about twenty crates, a sixth of a first start's build) that
/// an HS256 service never calls; any other algorithm is refused with `InvalidAlgorithm`.
static HS256_ONLY: CryptoProvider = CryptoProvider {
    signer_factory: |alg, key| match alg {
        Algorithm::HS256 => Ok(Box::new(Hs256(hmac_of(key.as_bytes())?))),
        _ => Err(ErrorKind::InvalidAlgorithm.into()),
    },
    verifier_factory: |alg, key| match alg {
        Algorithm::HS256 => Ok(Box::new(Hs256(hmac_of(key.try_get_as_bytes()?)?))),
        _ => Err(ErrorKind::InvalidAlgorithm.into()),
    },
    key_utils: KeyUtils::new_unimplemented(),
};

/// Installs [`HS256_ONLY`] as the process's provider (once; later calls find it there).
fn install_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // An Err means a provider is installed already; only ours is ever installed.
        let _ = HS256_ONLY.install_default();
    });
}

fn hmac_of(key: &[u8]) -> Result<Hmac<Sha256>, JwtError> {
    Hmac::new_from_slice(key).map_err(|_| ErrorKind::InvalidKeyFormat.into())
}

/// HMAC-SHA256 signing and checking of a token's header and payload.
struct Hs256(Hmac<Sha256>);

impl Signer<Vec<u8>> for Hs256 {
    fn try_sign(&self, msg: &[u8]) -> Result<Vec<u8>, SignatureError> {
        Ok(self
            .0
            .clone()
            .chain_update(msg)
            .finalize()
            .into_bytes()
            .to_vec())
    }
}

impl Verifier<Vec<u8>> for Hs256 {
    fn verify(&self, msg: &[u8], signature: &Vec<u8>) -> Result<(), SignatureError> {
        // `verify_slice` compares in constant time.
        self.0
            .clone()
            .chain_update(msg)
            .verify_slice(signature)
            .map_err(SignatureError::from_source)
    }
}

impl JwtSigner for Hs256 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::HS256
    }
}

impl JwtVerifier for Hs256 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::HS256
    }
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("token is malformed or its signature is wrong")]
    Invalid,
    #[error("token has expired")]
    Expired,
    #[error("token is of the wrong kind")]
    WrongKind,
}

/// Signs and checks tokens with one HS256 key.
#[derive(Clone)]
pub struct TokenSigner {
    encoding: EncodingKey,
    decoding: DecodingKey,
}

impl TokenSigner {
    /// A signer for `secret`.
    pub fn new(secret: &Secret) -> Self {
        install_provider();
        TokenSigner {
            encoding: EncodingKey::from_secret(secret.expose()),
            decoding: DecodingKey::from_secret(secret.expose()),
        }
    }

    /// Issues a token.
    pub fn issue(
        &self,
        user_id: &str,
        kind: TokenKind,
        token_version: u64,
        now: DateTime<Utc>,
        ttl_secs: i64,
    ) -> Result<String, TokenError> {
        let claims = Claims {
            sub: user_id.to_string(),
            typ: kind,
            ver: token_version,
            iat: now.timestamp(),
            exp: now.timestamp() + ttl_secs,
            jti: ulid::Ulid::new().to_string(),
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|_| TokenError::Invalid)
    }

    /// Checks signature, algorithm (HS256 only), kind and expiry against `now`.
    pub fn check(
        &self,
        token: &str,
        kind: TokenKind,
        now: DateTime<Utc>,
    ) -> Result<Claims, TokenError> {
        let mut validation = Validation::new(Algorithm::HS256);
        // Expiry is checked below against the injected clock, not the system clock.
        validation.validate_exp = false;
        validation.required_spec_claims = ["exp", "sub"].iter().map(|s| s.to_string()).collect();
        let data = decode::<Claims>(token, &self.decoding, &validation)
            .map_err(|_| TokenError::Invalid)?;
        if data.claims.typ != kind {
            return Err(TokenError::WrongKind);
        }
        if data.claims.exp <= now.timestamp() {
            return Err(TokenError::Expired);
        }
        Ok(data.claims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;

    fn signer() -> TokenSigner {
        TokenSigner::new(&Secret::new("0123456789abcdef0123456789abcdef"))
    }

    #[test]
    fn issue_and_check() {
        let now = Utc::now();
        let t = signer().issue("u1", TokenKind::Access, 3, now, 60).unwrap();
        let c = signer().check(&t, TokenKind::Access, now).unwrap();
        assert_eq!((c.sub.as_str(), c.ver), ("u1", 3));
        assert_eq!(
            signer().check(&t, TokenKind::Refresh, now),
            Err(TokenError::WrongKind)
        );
        let later = now + chrono::Duration::seconds(61);
        assert_eq!(
            signer().check(&t, TokenKind::Access, later),
            Err(TokenError::Expired)
        );
    }

    #[test]
    fn refuses_other_keys_tampering_and_alg_none() {
        let now = Utc::now();
        let t = signer().issue("u1", TokenKind::Access, 0, now, 60).unwrap();
        let other = TokenSigner::new(&Secret::new("another-secret-another-secret-xx"));
        assert_eq!(
            other.check(&t, TokenKind::Access, now),
            Err(TokenError::Invalid)
        );

        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let parts: Vec<&str> = t.split('.').collect();
        let mut payload: serde_json::Value =
            serde_json::from_slice(&b64.decode(parts[1]).unwrap()).unwrap();
        payload["sub"] = "admin".into();
        let forged = format!(
            "{}.{}.{}",
            parts[0],
            b64.encode(payload.to_string()),
            parts[2]
        );
        assert_eq!(
            signer().check(&forged, TokenKind::Access, now),
            Err(TokenError::Invalid)
        );

        let none = format!(
            "{}.{}.",
            b64.encode(r#"{"alg":"none","typ":"JWT"}"#),
            parts[1]
        );
        assert_eq!(
            signer().check(&none, TokenKind::Access, now),
            Err(TokenError::Invalid)
        );
        assert_eq!(
            signer().check("garbage", TokenKind::Access, now),
            Err(TokenError::Invalid)
        );
    }

    /// The provider signs HS256 only: a token that names another algorithm, even one signed
    /// with the right key by it, is refused, and no other algorithm can be signed with.
    #[test]
    fn other_algorithms_are_refused() {
        let now = Utc::now();
        let t = signer().issue("u1", TokenKind::Access, 0, now, 60).unwrap();
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let parts: Vec<&str> = t.split('.').collect();
        let key = b"0123456789abcdef0123456789abcdef";
        for alg in ["HS384", "HS512", "RS256", "ES256", "EdDSA"] {
            let head = b64.encode(format!(r#"{{"alg":"{alg}","typ":"JWT"}}"#));
            let signed = format!("{head}.{}", parts[1]);
            let mac = <Hmac<sha2::Sha512> as Mac>::new_from_slice(key)
                .unwrap()
                .chain_update(signed.as_bytes())
                .finalize()
                .into_bytes();
            let token = format!("{signed}.{}", b64.encode(mac));
            assert_eq!(
                signer().check(&token, TokenKind::Access, now),
                Err(TokenError::Invalid),
                "{alg}"
            );
        }
        let claims = signer().check(&t, TokenKind::Access, now).unwrap();
        let hs512 = encode(
            &Header::new(Algorithm::HS512),
            &claims,
            &EncodingKey::from_secret(key),
        );
        assert!(hs512.is_err(), "only HS256 is signed");
    }
}
