//! The functions as Lambda runs them: each binary (the ones `make lambdas` builds for arm64, here
//! built natively by `cargo test`) is started as its own process against cargo-lambda's Lambda
//! runtime API emulator (`cargo lambda watch --only-lambda-apis`), with the environment the
//! template gives it pointed at moto, and invoked through the emulator's invoke endpoint with
//! API Gateway HTTP API (v2) and SQS events. The API functions answer what their routers answer
//! in-process; the workers report partial batch failures; the mail feedback function records
//! an SES bounce on its task.
//!
//! cargo-lambda comes from `.venv-lambda` (`infra/cargo-lambda.sh`, which `make test` runs
//! first) or `VENDFLEET_CARGO_LAMBDA`; the test fails, never skips, without it.

use aws_lambda_events::event::sqs::{SqsEvent, SqsMessage};
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use vendfleet_adapters_aws::{sdk_config, sqs_client, AwsAdapters, SqsJobQueue};
use vendfleet_app::config::Secret;
use vendfleet_app::jobs::{JobStatus, NewJob};
use vendfleet_app::ports::JobQueue;
use vendfleet_domain::events::{sign, SIGNATURE_HEADER, TIMESTAMP_HEADER};

use crate::common::event;

const SECRET: &str = "emulator-test-secret-emulator-test-secret";

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cargo_lambda() -> PathBuf {
    let path = std::env::var_os("VENDFLEET_CARGO_LAMBDA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join(".venv-lambda/bin/cargo-lambda"));
    assert!(
        path.exists(),
        "{} is missing: run infra/cargo-lambda.sh --version (make test does)",
        path.display()
    );
    path
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The emulator and the function processes started against it; all stopped on drop.
struct Emulator {
    port: u16,
    processes: Vec<Child>,
    env: Vec<(String, String)>,
}

impl Drop for Emulator {
    fn drop(&mut self) {
        for p in &mut self.processes {
            let _ = p.kill();
            let _ = p.wait();
        }
    }
}

impl Emulator {
    /// Starts `cargo lambda watch --only-lambda-apis` on a free port and waits for it.
    fn start(env: Vec<(String, String)>) -> Self {
        let port = free_port();
        let child = Command::new(cargo_lambda())
            .args(["lambda", "watch", "--only-lambda-apis", "--quiet"])
            .args(["--invoke-address", "127.0.0.1", "--invoke-port"])
            .arg(port.to_string())
            .current_dir(workspace())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cargo lambda watch starts");
        let emulator = Emulator {
            port,
            processes: vec![child],
            env,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the emulator did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        emulator
    }

    /// Starts a function binary against the emulator's runtime API, with the template's
    /// environment (Globals) and Lambda's own variables.
    fn function(&mut self, binary: &str) {
        let runtime_api = format!("http://127.0.0.1:{}/.rt/{binary}", self.port);
        let child = crate::common::lambda_process(binary, &runtime_api, &self.env)
            .spawn()
            .unwrap_or_else(|e| panic!("{binary} starts: {e}"));
        self.processes.push(child);
    }

    /// Invokes a function through the emulator (`POST /2015-03-31/functions/NAME/invocations`).
    fn invoke(&self, binary: &str, event: &Value) -> Value {
        let url = format!(
            "http://127.0.0.1:{}/2015-03-31/functions/{binary}/invocations",
            self.port
        );
        ureq::post(&url)
            .timeout(Duration::from_secs(60))
            .send_json(event)
            .unwrap_or_else(|e| panic!("invoking {binary}: {e}"))
            .into_json()
            .unwrap()
    }
}

/// An API Gateway answer's status and JSON body.
fn reply(res: &Value) -> (u64, Value) {
    (
        res["statusCode"].as_u64().unwrap(),
        serde_json::from_str(res["body"].as_str().unwrap_or("null")).unwrap_or(Value::Null),
    )
}

fn sqs_event(messages: Vec<(&str, Option<String>, String)>) -> Value {
    let mut e = SqsEvent::default();
    e.records = messages
        .into_iter()
        .map(|(id, receipt, body)| {
            let mut m = SqsMessage::default();
            m.message_id = Some(id.into());
            m.receipt_handle = receipt;
            m.body = Some(body);
            m.event_source = Some("aws:sqs".into());
            m
        })
        .collect();
    serde_json::to_value(e).unwrap()
}

fn failures(res: &Value) -> Vec<String> {
    res["batchItemFailures"]
        .as_array()
        .unwrap_or_else(|| panic!("a batch response: {res}"))
        .iter()
        .map(|f| f["itemIdentifier"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_function_runs_under_the_lambda_runtime_emulator() {
    let endpoint = std::env::var("VENDFLEET_TEST_AWS_ENDPOINT").expect(
        "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make test",
    );
    let sdk = sdk_config(Some(&endpoint)).await;
    let name = format!("emu-{}", ulid::Ulid::new().to_string().to_lowercase());
    let (config, mut env) = crate::common::moto_stack(&sdk, &endpoint, &name).await;
    env.push(("VENDFLEET_JWT_SECRET".into(), SECRET.into()));
    let adapters = AwsAdapters::new(&config, &sdk);
    let app = vendfleet_lambdas::app(&adapters, Secret::new(SECRET)).unwrap();

    // The fleet: an admin, a product, a machine with one selection.
    app.auth
        .ensure_admin("admin@emulator.test", "emulator-password-1")
        .await
        .unwrap();
    let admin = app
        .users
        .directory()
        .user_by_email("admin@emulator.test")
        .await
        .unwrap()
        .unwrap();
    let p = app.auth.principal(admin).await.unwrap();
    let machine = crate::common::machine_selling_cola(&app, &p, "Lobby").await;

    let mut emulator = Emulator::start(env);
    for (binary, _) in vendfleet_lambdas::API_FUNCTIONS {
        emulator.function(binary);
    }
    emulator.function("events-worker");
    emulator.function("jobs-worker");
    emulator.function("mail-feedback");

    // Sign-in through the auth function.
    let login = json!({"email": "admin@emulator.test", "password": "emulator-password-1"});
    let (status, body) = reply(&emulator.invoke(
        "auth",
        &event("POST", "/auth/token/", "", Some(login), None),
    ));
    assert_eq!(status, 200, "{body}");
    let token = body["data"]["token"]["access"]
        .as_str()
        .unwrap()
        .to_string();
    let t = Some(token.as_str());

    // One read per API function, as the distribution sends it (trailing "/" off, marked) and as
    // written: the binary under the runtime answers what its router answers in-process.
    let reads = [
        ("auth", "/api/users/me/", ""),
        ("users", "/api/users/", "ordering=email"),
        ("settings", "/api/clients/", ""),
        ("filters", "/api/filters/roles/modules/", "lang=it"),
        ("machines", "/api/machines/", ""),
        ("products", "/api/products/", ""),
        (
            "sales",
            "/api/sales-journal/total-table/",
            "date_from=2026-11-01&date_to=2026-11-22&group_by=machine",
        ),
        ("reports", "/api/reports/generator/templates/", ""),
        ("planning", "/api/planned-routes/", ""),
    ];
    let app_for = |binary: &str| {
        let area = vendfleet_lambdas::area_of(binary).unwrap();
        vendfleet_lambdas::service(area, app.clone())
    };
    for (binary, path, query) in reads {
        let router = app_for(binary);
        for e in [
            event("GET", path, query, None, t),
            crate::common::through_distribution(event("GET", path, query, None, t)),
        ] {
            let (status, body) = reply(&emulator.invoke(binary, &e));
            assert_eq!(status, 200, "{binary} GET {path}: {body}");
            let expected = reply(&crate::common::in_process(&router, e.clone()).await);
            assert_eq!((status, body), expected, "{binary} GET {path}");
        }
    }
    let (status, _) =
        reply(&emulator.invoke("settings", &event("GET", "/api/users/", "", None, t)));
    assert_eq!(status, 404, "the settings function does not serve users");

    // The webhook: signed events go to the events queue.
    let secret = app
        .machines
        .machines()
        .get(&machine.id)
        .await
        .unwrap()
        .unwrap()
        .webhook_secret;
    let at = "2026-11-20T10:00:00Z";
    let events = json!({"events": [
        {"id": "e1", "type": "vend", "at": at, "selection": "C1", "price_minor": 200, "quantity": 2, "payment": "cash"},
    ]})
    .to_string();
    // The function checks the timestamp against its own (real) clock.
    let ts = chrono::Utc::now().timestamp();
    let mut hook = event(
        "POST",
        &format!("/webhooks/machines/{}/events", machine.id),
        "",
        None,
        None,
    );
    hook["body"] = json!(events);
    hook["headers"]["content-type"] = json!("application/json");
    hook["headers"][TIMESTAMP_HEADER] = json!(ts.to_string());
    hook["headers"][SIGNATURE_HEADER] = json!(sign(secret.as_bytes(), ts, events.as_bytes()));
    let (status, body) = reply(&emulator.invoke("events", &hook));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["accepted"], 1, "{body}");

    // The events worker applies the queued message and reports the broken one alone.
    let (events_url, events_dlq) = config.events_queue.clone().unwrap();
    let events_queue = SqsJobQueue::new(sqs_client(&sdk), events_url, events_dlq);
    let queued = events_queue
        .claim(Duration::from_secs(30))
        .await
        .unwrap()
        .expect("the webhook queued the events");
    let res = emulator.invoke(
        "events-worker",
        &sqs_event(vec![
            ("m-1", Some(queued.receipt.clone()), queued.payload.clone()),
            ("m-2", None, "not events".into()),
        ]),
    );
    assert_eq!(failures(&res), ["m-2"]);
    let ctx = app
        .machines
        .intake_context(&machine.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(ctx.selections[0].current, 18, "two sold from 20");

    // The export worker runs a queued export and reports the broken message alone.
    let table = vendfleet_http::kit::export::ExportJob {
        table: vendfleet_http::kit::export::Table {
            sheet: "Users".into(),
            header: vec!["Name".into()],
            rows: vec![vec!["Ada".to_string().into()]],
        },
        format: vendfleet_http::kit::export::Format::Csv,
        lang: vendfleet_domain::Language::En,
    };
    let job = app
        .jobs
        .submit(
            &p,
            NewJob {
                kind: "export".into(),
                file_name: "users.csv".into(),
                content_type: vendfleet_http::kit::export::CSV_TYPE.into(),
                total: 1,
                input: serde_json::to_vec(&table).unwrap(),
            },
        )
        .await
        .unwrap();
    let jobs_queue = SqsJobQueue::new(
        sqs_client(&sdk),
        config.queue_url.clone(),
        config.dead_letter_queue_url.clone(),
    );
    let queued = jobs_queue
        .claim(Duration::from_secs(30))
        .await
        .unwrap()
        .expect("the export was queued");
    let res = emulator.invoke(
        "jobs-worker",
        &sqs_event(vec![
            ("j-1", Some(queued.receipt.clone()), queued.payload.clone()),
            ("j-2", None, "not a job".into()),
        ]),
    );
    assert_eq!(failures(&res), ["j-2"]);
    let (record, _) = app.jobs.get(&p, &job.id).await.unwrap();
    assert_eq!(record.status, JobStatus::Done);

    // The mail feedback function records an SES bounce (an EventBridge event) on its task (to
    // an address of a domain the operator allows).
    let policy = json!({"mail_domains": ["example.com"], "min_task_interval_minutes": 15});
    let (status, body) = reply(&emulator.invoke(
        "settings",
        &event("PUT", "/api/settings/operator/", "", Some(policy), t),
    ));
    assert_eq!(status, 200, "{body}");
    let task = json!({
        "name": "Weekly", "module": "sales_overview", "format": "xlsx", "graph": "bar",
        "params": {"period": "previous_week", "group_by": "machine", "grouping_period": "day"},
        "cron": {"minute": "0", "hour": "7", "day_of_month": "*", "month": "*", "day_of_week": "*"},
        "time_zone": "Europe/Paris", "recipients": {"emails": ["gone@example.com"]},
    });
    let (status, body) = reply(&emulator.invoke(
        "settings",
        &event("POST", "/api/query-schedulers/", "", Some(task), t),
    ));
    assert_eq!(status, 201, "{body}");
    let task_id = body["data"]["id"].as_str().unwrap().to_string();
    let bounce = json!({
        "version": "0", "id": "e1", "detail-type": "Email Bounced", "source": "aws.ses",
        "account": "123456789012", "time": "2026-11-23T08:00:00Z", "region": "us-east-1",
        "resources": [],
        "detail": {"eventType": "Bounce",
            "mail": {"messageId": "0100-x", "destination": ["gone@example.com"],
                     "tags": {"vendfleet-task": [task_id.clone()]}},
            "bounce": {"bounceType": "Permanent", "bounceSubType": "NoEmail",
                "bouncedRecipients": [{"emailAddress": "gone@example.com",
                                       "diagnosticCode": "smtp; 550 5.1.1 user unknown"}]}},
    });
    assert_eq!(
        emulator.invoke("mail-feedback", &bounce),
        json!({"recorded": 1})
    );
    let (status, body) = reply(&emulator.invoke(
        "settings",
        &event(
            "GET",
            &format!("/api/query-schedulers/{task_id}/"),
            "",
            None,
            t,
        ),
    ));
    assert_eq!(status, 200, "{body}");
    let last = &body["data"]["deliveries"][0];
    assert_eq!(
        (last["recipient"].as_str(), last["status"].as_str()),
        (Some("gone@example.com"), Some("bounced")),
        "{body}"
    );
}
