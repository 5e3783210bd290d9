//! The products area on Lambda: products, components, composite products and product tags.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::PRODUCTS).await
}
