//! The item store on SQLite: one `items` table shaped like the DynamoDB table.
//!
//! Sort keys are TEXT with SQLite's BINARY collation, i.e. compared as UTF-8 bytes, which is
//! DynamoDB's order. Every conditional write checks its condition inside the same immediate
//! transaction as the write.

use crate::db::Database;
use async_trait::async_trait;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};
use serde_json::{Map, Value};
use vendfleet_app::ports::{
    check_batch, check_transaction, Condition, Index, Item, ItemStore, Key, Page, Query, SortKey,
    StoreError, Write,
};

/// Page size of a query that gives no limit (DynamoDB pages by size; we page by count).
const DEFAULT_PAGE: usize = 1000;

const COLUMNS: &str = "pk, sk, gsi1pk, gsi1sk, gsi2pk, gsi2sk, version, ttl, attrs";

/// The item store on the embedded database.
#[derive(Debug, Clone)]
pub struct SqliteItemStore {
    db: Database,
}

impl SqliteItemStore {
    /// An item store on `db` (migrations already applied by [`Database::open`]).
    pub fn new(db: Database) -> Self {
        SqliteItemStore { db }
    }

    /// Removes items whose `ttl` (epoch seconds) is before `now_epoch`; returns how many.
    /// The server calls it periodically, as DynamoDB's TTL sweeper would.
    pub async fn purge_expired(&self, now_epoch: i64) -> Result<usize, StoreError> {
        self.write(move |c| {
            c.execute(
                "DELETE FROM items WHERE ttl IS NOT NULL AND ttl < ?1",
                [now_epoch],
            )
            .map_err(backend)
        })
        .await
    }

    async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        self.db
            .write(f)
            .await
            .map_err(|e| StoreError::Backend(e.to_string()))?
    }

    async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
        T: Send + 'static,
    {
        self.db
            .read(f)
            .await
            .map_err(|e| StoreError::Backend(e.to_string()))?
    }
}

fn backend(e: rusqlite::Error) -> StoreError {
    StoreError::Backend(e.to_string())
}

/// One row as stored, before the attributes are parsed.
struct RawItem {
    pk: String,
    sk: String,
    gsi1: (Option<String>, Option<String>),
    gsi2: (Option<String>, Option<String>),
    version: i64,
    ttl: Option<i64>,
    attrs: String,
}

impl RawItem {
    fn from_row(r: &Row<'_>) -> rusqlite::Result<RawItem> {
        Ok(RawItem {
            pk: r.get(0)?,
            sk: r.get(1)?,
            gsi1: (r.get(2)?, r.get(3)?),
            gsi2: (r.get(4)?, r.get(5)?),
            version: r.get(6)?,
            ttl: r.get(7)?,
            attrs: r.get(8)?,
        })
    }

    fn into_item(self) -> Result<Item, StoreError> {
        let attrs: Map<String, Value> = serde_json::from_str(&self.attrs)
            .map_err(|e| StoreError::Codec(format!("{}/{}: {e}", self.pk, self.sk)))?;
        let key_of = |(pk, sk): (Option<String>, Option<String>)| match (pk, sk) {
            (Some(pk), Some(sk)) => Some(Key { pk, sk }),
            _ => None,
        };
        Ok(Item {
            key: Key::new(self.pk, self.sk),
            gsi1: key_of(self.gsi1),
            gsi2: key_of(self.gsi2),
            // Stored as the same 64 bits; `as` round-trips every u64.
            version: self.version as u64,
            ttl: self.ttl,
            attrs,
        })
    }
}

fn get_raw(c: &Connection, key: &Key) -> Result<Option<RawItem>, StoreError> {
    c.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM items WHERE pk = ?1 AND sk = ?2"
    ))
    .map_err(backend)?
    .query_row(params![key.pk, key.sk], RawItem::from_row)
    .optional()
    .map_err(backend)
}

fn get_item(c: &Connection, key: &Key) -> Result<Option<Item>, StoreError> {
    get_raw(c, key)?.map(RawItem::into_item).transpose()
}

