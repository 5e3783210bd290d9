//! The filters area on Lambda: option lists for pickers and filters.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::FILTERS).await
}
