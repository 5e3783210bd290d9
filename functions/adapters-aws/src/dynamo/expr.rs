//! DynamoDB expressions of the item store: conditions, counter updates, key conditions of a
//! query, and the opaque cursor of a page.

use super::attrs::*;
use aws_sdk_dynamodb::types::AttributeValue;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use std::collections::{BTreeMap, HashMap};
use vendfleet_app::ports::{Condition, Index, Query, SortKey, StoreError};

/// A condition expression with its names and values.
pub(super) struct Expr {
    pub(super) expression: String,
    pub(super) names: HashMap<String, String>,
    pub(super) values: Attrs,
}

pub(super) fn condition_expr(condition: Condition) -> Expr {
    match condition {
        Condition::NotExists => Expr {
            expression: "attribute_not_exists(#pk)".into(),
            names: HashMap::from([("#pk".into(), PK.into())]),
            values: HashMap::new(),
        },
        Condition::Exists => Expr {
            expression: "attribute_exists(#pk)".into(),
            names: HashMap::from([("#pk".into(), PK.into())]),
            values: HashMap::new(),
        },
        Condition::VersionIs(v) => Expr {
            expression: "#ver = :ver".into(),
            names: HashMap::from([("#ver".into(), VERSION.into())]),
            values: HashMap::from([(":ver".into(), n(v))]),
        },
    }
}

/// Sets an optional condition on any DynamoDB request or transaction-item builder (they share the
/// three setters but no trait).
macro_rules! with_condition {
    ($builder:expr, $condition:expr) => {{
        let (expression, names, values) = match $condition.map(condition_expr) {
            None => (None, None, None),
            Some(e) => (Some(e.expression), opt_map(e.names), opt_map(e.values)),
        };
        $builder
            .set_condition_expression(expression)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
    }};
}
pub(super) use with_condition;

pub(super) fn opt_map<K, V>(m: HashMap<K, V>) -> Option<HashMap<K, V>> {
    (!m.is_empty()).then_some(m)
}

/// The counter update: `ADD` the delta, and give a new item version 1.
pub(super) fn add_expr(attr: &str, delta: i64) -> Expr {
    Expr {
        expression: "ADD #attr :delta SET #ver = if_not_exists(#ver, :one)".into(),
        names: HashMap::from([
            ("#attr".into(), attr.into()),
            ("#ver".into(), VERSION.into()),
        ]),
        values: HashMap::from([(":delta".into(), n(delta)), (":one".into(), n(1))]),
    }
}

/// The key-condition of a query, or `None` when no sort key can match.
pub(super) fn key_condition(query: &Query) -> Option<Expr> {
    let (pk_name, sk_name) = match query.index {
        Index::Primary => (PK, SK),
        Index::Gsi1 => (GSI1PK, GSI1SK),
        Index::Gsi2 => (GSI2PK, GSI2SK),
    };
    // Key attributes are never empty strings, which DynamoDB also refuses as operands:
    // normalise the bounds that mention one.
    let sk = match &query.sk {
        SortKey::BeginsWith(p) | SortKey::Gte(p) if p.is_empty() => SortKey::All,
        SortKey::Eq(v) | SortKey::Lte(v) if v.is_empty() => return None,
        SortKey::Between(a, b) if b.is_empty() || a.as_bytes() > b.as_bytes() => return None,
        SortKey::Between(a, b) if a.is_empty() => SortKey::Lte(b.clone()),
        other => other.clone(),
    };
    let mut values = HashMap::from([(":pk".to_string(), s(&query.pk))]);
    let sk_clause = match sk {
        SortKey::All => None,
        SortKey::Eq(v) => {
            values.insert(":a".into(), s(v));
            Some("#sk = :a")
        }
        SortKey::BeginsWith(v) => {
            values.insert(":a".into(), s(v));
            Some("begins_with(#sk, :a)")
        }
        SortKey::Between(a, b) => {
            values.insert(":a".into(), s(a));
            values.insert(":b".into(), s(b));
            Some("#sk BETWEEN :a AND :b")
        }
        SortKey::Gte(v) => {
            values.insert(":a".into(), s(v));
            Some("#sk >= :a")
        }
        SortKey::Lte(v) => {
            values.insert(":a".into(), s(v));
            Some("#sk <= :a")
        }
    };
    let mut names = HashMap::from([("#pk".to_string(), pk_name.to_string())]);
    let expression = match sk_clause {
        Some(clause) => {
            names.insert("#sk".into(), sk_name.into());
            format!("#pk = :pk AND {clause}")
        }
        None => "#pk = :pk".into(),
    };
    Some(Expr {
        expression,
        names,
        values,
    })
}

/// The key attributes a cursor of `index` holds.
pub(super) fn cursor_names(index: Index) -> &'static [&'static str] {
    match index {
        Index::Primary => &[PK, SK],
        Index::Gsi1 => &[PK, SK, GSI1PK, GSI1SK],
        Index::Gsi2 => &[PK, SK, GSI2PK, GSI2SK],
    }
}

/// The opaque cursor: URL-safe base64 of the `LastEvaluatedKey` as a JSON object of strings.
pub(super) fn encode_cursor(last: Attrs) -> Result<String, StoreError> {
    let mut keys = BTreeMap::new();
    for (name, v) in last {
        match v {
            AttributeValue::S(v) => {
                keys.insert(name, v);
            }
            other => {
                return Err(StoreError::Codec(format!(
                    "unexpected key attribute {name}: {other:?}"
                )))
            }
        }
    }
    let json = serde_json::to_vec(&keys).map_err(|e| StoreError::Codec(e.to_string()))?;
    Ok(URL_SAFE_NO_PAD.encode(json))
}

pub(super) fn decode_cursor(index: Index, cursor: &str) -> Result<Attrs, StoreError> {
    let bad = || StoreError::Invalid("bad cursor".into());
    let json = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| bad())?;
    let keys: BTreeMap<String, String> = serde_json::from_slice(&json).map_err(|_| bad())?;
    let expected = cursor_names(index);
    if keys.len() != expected.len()
        || !expected
            .iter()
            .all(|n| keys.get(*n).is_some_and(|v| !v.is_empty()))
    {
        return Err(bad());
    }
    Ok(keys.into_iter().map(|(k, v)| (k, s(v))).collect())
}
