//! The item store on one DynamoDB table (single-table design).
//!
//! Layout of a stored item: key attributes `PK`, `SK`; index keys `GSI1PK`/`GSI1SK` and
//! `GSI2PK`/`GSI2SK` only when the item is indexed there (sparse indexes); the version in the
//! numeric attribute `_v`; the expiry in the numeric attribute `ttl` (the table's TTL attribute);
//! the caller's attributes flattened beside them as top-level attributes (via `serde_dynamo`), so
//! a counter is a plain numeric attribute that `ADD` can update in place.

use crate::error::cause;
use async_trait::async_trait;
pub(crate) use attrs::{n, s};
use attrs::{Attrs, GSI1PK, GSI1SK, GSI2PK, GSI2SK, PK, SK, VERSION};
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete, KeysAndAttributes, Put, PutRequest, ReturnValue,
    TransactWriteItem, Update, WriteRequest,
};
use aws_sdk_dynamodb::Client;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::time::Duration;
use vendfleet_app::ports::{
    check_batch, check_transaction, Condition, Index, Item, ItemStore, Key, Page, Query,
    StoreError, Write,
};

mod attrs;
mod expr;

use expr::*;

const TTL: &str = "ttl";
/// Attribute names the adapter owns; a caller's attribute of that name would corrupt the item.
const RESERVED: [&str; 8] = [PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, VERSION, TTL];

/// Name of the first global secondary index.
pub const GSI1: &str = "GSI1";
/// Name of the second global secondary index.
pub const GSI2: &str = "GSI2";

/// Items one `BatchWriteItem` call may hold.
const WRITE_CHUNK: usize = 25;
/// Keys one `BatchGetItem` call may hold.
const READ_CHUNK: usize = 100;
/// Rounds of retrying unprocessed batch entries (with backoff) before giving up.
const BATCH_ROUNDS: u32 = 8;
/// Attempts of a transaction cancelled only by conflicts with other transactions.
const TRANSACTION_ATTEMPTS: u32 = 4;

/// [`ItemStore`] on one DynamoDB table with `PK`/`SK` keys and the indexes `GSI1`, `GSI2`.
#[derive(Debug, Clone)]
pub struct DynamoItemStore {
    client: Client,
    table: String,
    /// Items read so far by this store and its clones (gets, queries and batch gets).
    items_read: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl DynamoItemStore {
    /// A store on `table`.
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        DynamoItemStore {
            client,
            table: table.into(),
            items_read: Default::default(),
        }
    }

    /// How many items this store and its clones have read (the benchmark's measure).
    pub fn items_read(&self) -> u64 {
        self.items_read.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn count_read(&self, items: usize) {
        self.items_read
            .fetch_add(items as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// The table name.
    /// Runs one `TransactWriteItems`, again after conflicts with other transactions; a failed
    /// condition gives `ConditionFailed` with the index of the first failing item.
    pub(crate) async fn transact_items(
        &self,
        items: Vec<TransactWriteItem>,
    ) -> Result<(), StoreError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(items.clone()))
                .send()
                .await;
            let Err(err) = result else {
                return Ok(());
            };
            match cancelled(&err) {
                Cancelled::Condition(index) => return Err(StoreError::ConditionFailed { index }),
                Cancelled::Conflict if attempt < TRANSACTION_ATTEMPTS => backoff(attempt).await,
                _ => return Err(backend(err)),
            }
        }
    }

    /// The table name.
    pub fn table(&self) -> &str {
        &self.table
    }
}

pub(crate) fn backend(err: impl std::error::Error + 'static) -> StoreError {
    StoreError::Backend(cause(&err))
}

pub(crate) fn key_attrs(key: &Key) -> Result<Attrs, StoreError> {
    check_key(key)?;
    Ok(HashMap::from([
        (PK.into(), s(&key.pk)),
        (SK.into(), s(&key.sk)),
    ]))
}

/// DynamoDB refuses empty strings in key attributes; say so before asking it.
fn check_key(key: &Key) -> Result<(), StoreError> {
    if key.pk.is_empty() || key.sk.is_empty() {
        Err(StoreError::Invalid(format!(
            "key parts must not be empty: {:?}/{:?}",
            key.pk, key.sk
        )))
    } else {
        Ok(())
    }
}

