//! The blob store on one S3 bucket; downloads through presigned GET URLs.

use crate::error::cause;
use async_trait::async_trait;
use aws_sdk_s3::presigning::PresigningConfig;
use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::Client;
use std::time::Duration;
use vendfleet_app::ports::{check_blob_key, Blob, BlobError, BlobStore};

/// Longest validity S3 accepts for a presigned URL.
const MAX_PRESIGN: Duration = Duration::from_secs(7 * 24 * 3600);

/// [`BlobStore`] on one S3 bucket.
#[derive(Debug, Clone)]
pub struct S3BlobStore {
    client: Client,
    bucket: String,
}

impl S3BlobStore {
    /// A store on `bucket`.
    pub fn new(client: Client, bucket: impl Into<String>) -> Self {
        S3BlobStore {
            client,
            bucket: bucket.into(),
        }
    }

    /// The bucket name.
    pub fn bucket(&self) -> &str {
        &self.bucket
    }
}

fn backend(err: impl std::error::Error + 'static) -> BlobError {
    BlobError::Backend(cause(&err))
}

/// `Content-Disposition` for a download named `file_name`: an ASCII fallback name plus the
/// exact UTF-8 name (RFC 6266 / RFC 5987), so quotes or accents in a name cannot break the header.
pub fn content_disposition(file_name: &str) -> String {
    let fallback: String = file_name
        .chars()
        .map(|c| {
            if (c.is_ascii_graphic() && c != '"' && c != '\\') || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut encoded = String::with_capacity(file_name.len() * 3);
    for b in file_name.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&+-.^_`|~".contains(&b) {
            encoded.push(b as char);
        } else {
            encoded.push_str(&format!("%{b:02X}"));
        }
    }
    format!("attachment; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
}

#[async_trait]
impl BlobStore for S3BlobStore {
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError> {
        check_blob_key(key)?;
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .content_type(content_type)
            .body(ByteStream::from(bytes))
            .send()
            .await
            .map_err(backend)?;
        Ok(())
    }

    async fn put_file(
        &self,
        key: &str,
        path: &std::path::Path,
        content_type: &str,
    ) -> Result<(), BlobError> {
        check_blob_key(key)?;
        let body = ByteStream::from_path(path).await.map_err(backend)?;
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .content_type(content_type)
            .body(body)
            .send()
            .await
            .map_err(backend)?;
        Ok(())
    }

    async fn get(&self, key: &str) -> Result<Option<Blob>, BlobError> {
        check_blob_key(key)?;
        let out = match self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await
        {
            Ok(out) => out,
            Err(e) if e.as_service_error().is_some_and(|e| e.is_no_such_key()) => return Ok(None),
            Err(e) => return Err(backend(e)),
        };
        let content_type = out
            .content_type
            .unwrap_or_else(|| "application/octet-stream".into());
        let bytes = out.body.collect().await.map_err(backend)?.into_bytes();
        Ok(Some(Blob {
            bytes: bytes.to_vec(),
            content_type,
        }))
    }

    async fn download_url(
        &self,
        key: &str,
        file_name: &str,
        expires_in: Duration,
    ) -> Result<String, BlobError> {
        check_blob_key(key)?;
        let presigning =
            PresigningConfig::expires_in(expires_in.min(MAX_PRESIGN)).map_err(backend)?;
        let request = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .response_content_disposition(content_disposition(file_name))
            .presigned(presigning)
            .await
            .map_err(backend)?;
        Ok(request.uri().to_string())
    }

    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        check_blob_key(key)?;
        self.client
            .delete_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await
            .map_err(backend)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_disposition_keeps_the_name_and_stays_a_valid_header() {
        assert_eq!(
            content_disposition("Sales report.xlsx"),
            "attachment; filename=\"Sales report.xlsx\"; filename*=UTF-8''Sales%20report.xlsx"
        );
        assert_eq!(
            content_disposition("Ventes \"été\".csv"),
            "attachment; filename=\"Ventes __t__.csv\"; \
             filename*=UTF-8''Ventes%20%22%C3%A9t%C3%A9%22.csv"
        );
        assert!(content_disposition("a\r\nb").is_ascii());
        assert!(!content_disposition("a\r\nb").contains('\n'));
    }
}
