//! The embedded deployment: adapters on SQLite and files, every router, the web app.

use crate::error::BoxError;
use axum::extract::{ConnectInfo, Path as UrlPath, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use base64::Engine;
use serde_json::json;
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use vendfleet_adapters_embedded::{Embedded, FsBlobStore};
use vendfleet_app::config::{AuthSettings, OperatorSettings, Secret};
use vendfleet_app::ports::{BlobStore, Clock, StartedClock, SystemClock};
use vendfleet_app::App;
use vendfleet_http::{AppState, ClientAddr};

/// Secrets kept in the data directory, made at first start.
struct Secrets {
    jwt: Secret,
    blob: Secret,
}

fn load_secrets(data: &Path) -> Result<Secrets, BoxError> {
    let path = data.join("secrets.json");
    let b64 = base64::engine::general_purpose::STANDARD;
    let stored: HashMap<String, String> = match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let mut fresh = HashMap::new();
            for name in ["jwt", "blob"] {
                let mut key = [0u8; 32];
                rand::Rng::fill(&mut rand::rng(), &mut key);
                fresh.insert(name.to_string(), b64.encode(key));
            }
            write_private(&path, &serde_json::to_vec_pretty(&fresh)?)?;
            fresh
        }
        Err(e) => return Err(e.into()),
    };
    let get = |name: &str| -> Result<Secret, BoxError> {
        let v = stored
            .get(name)
            .ok_or_else(|| format!("{} lacks the {name} secret", path.display()))?;
        Ok(Secret::new(b64.decode(v)?))
    };
    let jwt = match std::env::var("VENDFLEET_JWT_SECRET") {
        Ok(v) if v.len() >= 32 => Secret::new(v.into_bytes()),
        _ => get("jwt")?,
    };
    Ok(Secrets {
        jwt,
        blob: get("blob")?,
    })
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    opts.open(path)?.write_all(bytes)
}

pub(crate) struct Local {
    pub(crate) app: App,
    pub(crate) embedded: Embedded,
}

pub(crate) fn open(data: &Path) -> Result<Local, BoxError> {
    std::fs::create_dir_all(data)?;
    let secrets = load_secrets(data)?;
    let mut embedded = Embedded::open(data, secrets.blob.expose())?;
    // Scheduled reports: `.eml` files in DATA/outbox, or an SMTP relay when one is named.
    let from = std::env::var("VENDFLEET_MAIL_FROM")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| vendfleet_adapters_embedded::DEFAULT_FROM.to_string());
    embedded.mailer = Arc::new(match std::env::var("VENDFLEET_SMTP_URL") {
        Ok(url) if !url.trim().is_empty() => {
            vendfleet_adapters_embedded::EmbeddedMailer::smtp(&url, &from)?
        }
        _ => vendfleet_adapters_embedded::EmbeddedMailer::outbox(
            data.join(vendfleet_adapters_embedded::OUTBOX_DIR),
            &from,
        ),
    });
    let settings = AuthSettings::with_secret(secrets.jwt).apply_env();
    let app = App::new(
        embedded.adapters(),
        clock_from_env()?,
        settings,
        OperatorSettings::from_env()?,
    );
    Ok(Local { app, embedded })
}

/// The system clock, or with `VENDFLEET_CLOCK_START` (RFC 3339) one that starts at that instant
/// and runs on (browser tests and demos that need a given hour; never for a real fleet).
fn clock_from_env() -> Result<Arc<dyn Clock>, BoxError> {
    match std::env::var("VENDFLEET_CLOCK_START") {
        Ok(v) if !v.trim().is_empty() => {
            let start = chrono::DateTime::parse_from_rfc3339(v.trim())
                .map_err(|e| format!("VENDFLEET_CLOCK_START must be an RFC 3339 instant: {e}"))?;
            tracing::warn!(start = %start, "the clock starts at VENDFLEET_CLOCK_START");
            Ok(Arc::new(StartedClock::new(
                start.with_timezone(&chrono::Utc),
            )))
        }
        _ => Ok(Arc::new(SystemClock)),
    }
}

/// `vendfleet create-admin`.
pub async fn create_admin(data: &Path, email: &str, password: &str) -> Result<(), BoxError> {
    let local = open(data)?;
    let created = local
        .app
        .auth
        .ensure_admin(email, password)
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "{} administrator {email}",
        if created { "Created" } else { "Updated" }
    );
    Ok(())
}

/// `vendfleet seed-demo`.
pub async fn seed_demo(
    data: &Path,
    email: Option<&str>,
    opts: crate::demo::Options,
) -> Result<(), BoxError> {
    let local = open(data)?;
    seed_as(&local.app, email, opts).await
}

