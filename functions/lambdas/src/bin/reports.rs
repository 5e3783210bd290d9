//! The reports area on Lambda: the encashment report.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::REPORTS).await
}
