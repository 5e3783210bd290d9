//! The events worker: applies the machine events the webhook queued, exactly once (receipts),
//! reporting partial batch failures so that only the failed messages come back; a message that
//! keeps failing goes to the events dead-letter queue.

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    vendfleet_lambdas::run_events_worker().await
}
