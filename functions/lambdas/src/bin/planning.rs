//! The planning area on Lambda: route planning and planned routes.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(vendfleet_http::Area::Planning).await
}
