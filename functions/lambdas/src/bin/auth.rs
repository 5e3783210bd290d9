//! The auth area on Lambda: sign-in, tokens, profile, registration, language.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::AUTH).await
}
