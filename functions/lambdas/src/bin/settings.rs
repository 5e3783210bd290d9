//! The settings area on Lambda: clients, locations and machine models.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::SETTINGS).await
}