fn current_version(c: &Connection, key: &Key) -> Result<Option<u64>, StoreError> {
    c.prepare_cached("SELECT version FROM items WHERE pk = ?1 AND sk = ?2")
        .map_err(backend)?
        .query_row(params![key.pk, key.sk], |r| r.get::<_, i64>(0))
        .optional()
        .map(|v| v.map(|v| v as u64))
        .map_err(backend)
}

fn holds(c: &Connection, key: &Key, condition: Option<Condition>) -> Result<bool, StoreError> {
    let Some(condition) = condition else {
        return Ok(true);
    };
    let version = current_version(c, key)?;
    Ok(match condition {
        Condition::NotExists => version.is_none(),
        Condition::Exists => version.is_some(),
        Condition::VersionIs(v) => version == Some(v),
    })
}

fn put_item(c: &Connection, item: &Item) -> Result<(), StoreError> {
    let attrs = serde_json::to_string(&item.attrs).map_err(|e| StoreError::Codec(e.to_string()))?;
    let (g1pk, g1sk) = split(&item.gsi1);
    let (g2pk, g2sk) = split(&item.gsi2);
    c.prepare_cached(&format!(
        "INSERT OR REPLACE INTO items ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
    ))
    .map_err(backend)?
    .execute(params![
        item.key.pk,
        item.key.sk,
        g1pk,
        g1sk,
        g2pk,
        g2sk,
        item.version as i64,
        item.ttl,
        attrs
    ])
    .map_err(backend)?;
    Ok(())
}

fn split(key: &Option<Key>) -> (Option<&str>, Option<&str>) {
    match key {
        Some(k) => (Some(k.pk.as_str()), Some(k.sk.as_str())),
        None => (None, None),
    }
}

fn delete_item(c: &Connection, key: &Key) -> Result<(), StoreError> {
    c.prepare_cached("DELETE FROM items WHERE pk = ?1 AND sk = ?2")
        .map_err(backend)?
        .execute(params![key.pk, key.sk])
        .map_err(backend)?;
    Ok(())
}

/// Adds `delta` to `attr` of the item at `key`, creating item or attribute; returns the sum.
fn add_to(c: &Connection, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError> {
    let mut item = get_item(c, key)?.unwrap_or_else(|| Item::new(key.clone(), Map::new()));
    let current = match item.attrs.get(attr) {
        None | Some(Value::Null) => 0,
        Some(Value::Number(n)) => n.as_i64().ok_or_else(|| {
            StoreError::Invalid(format!(
                "attribute {attr} of {}/{} is not an integer",
                key.pk, key.sk
            ))
        })?,
        Some(_) => {
            return Err(StoreError::Invalid(format!(
                "attribute {attr} of {}/{} is not a number",
                key.pk, key.sk
            )))
        }
    };
    let sum = current
        .checked_add(delta)
        .ok_or_else(|| StoreError::Invalid(format!("counter {attr} overflows")))?;
    item.attrs.insert(attr.to_string(), Value::from(sum));
    put_item(c, &item)?;
    Ok(sum)
}

/// Applies one write of a transaction on `c` (inside the caller's transaction); a condition
/// that does not hold fails with `ConditionFailed { index }`.
pub(crate) fn apply_write(c: &Connection, index: usize, write: &Write) -> Result<(), StoreError> {
    let failed = StoreError::ConditionFailed { index };
    match write {
        Write::Put { item, condition } => {
            if !holds(c, &item.key, *condition)? {
                return Err(failed);
            }
            put_item(c, item)
        }
        Write::Delete { key, condition } => {
            if !holds(c, key, *condition)? {
                return Err(failed);
            }
            delete_item(c, key)
        }
        Write::Check { key, condition } => {
            if holds(c, key, Some(*condition))? {
                Ok(())
            } else {
                Err(failed)
            }
        }
        Write::Add { key, attr, delta } => add_to(c, key, attr, *delta).map(|_| ()),
    }
}

/// Where a page stopped: the last item's (index sort key, pk, sk).
fn encode_cursor(isk: &str, key: &Key) -> String {
    let json = serde_json::to_vec(&(isk, &key.pk, &key.sk)).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(json)
}

fn decode_cursor(cursor: &str) -> Result<(String, String, String), StoreError> {
    let bad = || StoreError::Invalid("malformed query cursor".into());
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| bad())?;
    serde_json::from_slice(&bytes).map_err(|_| bad())
}

