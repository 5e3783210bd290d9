//! What the server answers beside its figures: logs (request ids, never a secret) and
//! compressed answers with long-lived assets.

use super::*;

/// A writer into a shared buffer, for the logs of one test.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

#[tokio::test]
async fn logs_carry_the_request_id_and_never_a_secret() {
    // The directory is kept (bound) until the test ends.
    let (_tmp, _, local, app) = served(None).await;
    let logs = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_writer(logs.clone())
        .with_max_level(tracing::Level::DEBUG)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    // Sign in with a request id of the caller's: the reply carries it back.
    let body = serde_json::to_vec(&json!({"email": EMAIL, "password": PASSWORD})).unwrap();
    let mut req = HttpRequest::builder()
        .method(Method::POST)
        .uri("/auth/token/")
        .header("content-type", "application/json")
        .header("x-request-id", "drill-4711")
        .body(Body::from(body))
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.headers()["x-request-id"], "drill-4711");
    let reply = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    let access = json_of(&reply)["data"]["token"]["access"]
        .as_str()
        .unwrap()
        .to_string();
    // A report with the token, and a signed webhook batch.
    let auth = [("authorization", format!("Bearer {access}"))];
    assert_eq!(
        call(&app, Method::GET, TOTALS, &auth, vec![]).await.0,
        StatusCode::OK
    );
    let mut live = crate::simulate::machines(&local.app, 4, 3).await.unwrap();
    let mut events = Vec::new();
    while events.is_empty() {
        events = crate::simulate::batch(&mut live[0].sim, 3, Utc::now());
    }
    let (status, _, signature) = post_batch(&app, &live[0], &events).await;
    assert_eq!(status, StatusCode::OK);

    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["span"]["request_id"] == json!("drill-4711")
                && l["fields"]["message"] == json!("finished processing request")),
        "no line of the request with its id: {text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l["fields"]["message"] == json!("webhook batch")
                && l["fields"]["machine_id"] == json!(live[0].id)),
        "no line of the webhook batch: {text}"
    );
    for secret in [
        PASSWORD,
        access.as_str(),
        signature.as_str(),
        live[0].secret.as_str(),
    ] {
        assert!(!text.contains(secret), "a secret was logged: {secret}");
    }
}

#[tokio::test]
async fn answers_are_compressed_and_hashed_assets_kept_a_year() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let local = fleet(&data).await;
    let web = tmp.path().join("web");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>Vendfleet</title>",
    )
    .unwrap();
    let script = "export function f(a){return a*2}\n".repeat(2000);
    std::fs::write(web.join("assets/app-1a2b3c.js"), &script).unwrap();
    let app = server::router(&local, &web, ops_of(&local, None, None));
    for (encoding, decode) in [
        (
            "br",
            Box::new(|b: &[u8]| {
                let mut out = Vec::new();
                brotli_decompress(b, &mut out);
                out
            }) as Box<dyn Fn(&[u8]) -> Vec<u8>>,
        ),
        (
            "gzip",
            Box::new(|b: &[u8]| {
                use std::io::Read;
                let mut out = Vec::new();
                flate2::read::GzDecoder::new(b)
                    .read_to_end(&mut out)
                    .unwrap();
                out
            }),
        ),
    ] {
        let mut req = HttpRequest::builder()
            .uri("/assets/app-1a2b3c.js")
            .header("accept-encoding", encoding)
            .body(Body::empty())
            .unwrap();
        req.extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-encoding"], encoding);
        assert!(res.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable"));
        let body = axum::body::to_bytes(res.into_body(), 1 << 22)
            .await
            .unwrap();
        assert!(
            body.len() * 10 < script.len(),
            "{encoding}: {} bytes",
            body.len()
        );
        assert_eq!(decode(&body), script.as_bytes());
    }
    // An API answer too; the page itself is not kept.
    let mut req = HttpRequest::builder()
        .uri("/")
        .header("accept-encoding", "gzip")
        .body(Body::empty())
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let res = app.clone().oneshot(req).await.unwrap();
    assert!(res
        .headers()
        .get("cache-control")
        .is_none_or(|v| !v.to_str().unwrap().contains("immutable")));
}

/// Brotli's decoder for the test above (the server's encoder is async-compression's).
fn brotli_decompress(input: &[u8], out: &mut Vec<u8>) {
    use std::io::Read;
    brotli::Decompressor::new(input, 4096)
        .read_to_end(out)
        .unwrap();
}
