//! The jobs worker: runs background jobs (large exports) from the jobs queue, reporting
//! partial batch failures; a job failing three times lands in the jobs dead-letter queue.

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    vendfleet_lambdas::run_jobs_worker().await
}
