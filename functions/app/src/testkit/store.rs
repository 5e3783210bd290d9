//! Item store conformance cases.

use crate::ports::{Condition, Index, Item, ItemStore, Key, Query, SortKey, StoreError, Write};
use serde_json::{json, Map, Value};
use std::sync::Arc;

type Store = Arc<dyn ItemStore>;

fn attrs(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => panic!("attrs must be an object"),
    }
}

fn item(pk: &str, sk: &str, v: Value) -> Item {
    Item::new(Key::new(pk, sk), attrs(v))
}

fn sks(items: &[Item]) -> Vec<String> {
    items.iter().map(|i| i.key.sk.clone()).collect()
}

/// Attribute `name` of the item `T`/`sk` (which must exist).
async fn attr(store: &Store, sk: &str, name: &str) -> Value {
    let item = store.get(&Key::new("T", sk)).await.unwrap().unwrap();
    item.attrs[name].clone()
}

async fn all(store: &Store, q: Query) -> Vec<Item> {
    crate::ports::query_all(store.as_ref(), q)
        .await
        .expect("query")
}

pub async fn put_get_round_trip(store: Store) {
    let it = item(
        "USER#1",
        "PROFILE",
        json!({"name": "Zoë ☕", "age": 41, "big": 9_007_199_254_740_991_i64, "neg": -5,
               "ok": true, "none": null, "tags": ["a", "b"], "nested": {"x": [1, {"y": "z"}]},
               "empty_list": [], "empty_map": {}, "float": 1.5}),
    )
    .with_gsi1("EMAIL#z@x.io", "USER")
    .with_gsi2("ROLE#r1", "USER#1")
    .with_version(7)
    .with_ttl(1_900_000_000);
    store.put(it.clone(), None).await.expect("put");
    let got = store.get(&it.key).await.expect("get").expect("present");
    assert_eq!(got, it);
    assert_eq!(store.get(&Key::new("USER#1", "OTHER")).await.unwrap(), None);
    assert_eq!(
        store.get(&Key::new("USER#2", "PROFILE")).await.unwrap(),
        None
    );
    // A plain put replaces the whole item, index keys included.
    let replaced = item("USER#1", "PROFILE", json!({"name": "Ann"}));
    store.put(replaced.clone(), None).await.unwrap();
    assert_eq!(store.get(&it.key).await.unwrap(), Some(replaced));
    let gsi = all(&store, Query::partition(Index::Gsi1, "EMAIL#z@x.io")).await;
    assert!(
        gsi.is_empty(),
        "old index entry must go with the replaced item"
    );
}

pub async fn conditional_put(store: Store) {
    let a = item("P", "S", json!({"n": 1}));
    store
        .put(a.clone(), Some(Condition::NotExists))
        .await
        .unwrap();
    assert_eq!(
        store.put(a.clone(), Some(Condition::NotExists)).await,
        Err(StoreError::ConditionFailed { index: 0 })
    );
    let missing = item("P", "NONE", json!({}));
    assert_eq!(
        store.put(missing.clone(), Some(Condition::Exists)).await,
        Err(StoreError::ConditionFailed { index: 0 })
    );
    assert_eq!(
        store.put(missing, Some(Condition::VersionIs(1))).await,
        Err(StoreError::ConditionFailed { index: 0 })
    );
    let v2 = item("P", "S", json!({"n": 2})).with_version(2);
    store
        .put(v2.clone(), Some(Condition::VersionIs(1)))
        .await
        .unwrap();
    let stale = item("P", "S", json!({"n": 3})).with_version(2);
    assert_eq!(
        store.put(stale, Some(Condition::VersionIs(1))).await,
        Err(StoreError::ConditionFailed { index: 0 })
    );
    assert_eq!(store.get(&a.key).await.unwrap(), Some(v2.clone()));
    store.put(v2, Some(Condition::Exists)).await.unwrap();
}

