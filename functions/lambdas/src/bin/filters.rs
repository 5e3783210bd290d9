//! The filters area on Lambda: option lists for pickers and filters.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(vendfleet_http::Area::Filters).await
}
