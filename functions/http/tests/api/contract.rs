//! The OpenAPI document as a contract, checked against the real router: bodies refuse unknown
//! fields, every operation documents the error answers it can give (and the permission ones
//! exactly), error answers are JSON (405 included), exports declare what they send.

use crate::common::*;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

fn doc() -> Value {
    serde_json::to_value(vendfleet_http::openapi()).unwrap()
}

/// Every (method, path, operation) of the document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut v = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            v.push((method.to_uppercase(), path.clone(), op.clone()));
        }
    }
    v
}

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// Every object schema reachable from `schema` refuses unknown properties.
fn assert_closed(doc: &Value, schema: &Value, at: &str) {
    let s = resolve(doc, schema);
    if let Some(props) = s["properties"].as_object() {
        assert_eq!(
            s["additionalProperties"],
            json!(false),
            "{at} accepts unknown fields: {s}"
        );
        for (name, p) in props {
            assert_closed(doc, p, &format!("{at}.{name}"));
        }
    }
    if s.get("items").is_some() {
        assert_closed(doc, &s["items"], &format!("{at}[]"));
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        for (i, sub) in s[key].as_array().into_iter().flatten().enumerate() {
            assert_closed(doc, sub, &format!("{at}/{key}{i}"));
        }
    }
}

#[test]
fn every_request_body_refuses_unknown_fields_in_the_document() {
    let d = doc();
    let mut bodies = 0;
    for (method, path, op) in operations(&d) {
        if let Some(content) = op["requestBody"]["content"].as_object() {
            for (ctype, c) in content {
                // A file's raw bytes (a history import's part) have no fields.
                if ctype == "application/octet-stream" && path.ends_with("/parts/{n}/") {
                    continue;
                }
                assert_eq!(ctype, "application/json", "{method} {path}");
                assert_closed(&d, &c["schema"], &format!("{method} {path}"));
                bodies += 1;
            }
        }
    }
    assert!(bodies > 30, "only {bodies} request bodies found");
}

#[test]
fn every_operation_documents_its_error_answers() {
    let d = doc();
    for (method, path, op) in operations(&d) {
        let has = |status: &str| op["responses"].get(status).is_some();
        let at = format!("{method} {path}");
        if op["security"].as_array().is_some_and(|s| !s.is_empty()) {
            assert!(has("401"), "{at} lacks 401");
        }
        if op.get("requestBody").is_some() {
            for s in ["400", "413", "415"] {
                assert!(has(s), "{at} lacks {s}");
            }
        }
        let has_query = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["in"] == "query");
        if has_query {
            assert!(has("400"), "{at} lacks 400");
        }
        if path.contains('{') {
            assert!(has("404"), "{at} lacks 404");
        }
        for (status, r) in op["responses"].as_object().unwrap() {
            if status.starts_with('4') {
                let r = match r["$ref"].as_str() {
                    Some(name) => {
                        &d["components"]["responses"]
                            [name.trim_start_matches("#/components/responses/")]
                    }
                    None => r,
                };
                assert_eq!(
                    r["content"]["application/json"]["schema"]["$ref"],
                    "#/components/schemas/ErrorBody",
                    "{at} {status}"
                );
            }
        }
    }
    let login = &d["paths"]["/auth/token/"]["post"]["responses"];
    assert!(login.get("429").is_some());
    assert!(login.get("401").is_some());
}