/// The smallest string greater than every string starting with `prefix` (code-point order,
/// which is UTF-8 byte order), or `None` when there is none.
fn prefix_end(prefix: &str) -> Option<String> {
    let mut chars: Vec<char> = prefix.chars().collect();
    while let Some(last) = chars.pop() {
        let next = match last as u32 + 1 {
            0xD800 => Some('\u{E000}'),
            n => char::from_u32(n),
        };
        if let Some(next) = next {
            chars.push(next);
            return Some(chars.into_iter().collect());
        }
    }
    None
}

fn run_query(c: &Connection, q: &Query) -> Result<Page, StoreError> {
    let limit = q.limit.unwrap_or(DEFAULT_PAGE);
    if limit == 0 {
        return Err(StoreError::Invalid("query limit must be at least 1".into()));
    }
    let (ipk, isk) = match q.index {
        Index::Primary => ("pk", "sk"),
        Index::Gsi1 => ("gsi1pk", "gsi1sk"),
        Index::Gsi2 => ("gsi2pk", "gsi2sk"),
    };
    let mut sql = format!("SELECT {COLUMNS} FROM items WHERE {ipk} = ?");
    let mut args: Vec<SqlValue> = vec![q.pk.clone().into()];
    let mut cond = |sql: &mut String, op: &str, v: &str| {
        sql.push_str(&format!(" AND {isk} {op} ?"));
        args.push(v.to_string().into());
    };
    match &q.sk {
        SortKey::All => {}
        SortKey::Eq(v) => cond(&mut sql, "=", v),
        SortKey::BeginsWith(p) => {
            cond(&mut sql, ">=", p);
            if let Some(end) = prefix_end(p) {
                cond(&mut sql, "<", &end);
            }
        }
        SortKey::Between(a, b) => {
            cond(&mut sql, ">=", a);
            cond(&mut sql, "<=", b);
        }
        SortKey::Gte(v) => cond(&mut sql, ">=", v),
        SortKey::Lte(v) => cond(&mut sql, "<=", v),
    }
    let cmp = if q.forward { ">" } else { "<" };
    let dir = if q.forward { "ASC" } else { "DESC" };
    if let Some(cursor) = &q.cursor {
        let (c_isk, c_pk, c_sk) = decode_cursor(cursor)?;
        if q.index == Index::Primary {
            sql.push_str(&format!(" AND sk {cmp} ?"));
            args.push(c_sk.into());
        } else {
            sql.push_str(&format!(" AND ({isk}, pk, sk) {cmp} (?, ?, ?)"));
            args.extend([c_isk.into(), c_pk.into(), c_sk.into()]);
        }
    }
    if q.index == Index::Primary {
        sql.push_str(&format!(" ORDER BY sk {dir}"));
    } else {
        sql.push_str(&format!(" ORDER BY {isk} {dir}, pk {dir}, sk {dir}"));
    }
    // One more than asked tells whether another page follows.
    sql.push_str(&format!(" LIMIT {}", limit.saturating_add(1)));

    let mut stmt = c.prepare_cached(&sql).map_err(backend)?;
    let raws = stmt
        .query_map(rusqlite::params_from_iter(args), RawItem::from_row)
        .map_err(backend)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(backend)?;
    let more = raws.len() > limit;
    let items = raws
        .into_iter()
        .take(limit)
        .map(RawItem::into_item)
        .collect::<Result<Vec<_>, _>>()?;
    let cursor = match items.last() {
        Some(last) if more => {
            let isk = match q.index {
                Index::Primary => Some(&last.key.sk),
                Index::Gsi1 => last.gsi1.as_ref().map(|k| &k.sk),
                Index::Gsi2 => last.gsi2.as_ref().map(|k| &k.sk),
            };
            Some(encode_cursor(isk.map_or("", |s| s.as_str()), &last.key))
        }
        _ => None,
    };
    Ok(Page { items, cursor })
}

