//! Auth area through the real router: sign-in, tokens, revocation, registration, language.

use crate::common::*;
use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use base64::Engine;
use serde_json::json;

async fn login_answers_tokens_and_the_profile(b: Backend) {
    let h = Harness::on_store(b).await;
    let r = h.login("  ADMIN@example.com ", ADMIN_PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK);
    let v = r.json();
    assert!(
        v["data"]["token"]["access"]
            .as_str()
            .unwrap()
            .split('.')
            .count()
            == 3
    );
    assert!(v["data"]["token"]["refresh"].is_string());
    let user = &v["data"]["user"];
    for field in [
        "id",
        "name",
        "displayName",
        "email",
        "phone_number",
        "role_name",
        "role_id",
        "permission",
        "positions",
        "module",
        "language",
        "role_level",
    ] {
        assert!(user.get(field).is_some(), "profile lacks {field}: {user}");
    }
    assert_eq!(user["email"], "admin@example.com");
    assert_eq!(user["module"]["access_all_modules"], true);
    assert_eq!(user["role_level"], "admin");
    assert!(user["permission"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == "settings.users.list"));

    let token = v["data"]["token"]["access"].as_str().unwrap();
    let me = h.get("/api/users/me/", token).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.json()["data"]["id"], user["id"]);
}

async fn unknown_email_and_wrong_password_get_the_same_401(b: Backend) {
    let h = Harness::on_store(b).await;
    let unknown = h.login("nobody@example.com", ADMIN_PASSWORD).await;
    let wrong = h.login(ADMIN_EMAIL, "not-the-password").await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.json(), wrong.json());
    assert_eq!(wrong.json()["message"], "Invalid e-mail or password");
}

async fn login_input_errors(b: Backend) {
    let h = Harness::on_store(b).await;
    let r = h
        .call(Method::POST, "/auth/token/", None, Some(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json()["errors"]["email"][0], "This field is required.");
    assert_eq!(r.json()["errors"]["password"][0], "This field is required.");

    let r = h
        .call(
            Method::POST,
            "/auth/token/",
            None,
            Some(json!({"email": "not-an-email", "password": "x"})),
        )
        .await;
    assert_eq!(
        r.json()["errors"]["email"][0],
        "Enter a valid e-mail address."
    );

    let r = h
        .call(
            Method::POST,
            "/auth/token/",
            None,
            Some(json!({"email": 5, "password": "x"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["errors"]["email"][0]
        .as_str()
        .unwrap()
        .starts_with("Wrong type"));

    let bad_json = Request::post("/auth/token/")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"email\":"))
        .unwrap();
    let r = h.send(bad_json).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("Invalid JSON"));

    let form = Request::post("/auth/token/")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from("x"))
        .unwrap();
    assert_eq!(
        h.send(form).await.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );

    let huge = format!(
        "{{\"email\":\"{}\",\"password\":\"x\"}}",
        "a".repeat(2 * 1024 * 1024)
    );
    let big = Request::post("/auth/token/")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(huge))
        .unwrap();
    let r = h.send(big).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(r.json()["message"].is_string());
}

