//! Background jobs: work too large for a request (large exports now; report generation next),
//! queued, run by a worker (in-process embedded; a Lambda on SQS on AWS), with progress and a
//! file to download when done.
//!
//! A job is a record (`JOB#<id>`, owner, status, progress, the result's blob key) and a queue
//! message naming it. The worker claims the message, marks the job running, does the work, stores
//! the file, marks it done and acknowledges the message; a worker that dies leaves the message to
//! come back after its visibility timeout, and a job that keeps failing is marked failed when
//! the queue gives up on it (dead-letter queue). Only the job's owner sees it.

mod model;
mod service;

pub use model::*;
pub use service::*;
