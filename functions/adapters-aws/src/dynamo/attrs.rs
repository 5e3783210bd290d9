//! The table's attribute names, and attribute values from strings and numbers.

use aws_sdk_dynamodb::types::AttributeValue;
use std::collections::HashMap;

pub(super) type Attrs = HashMap<String, AttributeValue>;

pub(super) const PK: &str = "PK";

pub(super) const SK: &str = "SK";

pub(super) const GSI1PK: &str = "GSI1PK";

pub(super) const GSI1SK: &str = "GSI1SK";

pub(super) const GSI2PK: &str = "GSI2PK";

pub(super) const GSI2SK: &str = "GSI2SK";

pub(super) const VERSION: &str = "_v";

pub(crate) fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub(crate) fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}
