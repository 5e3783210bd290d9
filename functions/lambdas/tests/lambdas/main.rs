//! The Lambda functions' test suite, one binary: API Gateway events through the routers, the
//! routes of `template.yaml`, the queue workers on moto, the functions under cargo-lambda's runtime
//! emulator, and (ignored, `make bench`) their cold starts. Run one part with
//! `cargo test -p vendfleet-lambdas --test lambdas <part>::`, e.g. `routing::`.

mod common;

mod apigw;
mod cold_start;
mod emulator;
mod events_worker;
mod jobs_worker;
mod nayax_worker;
mod routing;
