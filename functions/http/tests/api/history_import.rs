//! History imports on SQLite and on DynamoDB (docs/history-import.md): Nayax Core's export and
//! a vendor's CSV through a saved mapping, uploaded in parts, previewed, booked exactly once
//! (the same file again, an overlapping one), a file with a bad row refused unless its bad rows
//! are skipped, and every call an administrator's.

use crate::common::*;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};
use vendfleet_domain::events::Payment;

struct Fleet {
    admin: String,
    location: String,
    m1: String,
    m2: String,
}

async fn fleet(h: &Harness) -> Fleet {
    let admin = h.admin().await;
    let location = create(
        h,
        &admin,
        "/api/locations/",
        json!({"name": "Site", "time_zone": "Europe/Paris"}),
    )
    .await;
    let product = |name: &str, sku: &str| json!({"name": name, "sku": sku, "price_minor": 100, "vat_bps": 550});
    let water = create(h, &admin, "/api/products/", product("Water", "WAT-050")).await;
    let choc = create(h, &admin, "/api/products/", product("Choc Bar", "")).await;
    let m1 = create(
        h,
        &admin,
        "/api/machines/",
        json!({"name": "M1", "location_id": location, "nayax_machine_id": "54265"}),
    )
    .await;
    let m2 = create(
        h,
        &admin,
        "/api/machines/",
        json!({"name": "Kiosk Two", "location_id": location, "terminal_id": "T-2"}),
    )
    .await;
    for m in [&m1, &m2] {
        for (code, product) in [("11", &water), ("24", &choc)] {
            let r = h
                .post(
                    "/api/machines/products/",
                    &admin,
                    json!({"machine_id": m, "selection": code, "product_id": product, "max": 50,
                           "price_minor": 100, "current": 50}),
                )
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        }
    }
    Fleet {
        admin,
        location,
        m1,
        m2,
    }
}

/// Nayax Core's export: a two-product transaction, a cash sale, a sale in the repeated hour of
/// autumn, a declined one, an unknown machine, an unknown product and a bad amount (line 9).
const NAYAX_EXPORT: &str = "\
Transaction ID,Machine ID,Machine Name,Machine AuTime,SeValue,Currency,Payment Method ID (1),Catalog Number,Product Code in Map,Quantity,Transaction Status Name
1001,54265,M1,2025-03-03T10:00:00.120,1.5000,EUR,1,WAT-050,,1,Settled
1002,54265,M1,2025-03-03T11:00:00,2.0000,EUR,1,,24,2,Settled
1002,54265,M1,2025-03-03T11:00:00,1.5000,EUR,1,WAT-050,,1,Settled
1003,54265,M1,2025-04-01T08:15:00,0.8000,EUR,3,,24,1,Settled
1004,54265,M1,2025-10-26T02:30:00,1.0000,EUR,1,,11,1,Settled
1005,54265,M1,2025-04-02T09:00:00,1.0000,EUR,1,,11,1,Declined
1006,99999,Elsewhere,2025-04-02T09:00:00,1.0000,EUR,1,,11,1,Settled
1007,54265,M1,2025-04-02T09:00:00,\"1,2x\",EUR,1,,11,1,Settled
1008,54265,M1,2025-04-02T09:30:00,1.0000,EUR,1,ZZZ,99,1,Settled
";

