//! The machine events area on Lambda: the signed webhook. It verifies and validates, hands the
//! valid events to the events queue and answers once the queue has them (events-worker applies).

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    vendfleet_lambdas::run(env!("CARGO_BIN_NAME"), vendfleet_http::served::EVENTS).await
}
