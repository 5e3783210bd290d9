//! The blob store port: report files and exports.

use async_trait::async_trait;
use std::time::Duration;

/// A stored file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    pub bytes: Vec<u8>,
    pub content_type: String,
}

/// Why a blob call failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BlobError {
    /// The key is not acceptable (empty, `..`, absolute, too long).
    #[error("invalid blob key: {0}")]
    InvalidKey(String),
    /// The backend failed.
    #[error("blob backend: {0}")]
    Backend(String),
}

/// Checks a blob key: relative, `/`-separated, no empty or dot segments, at most 512 bytes,
/// only letters, digits and `-_.=`.
pub fn check_blob_key(key: &str) -> Result<(), BlobError> {
    let ok = !key.is_empty()
        && key.len() <= 512
        && key.split('/').all(|seg| {
            !seg.is_empty()
                && seg != "."
                && seg != ".."
                && seg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '='))
        });
    if ok {
        Ok(())
    } else {
        Err(BlobError::InvalidKey(key.to_string()))
    }
}

/// The blob store.
#[async_trait]
pub trait BlobStore: Send + Sync {
    /// Stores `bytes` under `key`, replacing any earlier blob.
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError>;
    /// Stores the file at `path` under `key` without holding it in memory where the backend can
    /// (large generated reports). The default reads it whole and calls [`BlobStore::put`].
    async fn put_file(
        &self,
        key: &str,
        path: &std::path::Path,
        content_type: &str,
    ) -> Result<(), BlobError> {
        let bytes = std::fs::read(path)
            .map_err(|e| BlobError::Backend(format!("{}: {e}", path.display())))?;
        self.put(key, bytes, content_type).await
    }
    /// Reads a blob.
    async fn get(&self, key: &str) -> Result<Option<Blob>, BlobError>;
    /// A URL a browser can download the blob from for `expires_in` (presigned on S3).
    async fn download_url(
        &self,
        key: &str,
        file_name: &str,
        expires_in: Duration,
    ) -> Result<String, BlobError>;
    /// Removes a blob; removing a missing blob succeeds.
    async fn delete(&self, key: &str) -> Result<(), BlobError>;
}
