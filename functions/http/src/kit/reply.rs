//! The small reply builders every area uses.

use crate::kit::dto::{Data, Message, MessageData, OptionDto};
use axum::http::StatusCode;
use axum::Json;

/// A 201 with the spec's `{message, data}`.
pub type Created<T> = (StatusCode, Json<MessageData<T>>);

/// 201 `{message, data}`.
pub fn created<T>(message: &str, data: T) -> Created<T> {
    (StatusCode::CREATED, updated(message, data))
}

/// 200 `{message, data}`.
pub fn updated<T>(message: &str, data: T) -> Json<MessageData<T>> {
    Json(MessageData::new(message, data))
}

/// 200 `{message, code}`.
pub fn message(m: impl Into<String>) -> Json<Message> {
    Json(Message::new(m))
}

/// `{data: [{id, name}]}`, by name.
pub fn options(v: impl IntoIterator<Item = (String, String)>) -> Json<Data<Vec<OptionDto>>> {
    let mut v: Vec<OptionDto> = v
        .into_iter()
        .map(|(id, name)| OptionDto { id, name })
        .collect();
    v.sort_by_key(|o| o.name.to_lowercase());
    Json(Data { data: v })
}

/// `{data: [value]}`.
pub fn values(v: Vec<String>) -> Json<Data<Vec<String>>> {
    Json(Data { data: v })
}

/// One of three texts by language (export headers and sheet names).
pub use vendfleet_render::tr;
