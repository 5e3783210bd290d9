//! The blob store on the filesystem, with signed download URLs served by the local process.
//!
//! Layout under the root directory: the bytes of key `k` at `k`, its content type at
//! `@meta/k`. `@` cannot occur in a key, so neither the metadata tree nor temporary files
//! (`…@tmp-ULID`) can collide with a blob.

use async_trait::async_trait;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use vendfleet_app::ports::{check_blob_key, Blob, BlobError, BlobStore};

type HmacSha256 = Hmac<Sha256>;

const META_DIR: &str = "@meta";
const DEFAULT_CONTENT_TYPE: &str = "application/octet-stream";

/// Files under a directory; download links are `/files/{key}?name=&exp=&sig=`.
pub struct FsBlobStore {
    root: PathBuf,
    secret: Vec<u8>,
}

impl std::fmt::Debug for FsBlobStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FsBlobStore")
            .field("root", &self.root)
            .field("secret", &"[redacted]")
            .finish()
    }
}

impl FsBlobStore {
    /// A store rooted at `root` (created on first write) signing links with `secret`.
    pub fn new(root: impl Into<PathBuf>, secret: &[u8]) -> Self {
        FsBlobStore {
            root: root.into(),
            secret: secret.to_vec(),
        }
    }

    /// The directory the blobs live in.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Checks a download link's parameters: the signature matches (compared in constant time)
    /// and `now_epoch` is not past `exp`.
    pub fn verify_download(
        &self,
        key: &str,
        name: &str,
        exp: i64,
        sig: &str,
        now_epoch: i64,
    ) -> bool {
        if now_epoch > exp || check_blob_key(key).is_err() {
            return false;
        }
        let Some(sig) = hex_decode(sig) else {
            return false;
        };
        self.mac(key, name, exp).verify_slice(&sig).is_ok()
    }

    /// Signs `key|name|exp`; a key holds no `|` and `exp` is digits, so the split is unique.
    fn mac(&self, key: &str, name: &str, exp: i64) -> HmacSha256 {
        // HMAC takes keys of any length, so this cannot fail.
        let mut mac =
            HmacSha256::new_from_slice(&self.secret).expect("HMAC accepts any key length");
        mac.update(key.as_bytes());
        mac.update(b"|");
        mac.update(name.as_bytes());
        mac.update(b"|");
        mac.update(exp.to_string().as_bytes());
        mac
    }

    fn data_path(&self, key: &str) -> PathBuf {
        self.root.join(key)
    }

    fn meta_path(&self, key: &str) -> PathBuf {
        self.root.join(META_DIR).join(key)
    }
}

fn io_err(path: &Path, e: std::io::Error) -> BlobError {
    BlobError::Backend(format!("{}: {e}", path.display()))
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, synced, then renamed.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BlobError> {
    let dir = path
        .parent()
        .ok_or_else(|| BlobError::Backend(format!("{} has no parent", path.display())))?;
    std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!("{file_name}@tmp-{}", ulid::Ulid::new()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_err(path, e));
    }
    Ok(())
}

fn read_optional(path: &Path) -> Result<Option<Vec<u8>>, BlobError> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(path, e)),
    }
}

fn remove_optional(path: &Path) -> Result<(), BlobError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_err(path, e)),
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, BlobError> + Send + 'static,
) -> Result<T, BlobError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| BlobError::Backend(format!("blob task failed: {e}")))?
}

#[async_trait]
impl BlobStore for FsBlobStore {
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError> {
        check_blob_key(key)?;
        let (data, meta) = (self.data_path(key), self.meta_path(key));
        let content_type = content_type.to_string();
        blocking(move || {
            // Type first: a crash in between leaves the old bytes with the new type at worst,
            // never bytes without a type.
            write_atomic(&meta, content_type.as_bytes())?;
            write_atomic(&data, &bytes)
        })
        .await
    }

    async fn put_file(&self, key: &str, path: &Path, content_type: &str) -> Result<(), BlobError> {
        check_blob_key(key)?;
        let (data, meta) = (self.data_path(key), self.meta_path(key));
        let (source, content_type) = (path.to_path_buf(), content_type.to_string());
        blocking(move || {
            write_atomic(&meta, content_type.as_bytes())?;
            // Copied beside its place, then renamed in: never half a file under the key.
            let partial = PathBuf::from(format!("{}.partial", data.display()));
            if let Some(dir) = partial.parent() {
                std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
            }
            std::fs::copy(&source, &partial).map_err(|e| io_err(&source, e))?;
            std::fs::rename(&partial, &data).map_err(|e| io_err(&data, e))
        })
        .await
    }

