//! Background jobs as the API shows them (`GET /api/jobs/{id}/`: status, progress and, when
//! done, a download link), and the worker's step that runs one (large exports now).

use crate::kit::dto::Data;
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::export::JobDto;
use crate::kit::extract::{Authorized, SignedIn};
use crate::kit::state::AppState;
use axum::extract::{Path, State};
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::jobs::{Claimed, JobRecord};
use vendfleet_app::{App, AppError, AppResult};
use vendfleet_render::ExportJob;

/// Deliveries of a job before it is marked failed.
pub const MAX_ATTEMPTS: u32 = 3;

/// The jobs area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_job))
}

/// One of the caller's jobs.
#[utoipa::path(get, path = "/api/jobs/{id}/", tag = "jobs", security(("bearer" = [])), params(("id" = String, Path)),
    responses((status = 200, body = Data<JobDto>), (status = 404, body = ErrorBody)))]
async fn get_job(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<Data<JobDto>>> {
    let (record, link) = s.app.jobs.get(a.principal(), &id).await?;
    Ok(axum::Json(Data {
        data: JobDto::from_record(record, link),
    }))
}

/// Runs a claimed job to its end: renders the export off the async threads, stores the file
/// and marks the job done; a failure gives the job back (or fails it after [`MAX_ATTEMPTS`]).
pub async fn run(app: &App, mut claimed: Claimed) -> AppResult<JobRecord> {
    let outcome: AppResult<Vec<u8>> = async {
        let job: ExportJob = serde_json::from_slice(&claimed.input)
            .map_err(|e| AppError::Internal(format!("export job input: {e}")))?;
        app.jobs.progress(&mut claimed, 20).await?;
        let bytes = tokio::task::spawn_blocking(move || job.render())
            .await
            .map_err(|e| AppError::Internal(format!("export job: {e}")))?
            .map_err(|e| {
                AppError::Internal(format!(
                    "export job: {}",
                    crate::kit::error::ApiError::from(e).body.message
                ))
            })?;
        app.jobs.progress(&mut claimed, 90).await?;
        Ok(bytes)
    }
    .await;
    match outcome {
        Ok(bytes) => app.jobs.finish(claimed, bytes).await,
        Err(e) => {
            let id = claimed.record.id.clone();
            tracing::error!(job = %id, error = %e, "job failed");
            app.jobs.fail(claimed, &e.to_string(), MAX_ATTEMPTS).await?;
            Err(e)
        }
    }
}

/// Runs one delivery of the jobs queue, whichever work it names: a generated report
/// (`{"report_id"}`) or an export job (`{"job_id"}`). A failure of the work is recorded on its
/// record; an error answered here means the message must come back (a retry after back-off, or
/// the queue or the store failed), which a Lambda reports as the batch item's failure.
pub async fn handle(app: &App, delivery: vendfleet_app::ports::Job) -> AppResult<()> {
    if let Ok(m) = serde_json::from_str::<vendfleet_app::scheduler::TaskMessage>(&delivery.payload)
    {
        // An EventBridge schedule came due: queue the task's report (its own message).
        app.scheduler.fire(&m.task_id).await?;
        app.generator.queue().ack(&delivery.receipt).await?;
        return Ok(());
    }
    if vendfleet_app::data_sources::DataSourcesService::is_import_job(&delivery.payload) {
        return app.data_sources.run_import_job(delivery).await;
    }
    if delivery.payload.contains("\"report_id\"") {
        if let Some(c) = app.generator.start(delivery).await? {
            vendfleet_render::generator::run::run(app, c).await?;
        }
        return Ok(());
    }
    if let Some(c) = app.jobs.start(delivery).await? {
        run(app, c).await?;
    }
    Ok(())
}

/// Claims and runs the next queued job; `false` when there was none (the embedded worker).
pub async fn work_once(app: &App) -> AppResult<bool> {
    let visibility = app
        .generator
        .visibility()
        .max(vendfleet_app::jobs::VISIBILITY);
    match app.generator.queue().claim(visibility).await? {
        Some(delivery) => {
            // A failure is recorded on its record; the worker goes on with the next one.
            if let Err(e) = handle(app, delivery).await {
                tracing::warn!(error = %e, "a job attempt failed");
            }
            Ok(true)
        }
        None => Ok(false),
    }
}

/// The embedded deployment's worker: runs queued jobs one at a time until `stop` turns true.
/// A job under way when it does is finished first (graceful shutdown); one claimed by a worker
/// that died comes back to the queue after its visibility timeout.
pub async fn worker(app: std::sync::Arc<App>, mut stop: tokio::sync::watch::Receiver<bool>) {
    use std::time::Duration;
    loop {
        if *stop.borrow() {
            break;
        }
        let pause = match work_once(&app).await {
            Ok(true) => continue,
            Ok(false) => Duration::from_millis(500),
            Err(e) => {
                tracing::warn!(error = %e, "the jobs worker could not claim a job");
                Duration::from_secs(2)
            }
        };
        tokio::select! {
            _ = stop.changed() => {}
            _ = tokio::time::sleep(pause) => {}
        }
    }
}
