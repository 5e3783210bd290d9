//! Data sources: a telemetry provider's feeds (Nayax Core's SQS queues) read into the machines'
//! events through the same intake as the webhook, exactly once; what cannot be booked yet is
//! kept in an inbox, never dropped (docs/nayax.md).

pub mod history;
mod model;
mod service;

pub use model::{
    DataSource, DataSourceInput, FeedReader, Feeds, Health, Incoming, KeptMessage, KeptReason,
    SourceKind, Taken,
};
pub use service::{DataSourcesService, HistoryMappingInput};
