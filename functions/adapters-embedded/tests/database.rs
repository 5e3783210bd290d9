//! The embedded database itself: migrations, TTL purge, crash safety, `Embedded::open`.

use serde_json::json;
use vendfleet_adapters_embedded::{Database, Embedded, SqliteItemStore, MIGRATIONS};
use vendfleet_app::ports::{
    BlobStore, Condition, Item, ItemStore, JobQueue, Key, StoreError, Write,
};

fn item(pk: &str, sk: &str) -> Item {
    Item::from_value(Key::new(pk, sk), &json!({"n": 1})).unwrap()
}

#[tokio::test]
async fn migrations_apply_once_and_reopening_keeps_data() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::open(dir.path()).unwrap();
    assert_eq!(db.schema_version().await.unwrap(), MIGRATIONS.len() as i64);
    SqliteItemStore::new(db.clone())
        .put(item("P", "S"), None)
        .await
        .unwrap();
    let mode: String = db
        .read(|c| c.query_row("PRAGMA journal_mode", [], |r| r.get(0)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(mode, "wal");

    // A second open (another handle, as after a restart) applies nothing again.
    let again = Database::open(dir.path()).unwrap();
    let rows: i64 = again
        .read(|c| c.query_row("SELECT count(*) FROM schema_migrations", [], |r| r.get(0)))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(rows, MIGRATIONS.len() as i64);
    assert!(SqliteItemStore::new(again)
        .get(&Key::new("P", "S"))
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::open(dir.path()).unwrap();
    db.write(|c| c.execute("INSERT INTO schema_migrations VALUES (999, 'future')", []))
        .await
        .unwrap()
        .unwrap();
    let err = Database::open(dir.path()).unwrap_err();
    assert!(err.to_string().contains("newer"), "{err}");
}

#[tokio::test]
async fn purge_expired_removes_only_items_past_their_ttl() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteItemStore::new(Database::open(dir.path()).unwrap());
    store
        .put(item("T", "old").with_ttl(100), None)
        .await
        .unwrap();
    store
        .put(item("T", "edge").with_ttl(200), None)
        .await
        .unwrap();
    store
        .put(item("T", "new").with_ttl(300), None)
        .await
        .unwrap();
    store.put(item("T", "forever"), None).await.unwrap();
    assert_eq!(store.purge_expired(200).await.unwrap(), 1);
    assert!(store.get(&Key::new("T", "old")).await.unwrap().is_none());
    for sk in ["edge", "new", "forever"] {
        assert!(
            store.get(&Key::new("T", sk)).await.unwrap().is_some(),
            "{sk}"
        );
    }
    assert_eq!(store.purge_expired(1_000).await.unwrap(), 2);
    assert!(store
        .get(&Key::new("T", "forever"))
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_failed_transaction_leaves_nothing_behind_even_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = SqliteItemStore::new(Database::open(dir.path()).unwrap());
        store.put(item("C", "taken"), None).await.unwrap();
        let r = store
            .transact(vec![
                Write::Put {
                    item: item("C", "a"),
                    condition: None,
                },
                Write::Add {
                    key: Key::new("C", "count"),
                    attr: "n".into(),
                    delta: 1,
                },
                Write::Delete {
                    key: Key::new("C", "taken"),
                    condition: None,
                },
                Write::Put {
                    item: item("C", "b"),
                    condition: Some(Condition::Exists),
                },
            ])
            .await;
        assert_eq!(r, Err(StoreError::ConditionFailed { index: 3 }));

        // A write that dies half-way (a panic inside the transaction) is rolled back too, and
        // the writer connection stays usable.
        let db = Database::open(dir.path()).unwrap();
        let crashed = db
            .write(|c| {
                let tx = c.transaction().unwrap();
                tx.execute(
                    "INSERT INTO items (pk, sk, version, attrs) VALUES ('C', 'half', 1, '{}')",
                    [],
                )
                .unwrap();
                panic!("simulated crash mid-transaction");
            })
            .await;
        assert!(crashed.is_err());
        db.write(|c| c.execute("DELETE FROM items WHERE pk = 'none'", []))
            .await
            .unwrap()
            .unwrap();
    }
    let store = SqliteItemStore::new(Database::open(dir.path()).unwrap());
    for sk in ["a", "b", "count", "half"] {
        assert!(
            store.get(&Key::new("C", sk)).await.unwrap().is_none(),
            "{sk} was written"
        );
    }
    assert!(store.get(&Key::new("C", "taken")).await.unwrap().is_some());
}

#[tokio::test]
async fn embedded_open_wires_the_three_adapters_on_one_directory() {
    let dir = tempfile::tempdir().unwrap();
    let embedded = Embedded::open(dir.path(), b"secret").unwrap();
    assert!(dir.path().join("vendfleet.db").exists());
    assert!(dir.path().join("blobs").is_dir());
    embedded.store.put(item("E", "1"), None).await.unwrap();
    embedded
        .blobs
        .put("x/y.txt", b"hi".to_vec(), "text/plain")
        .await
        .unwrap();
    assert!(dir.path().join("blobs/x/y.txt").exists());
    let id = embedded.queue.enqueue("p").await.unwrap();
    drop(embedded);

    // Everything is durable across a reopen; the embedded queue allows five deliveries.
    let embedded = Embedded::open(dir.path(), b"secret").unwrap();
    assert!(embedded
        .store
        .get(&Key::new("E", "1"))
        .await
        .unwrap()
        .is_some());
    assert_eq!(
        embedded.blobs.get("x/y.txt").await.unwrap().unwrap().bytes,
        b"hi"
    );
    for attempt in 1..=5 {
        let job = embedded
            .queue
            .claim(std::time::Duration::from_secs(60))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((job.id.as_str(), job.attempts), (id.as_str(), attempt));
        embedded
            .queue
            .retry(&job.receipt, std::time::Duration::ZERO)
            .await
            .unwrap();
    }
    assert!(embedded
        .queue
        .claim(std::time::Duration::from_secs(60))
        .await
        .unwrap()
        .is_none());
    assert_eq!(embedded.queue.dead_letters().await.unwrap(), ["p"]);
}

/// Migration 6 packs the product rollups of a database written before it: every figure of
/// every product comes back, to the unit, through the store.
#[tokio::test]
async fn product_rollups_written_before_packing_read_back_equal() {
    use vendfleet_adapters_embedded::SqliteSalesStore;
    use vendfleet_app::ports::{Grain, RollupQuery, SalesStore};
    let dir = tempfile::tempdir().unwrap();
    {
        let c = rusqlite::Connection::open(dir.path().join("vendfleet.db")).unwrap();
        c.execute_batch(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
        )
        .unwrap();
        for (i, sql) in MIGRATIONS[..5].iter().enumerate() {
            c.execute_batch(sql).unwrap();
            c.execute(
                "INSERT INTO schema_migrations VALUES (?1, 'then')",
                [i as i64 + 1],
            )
            .unwrap();
        }
        let rows: [(&str, i64, &str, [i64; 8]); 4] = [
            ("m-1", 20260131, "cola", [2, 300, 250, 300, 0, 1, 0, 2]),
            (
                "m-1",
                20260131,
                "café-crème",
                [1, 120, 100, 0, 120, 0, 1, 1],
            ),
            ("m-1", 20260201, "cola", [-1, -150, -125, -150, 0, 0, 0, -1]),
            (
                "m-2",
                20260131,
                "cola",
                [i64::MAX / 4, 1 << 40, 7, 3, 4, 5, 6, 7],
            ),
        ];
        for (table, key, of) in [
            ("sales_day_product", "day", 1),
            ("sales_month_product", "month", 100),
        ] {
            for (m, day, p, f) in rows {
                c.execute(
                    &format!(
                        "INSERT INTO {table} (machine_id, {key}, product_id, q, rev, net, cash, \
                         cashless, free, test, tx) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) \
                         ON CONFLICT DO UPDATE SET q = q + excluded.q, rev = rev + excluded.rev, \
                         net = net + excluded.net, cash = cash + excluded.cash, \
                         cashless = cashless + excluded.cashless, free = free + excluded.free, \
                         test = test + excluded.test, tx = tx + excluded.tx"
                    ),
                    rusqlite::params![m, day / of, p, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]],
                )
                .unwrap();
            }
        }
    }
    let db = Database::open(dir.path()).unwrap();
    assert_eq!(db.schema_version().await.unwrap(), MIGRATIONS.len() as i64);
    let sales = SqliteSalesStore::new(db);
    let day = |y, m, d| chrono::NaiveDate::from_ymd_opt(y, m, d).unwrap();
    for grain in [Grain::DayProduct, Grain::MonthProduct] {
        let mut got: Vec<(String, String, String, [i64; 8])> = sales
            .rollups(&RollupQuery {
                machine_ids: vec!["m-1".into(), "m-2".into()],
                from: day(2026, 1, 1),
                to: day(2026, 2, 28),
                grain,
            })
            .await
            .unwrap()
            .into_iter()
            .map(|r| {
                (
                    r.machine_id,
                    r.date.format("%Y%m%d").to_string(),
                    r.product_id.unwrap_or_default(),
                    r.figures.to_array(),
                )
            })
            .collect();
        got.sort();
        let first = |d: &str| {
            if grain == Grain::DayProduct {
                d.to_string()
            } else {
                format!("{}01", &d[..6])
            }
        };
        let want: Vec<(String, String, String, [i64; 8])> = vec![
            (
                "m-1".into(),
                first("20260131"),
                "café-crème".into(),
                [1, 120, 100, 0, 120, 0, 1, 1],
            ),
            (
                "m-1".into(),
                first("20260131"),
                "cola".into(),
                [2, 300, 250, 300, 0, 1, 0, 2],
            ),
            (
                "m-1".into(),
                first("20260201"),
                "cola".into(),
                [-1, -150, -125, -150, 0, 0, 0, -1],
            ),
            (
                "m-2".into(),
                first("20260131"),
                "cola".into(),
                [i64::MAX / 4, 1 << 40, 7, 3, 4, 5, 6, 7],
            ),
        ];
        assert_eq!(got, want, "{grain:?}");
    }
}

