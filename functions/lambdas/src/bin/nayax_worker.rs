//! The Nayax feeds' worker: Nayax Core's transactions, events and DEX audits from the stack's
//! queues, each booked exactly once or kept in the data sources' inbox; partial batch failures
//! reported, so one failed message never blocks or re-books the others.

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    vendfleet_lambdas::run_nayax_worker().await
}
