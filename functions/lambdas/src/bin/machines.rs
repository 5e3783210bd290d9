//! The machines area on Lambda: machines, tags, planograms, stock and the refill log.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::MACHINES).await
}