/// The administrator named by `email`, or the first one made.
async fn administrator(
    app: &App,
    email: Option<&str>,
) -> Result<vendfleet_app::users::User, BoxError> {
    let directory = app.users.directory();
    if let Some(email) = email {
        return Ok(directory
            .user_by_email(&email.trim().to_lowercase())
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no user {email}"))?);
    }
    let mut admins: Vec<_> = directory
        .all_users()
        .await
        .map_err(|e| e.to_string())?
        .into_iter()
        .filter(|u| u.active && u.access_all_modules && u.access_all_machines)
        .collect();
    admins.sort_by(|a, b| {
        a.created_at
            .cmp(&b.created_at)
            .then_with(|| a.id.cmp(&b.id))
    });
    Ok(admins
        .into_iter()
        .next()
        .ok_or("no administrator: run `vendfleet create-admin` first, or pass --email")?)
}

async fn seed_as(
    app: &App,
    email: Option<&str>,
    opts: crate::demo::Options,
) -> Result<(), BoxError> {
    let admin = administrator(app, email).await?;
    let principal = app.auth.principal(admin).await.map_err(|e| e.to_string())?;
    if !crate::demo::fleet_is_empty(app).await? {
        println!("The fleet has machines already: no demo seeded");
        return Ok(());
    }
    println!(
        "Seeding a demo fleet: {} machines, {} days of history (seed {}) …",
        opts.machines, opts.days, opts.seed
    );
    let summary = crate::demo::seed(app, &principal, opts).await?;
    println!("{summary}");
    Ok(())
}

/// The first start: an administrator (printed). Answers the administrator's e-mail when it made
/// one (the demo is seeded as them), `None` when the fleet had users already.
async fn first_start(app: &App) -> Result<Option<String>, BoxError> {
    if !app
        .users
        .directory()
        .all_users()
        .await
        .map_err(|e| e.to_string())?
        .is_empty()
    {
        return Ok(None);
    }
    let email =
        std::env::var("VENDFLEET_ADMIN_EMAIL").unwrap_or_else(|_| "admin@vendfleet.local".into());
    let mut raw = [0u8; 12];
    rand::Rng::fill(&mut rand::rng(), &mut raw);
    let password = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw);
    app.auth
        .ensure_admin(&email, &password)
        .await
        .map_err(|e| e.to_string())?;
    println!("First start: created the administrator account");
    println!("  e-mail:   {email}");
    println!("  password: {password}");
    println!("  (change it after signing in; `vendfleet create-admin` resets it)");
    Ok(Some(email))
}

#[derive(Clone)]
struct FilesState {
    blobs: Arc<FsBlobStore>,
}

async fn serve_blob(
    State(s): State<FilesState>,
    UrlPath(key): UrlPath<String>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let now = chrono_now();
    let (name, exp, sig) = (
        q.get("name"),
        q.get("exp").and_then(|e| e.parse().ok()),
        q.get("sig"),
    );
    let (Some(name), Some(exp), Some(sig)) = (name, exp, sig) else {
        return (StatusCode::FORBIDDEN, "missing signature").into_response();
    };
    if !s.blobs.verify_download(&key, name, exp, sig, now) {
        return (StatusCode::FORBIDDEN, "the link is invalid or has expired").into_response();
    }
    match s.blobs.get(&key).await {
        Ok(Some(blob)) => {
            let disposition = format!(
                "attachment; filename=\"{}\"",
                name.replace(['"', '\\', '\r', '\n'], "_")
            );
            (
                [
                    (header::CONTENT_TYPE, blob.content_type),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                blob.bytes,
            )
                .into_response()
        }
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(_) => StatusCode::BAD_REQUEST.into_response(),
    }
}

fn chrono_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

async fn client_addr(
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    req.extensions_mut()
        .insert(ClientAddr(peer.ip().to_string()));
    next.run(req).await
}

async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    res
}

/// The complete router of the embedded deployment.
pub(crate) fn router(local: &Local, web: &Path, ops: crate::ops::Ops) -> Router {
    let api =
        vendfleet_http::router(AppState::new(local.app.clone())).merge(crate::ops::router(ops));
    let files = Router::new()
        .route("/files/{*key}", get(serve_blob))
        .with_state(FilesState {
            blobs: local.embedded.blobs.clone(),
        });
    let mut app = api
        .merge(files)
        .route(
            "/config.json",
            get(|| async {
                // The map's tile server (none by default: nothing is fetched off this server).
                let tiles = std::env::var("VENDFLEET_MAP_TILE_URL").unwrap_or_default();
                axum::Json(json!({"apiBaseUrl": "", "mapTileUrl": tiles}))
            }),
        )
        .route(
            "/api/{*rest}",
            axum::routing::any(vendfleet_http::not_found),
        );
    let index = web.join("index.html");
    app = if index.is_file() {
        // Hashed assets are files or 404s, kept by browsers for a year (a new build has new
        // names); every other path is a route of the single-page app.
        let assets = tower::ServiceBuilder::new()
            .layer(SetResponseHeaderLayer::if_not_present(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=31536000, immutable"),
            ))
            .service(ServeDir::new(web.join("assets")));
        app.nest_service("/assets", assets)
            .fallback_service(ServeDir::new(web).fallback(ServeFile::new(index)))
    } else {
        app.fallback(vendfleet_http::not_found)
    };
    // Answers compressed for clients that take it (brotli, else gzip), at a level quick
    // enough to compress on the fly: the web app's scripts shrink to about a quarter.
    app.layer(
        CompressionLayer::new()
            .br(true)
            .gzip(true)
            .quality(CompressionLevel::Precise(5)),
    )
    .layer(middleware::from_fn(crate::ops::track))
    .layer(middleware::from_fn(security_headers))
    .layer(middleware::from_fn(client_addr))
}