/// Shipped migrations never change: each entry's text is pinned by its SHA-256 (a new migration
/// appends its own line here).
#[test]
fn migrations_are_as_shipped() {
    use sha2::{Digest, Sha256};
    let shipped = [
        "9b24ec82e74967cdeb997ae37d58c8752e7b0452459fda20160e05dc6eec7e23",
        "a1a1ea9c3276c55a9a9d7d9e3497001d2fce3ba838369fe03b1e0ec9b01f1f4d",
        "4924bfe0bc91e50e285d991bd5bfe12992a477205b947a6662b9f44ec3931de6",
        "89618b405452acaa60e6710f25c4a8a7f9744e98fe2fbc38731562333251afed",
        "8c8c5fab07b26334a09b2402c16daefe8eef23e1305b54b9f4b70dca1b9f16c1",
        "c2842e607727f28c7fdd8f0f2b7da62a9b3c03f74aa4306f1708975f3b268b0a",
        "dd8626098b32e21307c786ac6a2f24fb078d088d837ace7c434194a6f4e59230",
        "41c3f4dcf297af2d311f51f91e37a667e5cbc247d7ecb266447d7429cc999e20",
        "382facc2f7835e6bc268f4912c60560a67515d4f4754132b5fd4c9401dc16b22",
        "0a15d5207d5dff7cd0a123628faedc65f4230edefe2768bd5a72e48b2ad5543f",
    ];
    let now: Vec<String> = MIGRATIONS
        .iter()
        .map(|sql| format!("{:x}", Sha256::digest(sql.as_bytes())))
        .collect();
    assert_eq!(now, shipped);
}

