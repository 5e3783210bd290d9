//! Blob store conformance cases.

use crate::ports::{BlobError, BlobStore};
use std::sync::Arc;
use std::time::Duration;

type Blobs = Arc<dyn BlobStore>;

pub async fn put_get_delete(blobs: Blobs) {
    let key = "exports/users/2026-11-22/users.csv";
    assert_eq!(blobs.get(key).await.unwrap(), None);
    blobs
        .put(key, b"a,b\n1,2\n".to_vec(), "text/csv")
        .await
        .unwrap();
    let got = blobs.get(key).await.unwrap().unwrap();
    assert_eq!(got.bytes, b"a,b\n1,2\n");
    assert_eq!(got.content_type, "text/csv");
    let big: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    blobs
        .put(key, big.clone(), "application/octet-stream")
        .await
        .unwrap();
    let got = blobs.get(key).await.unwrap().unwrap();
    assert_eq!(got.bytes, big);
    assert_eq!(got.content_type, "application/octet-stream");
    blobs.delete(key).await.unwrap();
    assert_eq!(blobs.get(key).await.unwrap(), None);
    blobs
        .delete(key)
        .await
        .expect("deleting a missing blob succeeds");
}

pub async fn rejects_bad_keys(blobs: Blobs) {
    for bad in [
        "",
        "../etc/passwd",
        "/abs",
        "a//b",
        "a/./b",
        "sp ace",
        "a/../b",
    ] {
        assert!(
            matches!(
                blobs.put(bad, vec![1], "text/plain").await,
                Err(BlobError::InvalidKey(_))
            ),
            "{bad:?} accepted"
        );
        assert!(matches!(
            blobs.get(bad).await,
            Err(BlobError::InvalidKey(_))
        ));
    }
}

pub async fn download_urls(blobs: Blobs) {
    blobs
        .put(
            "r/one.xlsx",
            vec![1, 2, 3],
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        .await
        .unwrap();
    blobs
        .put("r/two.xlsx", vec![4], "application/octet-stream")
        .await
        .unwrap();
    let one = blobs
        .download_url("r/one.xlsx", "Sales report.xlsx", Duration::from_secs(300))
        .await
        .unwrap();
    let two = blobs
        .download_url("r/two.xlsx", "two.xlsx", Duration::from_secs(300))
        .await
        .unwrap();
    assert!(!one.is_empty());
    assert_ne!(one, two);
    assert!(
        one.contains("r/one.xlsx") || one.contains("r%2Fone.xlsx"),
        "{one}"
    );
}