#[async_trait]
impl ItemStore for SqliteItemStore {
    async fn get(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        // One row by primary key: on this thread (see `Database::read_now`).
        self.db
            .read_now(|c| get_item(c, key))
            .map_err(|e| StoreError::Backend(e.to_string()))?
    }

    async fn put(&self, item: Item, condition: Option<Condition>) -> Result<(), StoreError> {
        self.write(move |c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            if !holds(&tx, &item.key, condition)? {
                return Err(StoreError::ConditionFailed { index: 0 });
            }
            put_item(&tx, &item)?;
            tx.commit().map_err(backend)
        })
        .await
    }

    async fn delete(&self, key: &Key, condition: Option<Condition>) -> Result<(), StoreError> {
        let key = key.clone();
        self.write(move |c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            if !holds(&tx, &key, condition)? {
                return Err(StoreError::ConditionFailed { index: 0 });
            }
            delete_item(&tx, &key)?;
            tx.commit().map_err(backend)
        })
        .await
    }

    async fn query(&self, query: Query) -> Result<Page, StoreError> {
        // A bad cursor is the caller's mistake: report it before touching the database.
        if let Some(cursor) = &query.cursor {
            decode_cursor(cursor)?;
        }
        self.read(move |c| run_query(c, &query)).await
    }

    async fn add(&self, key: &Key, attr: &str, delta: i64) -> Result<i64, StoreError> {
        let key = key.clone();
        let attr = attr.to_string();
        self.write(move |c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            let sum = add_to(&tx, &key, &attr, delta)?;
            tx.commit().map_err(backend)?;
            Ok(sum)
        })
        .await
    }

    async fn transact(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        check_transaction(&writes)?;
        if writes.is_empty() {
            return Ok(());
        }
        self.write(move |c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            // Each key appears once, so checking in order against the changing state is the
            // same as checking every condition against the state before the transaction.
            for (index, write) in writes.iter().enumerate() {
                apply_write(&tx, index, write)?;
            }
            // Dropping `tx` on any early return above rolls everything back.
            tx.commit().map_err(backend)
        })
        .await
    }

    async fn batch_get(&self, keys: &[Key]) -> Result<Vec<Item>, StoreError> {
        check_batch(keys.len())?;
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let keys = keys.to_vec();
        self.read(move |c| {
            let mut items = Vec::with_capacity(keys.len());
            for key in &keys {
                if let Some(item) = get_item(c, key)? {
                    items.push(item);
                }
            }
            Ok(items)
        })
        .await
    }

    async fn batch_put(&self, items: Vec<Item>) -> Result<(), StoreError> {
        check_batch(items.len())?;
        if items.is_empty() {
            return Ok(());
        }
        self.write(move |c| {
            let tx = c
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(backend)?;
            for item in &items {
                put_item(&tx, item)?;
            }
            tx.commit().map_err(backend)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_end_is_the_next_string_after_the_prefix() {
        assert_eq!(prefix_end("a#").as_deref(), Some("a$"));
        assert_eq!(prefix_end("").as_deref(), None);
        assert_eq!(prefix_end("a\u{10FFFF}").as_deref(), Some("b"));
        assert_eq!(prefix_end("\u{D7FF}").as_deref(), Some("\u{E000}"));
    }

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = encode_cursor("g", &Key::new("p", "s"));
        assert_eq!(
            decode_cursor(&c).unwrap(),
            ("g".into(), "p".into(), "s".into())
        );
        assert!(matches!(
            decode_cursor("not a cursor"),
            Err(StoreError::Invalid(_))
        ));
        assert!(matches!(decode_cursor("e30"), Err(StoreError::Invalid(_))));
    }
}
