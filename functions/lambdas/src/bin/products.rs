//! The products area on Lambda: products, components, composite products and product tags.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(vendfleet_http::Area::Products).await
}