fn check_attr_name(name: &str) -> Result<(), StoreError> {
    if name.is_empty() || RESERVED.contains(&name) {
        Err(StoreError::Invalid(format!(
            "attribute name {name:?} is reserved by the store"
        )))
    } else {
        Ok(())
    }
}

/// The full DynamoDB item of `item`.
pub(crate) fn to_attrs(item: &Item) -> Result<Attrs, StoreError> {
    for name in item.attrs.keys() {
        check_attr_name(name)?;
    }
    let mut out: Attrs = serde_dynamo::aws_sdk_dynamodb_1::to_item(&item.attrs)
        .map_err(|e| StoreError::Codec(format!("{}/{}: {e}", item.key.pk, item.key.sk)))?;
    out.extend(key_attrs(&item.key)?);
    for (index, (pk_name, sk_name)) in [
        (&item.gsi1, (GSI1PK, GSI1SK)),
        (&item.gsi2, (GSI2PK, GSI2SK)),
    ] {
        if let Some(k) = index {
            check_key(k)?;
            out.insert(pk_name.into(), s(&k.pk));
            out.insert(sk_name.into(), s(&k.sk));
        }
    }
    out.insert(VERSION.into(), n(item.version));
    if let Some(ttl) = item.ttl {
        out.insert(TTL.into(), n(ttl));
    }
    Ok(out)
}

fn take_s(attrs: &mut Attrs, name: &str) -> Option<String> {
    match attrs.remove(name) {
        Some(AttributeValue::S(v)) => Some(v),
        _ => None,
    }
}

fn take_n<T: std::str::FromStr>(attrs: &mut Attrs, name: &str) -> Result<Option<T>, StoreError> {
    match attrs.remove(name) {
        None => Ok(None),
        Some(AttributeValue::N(v)) => v
            .parse()
            .map(Some)
            .map_err(|_| StoreError::Codec(format!("attribute {name} is not an integer: {v}"))),
        Some(other) => Err(StoreError::Codec(format!(
            "attribute {name} is not a number: {other:?}"
        ))),
    }
}

/// serde_dynamo panics on attribute types it does not know; refuse them first.
fn has_unknown_type(v: &AttributeValue) -> bool {
    match v {
        AttributeValue::M(m) => m.values().any(has_unknown_type),
        AttributeValue::L(l) => l.iter().any(has_unknown_type),
        AttributeValue::S(_)
        | AttributeValue::N(_)
        | AttributeValue::Bool(_)
        | AttributeValue::Null(_)
        | AttributeValue::B(_)
        | AttributeValue::Ss(_)
        | AttributeValue::Ns(_)
        | AttributeValue::Bs(_) => false,
        _ => true,
    }
}

/// The [`Item`] of a DynamoDB item.
pub(crate) fn from_attrs(mut attrs: Attrs) -> Result<Item, StoreError> {
    let (Some(pk), Some(sk)) = (take_s(&mut attrs, PK), take_s(&mut attrs, SK)) else {
        return Err(StoreError::Codec("stored item without PK/SK".into()));
    };
    let key = Key::new(pk, sk);
    let mut index = |pk_name: &str, sk_name: &str| match (
        take_s(&mut attrs, pk_name),
        take_s(&mut attrs, sk_name),
    ) {
        (Some(pk), Some(sk)) => Some(Key::new(pk, sk)),
        _ => None,
    };
    let gsi1 = index(GSI1PK, GSI1SK);
    let gsi2 = index(GSI2PK, GSI2SK);
    let version = take_n::<u64>(&mut attrs, VERSION)?.unwrap_or(1);
    let ttl = take_n::<i64>(&mut attrs, TTL)?;
    if attrs.values().any(has_unknown_type) {
        return Err(StoreError::Codec(format!(
            "{}/{}: attribute of an unknown DynamoDB type",
            key.pk, key.sk
        )));
    }
    let attrs: Map<String, Value> = serde_dynamo::aws_sdk_dynamodb_1::from_item(attrs)
        .map_err(|e| StoreError::Codec(format!("{}/{}: {e}", key.pk, key.sk)))?;
    Ok(Item {
        key,
        gsi1,
        gsi2,
        version,
        ttl,
        attrs,
    })
}