pub async fn conditional_delete(store: Store) {
    let k = Key::new("P", "S");
    store
        .delete(&k, None)
        .await
        .expect("deleting a missing item succeeds");
    assert_eq!(
        store.delete(&k, Some(Condition::Exists)).await,
        Err(StoreError::ConditionFailed { index: 0 })
    );
    store
        .put(item("P", "S", json!({})).with_version(3), None)
        .await
        .unwrap();
    assert_eq!(
        store.delete(&k, Some(Condition::VersionIs(2))).await,
        Err(StoreError::ConditionFailed { index: 0 })
    );
    assert!(store.get(&k).await.unwrap().is_some());
    store
        .delete(&k, Some(Condition::VersionIs(3)))
        .await
        .unwrap();
    assert_eq!(store.get(&k).await.unwrap(), None);
}

pub async fn query_sort_conditions(store: Store) {
    let mut batch = Vec::new();
    for i in 1..=10 {
        batch.push(item("Q", &format!("a#{i:02}"), json!({"i": i})));
    }
    batch.push(item("Q", "b#01", json!({})));
    batch.push(item("Q2", "a#01", json!({})));
    store.batch_put(batch).await.unwrap();

    let got = all(
        &store,
        Query::partition(Index::Primary, "Q").sk(SortKey::BeginsWith("a#".into())),
    )
    .await;
    assert_eq!(got.len(), 10);
    assert_eq!(got[0].key.sk, "a#01");
    assert_eq!(got[9].key.sk, "a#10");
    assert_eq!(got[3].attrs["i"], json!(4));

    let got = all(&store, Query::partition(Index::Primary, "Q")).await;
    assert_eq!(got.len(), 11);

    let got = all(
        &store,
        Query::partition(Index::Primary, "Q").sk(SortKey::Between("a#03".into(), "a#05".into())),
    )
    .await;
    assert_eq!(sks(&got), ["a#03", "a#04", "a#05"]);

    let got = all(
        &store,
        Query::partition(Index::Primary, "Q").sk(SortKey::Gte("a#09".into())),
    )
    .await;
    assert_eq!(sks(&got), ["a#09", "a#10", "b#01"]);

    let got = all(
        &store,
        Query::partition(Index::Primary, "Q").sk(SortKey::Lte("a#02".into())),
    )
    .await;
    assert_eq!(sks(&got), ["a#01", "a#02"]);

    let got = all(
        &store,
        Query::partition(Index::Primary, "Q").sk(SortKey::Eq("a#07".into())),
    )
    .await;
    assert_eq!(sks(&got), ["a#07"]);

    let got = all(
        &store,
        Query::partition(Index::Primary, "Q")
            .sk(SortKey::BeginsWith("a#".into()))
            .backward(),
    )
    .await;
    assert_eq!(got[0].key.sk, "a#10");
    assert_eq!(got[9].key.sk, "a#01");

    let got = all(&store, Query::partition(Index::Primary, "NOPE")).await;
    assert!(got.is_empty());
}

pub async fn query_paging(store: Store) {
    let items: Vec<_> = (0..25)
        .map(|i| item("PG", &format!("{i:03}"), json!({})))
        .collect();
    store.batch_put(items).await.unwrap();
    for forward in [true, false] {
        let mut q = Query::partition(Index::Primary, "PG").limit(10);
        q.forward = forward;
        let mut seen = Vec::new();
        let mut pages = 0;
        loop {
            let page = store.query(q.clone()).await.unwrap();
            assert!(page.items.len() <= 10);
            pages += 1;
            seen.extend(sks(&page.items));
            match page.cursor {
                Some(c) => q.cursor = Some(c),
                None => break,
            }
            assert!(pages < 10, "paging does not end");
        }
        let mut expected: Vec<_> = (0..25).map(|i| format!("{i:03}")).collect();
        if !forward {
            expected.reverse();
        }
        assert_eq!(seen, expected);
        assert!(pages >= 3);
    }
}

