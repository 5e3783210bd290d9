//! What every bench shares: medians, timing a closure, the bench's application and administrator.

use crate::error::BoxError;
use std::sync::Arc;
use std::time::{Duration, Instant};
use vendfleet_adapters_embedded::Embedded;
use vendfleet_app::config::{AuthSettings, Secret};
use vendfleet_app::App;

pub(super) fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

pub(super) fn show(name: &str, samples: Vec<Duration>) {
    let n = samples.len();
    let m = median(samples);
    println!(
        "{name:<48} median {:>10.1} µs  ({n} samples)",
        m.as_secs_f64() * 1e6
    );
}

pub(super) async fn time<F, Fut>(n: usize, mut f: F) -> Result<Vec<Duration>, BoxError>
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = Result<(), BoxError>>,
{
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        f(i).await?;
        out.push(t.elapsed());
    }
    Ok(out)
}

/// The application of a benchmark on `embedded`.
pub(super) fn bench_app(embedded: &Embedded, clock: Arc<dyn vendfleet_app::ports::Clock>) -> App {
    App::new(
        embedded.adapters(),
        clock,
        AuthSettings::with_secret(Secret::new("bench-secret-bench-secret-bench-secret")),
        Default::default(),
    )
}

/// The benchmark's administrator, made on first call.
pub(super) async fn bench_admin(app: &App) -> Result<vendfleet_app::auth::Principal, BoxError> {
    app.auth
        .ensure_admin("admin@bench.local", "bench-password")
        .await
        .map_err(|e| e.to_string())?;
    let admin = app
        .users
        .directory()
        .user_by_email("admin@bench.local")
        .await
        .map_err(|e| e.to_string())?
        .ok_or("no admin")?;
    Ok(app.auth.principal(admin).await.map_err(|e| e.to_string())?)
}