async fn login_is_rate_limited_per_email_and_per_client(b: Backend) {
    let h = Harness::on(b, |s| s.login_attempts_per_client = 12).await;
    for _ in 0..10 {
        assert_eq!(
            h.login(ADMIN_EMAIL, "wrong-password").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let r = h.login(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert_eq!(
        r.status,
        StatusCode::TOO_MANY_REQUESTS,
        "even the right password waits"
    );
    assert!(r.headers.contains_key(header::RETRY_AFTER));
    // The window passes.
    h.clock.advance(chrono::Duration::minutes(16));
    assert_eq!(
        h.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.status,
        StatusCode::OK
    );
    // Per client: 12 attempts in the window, whatever the e-mail (one used above).
    let mut statuses = vec![];
    for i in 0..12 {
        statuses.push(
            h.login(&format!("u{i}@example.com"), "password-x")
                .await
                .status,
        );
    }
    assert_eq!(statuses[10], StatusCode::UNAUTHORIZED, "{statuses:?}");
    assert_eq!(statuses[11], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
}

async fn expired_tampered_and_unsigned_tokens_are_refused(b: Backend) {
    let h = Harness::on_store(b).await;
    let token = h.admin().await;
    assert_eq!(h.get("/api/users/me/", &token).await.status, StatusCode::OK);

    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let parts: Vec<&str> = token.split('.').collect();
    let mut claims: serde_json::Value =
        serde_json::from_slice(&b64.decode(parts[1]).unwrap()).unwrap();
    claims["exp"] = json!(claims["exp"].as_i64().unwrap() + 3600);
    let tampered = format!(
        "{}.{}.{}",
        parts[0],
        b64.encode(claims.to_string()),
        parts[2]
    );
    let none = format!(
        "{}.{}.",
        b64.encode(r#"{"alg":"none","typ":"JWT"}"#),
        b64.encode(claims.to_string())
    );
    for bad in [tampered.as_str(), none.as_str(), "x.y.z", ""] {
        let r = h.call(Method::GET, "/api/users/me/", Some(bad), None).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{bad}");
        assert!(r.json()["message"].is_string());
    }
    assert_eq!(
        h.call(Method::GET, "/api/users/me/", None, None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );

    let v = h
        .call(
            Method::POST,
            "/auth/token/verify/",
            None,
            Some(json!({"token": token})),
        )
        .await;
    assert_eq!(v.status, StatusCode::OK);
    let v = h
        .call(
            Method::POST,
            "/auth/token/verify/",
            None,
            Some(json!({"token": tampered})),
        )
        .await;
    assert_eq!(v.status, StatusCode::UNAUTHORIZED);

    h.clock.advance(chrono::Duration::minutes(16));
    let r = h.get("/api/users/me/", &token).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(r.json()["message"], "Token has expired");
}

async fn refresh_tokens_renew_and_are_not_access_tokens(b: Backend) {
    let h = Harness::on_store(b).await;
    let r = h.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.json();
    let refresh = r["data"]["token"]["refresh"].as_str().unwrap().to_string();
    assert_eq!(
        h.get("/api/users/me/", &refresh).await.status,
        StatusCode::UNAUTHORIZED
    );
    h.clock.advance(chrono::Duration::minutes(20));
    let n = h
        .call(
            Method::POST,
            "/auth/token/refresh/",
            None,
            Some(json!({"refresh": refresh})),
        )
        .await;
    assert_eq!(n.status, StatusCode::OK);
    let access = n.json()["data"]["token"]["access"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        h.get("/api/users/me/", &access).await.status,
        StatusCode::OK
    );
    let access_as_refresh = h
        .call(
            Method::POST,
            "/auth/token/refresh/",
            None,
            Some(json!({"refresh": access})),
        )
        .await;
    assert_eq!(access_as_refresh.status, StatusCode::UNAUTHORIZED);
}

async fn deactivation_and_password_change_revoke_live_tokens(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let id = h.user(&admin, "ann@example.com", None).await;
    let ann = h.token("ann@example.com", "password-123").await;
    assert_eq!(h.get("/api/users/me/", &ann).await.status, StatusCode::OK);

    let r = h
        .post(
            &format!("/api/users/{id}/active/"),
            &admin,
            json!({"active": false}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["message"], "User deactivated");
    assert_eq!(r.json()["data"]["active"], false);
    assert_eq!(
        h.get("/api/users/me/", &ann).await.status,
        StatusCode::UNAUTHORIZED
    );
    let again = h.login("ann@example.com", "password-123").await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    assert_eq!(again.json()["message"], "This account is deactivated");

    let r = h
        .post(
            &format!("/api/users/{id}/active/"),
            &admin,
            json!({"active": true}),
        )
        .await;
    assert_eq!(r.json()["message"], "User activated");
    let ann = h.token("ann@example.com", "password-123").await;
    let user = h.get(&format!("/api/users/{id}/"), &admin).await.json()["data"].clone();
    let r = h
        .put(
            &format!("/api/users/{id}/"),
            &admin,
            json!({"name": user["name"], "email": user["email"], "password": "new-password-9"}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&r.bytes)
    );
    assert_eq!(
        h.get("/api/users/me/", &ann).await.status,
        StatusCode::UNAUTHORIZED
    );
    h.token("ann@example.com", "new-password-9").await;
}

/// A signed-in user's rights follow their role and account at once, request after request
/// (where the server keeps principals between requests, a write of a user or role ends them).
async fn a_changed_role_or_user_applies_to_the_next_request(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let role = h.role(&admin, "Desk", &["settings.users.list"]).await;
    let id = h.user(&admin, "bob@example.com", Some(&role)).await;
    let bob = h.token("bob@example.com", "password-123").await;
    for _ in 0..2 {
        assert_eq!(h.get("/api/users/", &bob).await.status, StatusCode::OK);
    }
    let change = |modules: Vec<&str>, version: u64| json!({"name": "Desk", "modules": modules, "version": version});
    let path = format!("/api/users/roles/{role}/");
    let r = h
        .put(&path, &admin, change(vec!["settings.roles.list"], 1))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(
        h.get("/api/users/", &bob).await.status,
        StatusCode::FORBIDDEN
    );
    let r = h
        .put(&path, &admin, change(vec!["settings.users.list"], 2))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(h.get("/api/users/", &bob).await.status, StatusCode::OK);
    // Another role given to the user: its rights, not the old role's.
    let other = h.role(&admin, "None", &[]).await;
    let user = h.get(&format!("/api/users/{id}/"), &admin).await.json()["data"].clone();
    let r = h
        .put(
            &format!("/api/users/{id}/"),
            &admin,
            json!({"name": user["name"], "email": user["email"], "role_id": other}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(
        h.get("/api/users/", &bob).await.status,
        StatusCode::FORBIDDEN
    );
    // And back.
    let r = h
        .put(
            &format!("/api/users/{id}/"),
            &admin,
            json!({"name": user["name"], "email": user["email"], "role_id": role}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(h.get("/api/users/", &bob).await.status, StatusCode::OK);
}

async fn one_changes_their_own_password_with_the_current_one(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    h.user(&admin, "bo@example.com", None).await;
    let bo = h.token("bo@example.com", "password-123").await;
    let elsewhere = h.token("bo@example.com", "password-123").await;
    let path = "/api/users/me/password/";
    // Field errors: the current password missing or wrong, the new one weak or the same.
    for (body, field) in [
        (
            json!({"current_password": "", "new_password": "another-pass-1"}),
            "current_password",
        ),
        (
            json!({"current_password": "wrong-password", "new_password": "another-pass-1"}),
            "current_password",
        ),
        (
            json!({"current_password": "password-123", "new_password": "short"}),
            "new_password",
        ),
        (
            json!({"current_password": "password-123", "new_password": "password-123"}),
            "new_password",
        ),
    ] {
        let r = h.post(path, &bo, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.json());
        assert!(r.json()["errors"][field].is_array(), "{body}: {}", r.json());
    }
    // Without a token, nothing.
    let r = h
        .call(
            Method::POST,
            path,
            None,
            Some(json!({"current_password": "password-123", "new_password": "another-pass-1"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    h.token("bo@example.com", "password-123").await;

    let r = h
        .post(
            path,
            &bo,
            json!({"current_password": "password-123", "new_password": "another-pass-1"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let fresh = r.json()["data"]["token"]["access"]
        .as_str()
        .unwrap()
        .to_string();
    // The caller goes on with the new token; every other session, the old one too, has ended.
    assert_eq!(h.get("/api/users/me/", &fresh).await.status, StatusCode::OK);
    for old in [&bo, &elsewhere] {
        assert_eq!(
            h.get("/api/users/me/", old).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(
        h.login("bo@example.com", "password-123").await.status,
        StatusCode::UNAUTHORIZED
    );
    h.token("bo@example.com", "another-pass-1").await;
}

async fn registration_is_closed_unless_configured(b: Backend) {
    let h = Harness::on_store(b).await;
    let body = json!({"email": "new@example.com", "password": "password-123", "firstName": "New", "lastName": "User"});
    let r = h
        .call(Method::POST, "/api/users/me/", None, Some(body.clone()))
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.json()["message"]
        .as_str()
        .unwrap()
        .starts_with("Registration is closed"));

    let h = Harness::on(b, |s| s.open_registration = true).await;
    let r = h
        .call(Method::POST, "/api/users/me/", None, Some(body.clone()))
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    let v = r.json();
    assert_eq!(v["user"]["name"], "New User");
    assert_eq!(v["user"]["module"]["access_all_modules"], false);
    let me = h
        .get("/api/users/me/", v["accessToken"].as_str().unwrap())
        .await;
    assert_eq!(me.json()["data"]["email"], "new@example.com");
    let dup = h
        .call(Method::POST, "/api/users/me/", None, Some(body))
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    let bad = h
        .call(
            Method::POST,
            "/api/users/me/",
            None,
            Some(json!({"email": "x", "password": "1"})),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    for f in ["email", "password", "firstName", "lastName"] {
        assert!(bad.json()["errors"][f].is_array(), "{f}");
    }
}

async fn languages_list_and_switch(b: Backend) {
    let h = Harness::on_store(b).await;
    let token = h.admin().await;
    let r = h
        .call(Method::GET, "/api/settings/languges/", None, None)
        .await;
    let codes: Vec<_> = r.json()["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["code"].clone())
        .collect();
    assert_eq!(codes, vec![json!("en"), json!("fr"), json!("it")]);

    let r = h
        .post(
            "/api/settings/languges/switch/",
            &token,
            json!({"language": "de"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["errors"]["language"].is_array());
    let r = h
        .post(
            "/api/settings/languges/switch/",
            &token,
            json!({"language": "fr"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["data"]["language"], "fr");
    assert_eq!(
        h.get("/api/users/me/", &token).await.json()["data"]["language"],
        "fr"
    );
    let r = h
        .call(
            Method::POST,
            "/api/settings/languges/switch/",
            None,
            Some(json!({"language": "it"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

async fn openapi_and_unknown_paths(b: Backend) {
    let h = Harness::on_store(b).await;
    let r = h.call(Method::GET, "/api/openapi.json", None, None).await;
    assert_eq!(r.status, StatusCode::OK);
    let doc = r.json();
    for p in [
        "/auth/token/",
        "/api/users/",
        "/api/users/{id}/",
        "/api/users/roles/",
        "/api/filters/roles/modules/",
    ] {
        assert!(doc["paths"][p].is_object(), "{p} missing");
    }
    assert!(doc["components"]["schemas"]["UserForm"].is_object());
}

on_both_stores!(
    login_answers_tokens_and_the_profile,
    unknown_email_and_wrong_password_get_the_same_401,
    login_input_errors,
    login_is_rate_limited_per_email_and_per_client,
    expired_tampered_and_unsigned_tokens_are_refused,
    refresh_tokens_renew_and_are_not_access_tokens,
    deactivation_and_password_change_revoke_live_tokens,
    a_changed_role_or_user_applies_to_the_next_request,
    one_changes_their_own_password_with_the_current_one,
    registration_is_closed_unless_configured,
    languages_list_and_switch,
    openapi_and_unknown_paths,
);