/// Before each round of a batch call: waits (`backoff`) from the second on, and fails with
/// `exhausted` after [`BATCH_ROUNDS`] retries.
async fn next_round(round: &mut u32, exhausted: &str) -> Result<(), StoreError> {
    if *round > 0 {
        if *round > BATCH_ROUNDS {
            return Err(StoreError::Backend(exhausted.into()));
        }
        backoff(*round).await;
    }
    *round += 1;
    Ok(())
}

/// Waits before the `round`th retry of unprocessed batch entries (exponential, capped).
async fn backoff(round: u32) {
    let ms = 25u64 << round.min(6);
    tokio::time::sleep(Duration::from_millis(ms.min(1_000))).await;
}

/// A conditional request's answer: a failed condition is `ConditionFailed`; the request types
/// share the check but no trait.
macro_rules! conditional_result {
    ($result:expr) => {
        match $result {
            Ok(_) => Ok(()),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                Err(StoreError::ConditionFailed { index: 0 })
            }
            Err(e) => Err(backend(e)),
        }
    };
}

pub(crate) fn transact_item(write: Write, table: &str) -> Result<TransactWriteItem, StoreError> {
    let built = |e: aws_sdk_dynamodb::error::BuildError| StoreError::Backend(cause(&e));
    let item = match write {
        Write::Put { item, condition } => {
            let put = Put::builder()
                .table_name(table)
                .set_item(Some(to_attrs(&item)?));
            let put = with_condition!(put, condition).build().map_err(built)?;
            TransactWriteItem::builder().put(put).build()
        }
        Write::Delete { key, condition } => {
            let delete = Delete::builder()
                .table_name(table)
                .set_key(Some(key_attrs(&key)?));
            let delete = with_condition!(delete, condition).build().map_err(built)?;
            TransactWriteItem::builder().delete(delete).build()
        }
        Write::Check { key, condition } => {
            let cond = condition_expr(condition);
            let check = ConditionCheck::builder()
                .table_name(table)
                .set_key(Some(key_attrs(&key)?))
                .condition_expression(cond.expression)
                .set_expression_attribute_names(opt_map(cond.names))
                .set_expression_attribute_values(opt_map(cond.values))
                .build()
                .map_err(built)?;
            TransactWriteItem::builder().condition_check(check).build()
        }
        Write::Add { key, attr, delta } => {
            check_attr_name(&attr)?;
            let expr = add_expr(&attr, delta);
            let update = Update::builder()
                .table_name(table)
                .set_key(Some(key_attrs(&key)?))
                .update_expression(expr.expression)
                .set_expression_attribute_names(Some(expr.names))
                .set_expression_attribute_values(Some(expr.values))
                .build()
                .map_err(built)?;
            TransactWriteItem::builder().update(update).build()
        }
    };
    Ok(item)
}

/// What a cancelled transaction means: the first failed condition, a retryable conflict, or
/// something else.
enum Cancelled {
    Condition(usize),
    Conflict,
    Other,
}

fn cancelled(err: &SdkError<TransactWriteItemsError>) -> Cancelled {
    let Some(TransactWriteItemsError::TransactionCanceledException(e)) = err.as_service_error()
    else {
        return Cancelled::Other;
    };
    let reasons = e.cancellation_reasons();
    if let Some(i) = reasons
        .iter()
        .position(|r| r.code() == Some("ConditionalCheckFailed"))
    {
        return Cancelled::Condition(i);
    }
    let conflict = reasons
        .iter()
        .any(|r| r.code() == Some("TransactionConflict"));
    let only_conflicts = reasons
        .iter()
        .all(|r| matches!(r.code(), None | Some("None") | Some("TransactionConflict")));
    if conflict && only_conflicts {
        Cancelled::Conflict
    } else {
        Cancelled::Other
    }
}