/// A day's page of the transaction log is the same whether it is read machine by machine (few
/// machines) or from the time index (many): the day's sales of the chosen machines (and
/// products) in the log's order, sliced.
#[tokio::test]
async fn a_days_sales_page_is_the_same_by_key_and_by_time() {
    use chrono::{Duration, NaiveDate, TimeZone, Utc};
    use vendfleet_adapters_embedded::SqliteSalesStore;
    use vendfleet_app::ports::sales::Commit;
    use vendfleet_app::ports::SalesStore;
    use vendfleet_domain::events::{Payment, VendClass};
    use vendfleet_domain::sales::{log_order, VendFact};
    let dir = tempfile::tempdir().unwrap();
    let sales = SqliteSalesStore::new(Database::open(dir.path()).unwrap());
    let day = NaiveDate::from_ymd_opt(2026, 3, 29).unwrap();
    let noon = Utc.with_ymd_and_hms(2026, 3, 29, 12, 0, 0).unwrap();
    let mut vends = Vec::new();
    for m in 0..90 {
        for k in 0..6i64 {
            // Instants shared across machines, so ties are broken by machine and event.
            let at = noon + Duration::seconds((m * 7 + k * 13) % 40);
            let class = match (m + k) % 9 {
                0 => VendClass::Free,
                1 => VendClass::Test,
                _ => VendClass::Sale,
            };
            vends.push(VendFact {
                machine_id: format!("m-{m:03}"),
                event_id: format!("e-{k}"),
                at,
                local_date: if k == 5 { day + Duration::days(1) } else { day },
                location_id: None,
                selection: "A1".into(),
                product_id: format!("p-{}", (m + k) % 4),
                quantity: 1,
                revenue_minor: 100 + k,
                net_minor: 90,
                payment: Payment::Cash,
                class,
                vat_bps: (k % 2 == 0).then_some(550),
            });
        }
    }
    sales
        .commit(Commit {
            vends: vends.clone(),
            ..Commit::default()
        })
        .await
        .unwrap();
    let products: std::collections::BTreeSet<String> = ["p-1".into(), "p-3".into()].into();
    for (machines, products) in [
        (90, None),
        (90, Some(&products)),
        (70, None),
        (3, None),
        (3, Some(&products)),
    ] {
        let ids: Vec<String> = (0..machines).map(|m| format!("m-{m:03}")).collect();
        let mut want: Vec<VendFact> = vends
            .iter()
            .filter(|v| v.local_date == day && v.class == VendClass::Sale)
            .filter(|v| ids.contains(&v.machine_id))
            .filter(|v| {
                products
                    .is_none_or(|p: &std::collections::BTreeSet<String>| p.contains(&v.product_id))
            })
            .cloned()
            .collect();
        want.sort_by(log_order);
        assert!(!want.is_empty());
        for (skip, take) in [(0, 25), (7, 13), (want.len() - 3, 25), (want.len(), 5)] {
            let got = sales
                .sales_page(&ids, day, products, skip, take)
                .await
                .unwrap();
            let expected: Vec<&VendFact> = want.iter().skip(skip).take(take).collect();
            assert_eq!(
                got.iter().collect::<Vec<_>>(),
                expected,
                "{machines} machines, {skip}+{take}"
            );
        }
    }
}