    async fn get(&self, key: &str) -> Result<Option<Blob>, BlobError> {
        check_blob_key(key)?;
        let (data, meta) = (self.data_path(key), self.meta_path(key));
        blocking(move || {
            let Some(bytes) = read_optional(&data)? else {
                return Ok(None);
            };
            let content_type = read_optional(&meta)?
                .and_then(|b| String::from_utf8(b).ok())
                .unwrap_or_else(|| DEFAULT_CONTENT_TYPE.to_string());
            Ok(Some(Blob {
                bytes,
                content_type,
            }))
        })
        .await
    }

    async fn download_url(
        &self,
        key: &str,
        file_name: &str,
        expires_in: Duration,
    ) -> Result<String, BlobError> {
        check_blob_key(key)?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let exp = i64::try_from(now.saturating_add(expires_in.as_secs())).unwrap_or(i64::MAX);
        let sig = hex_encode(&self.mac(key, file_name, exp).finalize().into_bytes());
        Ok(format!(
            "/files/{key}?name={}&exp={exp}&sig={sig}",
            url_encode(file_name)
        ))
    }

    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        check_blob_key(key)?;
        let (data, meta) = (self.data_path(key), self.meta_path(key));
        blocking(move || {
            remove_optional(&data)?;
            remove_optional(&meta)
        })
        .await
    }
}

fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    s
}

fn hex_decode(s: &str) -> Option<Vec<u8>> {
    let pairs = s.as_bytes().chunks_exact(2);
    if !pairs.remainder().is_empty() {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    pairs
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param<'a>(url: &'a str, name: &str) -> &'a str {
        let query = url.split_once('?').unwrap().1;
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .unwrap()
    }

    fn now() -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
    }

    #[tokio::test]
    async fn signed_urls_verify_only_untampered_and_unexpired() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = FsBlobStore::new(dir.path(), b"s3cret");
        let url = blobs
            .download_url(
                "r/one.xlsx",
                "Sales report é.xlsx",
                Duration::from_secs(300),
            )
            .await
            .unwrap();
        assert!(
            url.starts_with("/files/r/one.xlsx?name=Sales%20report%20%C3%A9.xlsx&exp="),
            "{url}"
        );
        let exp: i64 = param(&url, "exp").parse().unwrap();
        let sig = param(&url, "sig");
        let name = "Sales report é.xlsx";

        assert!(blobs.verify_download("r/one.xlsx", name, exp, sig, now()));
        assert!(
            blobs.verify_download("r/one.xlsx", name, exp, sig, exp),
            "valid until exp"
        );
        assert!(
            !blobs.verify_download("r/one.xlsx", name, exp, sig, exp + 1),
            "expired"
        );
        assert!(
            !blobs.verify_download("r/two.xlsx", name, exp, sig, now()),
            "other key"
        );
        assert!(
            !blobs.verify_download("r/one.xlsx", "x.xlsx", exp, sig, now()),
            "other name"
        );
        assert!(
            !blobs.verify_download("r/one.xlsx", name, exp + 3600, sig, now()),
            "longer exp"
        );
        let mut flipped = sig.to_string();
        let last = if flipped.ends_with('0') { "1" } else { "0" };
        flipped.replace_range(flipped.len() - 1.., last);
        assert!(
            !blobs.verify_download("r/one.xlsx", name, exp, &flipped, now()),
            "tampered sig"
        );
        assert!(
            !blobs.verify_download("r/one.xlsx", name, exp, "zz", now()),
            "not hex"
        );
        assert!(
            !blobs.verify_download("r/one.xlsx", name, exp, "", now()),
            "empty sig"
        );
        let other = FsBlobStore::new(dir.path(), b"other");
        assert!(
            !other.verify_download("r/one.xlsx", name, exp, sig, now()),
            "other secret"
        );
    }

    #[tokio::test]
    async fn writes_leave_no_temporary_files_and_keep_the_type() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = FsBlobStore::new(dir.path(), b"k");
        blobs
            .put("a/b.csv", b"1".to_vec(), "text/csv")
            .await
            .unwrap();
        blobs
            .put("a/b.csv", b"2".to_vec(), "text/plain")
            .await
            .unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path().join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["b.csv"]);
        let got = blobs.get("a/b.csv").await.unwrap().unwrap();
        assert_eq!(
            (got.bytes.as_slice(), got.content_type.as_str()),
            (&b"2"[..], "text/plain")
        );
    }

    #[test]
    fn hex_round_trips() {
        assert_eq!(hex_encode(&[0, 0xab, 0xff]), "00abff");
        assert_eq!(hex_decode("00abff"), Some(vec![0, 0xab, 0xff]));
        assert_eq!(hex_decode("00ABFF"), Some(vec![0, 0xab, 0xff]));
        assert_eq!(hex_decode("0"), None);
        assert_eq!(hex_decode("g0"), None);
    }
}