/// Uploads `file` in parts of `part` bytes (cut anywhere, mid-row too) and previews it.
async fn upload(h: &Harness, token: &str, file: &str, mapping: &str, part: usize) -> Value {
    let made = created(
        h,
        token,
        "/api/settings/data-sources/imports/",
        json!({"file_name": "export.csv", "mapping_id": mapping}),
    )
    .await;
    assert_eq!(made["status"], "uploading");
    let id = made["id"].as_str().unwrap().to_string();
    for (n, chunk) in file.as_bytes().chunks(part).enumerate() {
        let r = put_part(h, token, &id, n, chunk.to_vec()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    }
    let r = h
        .post(
            &format!("/api/settings/data-sources/imports/{id}/preview/"),
            token,
            json!({}),
        )
        .await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    settle(h, token, &id).await
}

async fn put_part(h: &Harness, token: &str, id: &str, n: usize, bytes: Vec<u8>) -> Reply {
    let req = Request::builder()
        .method(Method::PUT)
        .uri(format!(
            "/api/settings/data-sources/imports/{id}/parts/{n}/"
        ))
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/octet-stream")
        .body(Body::from(bytes))
        .unwrap();
    h.send(req).await
}

/// Runs the queued jobs, then answers the import.
async fn settle(h: &Harness, token: &str, id: &str) -> Value {
    while vendfleet_http::jobs::work_once(&h.app).await.unwrap() {}
    let r = h
        .get(&format!("/api/settings/data-sources/imports/{id}/"), token)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"].clone()
}

async fn book(h: &Harness, token: &str, id: &str, skip: bool) -> Reply {
    h.post(
        &format!("/api/settings/data-sources/imports/{id}/book/"),
        token,
        json!({"skip_bad_rows": skip}),
    )
    .await
}

/// The machine's ledger: (event id, local day, quantity, revenue, payment).
async fn ledger(h: &Harness, machine: &str) -> Vec<(String, String, u32, i64, Payment)> {
    let mut facts: Vec<_> = h
        .app
        .sales
        .store()
        .ledger(
            machine,
            "2025-01-01".parse().unwrap(),
            "2025-12-31".parse().unwrap(),
        )
        .await
        .unwrap()
        .into_iter()
        .map(|v| {
            (
                v.event_id,
                v.at.to_rfc3339(),
                v.quantity,
                v.revenue_minor,
                v.payment,
            )
        })
        .collect();
    facts.sort_by(|a, b| a.0.cmp(&b.0));
    facts
}

async fn history_imports_book_once(b: Backend) {
    let h = Harness::on_store(b).await;
    let f = fleet(&h).await;

    // Nayax's export, in parts cut mid-row: the preview books nothing and says what it would.
    let import = upload(&h, &f.admin, NAYAX_EXPORT, "nayax", 97).await;
    assert_eq!(import["status"], "previewed", "{import}");
    let p = &import["preview"];
    assert_eq!(p["rows"], 9, "{p}");
    assert_eq!(p["sales"], 5, "{p}");
    assert_eq!(p["not_sales"], 1, "{p}");
    assert_eq!(p["bad_rows"], 1, "{p}");
    assert_eq!(p["unmatched_rows"], 2, "{p}");
    assert_eq!(p["errors"][0]["line"], 9, "{p}");
    assert_eq!(p["errors"][0]["column"], "SeValue", "{p}");
    let unmatched: Vec<(String, String)> = p["unmatched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["kind"].as_str().unwrap().into(),
                u["value"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        unmatched.contains(&("machine".into(), "99999".into())),
        "{p}"
    );
    assert!(unmatched.contains(&("product".into(), "ZZZ".into())), "{p}");
    let march = p["months"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["month"] == "2025-03")
        .unwrap();
    assert_eq!(march["vends"], 3);
    assert_eq!(march["quantity"], 4);
    assert_eq!(march["revenue_minor"], 500);
    assert_eq!(march["cashless_minor"], 500);
    assert!(ledger(&h, &f.m1).await.is_empty());

    // A file with a bad row books nothing unless its bad rows are skipped.
    let id = import["id"].as_str().unwrap().to_string();
    let r = book(&h, &f.admin, &id, false).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());
    let r = book(&h, &f.admin, &id, true).await;
    assert_eq!(r.status, StatusCode::ACCEPTED, "{}", r.json());
    let done = settle(&h, &f.admin, &id).await;
    assert_eq!(done["status"], "booked", "{done}");
    assert_eq!(done["result"]["stored"], 5, "{done}");
    assert_eq!(done["result"]["skipped"], 4, "{done}");
    let booked = ledger(&h, &f.m1).await;
    let ids: Vec<&str> = booked.iter().map(|b| b.0.as_str()).collect();
    // The feed's ids: the same transaction delivered by Nayax's queue books once.
    assert_eq!(
        ids,
        [
            "nayax-1001-1",
            "nayax-1002-1",
            "nayax-1002-2",
            "nayax-1003-1",
            "nayax-1004-1"
        ]
    );
    // Local times in the machine's zone; the repeated autumn hour is its first occurrence.
    assert_eq!(booked[0].1, "2025-03-03T09:00:00.120+00:00");
    assert_eq!(booked[4].1, "2025-10-26T00:30:00+00:00");
    assert_eq!((booked[1].2, booked[1].3), (2, 200));
    assert_eq!(booked[3].4, Payment::Cash);
    let total: i64 = booked.iter().map(|b| b.3).sum();
    assert_eq!(total, 150 + 200 + 150 + 80 + 100);
    // History moves no stock.
    let r = h
        .get(&format!("/api/machines/{}/products/", f.m1), &f.admin)
        .await;
    let text = r.json().to_string();
    assert_eq!(text.matches("\"current\":50").count(), 2, "{text}");

    // The same file again books nothing twice.
    let again = upload(&h, &f.admin, NAYAX_EXPORT, "nayax", 1 << 20).await;
    let id = again["id"].as_str().unwrap().to_string();
    assert_eq!(
        book(&h, &f.admin, &id, true).await.status,
        StatusCode::ACCEPTED
    );
    let done = settle(&h, &f.admin, &id).await;
    assert_eq!(done["result"]["stored"], 0, "{done}");
    assert_eq!(done["result"]["already"], 5, "{done}");
    assert_eq!(ledger(&h, &f.m1).await, booked);
}

/// A vendor's file through a saved mapping, the refusals and the reach (SQLite: the store's part
/// is the same as above).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mappings_refusals_and_reach() {
    let h = Harness::on_store(Backend::Sqlite).await;
    let f = fleet(&h).await;
    // A vendor's CSV through a saved mapping (`;`, decimal comma, a separate time column, no
    // transaction id: each row's fingerprint), then a file overlapping it.
    let r = h
        .post(
            "/api/settings/data-sources/mappings/",
            &f.admin,
            json!({"name": "Vendor", "columns": {"date": "Datum", "machine": "Automat"}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.json());
    let errors = r.json()["errors"].to_string();
    assert!(
        errors.contains("columns.product") && errors.contains("columns.unit_price"),
        "{errors}"
    );
    let mapping = created(
        &h,
        &f.admin,
        "/api/settings/data-sources/mappings/",
        json!({"name": "Vendor", "columns": {"date": "Datum", "time": "Zeit", "machine": "Automat",
               "product": "Artikel", "quantity": "Menge", "unit_price": "Preis", "payment": "Zahlung"},
               "date_format": "%d.%m.%Y", "decimal_separator": ",", "cash_values": ["Bar"]}),
    )
    .await;
    let mapping_id = mapping["id"].as_str().unwrap().to_string();
    let head = "Datum;Zeit;Automat;Artikel;Menge;Preis;Zahlung\n";
    let rows = [
        "01.02.2025;08:00:00;T-2;Water;1;1,20;Bar\n",
        "01.02.2025;08:00:00;T-2;Water;1;1,20;Bar\n",
        "01.02.2025;09:30:00;Kiosk Two;choc bar;2;0,90;Karte\n",
        "02.02.2025;10:00:00;T-2;WAT-050;1;1,20;Karte\n",
    ];
    let first = format!("{head}{}{}{}", rows[0], rows[1], rows[2]);
    let import = upload(&h, &f.admin, &first, &mapping_id, 40).await;
    assert_eq!(import["preview"]["sales"], 3, "{import}");
    let id = import["id"].as_str().unwrap().to_string();
    assert_eq!(
        book(&h, &f.admin, &id, false).await.status,
        StatusCode::ACCEPTED
    );
    assert_eq!(settle(&h, &f.admin, &id).await["result"]["stored"], 3);
    // Overlapping: rows 2 to 4 (row 1 and 2 are twins: the second twin is the same sale).
    let second = format!("{head}{}{}{}{}", rows[0], rows[1], rows[2], rows[3]);
    let import = upload(&h, &f.admin, &second, &mapping_id, 1 << 20).await;
    let id = import["id"].as_str().unwrap().to_string();
    assert_eq!(
        book(&h, &f.admin, &id, false).await.status,
        StatusCode::ACCEPTED
    );
    let done = settle(&h, &f.admin, &id).await;
    assert_eq!(done["result"]["stored"], 1, "{done}");
    assert_eq!(done["result"]["already"], 3, "{done}");
    let kiosk = ledger(&h, &f.m2).await;
    assert_eq!(kiosk.len(), 4);
    let cash: i64 = kiosk
        .iter()
        .filter(|k| k.4 == Payment::Cash)
        .map(|k| k.3)
        .sum();
    let cashless: i64 = kiosk
        .iter()
        .filter(|k| k.4 == Payment::Cashless)
        .map(|k| k.3)
        .sum();
    assert_eq!((cash, cashless), (240, 180 + 120));

    // A mapping changed since the preview needs a new one.
    let import = upload(&h, &f.admin, &first, &mapping_id, 1 << 20).await;
    let id = import["id"].as_str().unwrap().to_string();
    let mut changed = mapping.clone();
    for k in ["id", "created_at", "updated_at", "schema"] {
        changed.as_object_mut().unwrap().remove(k);
    }
    changed["zone"] = json!("Europe/Rome");
    let r = h
        .put(
            &format!("/api/settings/data-sources/mappings/{mapping_id}/"),
            &f.admin,
            changed,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(
        book(&h, &f.admin, &id, false).await.status,
        StatusCode::CONFLICT
    );

    // Parts: in order, at most 5 MiB, none once read.
    let fresh = created(
        &h,
        &f.admin,
        "/api/settings/data-sources/imports/",
        json!({"file_name": "x.csv", "mapping_id": "nayax"}),
    )
    .await;
    let fresh = fresh["id"].as_str().unwrap().to_string();
    assert_eq!(
        put_part(&h, &f.admin, &fresh, 1, b"x".to_vec())
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
    let big = put_part(&h, &f.admin, &fresh, 0, vec![b'x'; 5 * 1024 * 1024 + 1]).await;
    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(big.json()["message"].is_string());
    assert_eq!(
        put_part(&h, &f.admin, &id, 1, b"x".to_vec()).await.status,
        StatusCode::CONFLICT
    );
    let r = h
        .post(
            "/api/settings/data-sources/imports/",
            &f.admin,
            json!({"file_name": "x.csv", "mapping_id": "nope"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);

    // A file without the mapping's columns fails with why.
    let wrong = upload(&h, &f.admin, "a,b\n1,2\n", "nayax", 1 << 20).await;
    assert_eq!(wrong["status"], "failed", "{wrong}");
    assert!(
        wrong["error"].as_str().unwrap().contains("Machine ID"),
        "{wrong}"
    );

    // Every call is an administrator's: a user with every permission but one location's
    // machines sees and does nothing.
    let r = h
        .post(
            "/api/users/",
            &f.admin,
            json!({"name": "Scoped", "email": "scoped@example.com", "password": "password-123",
                   "access_all_modules": true, "access_all_machines": false, "location_ids": [f.location]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let scoped = h.token("scoped@example.com", "password-123").await;
    let base = "/api/settings/data-sources";
    let replies = [
        h.get(&format!("{base}/imports/"), &scoped).await,
        h.get(&format!("{base}/imports/{id}/"), &scoped).await,
        h.get(&format!("{base}/mappings/"), &scoped).await,
        h.post(&format!("{base}/imports/"), &scoped, json!({"file_name": "x.csv", "mapping_id": "nayax"}))
            .await,
        put_part(&h, &scoped, &fresh, 0, b"x".to_vec()).await,
        h.post(&format!("{base}/imports/{id}/preview/"), &scoped, json!({})).await,
        book(&h, &scoped, &id, true).await,
        h.delete(&format!("{base}/imports/{id}/"), &scoped, json!({})).await,
        h.post(&format!("{base}/mappings/"), &scoped, json!({"name": "X", "columns": {"date": "d", "machine": "m", "product": "p", "amount": "a"}}))
            .await,
        h.put(&format!("{base}/mappings/{mapping_id}/"), &scoped, json!({"name": "X", "columns": {"date": "d", "machine": "m", "product": "p", "amount": "a"}}))
            .await,
        h.delete(&format!("{base}/mappings/{mapping_id}/"), &scoped, json!({})).await,
    ];
    for r in replies {
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.json());
        let text = String::from_utf8_lossy(&r.bytes).to_string();
        assert!(
            !text.contains("Kiosk") && !text.contains("Vendor"),
            "{text}"
        );
    }
    assert_eq!(ledger(&h, &f.m2).await.len(), 4);
    // The administrator deletes an import; what it booked stays.
    let r = h
        .delete(&format!("{base}/imports/{id}/"), &f.admin, json!({}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(
        h.get(&format!("{base}/imports/{id}/"), &f.admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(ledger(&h, &f.m2).await.len(), 4);
}

on_both_stores!(history_imports_book_once);

/// A drawn row: its text; its sale of M1 as (quantity, revenue, cash) when it is one (known
/// machine and product, settled); whether its product is `ZZZ` (a sale once that SKU exists).
type Drawn = (String, Option<(u32, i64, bool)>, bool);

/// One drawn row of a Nayax export.
fn draw_row(rng: &mut rand::rngs::StdRng, tx: u64) -> Drawn {
    use rand::Rng;
    let known_machine = rng.random_bool(0.85);
    let machine = if known_machine { "54265" } else { "99999" };
    let (catalog, code, known_product) = match rng.random_range(0..5) {
        0 => ("WAT-050", "", true),
        1 => ("", "24", true),
        2 => ("", "11", true),
        3 => ("ZZZ", "", false),
        _ => ("", "99", false),
    };
    let quantity: u32 = rng.random_range(1..=3);
    let unit: i64 = rng.random_range(0..400);
    let cash = rng.random_bool(0.3);
    let settled = rng.random_bool(0.9);
    // Any day of 2025, at any minute: the changes of hour of March and October included.
    let day = chrono::NaiveDate::from_ymd_opt(2025, 1, 1).unwrap()
        + chrono::Duration::days(rng.random_range(0..365));
    let at = day
        .and_hms_opt(rng.random_range(0..24), rng.random_range(0..60), 0)
        .unwrap();
    let amount = unit * i64::from(quantity);
    let line = format!(
        "{tx},{machine},\"M, one\",{},{}.{:02}00,EUR,{},{catalog},{code},{quantity},{}",
        at.format("%Y-%m-%dT%H:%M:%S"),
        amount / 100,
        amount % 100,
        if cash { 3 } else { 1 },
        if settled { "Settled" } else { "Cancelled" },
    );
    let sale = (known_machine && settled).then_some((quantity, amount, cash));
    let zzz = catalog == "ZZZ";
    (line, sale.filter(|_| known_product), sale.is_some() && zzz)
}

/// Random exports (duplicated transactions, several products a transaction, unknown machines
/// and products, cancelled rows, blank lines, CRLF, parts cut anywhere), imported and then
/// imported again overlapping with new rows: the ledger equals the truth counted row by row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_exports_book_the_truth() {
    use rand::{Rng, SeedableRng};
    for seed in 0..3u64 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let h = Harness::on_store(Backend::Sqlite).await;
        let f = fleet(&h).await;
        let mut rows = Vec::new();
        let mut tx = 5_000_000_000u64;
        for _ in 0..rng.random_range(150..300) {
            tx += 1;
            for _ in 0..rng.random_range(1..=3) {
                rows.push(draw_row(&mut rng, tx));
            }
        }
        let head = "Transaction ID,Machine ID,Machine Name,Machine AuTime,SeValue,Currency,Payment Method ID (1),Catalog Number,Product Code in Map,Quantity,Transaction Status Name";
        let file = |rows: &[Drawn], rng: &mut rand::rngs::StdRng| {
            let eol = if rng.random_bool(0.5) { "\r\n" } else { "\n" };
            let mut text = format!("{head}{eol}");
            for (line, _, _) in rows {
                text.push_str(line);
                text.push_str(eol);
                if rng.random_bool(0.02) {
                    text.push_str(eol);
                }
            }
            text
        };
        // The truth of rows, with the rows of product ZZZ when it exists.
        let truth = |rows: &[Drawn], zzz: &[Drawn]| {
            let mut t = (0u64, 0i64, 0i64);
            let sales = rows.iter().filter_map(|r| r.1.as_ref());
            let linked = zzz.iter().filter(|r| r.2).map(|r| {
                let f = r.0.split(',').collect::<Vec<_>>();
                let q: u32 = f[10].parse().unwrap();
                let amount: i64 = f[5].replace('.', "").parse::<i64>().unwrap() / 100;
                (q, amount, f[7] == "3")
            });
            let linked: Vec<_> = linked.collect();
            for (q, amount, cash) in sales.chain(linked.iter()) {
                {
                    t.0 += u64::from(*q);
                    if *cash {
                        t.1 += amount;
                    } else {
                        t.2 += amount;
                    }
                }
            }
            t
        };
        let booked = |facts: Vec<(String, String, u32, i64, Payment)>| {
            let mut t = (0u64, 0i64, 0i64);
            for (_, _, q, revenue, payment) in facts {
                t.0 += u64::from(q);
                match payment {
                    Payment::Cash => t.1 += revenue,
                    Payment::Cashless => t.2 += revenue,
                }
            }
            t
        };
        let first = rows.len() * 2 / 3;
        let text = file(&rows[..first], &mut rng);
        let part = rng.random_range(7..400);
        let import = upload(&h, &f.admin, &text, "nayax", part).await;
        let expected = rows[..first].iter().filter(|r| r.1.is_some()).count();
        assert_eq!(import["preview"]["sales"], expected, "seed {seed}");
        assert_eq!(import["preview"]["bad_rows"], 0, "seed {seed}");
        let id = import["id"].as_str().unwrap().to_string();
        assert_eq!(
            book(&h, &f.admin, &id, false).await.status,
            StatusCode::ACCEPTED
        );
        settle(&h, &f.admin, &id).await;
        assert_eq!(
            booked(ledger(&h, &f.m1).await),
            truth(&rows[..first], &[]),
            "seed {seed}"
        );
        // Product ZZZ comes to be; then a file overlapping the first (from a third of its rows to
        // the end, the rest new): ZZZ's rows are booked, every other row once.
        create(
            &h,
            &f.admin,
            "/api/products/",
            json!({"name": "Zed", "sku": "ZZZ", "price_minor": 100, "vat_bps": 550}),
        )
        .await;
        let text = file(&rows[first / 2..], &mut rng);
        let import = upload(&h, &f.admin, &text, "nayax", rng.random_range(7..400)).await;
        let id = import["id"].as_str().unwrap().to_string();
        assert_eq!(
            book(&h, &f.admin, &id, false).await.status,
            StatusCode::ACCEPTED
        );
        let done = settle(&h, &f.admin, &id).await;
        let again = rows[first / 2..first]
            .iter()
            .filter(|r| r.1.is_some())
            .count();
        assert_eq!(done["result"]["already"], again, "seed {seed}");
        assert_eq!(
            booked(ledger(&h, &f.m1).await),
            truth(&rows, &rows[first / 2..]),
            "seed {seed}"
        );
    }
}
