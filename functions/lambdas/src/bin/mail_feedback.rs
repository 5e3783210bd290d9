//! The mail feedback function: SES bounces, complaints and rejections, delivered by an
//! EventBridge rule, recorded on the scheduled task whose message they concern.

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    vendfleet_lambdas::run_mail_feedback().await
}