pub async fn secondary_indexes(store: Store) {
    for (id, email, role) in [
        ("1", "a@x.io", "r1"),
        ("2", "b@x.io", "r1"),
        ("3", "c@x.io", "r2"),
    ] {
        let it = item(&format!("USER#{id}"), "USER", json!({"email": email}))
            .with_gsi1("USERS", format!("{email}#{id}"))
            .with_gsi2(format!("ROLE#{role}"), format!("USER#{id}"));
        store.put(it, None).await.unwrap();
    }
    store
        .put(item("USER#4", "USER", json!({"email": "unindexed"})), None)
        .await
        .unwrap();

    let users = all(&store, Query::partition(Index::Gsi1, "USERS")).await;
    assert_eq!(users.len(), 3);
    assert_eq!(users[0].attrs["email"], json!("a@x.io"));
    assert_eq!(users[0].key, Key::new("USER#1", "USER"));
    assert_eq!(users[0].gsi1, Some(Key::new("USERS", "a@x.io#1")));

    let r1 = all(&store, Query::partition(Index::Gsi2, "ROLE#r1")).await;
    assert_eq!(r1.len(), 2);
    let b = all(
        &store,
        Query::partition(Index::Gsi1, "USERS").sk(SortKey::BeginsWith("b@".into())),
    )
    .await;
    assert_eq!(b.len(), 1);
    let paged = store
        .query(Query::partition(Index::Gsi1, "USERS").limit(2))
        .await
        .unwrap();
    assert_eq!(paged.items.len(), 2);
    let rest = store
        .query(
            Query::partition(Index::Gsi1, "USERS")
                .limit(2)
                .after(paged.cursor.clone()),
        )
        .await
        .unwrap();
    assert_eq!(rest.items.len(), 1);
    assert_eq!(rest.items[0].attrs["email"], json!("c@x.io"));

    // Moving an item to another role moves its index entry.
    let moved = item("USER#1", "USER", json!({"email": "a@x.io"}))
        .with_gsi1("USERS", "a@x.io#1")
        .with_gsi2("ROLE#r2", "USER#1");
    store.put(moved, None).await.unwrap();
    assert_eq!(
        all(&store, Query::partition(Index::Gsi2, "ROLE#r1"))
            .await
            .len(),
        1
    );
    assert_eq!(
        all(&store, Query::partition(Index::Gsi2, "ROLE#r2"))
            .await
            .len(),
        2
    );
}

pub async fn counters(store: Store) {
    let k = Key::new("CNT", "day#2026-11-22");
    assert_eq!(store.add(&k, "vends", 3).await.unwrap(), 3);
    assert_eq!(store.add(&k, "vends", 4).await.unwrap(), 7);
    assert_eq!(store.add(&k, "vends", -2).await.unwrap(), 5);
    assert_eq!(store.add(&k, "cash", 250).await.unwrap(), 250);
    let got = store.get(&k).await.unwrap().unwrap();
    assert_eq!(got.attrs["vends"], json!(5));
    assert_eq!(got.attrs["cash"], json!(250));
    // Adding to an existing item keeps its other attributes and keys.
    let it = item("CNT", "x", json!({"name": "keep"}))
        .with_gsi1("G", "1")
        .with_version(4);
    store.put(it, None).await.unwrap();
    store.add(&Key::new("CNT", "x"), "n", 1).await.unwrap();
    let got = store.get(&Key::new("CNT", "x")).await.unwrap().unwrap();
    assert_eq!(got.attrs["name"], json!("keep"));
    assert_eq!(got.attrs["n"], json!(1));
    assert_eq!(got.gsi1, Some(Key::new("G", "1")));
    assert_eq!(got.version, 4);
}

