//! The sales area on Lambda: the sales overview (sales journal, table header, graphs).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::SALES).await
}