/// `vendfleet serve`.
pub async fn serve(data: &Path, port: u16, web: &Path, demo: bool) -> Result<(), BoxError> {
    let local = open(data)?;
    let made = first_start(&local.app).await?;
    // The demo (first start with --demo) is seeded beside the serving, so the dashboard answers
    // at once and fills within a minute; then the sales engine's columns are built, rather than
    // by the first report.
    // (The seeding's future is not `Send`: it runs on a blocking thread of its own.)
    let warm = local.app.clone();
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        if let Some(email) = made.filter(|_| demo) {
            println!("Seeding the demo fleet while serving: it appears within a minute");
            let seeded = runtime.block_on(seed_as(
                &warm,
                Some(&email),
                crate::demo::Options::default(),
            ));
            if let Err(e) = seeded {
                eprintln!("vendfleet: the demo fleet was not seeded: {e}");
            }
        }
        if let Err(e) = runtime.block_on(warm.sales.warm()) {
            tracing::warn!(error = %e, "building the sales engine's columns");
        }
    });
    let web: PathBuf = web.to_path_buf();
    if !web.join("index.html").is_file() {
        tracing::warn!("no web app at {}: serving the API only", web.display());
    }
    let mut ops = crate::ops::Ops::from_env(local.embedded.database.clone(), chrono::Utc::now())?;
    ops.data_sources = Some(local.app.data_sources.clone());
    if ops.metrics_token.is_some() {
        crate::ops::prometheus();
    }
    let backups = ops.backups.clone().map(|schedule| {
        let (data, db) = (data.to_path_buf(), local.embedded.database.clone());
        println!(
            "Backups every {} into {} (keeping {} daily, {} monthly)",
            humantime::format_duration(schedule.every),
            schedule.dir.display(),
            schedule.keep_daily,
            schedule.keep_monthly
        );
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tick.tick().await;
                if let Err(e) = schedule.run_once(&data, &db, chrono::Utc::now()).await {
                    tracing::warn!(error = %e, "the scheduled backup failed; retried in a minute");
                }
            }
        })
    });
    let app = router(&local, &web, ops);
    let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
    let addr = listener.local_addr()?;
    println!(
        "Vendfleet is serving http://{addr}/ (data in {})",
        data.display()
    );

    let store = local.embedded.store.clone();
    let purge = tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(600));
        loop {
            tick.tick().await;
            if let Err(e) = store.purge_expired(chrono_now()).await {
                tracing::warn!(error = %e, "purging expired items failed");
            }
        }
    });
    // Background jobs (large exports) run in this process; on shutdown the job under way is
    // finished before the process exits.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let worker = tokio::spawn(vendfleet_http::jobs::worker(
        Arc::new(local.app.clone()),
        stopped,
    ));
    // The query scheduler's clock: due tasks are fired every 20 s (at once on start, so a run
    // missed while the process was down runs now, once).
    let scheduler_app = local.app.clone();
    let scheduler = tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(20));
        loop {
            tick.tick().await;
            if let Err(e) = scheduler_app.scheduler.tick().await {
                tracing::warn!(error = %e, "the query scheduler could not run");
            }
        }
    });
    // The data sources' queues (Nayax Core's SQS deliveries), long-polled; VENDFLEET_SQS_ENDPOINT
    // sends every queue call to an emulator instead (moto, `vendfleet simulate --nayax`).
    let sqs = vendfleet_adapters_embedded::SqsFeeds::at(
        std::env::var("VENDFLEET_SQS_ENDPOINT")
            .ok()
            .filter(|e| !e.is_empty()),
    );
    let pollers = tokio::spawn(
        local
            .app
            .data_sources
            .clone()
            .run_pollers(Arc::new(sqs), vendfleet_adapters_embedded::MAX_WAIT_SECS),
    );
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown_signal())
    .await?;
    purge.abort();
    scheduler.abort();
    pollers.abort();
    if let Some(b) = backups {
        b.abort();
    }
    let _ = stop.send(true);
    if tokio::time::timeout(std::time::Duration::from_secs(60), worker)
        .await
        .is_err()
    {
        tracing::warn!("a job was still running after 60 s; it returns to the queue");
    }
    println!("Vendfleet stopped");
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
