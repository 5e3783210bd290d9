//! The planning area on Lambda: route planning and planned routes.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::PLANNING).await
}
