//! The machines area on Lambda: machines, tags, planograms, stock and the refill log.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(vendfleet_http::Area::Machines).await
}
