//! The Lambda path without deploying: real API Gateway HTTP API (v2) events through
//! `lambda_http`'s adapter into each area's service, on DynamoDB in moto.

use base64::Engine;
use serde_json::{json, Value};
use vendfleet_adapters_aws::{create_table, sdk_config, AwsAdapters, AwsConfig};
use vendfleet_app::config::Secret;
use vendfleet_http::Area;

use crate::common::event;

const SECRET: &str = "lambda-test-secret-lambda-test-secret";

async fn adapters() -> AwsAdapters {
    let endpoint = std::env::var("VENDFLEET_TEST_AWS_ENDPOINT").expect(
        "VENDFLEET_TEST_AWS_ENDPOINT is not set: run through infra/with-moto.sh or make test",
    );
    let sdk = sdk_config(Some(&endpoint)).await;
    let table = format!("lambda-{}", ulid::Ulid::new().to_string().to_lowercase());
    create_table(&vendfleet_adapters_aws::dynamodb_client(&sdk), &table)
        .await
        .unwrap();
    let config = AwsConfig {
        table,
        bucket: "unused".into(),
        queue_url: "unused".into(),
        dead_letter_queue_url: "unused".into(),
        events_queue: None,
        endpoint_url: Some(endpoint),
        schedules: None,
        mail_from: "reports@example.com".into(),
        ses_configuration_set: None,
        // A table made for the test: every vend written with the packed items.
        packed_reads: true,
    };
    AwsAdapters::new(&config, &sdk)
}

struct Lambda {
    router: axum::Router,
}

impl Lambda {
    fn new(area: Area, adapters: &AwsAdapters) -> Self {
        let app = vendfleet_lambdas::app(adapters, Secret::new(SECRET)).unwrap();
        Lambda {
            router: vendfleet_lambdas::service(area, app),
        }
    }

    /// Invokes the function with an event; answers the API Gateway response as JSON.
    async fn invoke(&self, event: Value) -> Value {
        crate::common::in_process(&self.router, event).await
    }

    async fn json(&self, event: Value) -> (u16, Value) {
        let res = self.invoke(event).await;
        let status = res["statusCode"].as_u64().unwrap() as u16;
        let body = res["body"].as_str().unwrap_or("");
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }
}