pub async fn concurrent_counters(store: Store) {
    let k = Key::new("CNT", "race");
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let store = store.clone();
        let k = k.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..5 {
                store.add(&k, "n", 2).await.unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let got = store.get(&k).await.unwrap().unwrap();
    assert_eq!(got.attrs["n"], json!(100));
}

pub async fn transactions(store: Store) {
    store
        .put(item("T", "existing", json!({"v": 1})), None)
        .await
        .unwrap();
    // All applied.
    store
        .transact(vec![
            Write::Put {
                item: item("T", "a", json!({"v": 1})),
                condition: Some(Condition::NotExists),
            },
            Write::Delete {
                key: Key::new("T", "existing"),
                condition: Some(Condition::Exists),
            },
            Write::Add {
                key: Key::new("T", "counter"),
                attr: "n".into(),
                delta: 5,
            },
            Write::Check {
                key: Key::new("T", "missing"),
                condition: Condition::NotExists,
            },
        ])
        .await
        .unwrap();
    assert!(store.get(&Key::new("T", "a")).await.unwrap().is_some());
    assert!(store
        .get(&Key::new("T", "existing"))
        .await
        .unwrap()
        .is_none());
    assert_eq!(attr(&store, "counter", "n").await, json!(5));

    // One failing condition: nothing applied, the failing index reported.
    let r = store
        .transact(vec![
            Write::Put {
                item: item("T", "b", json!({})),
                condition: None,
            },
            Write::Add {
                key: Key::new("T", "counter"),
                attr: "n".into(),
                delta: 1,
            },
            Write::Put {
                item: item("T", "a", json!({"v": 2})),
                condition: Some(Condition::NotExists),
            },
        ])
        .await;
    assert_eq!(r, Err(StoreError::ConditionFailed { index: 2 }));
    assert!(store.get(&Key::new("T", "b")).await.unwrap().is_none());
    assert_eq!(attr(&store, "counter", "n").await, json!(5));
    assert_eq!(
        store.get(&Key::new("T", "a")).await.unwrap().unwrap().attrs["v"],
        json!(1)
    );

    // Version checks inside a transaction.
    let r = store
        .transact(vec![
            Write::Check {
                key: Key::new("T", "a"),
                condition: Condition::VersionIs(9),
            },
            Write::Put {
                item: item("T", "c", json!({})),
                condition: None,
            },
        ])
        .await;
    assert_eq!(r, Err(StoreError::ConditionFailed { index: 0 }));
    assert!(store.get(&Key::new("T", "c")).await.unwrap().is_none());
}

pub async fn transaction_limits(store: Store) {
    let too_many: Vec<_> = (0..101)
        .map(|i| Write::Put {
            item: item("L", &format!("{i}"), json!({})),
            condition: None,
        })
        .collect();
    assert!(matches!(
        store.transact(too_many).await,
        Err(StoreError::Invalid(_))
    ));
    let dup = vec![
        Write::Put {
            item: item("L", "x", json!({})),
            condition: None,
        },
        Write::Delete {
            key: Key::new("L", "x"),
            condition: None,
        },
    ];
    assert!(matches!(
        store.transact(dup).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(store.get(&Key::new("L", "x")).await.unwrap().is_none());
    let hundred: Vec<_> = (0..100)
        .map(|i| Write::Put {
            item: item("L", &format!("{i:03}"), json!({})),
            condition: None,
        })
        .collect();
    store.transact(hundred).await.unwrap();
    assert_eq!(
        all(&store, Query::partition(Index::Primary, "L"))
            .await
            .len(),
        100
    );
    store
        .transact(vec![])
        .await
        .expect("an empty transaction is a no-op");
}

pub async fn batches(store: Store) {
    let items: Vec<_> = (0..30)
        .map(|i| item("B", &format!("{i:02}"), json!({"i": i})))
        .collect();
    store.batch_put(items).await.unwrap();
    let mut keys: Vec<_> = (0..30).map(|i| Key::new("B", format!("{i:02}"))).collect();
    keys.push(Key::new("B", "missing"));
    let mut got = store.batch_get(&keys).await.unwrap();
    got.sort_by(|a, b| a.key.cmp(&b.key));
    assert_eq!(got.len(), 30);
    assert_eq!(got[29].attrs["i"], json!(29));
    let too_many: Vec<_> = (0..101).map(|i| Key::new("B", format!("{i}"))).collect();
    assert!(matches!(
        store.batch_get(&too_many).await,
        Err(StoreError::Invalid(_))
    ));
    assert!(store.batch_get(&[]).await.unwrap().is_empty());
}

pub async fn bad_cursor(store: Store) {
    let q = Query::partition(Index::Primary, "X").after(Some("not a cursor".into()));
    assert!(matches!(store.query(q).await, Err(StoreError::Invalid(_))));
}

pub async fn byte_order_of_sort_keys(store: Store) {
    for sk in ["é", "a", "Z", "0", "ab", "a#"] {
        store.put(item("ORD", sk, json!({})), None).await.unwrap();
    }
    let got = all(&store, Query::partition(Index::Primary, "ORD")).await;
    assert_eq!(sks(&got), ["0", "Z", "a", "a#", "ab", "é"]);
}

/// A record of a snapshot kind, for [`catalogue_snapshots`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Tag {
    id: String,
    name: String,
    #[serde(skip)]
    version: u64,
}
crate::named_record!(Tag, "MTAG", "Tag");

/// Catalogue snapshots (`records::SnapshotStore`) over this store, two of them as two processes
/// over one table: every write path of either is seen at once by both, a snapshot is reused
/// while nothing changed (where indexes do not lag), and other writes leave it be.
pub async fn catalogue_snapshots(store: Store) {
    use crate::records::{Records, SnapshotStore};
    let a: Store = Arc::new(SnapshotStore::new(store.clone(), Default::default()));
    let b: Store = Arc::new(SnapshotStore::new(store.clone(), Default::default()));
    let (ra, rb) = (
        Records::<Tag>::new(a.clone()),
        Records::<Tag>::new(b.clone()),
    );
    let tag = |id: &str, name: &str| Tag {
        id: id.into(),
        name: name.into(),
        version: 1,
    };
    let item_of = |t: &Tag| match Records::<Tag>::insert_writes(t).unwrap().pop() {
        Some(Write::Put { item, .. }) => item,
        other => panic!("a put, not {other:?}"),
    };
    async fn names(r: &Records<Tag>) -> Vec<String> {
        let mut v: Vec<String> = r
            .all_shared()
            .await
            .unwrap()
            .iter()
            .map(|t| t.name.clone())
            .collect();
        v.sort();
        v
    }
    let caches = store.index_lag().is_zero();
    let same = async |r: &Records<Tag>| {
        let (x, y) = (r.all_shared().await.unwrap(), r.all_shared().await.unwrap());
        Arc::ptr_eq(&x, &y)
    };
    assert!(names(&ra).await.is_empty() && names(&rb).await.is_empty());

    ra.insert(&tag("1", "one")).await.unwrap();
    assert_eq!(
        names(&rb).await,
        ["one"],
        "a transaction of another process"
    );
    assert_eq!(names(&ra).await, ["one"]);
    assert_eq!(same(&ra).await, caches, "reused while nothing changes");

    b.put(item_of(&tag("2", "two")), None).await.unwrap();
    assert_eq!(names(&ra).await, ["one", "two"], "a put");

    b.batch_put(vec![
        item_of(&tag("3", "three")),
        item("T", "other", json!({})),
    ])
    .await
    .unwrap();
    assert_eq!(names(&ra).await, ["one", "three", "two"], "a batch put");

    b.delete(&Records::<Tag>::key("2"), None).await.unwrap();
    assert_eq!(names(&ra).await, ["one", "three"], "a delete");

    let before = ra.all_shared().await.unwrap();
    b.add(&Records::<Tag>::key("1"), "uses", 1).await.unwrap();
    let after = ra.all_shared().await.unwrap();
    assert!(!Arc::ptr_eq(&before, &after), "an add reloads");

    let before = ra.all_shared().await.unwrap();
    b.put(item("T", "x", json!({"n": 1})), None).await.unwrap();
    b.transact(vec![Write::Add {
        key: Key::new("T", "y"),
        attr: "n".into(),
        delta: 1,
    }])
    .await
    .unwrap();
    let after = ra.all_shared().await.unwrap();
    assert_eq!(
        Arc::ptr_eq(&before, &after),
        caches,
        "writes of other items keep the snapshot"
    );

    // A failed condition changes nothing and keeps the caller's index.
    let err = b
        .transact(vec![
            Write::Put {
                item: item("T", "z", json!({})),
                condition: None,
            },
            Write::Put {
                item: item_of(&tag("1", "uno")),
                condition: Some(Condition::NotExists),
            },
        ])
        .await
        .unwrap_err();
    assert_eq!(err, StoreError::ConditionFailed { index: 1 });
    assert_eq!(names(&ra).await, ["one", "three"]);
}
