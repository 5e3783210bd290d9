//! Machines read by EVA-DTS audits, for the tests: a machine with a planogram, signed webhook
//! posts, what the sales store booked, and real-shaped audit files rendered from counters.

use super::{Harness, Reply};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use chrono::Duration;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use vendfleet_app::ports::{Clock, Grain, RollupQuery};
use vendfleet_domain::events::{sign, SIGNATURE_HEADER, TIMESTAMP_HEADER};
use vendfleet_domain::sales::Figures;

/// A machine and its webhook secret.
#[derive(Debug, Clone)]
pub struct TestMachine {
    pub id: String,
    pub secret: String,
}

/// A machine (`sales_source` `audit` or `events`) with one product in every selection, each at
/// its price with `stock` units.
pub async fn machine_with(
    h: &Harness,
    admin: &str,
    source: &str,
    selections: &[(&str, i64)],
    stock: i64,
) -> TestMachine {
    let n = ulid::Ulid::new().to_string();
    let r = h
        .post(
            "/api/products/",
            admin,
            json!({"name": format!("Product {n}"), "sku": n, "price_minor": 150,
                   "vat_bps": 2000, "units": "pcs"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let product = r.json()["data"]["id"].clone();
    let r = h
        .post(
            "/api/machines/",
            admin,
            json!({"name": format!("Machine {n}"), "sales_source": source}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    for (code, price) in selections {
        let r = h
            .post(
                "/api/machines/products/",
                admin,
                json!({"machine_id": id, "selection": code, "product_id": product,
                       "max": stock.max(500), "price_minor": price, "current": stock}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    }
    let secret = webhook_secret(h, &id).await;
    TestMachine { id, secret }
}

/// Posts `{"events": events}` to the machine's webhook, signed now.
pub async fn post_events(h: &Harness, m: &TestMachine, events: Value) -> Reply {
    let body = json!({ "events": events }).to_string();
    let ts = h.clock.now().timestamp();
    let req = Request::builder()
        .method(Method::POST)
        .uri(format!("/webhooks/machines/{}/events", m.id))
        .header(TIMESTAMP_HEADER, ts.to_string())
        .header(
            SIGNATURE_HEADER,
            sign(m.secret.as_bytes(), ts, body.as_bytes()),
        )
        .body(Body::from(body))
        .unwrap();
    h.send(req).await
}

/// A `dex` event.
pub fn dex_event(id: &str, at: chrono::DateTime<chrono::Utc>, content: &str) -> Value {
    json!({"id": id, "type": "dex", "at": at.to_rfc3339(), "content": content})
}

/// What the sales store booked for the machine, over the 40 days around today.
pub async fn booked(h: &Harness, machine_id: &str) -> Figures {
    let today = h.app.calendar.today();
    let rows = h
        .app
        .sales
        .store()
        .rollups(&RollupQuery {
            machine_ids: vec![machine_id.to_string()],
            from: today - Duration::days(30),
            to: today + Duration::days(10),
            grain: Grain::Day,
        })
        .await
        .unwrap();
    let mut f = Figures::default();
    for r in &rows {
        f.add(&r.figures);
    }
    f
}

/// Each selection's stock.
pub async fn stock(h: &Harness, admin: &str, machine_id: &str) -> BTreeMap<String, i64> {
    let r = h
        .get(&format!("/api/machines/{machine_id}/products/"), admin)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["selection"].as_str().unwrap().to_string(),
                x["current"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The machine's audit reads, newest first, as the API gives them.
pub async fn audit_list(h: &Harness, admin: &str, machine_id: &str) -> Vec<Value> {
    let r = h
        .get(&format!("/api/machines/{machine_id}/audits/"), admin)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    r.json()["data"].as_array().unwrap().clone()
}

/// One selection's counters since initialisation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectionCounters {
    pub id: String,
    pub price: u64,
    pub cash: u64,
    pub cashless: u64,
    pub test: u64,
    pub free: u64,
    /// Whether the audit has the selection's `PA7` payment-device lines.
    pub pa7: bool,
}

/// The counters of a machine as its audit writes them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditFile {
    pub serial: String,
    /// `EA301` and `EA308`: reads since initialisation.
    pub reads: u64,
    pub selections: Vec<SelectionCounters>,
    /// `CA1002`: coins put into the tubes by hand since initialisation, when written.
    pub manual_fill: Option<u64>,
}

impl AuditFile {
    /// The segments from `ST` to the one before `G85`, as a machine of the kind the tests
    /// meet writes them: `ID1`, `ID4`, `VA1`–`VA3`, `CA2`, `DA2`, then per selection `PA1`–`PA4`
    /// (and `PA7` cash and cashless where it has them), then `EA3`.
    fn segments(&self) -> Vec<String> {
        let s = &self.selections;
        let sum = |f: &dyn Fn(&SelectionCounters) -> u64| -> u64 { s.iter().map(f).sum() };
        let paid = sum(&|c| c.cash + c.cashless);
        let value = sum(&|c| (c.cash + c.cashless) * c.price);
        let mut out = vec![
            "ST*001*0001".to_string(),
            format!("ID1*{}*SV-72*1204*Bureau 3F**A-0042", self.serial),
            "ID4*2*1978".into(),
            format!("VA1*{value}*{paid}*0*0"),
            format!("VA2*0*{}*0*0", sum(&|c| c.test)),
            format!("VA3*0*{}*0*0", sum(&|c| c.free)),
            format!(
                "CA2*{}*{}*0*0",
                sum(&|c| c.cash * c.price),
                sum(&|c| c.cash)
            ),
            format!(
                "DA2*{}*{}*0*0",
                sum(&|c| c.cashless * c.price),
                sum(&|c| c.cashless)
            ),
        ];
        if let Some(filled) = self.manual_fill {
            out.push(format!("CA10*0*{filled}"));
        }
        for c in s {
            let paid = c.cash + c.cashless;
            out.push(format!("PA1*{}*{}*Product {}*24", c.id, c.price, c.id));
            out.push(format!("PA2*{paid}*{}*0*0", paid * c.price));
            out.push(format!("PA3*{}*0*0*0", c.test));
            out.push(format!("PA4*{}*0*0*0", c.free));
            if c.pa7 {
                out.push(format!(
                    "PA7*{}*CA*0*{}*{}*{}*0*0",
                    c.id,
                    c.price,
                    c.cash,
                    c.cash * c.price
                ));
                out.push(format!(
                    "PA7*{}*DA*0*{}*{}*{}*0*0",
                    c.id,
                    c.price,
                    c.cashless,
                    c.cashless * c.price
                ));
            }
        }
        out.push(format!(
            "EA3*{}*261122*1200**261121*1200**{}",
            self.reads, self.reads
        ));
        out
    }

    /// The whole file with CR LF line ends and its `G85`.
    pub fn render(&self) -> String {
        let segments = self.segments();
        let mut body = String::new();
        for s in &segments {
            body.push_str(s);
            body.push_str("\r\n");
        }
        let crc = vendfleet_domain::dex::crc16_arc(body.as_bytes());
        format!(
            "DXS*9252131001*VA*V1/1*1\r\n{body}G85*{crc:04X}\r\nSE*{}*0001\r\nDXE*1*1\r\n",
            segments.len() + 2
        )
    }
}

/// The file with its CR LF line ends turned into `ends`, as a text tool does after the checksum.
pub fn with_line_ends(text: &str, ends: &str) -> String {
    text.replace("\r\n", ends)
}

/// The file cut off inside selection `id`'s `PA1` (no `G85`, `SE` or `DXE`).
pub fn cut_inside(text: &str, id: &str) -> String {
    let at = text
        .find(&format!("PA1*{id}*"))
        .expect("the selection is in the file");
    text[..at + 6 + id.len()].to_string()
}

/// Accepts or rejects (`decision`: `accept`, `reject`) a held audit read, as `token`.
pub async fn review(
    h: &Harness,
    token: &str,
    machine_id: &str,
    read_id: &str,
    decision: &str,
) -> Reply {
    h.post(
        &format!("/api/machines/{machine_id}/audits/{read_id}/{decision}/"),
        token,
        json!({}),
    )
    .await
}

/// Delivers `events` as a machine on a flaky link does: each once or more (three in ten
/// twice), in any order, in batches of 1 to `max`; every batch is answered 200 with nothing
/// rejected.
pub async fn deliver_shuffled(
    h: &Harness,
    m: &TestMachine,
    events: &[Value],
    rng: &mut rand::rngs::StdRng,
    max: usize,
) {
    use rand::seq::SliceRandom;
    use rand::Rng;
    let mut deliveries: Vec<Value> = events.to_vec();
    for e in events {
        if rng.random_bool(0.3) {
            deliveries.push(e.clone());
        }
    }
    deliveries.shuffle(rng);
    let mut rest = deliveries.as_slice();
    while !rest.is_empty() {
        let take = rng.random_range(1..=max).min(rest.len());
        let r = post_events(h, m, Value::from(rest[..take].to_vec())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        assert!(
            r.json()["data"]["rejected"].as_array().unwrap().is_empty(),
            "{}",
            r.json()
        );
        rest = &rest[take..];
    }
}

/// The machine's webhook secret.
pub async fn webhook_secret(h: &Harness, machine_id: &str) -> String {
    h.app
        .machines
        .machines()
        .get(machine_id)
        .await
        .unwrap()
        .unwrap()
        .webhook_secret
}