#[tokio::test]
async fn auth_lambda_signs_in_and_checks_tokens() {
    let adapters = adapters().await;
    let auth = Lambda::new(Area::Auth, &adapters);
    let app = vendfleet_lambdas::app(&adapters, Secret::new(SECRET)).unwrap();
    app.auth
        .ensure_admin("admin@example.com", "admin-password-1")
        .await
        .unwrap();

    let recorded: Value = serde_json::from_str(include_str!("events/login.json")).unwrap();
    let (status, body) = auth.json(recorded).await;
    assert_eq!(status, 200, "{body}");
    let token = body["data"]["token"]["access"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(body["data"]["user"]["email"], "admin@example.com");

    let (status, me) = auth
        .json(event("GET", "/api/users/me/", "", None, Some(&token)))
        .await;
    assert_eq!(status, 200);
    assert_eq!(me["data"]["module"]["access_all_modules"], true);

    let bad = json!({"email": "admin@example.com", "password": "wrong-password"});
    let (status, body) = auth
        .json(event("POST", "/auth/token/", "", Some(bad), None))
        .await;
    assert_eq!(status, 401);
    assert_eq!(body["message"], "Invalid e-mail or password");

    let (status, _) = auth
        .json(event("GET", "/api/users/me/", "", None, Some("x.y.z")))
        .await;
    assert_eq!(status, 401);
    let (status, body) = auth
        .json(event("GET", "/api/users/", "", None, Some(&token)))
        .await;
    assert_eq!(
        status, 404,
        "the auth function does not serve the users area"
    );
    assert_eq!(body["message"], "No such endpoint");
    let (status, body) = auth
        .json(event(
            "POST",
            "/api/settings/languges/switch/",
            "",
            Some(json!({"language": "it"})),
            Some(&token),
        ))
        .await;
    assert_eq!(
        (status, body["data"]["language"].as_str()),
        (200, Some("it"))
    );
}

#[tokio::test]
async fn users_lambda_manages_users_and_roles() {
    let adapters = adapters().await;
    let users = Lambda::new(Area::Users, &adapters);
    let app = vendfleet_lambdas::app(&adapters, Secret::new(SECRET)).unwrap();
    app.auth
        .ensure_admin("admin@example.com", "admin-password-1")
        .await
        .unwrap();
    let (tokens, _) = app
        .auth
        .login("admin@example.com", "admin-password-1", "test")
        .await
        .unwrap();
    let t = Some(tokens.access.as_str());

    let role = json!({"name": "Refillers", "modules": ["reports.refill_log.list"]});
    let (status, body) = users
        .json(event("POST", "/api/users/roles/", "", Some(role), t))
        .await;
    assert_eq!(status, 201);
    assert_eq!(body["message"], "Role created successfully");
    let role_id = body["data"]["id"].as_str().unwrap().to_string();

    let form = json!({"name": "Luca Bianchi", "email": "luca@example.com", "password": "password-123", "role_id": role_id});
    let (status, body) = users
        .json(event("POST", "/api/users/", "", Some(form.clone()), t))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["message"], "User created");
    let (status, body) = users
        .json(event("POST", "/api/users/", "", Some(form), t))
        .await;
    assert_eq!(status, 409, "{body}");

    let (status, body) = users
        .json(event(
            "GET",
            "/api/users/",
            "page=1&page_size=1&ordering=email&search=example",
            None,
            t,
        ))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["pagination"]["count"], 2);
    assert_eq!(body["data"][0]["email"], "admin@example.com");

    let (status, body) = users
        .json(event(
            "DELETE",
            "/api/users/roles/",
            "",
            Some(json!({"role_ids": [role_id]})),
            t,
        ))
        .await;
    assert_eq!(status, 409);
    assert!(body["message"]
        .as_str()
        .unwrap()
        .contains("luca@example.com"));

    let res = users
        .invoke(event("GET", "/api/users/export/", "format=xlsx", None, t))
        .await;
    assert_eq!(res["statusCode"], 200);
    assert_eq!(
        res["isBase64Encoded"], true,
        "binary bodies go back base64-encoded"
    );
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(res["body"].as_str().unwrap())
        .unwrap();
    assert_eq!(&bytes[..2], b"PK", "an XLSX file is a zip");

    let filters = Lambda::new(Area::Filters, &adapters);
    let (status, body) = filters
        .json(event(
            "GET",
            "/api/filters/roles/modules/",
            "lang=fr",
            None,
            t,
        ))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"][0]["name"], "Planification");
    let (status, _) = users
        .json(event("GET", "/api/users/", "", None, None))
        .await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn settings_and_filters_lambdas_manage_the_fleet_settings() {
    let adapters = adapters().await;
    let settings = Lambda::new(Area::Settings, &adapters);
    let filters = Lambda::new(Area::Filters, &adapters);
    let app = vendfleet_lambdas::app(&adapters, Secret::new(SECRET)).unwrap();
    app.auth
        .ensure_admin("admin@example.com", "admin-password-1")
        .await
        .unwrap();
    let (tokens, _) = app
        .auth
        .login("admin@example.com", "admin-password-1", "test")
        .await
        .unwrap();
    let t = Some(tokens.access.as_str());

    let (status, body) = settings
        .json(event(
            "POST",
            "/api/clients/",
            "",
            Some(json!({"name": "Acme"})),
            t,
        ))
        .await;
    assert_eq!(status, 201, "{body}");
    let client = body["data"]["id"].as_str().unwrap().to_string();
    let loc = json!({"name": "Lobby", "client_id": client, "time_zone": "Europe/Paris", "type": "Office"});
    let (status, body) = settings
        .json(event("POST", "/api/locations/", "", Some(loc), t))
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["data"]["client_name"], "Acme");
    let (status, body) = settings
        .json(event(
            "GET",
            "/api/locations/",
            &format!("client={client}"),
            None,
            t,
        ))
        .await;
    assert_eq!(
        (status, body["pagination"]["count"].as_u64()),
        (200, Some(1))
    );
    // Through the web distribution: its CloudFront function took the trailing "/" off (API
    // Gateway's route is `ANY /api/locations`) and marked the request; the query string stays.
    let through_cdn = crate::common::through_distribution(event(
        "GET",
        "/api/locations/",
        &format!("client={client}"),
        None,
        t,
    ));
    let (status, body) = settings.json(through_cdn).await;
    assert_eq!(
        (status, body["pagination"]["count"].as_u64()),
        (200, Some(1)),
        "{body}"
    );
    let (status, _) = settings
        .json(event("GET", "/api/locations", "", None, t))
        .await;
    assert_eq!(status, 404, "unmarked, the path is taken as it is");
    let (status, body) = settings
        .json(event(
            "POST",
            "/api/locations/",
            "",
            Some(json!({"name": "X", "time_zone": "Nowhere/City"})),
            t,
        ))
        .await;
    assert_eq!(status, 400);
    assert!(body["errors"]["time_zone"].is_array());

    let (status, body) = filters
        .json(event("GET", "/api/filters/clients/", "", None, t))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"][0]["name"], "Acme");
    let (status, body) = filters
        .json(event("GET", "/api/filters/locations/types/", "", None, t))
        .await;
    assert_eq!((status, body["data"].clone()), (200, json!(["Office"])));
    let (status, _) = filters
        .json(event("GET", "/api/clients/", "", None, t))
        .await;
    assert_eq!(status, 404, "the filters function serves only filters");
}