#[async_trait]
impl ItemStore for DynamoItemStore {
    /// Global secondary indexes are eventually consistent: usually within a second.
    fn index_lag(&self) -> std::time::Duration {
        std::time::Duration::from_secs(2)
    }

    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key_attrs(key)?))
            .consistent_read(true)
            .send()
            .await
            .map_err(backend)?;
        self.count_read(usize::from(out.item.is_some()));
        out.item.map(from_attrs).transpose()
    }

    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<(), StoreError> {
        let put = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(to_attrs(&item)?));
        let result = with_condition!(put, condition).send().await;
        conditional_result!(result)
    }

    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<(), StoreError> {
        let delete = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key_attrs(key)?));
        let result = with_condition!(delete, condition).send().await;
        conditional_result!(result)
    }

    async fn query(&self, query: Query) -> Result<Page, StoreError> {
        let start = query
            .cursor
            .as_deref()
            .map(|c| decode_cursor(query.index, c))
            .transpose()?;
        let limit = match query.limit {
            Some(0) => {
                return Err(StoreError::Invalid(
                    "a query limit must be at least 1".into(),
                ))
            }
            Some(l) => Some(i32::try_from(l).unwrap_or(i32::MAX)),
            None => None,
        };
        if query.pk.is_empty() {
            return Err(StoreError::Invalid("a query needs a partition key".into()));
        }
        let Some(cond) = key_condition(&query) else {
            return Ok(Page {
                items: Vec::new(),
                cursor: None,
            });
        };
        let index_name = match query.index {
            Index::Primary => None,
            Index::Gsi1 => Some(GSI1),
            Index::Gsi2 => Some(GSI2),
        };
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .set_index_name(index_name.map(str::to_string))
            // Global secondary indexes only offer eventually consistent reads.
            .consistent_read(query.index == Index::Primary)
            .key_condition_expression(cond.expression)
            .set_expression_attribute_names(Some(cond.names))
            .set_expression_attribute_values(Some(cond.values))
            .scan_index_forward(query.forward)
            .set_limit(limit)
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(backend)?;
        let items = out
            .items
            .unwrap_or_default()
            .into_iter()
            .map(from_attrs)
            .collect::<Result<Vec<_>, _>>()?;
        self.count_read(items.len());
        let cursor = match out.last_evaluated_key {
            Some(last) if !last.is_empty() => Some(encode_cursor(last)?),
            _ => None,
        };
        Ok(Page { items, cursor })
    }

    async fn add(&self, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError> {
        check_attr_name(attr)?;
        let expr = add_expr(attr, delta);
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key_attrs(key)?))
            .update_expression(expr.expression)
            .set_expression_attribute_names(Some(expr.names))
            .set_expression_attribute_values(Some(expr.values))
            .return_values(ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(backend)?;
        let mut attrs = out.attributes.unwrap_or_default();
        take_n::<i64>(&mut attrs, attr)?
            .ok_or_else(|| StoreError::Backend(format!("UpdateItem returned no {attr}")))
    }

    async fn transact(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        check_transaction(&writes)?;
        if writes.is_empty() {
            return Ok(());
        }
        let items = writes
            .into_iter()
            .map(|w| transact_item(w, &self.table))
            .collect::<Result<Vec<_>, _>>()?;
        self.transact_items(items).await
    }

    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, StoreError> {
        check_batch(keys.len())?;
        // DynamoDB refuses a request naming one key twice.
        let mut seen = HashSet::new();
        let unique: Vec<&Key> = keys.iter().filter(|k| seen.insert(*k)).collect();
        let mut found = Vec::with_capacity(unique.len());
        for chunk in unique.chunks(READ_CHUNK) {
            let key_list = chunk
                .iter()
                .map(|k| key_attrs(k))
                .collect::<Result<Vec<_>, _>>()?;
            let request = KeysAndAttributes::builder()
                .set_keys(Some(key_list))
                .consistent_read(true)
                .build()
                .map_err(|e| StoreError::Backend(cause(&e)))?;
            let mut pending = HashMap::from([(self.table.clone(), request)]);
            let mut round = 0;
            while !pending.is_empty() {
                next_round(
                    &mut round,
                    "BatchGetItem: keys still unprocessed after retries",
                )
                .await?;
                let out = self
                    .client
                    .batch_get_item()
                    .set_request_items(Some(pending))
                    .send()
                    .await
                    .map_err(backend)?;
                if let Some(mut responses) = out.responses {
                    for attrs in responses.remove(&self.table).unwrap_or_default() {
                        self.count_read(1);
                        found.push(from_attrs(attrs)?);
                    }
                }
                pending = out
                    .unprocessed_keys
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(_, k)| !k.keys.is_empty())
                    .collect();
            }
        }
        Ok(found)
    }

    async fn batch_put(&self, items: Vec<Item>) -> Result<(), StoreError> {
        check_batch(items.len())?;
        // DynamoDB refuses a request naming one key twice; the last put of a key wins, as it
        // would one put after another.
        let mut last_of = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            last_of.insert(item.key.clone(), i);
        }
        let mut requests = Vec::with_capacity(last_of.len());
        for (i, item) in items.iter().enumerate() {
            if last_of.get(&item.key) == Some(&i) {
                let put = PutRequest::builder()
                    .set_item(Some(to_attrs(item)?))
                    .build()
                    .map_err(|e| StoreError::Backend(cause(&e)))?;
                requests.push(WriteRequest::builder().put_request(put).build());
            }
        }
        for chunk in requests.chunks(WRITE_CHUNK) {
            let mut pending = HashMap::from([(self.table.clone(), chunk.to_vec())]);
            let mut round = 0;
            while !pending.is_empty() {
                next_round(
                    &mut round,
                    "BatchWriteItem: items still unprocessed after retries",
                )
                .await?;
                let out = self
                    .client
                    .batch_write_item()
                    .set_request_items(Some(pending))
                    .send()
                    .await
                    .map_err(backend)?;
                pending = out
                    .unprocessed_items
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|(_, w)| !w.is_empty())
                    .collect();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    use serde_json::json;
    use vendfleet_app::ports::SortKey;

    fn item(v: Value) -> Item {
        match v {
            Value::Object(m) => Item::new(Key::new("P", "S"), m),
            _ => unreachable!(),
        }
    }

    #[test]
    fn items_round_trip_through_attribute_values() {
        let it = item(
            json!({"i": 41, "neg": -5, "big": u64::MAX, "f": 1.5, "s": "x", "n": null,
                             "l": [1, "a", {"k": []}], "m": {}}),
        )
        .with_gsi2("G", "H")
        .with_version(9)
        .with_ttl(1_900_000_000);
        let attrs = to_attrs(&it).unwrap();
        assert_eq!(attrs["_v"], AttributeValue::N("9".into()));
        assert_eq!(attrs["ttl"], AttributeValue::N("1900000000".into()));
        assert_eq!(attrs["i"], AttributeValue::N("41".into()));
        assert!(!attrs.contains_key("GSI1PK"));
        assert_eq!(from_attrs(attrs).unwrap(), it);
    }

    #[test]
    fn reserved_attribute_names_are_refused() {
        for name in ["PK", "GSI1SK", "_v", "ttl"] {
            let mut m = Map::new();
            m.insert(name.into(), json!(1));
            let it = Item::new(Key::new("P", "S"), m);
            assert!(
                matches!(to_attrs(&it), Err(StoreError::Invalid(_))),
                "{name}"
            );
        }
    }

    #[test]
    fn cursors_round_trip_and_bad_ones_are_invalid() {
        let last = HashMap::from([
            ("PK".to_string(), s("a")),
            ("SK".to_string(), s("b")),
            ("GSI1PK".to_string(), s("c")),
            ("GSI1SK".to_string(), s("d")),
        ]);
        let c = encode_cursor(last.clone()).unwrap();
        assert_eq!(decode_cursor(Index::Gsi1, &c).unwrap(), last);
        assert!(matches!(
            decode_cursor(Index::Primary, &c),
            Err(StoreError::Invalid(_))
        ));
        assert!(matches!(
            decode_cursor(Index::Primary, "not a cursor"),
            Err(StoreError::Invalid(_))
        ));
        let not_json = URL_SAFE_NO_PAD.encode("[1]");
        assert!(matches!(
            decode_cursor(Index::Primary, &not_json),
            Err(StoreError::Invalid(_))
        ));
    }

    #[test]
    fn impossible_sort_ranges_need_no_request() {
        let q = |sk| Query::partition(Index::Primary, "P").sk(sk);
        assert!(key_condition(&q(SortKey::Between("b".into(), "a".into()))).is_none());
        assert!(key_condition(&q(SortKey::Eq(String::new()))).is_none());
        let all = key_condition(&q(SortKey::BeginsWith(String::new()))).unwrap();
        assert_eq!(all.expression, "#pk = :pk");
        let between = key_condition(&q(SortKey::Between("a".into(), "b".into()))).unwrap();
        assert_eq!(between.expression, "#pk = :pk AND #sk BETWEEN :a AND :b");
    }
}
