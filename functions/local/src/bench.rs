//! `vendfleet bench`: medians of the embedded store and of API calls, printed, never asserted.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use measure::{bench_admin, bench_app, show, time};
use serde_json::json;
use std::sync::Arc;
use tower::ServiceExt;
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::ports::{Index, Item, ItemStore, Key, Query, SystemClock};
use vendfleet_app::users::UserInput;
use vendfleet_http::{AppState, ClientAddr};

mod generator;
mod harness;
mod import;
mod ingest;
mod measure;
mod random;
mod reports;

use crate::error::BoxError;

/// Runs the benchmarks on a temporary data directory, then the reports benchmark on its fleet;
/// or one part: the reports, the report file, or `random` (queries, seed) report queries.
pub async fn run(
    reports_only: bool,
    report_file: bool,
    random: Option<(usize, u64)>,
    import_rows: Option<usize>,
) -> Result<(), BoxError> {
    if let Some(rows) = import_rows {
        return import::run(rows).await;
    }
    if report_file {
        return generator::run().await;
    }
    if let Some((queries, seed)) = random {
        return random::run(queries, seed).await;
    }
    if reports_only {
        return reports::run().await;
    }
    let dir = std::env::temp_dir().join(format!("vendfleet-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = run_in(&dir).await;
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    reports::run().await
}

async fn run_in(dir: &std::path::Path) -> Result<(), BoxError> {
    println!(
        "Vendfleet benchmarks (embedded: SQLite WAL in {})",
        dir.display()
    );
    ingest::run(dir).await?;
    ingest::seeding(dir).await?;
    let embedded = Embedded::open(dir, b"bench")?;
    let store: Arc<dyn ItemStore> = embedded.store.clone();

    let attrs = |i: usize| {
        let v = json!({"machine": format!("M{i:05}"), "qty": i, "price": 250, "name": "Espresso"});
        v.as_object().cloned().unwrap_or_default()
    };
    show(
        "store: put one item",
        time(2000, |i| {
            let s = store.clone();
            async move {
                s.put(
                    Item::new(Key::new("BENCH", format!("{i:06}")), attrs(i))
                        .with_gsi1("BENCHIDX", format!("{i:06}")),
                    None,
                )
                .await?;
                Ok(())
            }
        })
        .await?,
    );
    show(
        "store: get one item",
        time(2000, |i| {
            let s = store.clone();
            async move {
                s.get(&Key::new("BENCH", format!("{:06}", i % 2000)))
                    .await?;
                Ok(())
            }
        })
        .await?,
    );
    show(
        "store: query a page of 100 (primary)",
        time(300, |i| {
            let s = store.clone();
            async move {
                let q = Query::partition(Index::Primary, "BENCH")
                    .sk(vendfleet_app::ports::SortKey::Gte(format!(
                        "{:06}",
                        (i * 5) % 1900
                    )))
                    .limit(100);
                s.query(q).await?;
                Ok(())
            }
        })
        .await?,
    );
    show(
        "store: query a page of 100 (GSI1)",
        time(300, |_| {
            let s = store.clone();
            async move {
                s.query(Query::partition(Index::Gsi1, "BENCHIDX").limit(100))
                    .await?;
                Ok(())
            }
        })
        .await?,
    );
    show(
        "store: atomic counter add",
        time(2000, |i| {
            let s = store.clone();
            async move {
                s.add(&Key::new("CNT", format!("{}", i % 10)), "n", 1)
                    .await?;
                Ok(())
            }
        })
        .await?,
    );

    let app = bench_app(&embedded, Arc::new(SystemClock));
    let principal = bench_admin(&app).await?;
    // Users are created through the service but with one shared password hash, so the setup
    // does not spend minutes in argon2.
    for i in 0..1000 {
        let input = UserInput {
            name: format!("Employee {i:04}"),
            email: format!("e{i:04}@bench.local"),
            password: Some("bench-password".into()),
            ..Default::default()
        };
        if i == 0 {
            app.users
                .create_user(&principal, input)
                .await
                .map_err(|e| e.to_string())?;
        } else {
            let mut u = app
                .users
                .directory()
                .user_by_email("e0000@bench.local")
                .await
                .map_err(|e| e.to_string())?
                .ok_or("no user")?;
            u.id = ulid::Ulid::new().to_string();
            u.email = input.email;
            u.name = input.name;
            app.users
                .directory()
                .insert_user(&u)
                .await
                .map_err(|e| e.to_string())?;
        }
    }
    let router = vendfleet_http::router(AppState::new(app.clone()));
    let (tokens, _) = app
        .auth
        .login("admin@bench.local", "bench-password", "bench")
        .await
        .map_err(|e| e.to_string())?;
    let call = |uri: String, body: Option<String>| {
        let router = router.clone();
        let token = tokens.access.clone();
        async move {
            let mut b = Request::builder()
                .uri(uri)
                .header(header::AUTHORIZATION, format!("Bearer {token}"));
            let req = match body {
                Some(body) => b
                    .method("POST")
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(body))?,
                None => {
                    b = b.method("GET");
                    b.body(Body::empty())?
                }
            };
            let mut req = req;
            req.extensions_mut().insert(ClientAddr("bench".into()));
            let res = router.oneshot(req).await?;
            if res.status() != StatusCode::OK {
                return Err(format!("status {}", res.status()).into());
            }
            axum::body::to_bytes(res.into_body(), usize::MAX).await?;
            Ok::<(), BoxError>(())
        }
    };
    show(
        "api: GET /api/users/me/",
        time(300, |_| call("/api/users/me/".into(), None)).await?,
    );
    show(
        "api: GET /api/users/ page of 25 of 1001",
        time(100, |i| {
            call(
                format!("/api/users/?page={}&page_size=25&ordering=name", i % 40 + 1),
                None,
            )
        })
        .await?,
    );
    show(
        "api: GET /api/users/?search= (1001 users)",
        time(100, |_| {
            call("/api/users/?search=employee%2009".into(), None)
        })
        .await?,
    );
    show(
        "api: GET /api/users/export/?format=xlsx (1001)",
        time(10, |_| call("/api/users/export/?format=xlsx".into(), None)).await?,
    );
    show(
        "api: POST /auth/token/ (argon2id verify)",
        time(20, |_| {
            call(
                "/auth/token/".into(),
                Some(
                    json!({"email": "admin@bench.local", "password": "bench-password"}).to_string(),
                ),
            )
        })
        .await?,
    );
    Ok(())
}