#[test]
fn operation_ids_are_unique_and_errors_always_carry_the_field_map() {
    let d = doc();
    let mut seen = std::collections::BTreeSet::new();
    for (method, path, op) in operations(&d) {
        let id = op["operationId"].as_str().unwrap().to_string();
        assert!(seen.insert(id.clone()), "{method} {path}: {id} twice");
    }
    let err = &d["components"]["schemas"]["ErrorBody"];
    let required: Vec<&str> = err["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(required.contains(&"message") && required.contains(&"errors"));
}

#[test]
fn schemas_declare_limits_enums_and_integer_versions() {
    let d = doc();
    let s = &d["components"]["schemas"];
    assert_eq!(s["UserForm"]["properties"]["name"]["maxLength"], 150);
    assert!(s["UserForm"]["required"]
        .as_array()
        .unwrap()
        .contains(&json!("email")));
    assert_eq!(
        s["SwitchLanguageRequest"]["properties"]["language"]["enum"],
        json!(["en", "fr", "it"])
    );
    assert_eq!(
        s["ClientForm"]["properties"]["commission_bps"]["maximum"],
        10000
    );
    assert_eq!(s["SelectionForm"]["properties"]["max"]["minimum"], 1);
    for (name, schema) in s.as_object().unwrap() {
        if let Some(v) = schema["properties"].get("version") {
            let t = &v["type"];
            assert!(
                t == "integer" || t == &json!(["integer", "null"]),
                "{name}.version is {t}"
            );
        }
    }
    let params = d["paths"]["/api/users/export/"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .clone();
    let param = |n: &str| {
        params
            .iter()
            .find(|p| p["name"] == n)
            .unwrap_or_else(|| panic!("no {n}"))["schema"]
            .clone()
    };
    assert_eq!(param("format")["enum"], json!(["csv", "xlsx"]));
    assert_eq!(param("status")["enum"], json!(["active", "inactive"]));
    assert_eq!(param("page_size")["maximum"], 200);

    // The report generator's and the query scheduler's limits and enums, as the server checks
    // them.
    let prop = |schema: &str, p: &str| resolve(&d, &s[schema]["properties"][p]).clone();
    let enum_of = |v: &Value| -> Value {
        let v = resolve(&d, v);
        if v["enum"].is_array() {
            return v["enum"].clone();
        }
        // `Option<Enum>`: oneOf null and the enum.
        v["oneOf"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| resolve(&d, o).clone())
            .find(|o| o["enum"].is_array())
            .map(|o| o["enum"].clone())
            .unwrap_or(Value::Null)
    };
    for form in ["TemplateBody", "TaskBody", "CopyTemplateBody"] {
        assert_eq!(prop(form, "name")["maxLength"], 120, "{form}.name");
    }
    let modules = json!([
        "sales_overview",
        "encashment",
        "refill_log",
        "inventory",
        "transaction_log"
    ]);
    assert_eq!(enum_of(&s["TemplateBody"]["properties"]["module"]), modules);
    assert_eq!(enum_of(&s["TaskBody"]["properties"]["module"]), modules);
    assert_eq!(
        enum_of(&s["TemplateDto"]["properties"]["format"]),
        json!(["xlsx", "csv"])
    );
    assert_eq!(
        enum_of(&s["TemplateDto"]["properties"]["graph"]),
        json!(["none", "line", "bar"])
    );
    assert_eq!(
        enum_of(&s["TemplateBody"]["properties"]["visibility"]),
        json!(["public", "private"])
    );
    assert_eq!(
        enum_of(&s["ReportDto"]["properties"]["status"]),
        json!(["queued", "running", "done", "failed"])
    );
    assert_eq!(
        enum_of(&s["TaskDto"]["properties"]["status"]),
        json!(["active", "paused"])
    );
    assert_eq!(
        enum_of(&s["TaskStatusBody"]["properties"]["status"]),
        json!(["active", "paused"])
    );
    assert_eq!(
        enum_of(&s["ChangeStatusBody"]["properties"]["status"]),
        json!(["archived", "active"])
    );
    assert_eq!(
        enum_of(&s["DeliveryDto"]["properties"]["status"]),
        json!(["sent", "refused", "bounced", "complained", "withheld"])
    );
    for list in ["user_ids", "emails"] {
        assert_eq!(prop("RecipientsDto", list)["maxItems"], 50, "{list}");
    }
    assert_eq!(prop("ReportParams", "search")["maxLength"], 200);
    let query = |path: &str, name: &str| -> Value {
        d["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| p["schema"].clone())
            .unwrap_or(Value::Null)
    };
    let count = query("/api/query-schedulers/next-runs/", "count");
    assert_eq!(
        (count["minimum"].clone(), count["maximum"].clone()),
        (json!(1), json!(20))
    );
    assert_eq!(
        enum_of(&query("/api/query-schedulers/", "status")),
        json!(["active", "paused"])
    );
    // No operation declares a parameter it ignores.
    for ignored in ["page", "page_size", "value", "group_by", "grouping_period"] {
        assert!(
            query("/api/refills/products/total/", ignored).is_null(),
            "{ignored}"
        );
        assert!(
            query("/api/refills/export/", ignored).is_null(),
            "{ignored}"
        );
    }
    assert!(query("/api/refills/", "page").is_object());
}

/// Bodies name what is wrong with them: a missing required field, an integer beyond the
/// document's 64-bit range, a control character in a name, an empty reason where one is
/// required; a count outside its range is refused, not clamped; an endpoint that takes no body
/// refuses one over the size limit.
#[tokio::test]
async fn bodies_and_queries_name_the_field_they_break() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    let field_error = |r: &Reply, field: &str| {
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{field}: {}", r.json());
        assert!(
            r.json()["errors"][field].is_array(),
            "{field}: {}",
            r.json()
        );
    };
    let r = h.post("/api/clients/", &admin, json!({})).await;
    field_error(&r, "name");
    let r = h
        .post(
            "/api/reports/generator/templates/",
            &admin,
            json!({"module": "inventory"}),
        )
        .await;
    field_error(&r, "name");
    let r = h
        .post(
            "/api/reports/generator/templates/",
            &admin,
            json!({"name": "Stock", "module": "inventory", "version": 9223372036854775808u64}),
        )
        .await;
    field_error(&r, "version");
    let r = h
        .post(
            "/api/query-schedulers/",
            &admin,
            json!({"name": "Weekly", "module": "inventory",
                   "cron": {"minute": "0", "hour": "7", "day_of_month": "*", "month": "*",
                            "day_of_week": "*"},
                   "time_zone": "Europe/Paris", "recipients": {"user_ids": ["x"]},
                   "version": 18446744073709551615u64}),
        )
        .await;
    field_error(&r, "version");
    // An integral number written with a fraction is still an integer (JSON Schema's reading).
    let r = h
        .put(
            "/api/settings/operator/",
            &admin,
            json!({"mail_domains": [], "min_task_interval_minutes": 30.0}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["min_task_interval_minutes"], 30);
    let r = h
        .put(
            "/api/settings/operator/",
            &admin,
            json!({"mail_domains": [], "min_task_interval_minutes": 30.5}),
        )
        .await;
    field_error(&r, "min_task_interval_minutes");
    for name in ["Line\\nbreak", "Bell\\u0007"] {
        let body = format!(r#"{{"name": "{name}", "module": "inventory"}}"#);
        let req = Request::builder()
            .method(Method::POST)
            .uri("/api/reports/generator/templates/")
            .header(header::AUTHORIZATION, format!("Bearer {admin}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body))
            .unwrap();
        field_error(&h.send(req).await, "name");
    }
    for count in ["0", "21", "-1"] {
        let r = h
            .get(
                &format!("/api/query-schedulers/next-runs/?minute=0&hour=7&day_of_month=*&month=*&day_of_week=*&time_zone=Europe/Paris&count={count}"),
                &admin,
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "count={count}");
    }
    let r = h
        .get(
            "/api/query-schedulers/next-runs/?minute=0&hour=7&day_of_month=*&month=*&day_of_week=*&time_zone=Europe/Paris&count=21",
            &admin,
        )
        .await;
    field_error(&r, "count");
    // A body sent to an endpoint that takes none, over the limit: 413, as JSON.
    let big = vec![b' '; 2 * 1024 * 1024];
    for (method, path) in [
        (Method::GET, "/api/users/me/"),
        (Method::POST, "/api/query-schedulers/01UNKNOWN/send-now/"),
        (Method::DELETE, "/api/clients/01UNKNOWN/"),
    ] {
        let req = Request::builder()
            .method(method.clone())
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {admin}"))
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CONTENT_LENGTH, big.len())
            .body(Body::from(big.clone()))
            .unwrap();
        let r = h.send(req).await;
        assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{method} {path}");
        assert!(r.json()["message"].is_string(), "{method} {path}");
    }
}

async fn unknown_fields_are_refused_naming_the_field(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let login = h.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.json();
    let refresh = login["data"]["token"]["refresh"]
        .as_str()
        .unwrap()
        .to_string();
    let other = h.user(&admin, "other@example.com", None).await;
    let cases: Vec<(Method, String, Option<&str>, Value)> = vec![
        (
            Method::POST,
            "/auth/token/".into(),
            None,
            json!({"email": ADMIN_EMAIL, "password": ADMIN_PASSWORD, "remember": true}),
        ),
        (
            Method::POST,
            "/auth/token/refresh/".into(),
            None,
            json!({"refresh": refresh, "remember": true}),
        ),
        (
            Method::POST,
            "/auth/token/verify/".into(),
            None,
            json!({"token": admin, "remember": true}),
        ),
        (
            Method::POST,
            "/api/settings/languges/switch/".into(),
            Some(&admin),
            json!({"language": "fr", "remember": true}),
        ),
        (
            Method::POST,
            format!("/api/users/{other}/active/"),
            Some(&admin),
            json!({"active": false, "remember": true}),
        ),
        (
            Method::POST,
            "/api/users/me/".into(),
            None,
            json!({"email": "new@example.com", "password": "password-123", "firstName": "A", "lastName": "B", "remember": true}),
        ),
    ];
    for (method, path, token, body) in cases {
        let r = h.call(method.clone(), &path, token, Some(body)).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{method} {path}");
        let v = r.json();
        assert!(
            v["errors"]["remember"][0]
                .as_str()
                .is_some_and(|m| m.contains("Unknown field")),
            "{method} {path}: {v}"
        );
        assert!(v["message"].as_str().unwrap().contains("remember"), "{v}");
    }
    // Nested objects too, with the field's path.
    let r = h
        .post(
            "/api/machines/",
            &admin,
            json!({"name": "M", "peripherals": {"cashless": {"fitted": true, "colour": "red"}}}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.json()["errors"]
            .as_object()
            .unwrap()
            .keys()
            .any(|k| k.ends_with("colour")),
        "{}",
        r.json()
    );
    // Nothing was changed by the refused calls.
    let me = h.get("/api/users/me/", &admin).await.json();
    assert_eq!(me["data"]["language"], "en");
    let u = h.get(&format!("/api/users/{other}/"), &admin).await.json();
    assert_eq!(u["data"]["active"], true);
}

on_both_stores!(unknown_fields_are_refused_naming_the_field);

#[tokio::test]
async fn permission_answers_match_the_document() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    h.user(&admin, "nobody@example.com", None).await;
    let nobody = h.token("nobody@example.com", "password-123").await;
    let d = doc();
    let mut checked = 0;
    for (method, path, op) in operations(&d) {
        if op["security"].as_array().is_none_or(|s| s.is_empty()) {
            continue;
        }
        let documented = op["responses"].get("403").is_some();
        let uri = path
            .split('/')
            .map(|seg| if seg.starts_with('{') { "X1" } else { seg })
            .collect::<Vec<_>>()
            .join("/");
        let body = op.get("requestBody").map(|_| json!({}));
        let m = Method::from_bytes(method.as_bytes()).unwrap();
        let r = h.call(m, &uri, Some(&nobody), body).await;
        let id = op["operationId"].as_str().unwrap();
        if documented {
            assert_eq!(
                r.status,
                StatusCode::FORBIDDEN,
                "{method} {path} ({id}) documents 403 but answers {} {}",
                r.status,
                String::from_utf8_lossy(&r.bytes)
            );
        } else {
            assert_ne!(
                r.status,
                StatusCode::FORBIDDEN,
                "{method} {path} ({id}) answers 403 but does not document it (contract::SIGNED_IN_ONLY?)"
            );
        }
        assert!(
            r.status != StatusCode::UNAUTHORIZED && !r.status.is_server_error(),
            "{method} {path}: {}",
            r.status
        );
        checked += 1;
    }
    assert!(checked > 60, "{checked}");
}

#[tokio::test]
async fn method_not_allowed_and_extractor_rejections_answer_the_json_error_body() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    let r = h
        .call(Method::PATCH, "/api/users/", Some(&admin), Some(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(r.headers[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let allow = r.headers[header::ALLOW].to_str().unwrap().to_string();
    assert!(allow.contains("GET") && allow.contains("POST"), "{allow}");
    let v = r.json();
    assert_eq!(v["errors"], json!({}));
    assert!(v["message"].as_str().unwrap().contains("PATCH"), "{v}");

    // A path segment that is not UTF-8: axum's own rejection, made JSON.
    let req = Request::builder()
        .uri("/api/users/%FF/")
        .header(header::AUTHORIZATION, format!("Bearer {admin}"))
        .body(Body::empty())
        .unwrap();
    let r = h.send(req).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["message"].is_string(), "{:?}", r.bytes);
    assert_eq!(r.json()["errors"], json!({}));

    // Every error answer carries `errors`, empty when no field is at fault.
    let r = h.call(Method::GET, "/api/users/", None, None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.json()["errors"], json!({}));
}

#[tokio::test]
async fn exports_send_the_content_types_the_document_declares() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    let d = doc();
    for path in [
        "/api/users/export/",
        "/api/locations/export/",
        "/api/machines/export/",
        "/api/products/export/",
    ] {
        let content = &d["paths"][path]["get"]["responses"]["200"]["content"];
        for format in ["csv", "xlsx"] {
            let r = h.get(&format!("{path}?format={format}"), &admin).await;
            assert_eq!(r.status, StatusCode::OK, "{path} {format}");
            let ctype = r.headers[header::CONTENT_TYPE].to_str().unwrap();
            assert!(
                content.get(ctype).is_some(),
                "{path}: {ctype} is not declared in {content}"
            );
        }
        let r = h.get(&format!("{path}?format=pdf"), &admin).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{path}");
    }
}

#[tokio::test]
async fn extreme_inputs_answer_4xx_or_2xx_never_5xx() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    for path in [
        "/api/users/roles/?page=9223372036854775807&page_size=200",
        "/api/users/?page=9223372036854775807&page_size=200",
        "/api/products/?page=4611686018427387904&page_size=2",
        "/api/refills/?page=9223372036854775807&page_size=200",
        "/api/refills/?from=0000-01-01&to=0000-12-31",
        "/api/refills/?to=-262143-01-01",
        "/api/refills/?from=262142-12-01&to=262142-12-31",
        "/api/users/?page_size=-9223372036854775808",
    ] {
        let r = h.get(path, &admin).await;
        assert!(
            !r.status.is_server_error(),
            "{path}: {} {}",
            r.status,
            String::from_utf8_lossy(&r.bytes)
        );
    }
}

#[tokio::test]
async fn every_answer_carries_a_request_id() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    let r = h.get("/api/users/me/", &admin).await;
    let id = r.headers["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(id.len(), 36, "a UUID: {id}");
    // Errors too, and each request its own.
    let r2 = h.get("/api/nothing-here/", &admin).await;
    let id2 = r2.headers["x-request-id"].to_str().unwrap();
    assert_ne!(id, id2);
    // A caller's own id is kept and echoed.
    let req = axum::http::Request::builder()
        .uri("/api/users/me/")
        .header("authorization", format!("Bearer {admin}"))
        .header("x-request-id", "trace-me-42")
        .body(axum::body::Body::empty())
        .unwrap();
    let r3 = h.send(req).await;
    assert_eq!(r3.status, StatusCode::OK);
    assert_eq!(r3.headers["x-request-id"], "trace-me-42");
}

#[tokio::test]
async fn reply_messages_carry_a_stable_code_and_their_count() {
    let h = Harness::new().await;
    let admin = h.admin().await;
    let r = h
        .post("/api/clients/", &admin, json!({"name": "Code Client"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json()["message"], "Client created successfully");
    assert_eq!(r.json()["code"], "client_created");
    assert!(r.json().get("count").is_none());
    let role = h.role(&admin, "Coders", &[]).await;
    let a = h.user(&admin, "a@example.com", Some(&role)).await;
    let b = h.user(&admin, "b@example.com", Some(&role)).await;
    let r = h
        .delete("/api/users/", &admin, json!({"user_ids": [a, b]}))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "2 users deleted successfully");
    assert_eq!(r.json()["code"], "users_deleted");
    assert_eq!(r.json()["count"], 2);
    let r = h
        .post(
            "/api/settings/languges/switch/",
            &admin,
            json!({"language": "it"}),
        )
        .await;
    assert_eq!(r.json()["code"], "language_updated");
}
