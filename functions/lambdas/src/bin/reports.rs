//! The reports area on Lambda: the encashment report.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(vendfleet_http::Area::Reports).await
}
