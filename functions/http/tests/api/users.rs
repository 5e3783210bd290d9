//! Users and roles through the real router: CRUD, validation, messages, guards, exports.

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

fn form(email: &str) -> Value {
    json!({"name": "Marie Curie", "email": email, "phone": "+33 1 23 45 67 89", "password": "password-123",
           "language": "fr", "position": "Refiller", "client_ids": [], "location_ids": [],
           "machine_tag_ids": [], "machine_ids": []})
}

async fn user_crud_with_the_spec_messages(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let role = h
        .role(&admin, "Refillers", &["reports.refill_log.list"])
        .await;
    let mut f = form("marie@example.com");
    f["role_id"] = json!(role);
    let r = h.post("/api/users/", &admin, f).await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json()["message"], "User created");
    let u = r.json()["data"].clone();
    assert_eq!(u["role_name"], "Refillers");
    assert_eq!(u["language"], "fr");
    assert_eq!(u["location_ids"], json!([]));
    assert_eq!(u["active"], true);
    assert!(u.get("password_hash").is_none() && u.get("password").is_none());
    let id = u["id"].as_str().unwrap();

    let g = h.get(&format!("/api/users/{id}/"), &admin).await;
    assert_eq!(g.status, StatusCode::OK);
    assert_eq!(g.json()["data"]["id"], id);

    let upd = g.json()["data"].clone();
    let body = json!({"name": "Marie S. Curie", "email": upd["email"], "role_id": role, "version": upd["version"],
                      "language": "it", "access_all_machines": false});
    let r = h
        .put(&format!("/api/users/{id}/"), &admin, body.clone())
        .await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&r.bytes)
    );
    assert_eq!(r.json()["message"], "User updated");
    assert_eq!(r.json()["data"]["name"], "Marie S. Curie");
    assert_eq!(r.json()["data"]["client_ids"], json!([]));
    // The same body again carries a stale version.
    let r = h.put(&format!("/api/users/{id}/"), &admin, body).await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // Marie signs in with her role's modules.
    let marie = h.token("marie@example.com", "password-123").await;
    let me = h.get("/api/users/me/", &marie).await.json();
    assert_eq!(
        me["data"]["module"]["modules"],
        json!(["reports.refill_log.list"])
    );
    assert_eq!(me["data"]["role_level"], "user");
    assert_eq!(me["data"]["language"], "it");

    let r = h
        .delete("/api/users/", &admin, json!({"user_ids": [id]}))
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["message"], "User deleted successfully");
    assert_eq!(
        h.get(&format!("/api/users/{id}/"), &admin).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        h.login("marie@example.com", "password-123").await.status,
        StatusCode::UNAUTHORIZED
    );
    // The address is free again.
    h.user(&admin, "marie@example.com", None).await;
}

async fn user_form_validation(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            json!({"email": "a@example.com", "password": "password-1"}),
            "name",
            "This field is required.",
        ),
        (
            json!({"name": "x".repeat(151), "email": "a@example.com", "password": "password-1"}),
            "name",
            "Must be at most 150 characters.",
        ),
        (
            json!({"name": "A", "email": "nope", "password": "password-1"}),
            "email",
            "Enter a valid e-mail address.",
        ),
        (
            json!({"name": "A", "password": "password-1"}),
            "email",
            "This field is required.",
        ),
        (
            json!({"name": "A", "email": "a@example.com"}),
            "password",
            "This field is required.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "short"}),
            "password",
            "Must be at least 8 characters.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "phone": "call me"}),
            "phone",
            "Enter a valid phone number.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "language": "de"}),
            "language",
            "Choose one of: en, fr, it.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "role_id": "missing"}),
            "role_id",
            "Choose an existing role.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "position": "p".repeat(101)}),
            "position",
            "Must be at most 100 characters.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "machine_ids": [""]}),
            "machine_ids",
            "Each entry must be a known id.",
        ),
        (
            json!({"name": 5, "email": "a@example.com", "password": "password-1"}),
            "name",
            "Wrong type: integer `5`, expected a string.",
        ),
        (
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "active": "yes"}),
            "active",
            "Wrong type: string \"yes\", expected a boolean.",
        ),
    ];
    for (body, field, message) in cases {
        let r = h.post("/api/users/", &admin, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(
            r.json()["errors"][field][0],
            message,
            "{body} → {}",
            r.json()
        );
    }
    let r = h
        .post(
            "/api/users/",
            &admin,
            json!({"name": "A", "email": "a@example.com", "password": "password-1", "nick": "x"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.json()["message"]
            .as_str()
            .unwrap()
            .contains("Invalid input"),
        "{}",
        r.json()
    );
    // Nothing was written by any refused form.
    let list = h.get("/api/users/", &admin).await.json();
    assert_eq!(list["pagination"]["count"], 1);

    h.user(&admin, "taken@example.com", None).await;
    let r = h
        .post("/api/users/", &admin, form("TAKEN@example.com"))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["errors"]["email"][0],
        "This e-mail address is already in use."
    );
    assert_eq!(
        h.get("/api/users/nope/", &admin).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        h.put("/api/users/nope/", &admin, form("z@example.com"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

async fn list_search_filters_ordering_and_paging(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let role = h
        .role(&admin, "Accountants", &["reports.encashment.list"])
        .await;
    for i in 0..7 {
        let mut f = form(&format!("user{i}@example.com"));
        f["name"] = json!(format!("User {i}"));
        if i % 2 == 0 {
            f["role_id"] = json!(role);
        }
        assert_eq!(
            h.post("/api/users/", &admin, f).await.status,
            StatusCode::CREATED
        );
    }
    let id = h.get("/api/users/?search=user3@", &admin).await.json()["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    h.post(
        &format!("/api/users/{id}/active/"),
        &admin,
        json!({"active": false}),
    )
    .await;

    let page = h
        .get("/api/users/?page=2&page_size=3&ordering=name", &admin)
        .await
        .json();
    assert_eq!(
        page["pagination"],
        json!({"count": 8, "page": 2, "page_size": 3})
    );
    let names: Vec<_> = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["User 2", "User 3", "User 4"]);
    let desc = h
        .get("/api/users/?ordering=-name&page_size=1", &admin)
        .await
        .json();
    assert_eq!(desc["data"][0]["name"], "User 6");
    assert_eq!(
        h.get(&format!("/api/users/?role={role}"), &admin)
            .await
            .json()["pagination"]["count"],
        4
    );
    assert_eq!(
        h.get("/api/users/?status=inactive", &admin).await.json()["pagination"]["count"],
        1
    );
    assert_eq!(
        h.get("/api/users/?status=active&search=USER", &admin)
            .await
            .json()["pagination"]["count"],
        6
    );

    for (q, field) in [
        ("ordering=password", "ordering"),
        ("page=0", "page"),
        ("page_size=1000", "page_size"),
        ("status=maybe", "status"),
    ] {
        let r = h.get(&format!("/api/users/?{q}"), &admin).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}");
        assert!(r.json()["errors"][field].is_array(), "{q}: {}", r.json());
    }
    let r = h.get("/api/users/?page=abc", &admin).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

async fn roles_crud_messages_and_conflicts(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let r = h.post("/api/users/roles/", &admin, json!({"name": "Managers", "modules": ["settings.users.list", "reports.sales_overview.list"]})).await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json()["message"], "Role created successfully");
    // Stored in catalogue order.
    assert_eq!(
        r.json()["data"]["modules"],
        json!(["reports.sales_overview.list", "settings.users.list"])
    );
    let id = r.json()["data"]["id"].as_str().unwrap().to_string();
    assert_eq!(
        h.get(&format!("/api/users/roles/{id}/"), &admin)
            .await
            .json()["data"]["id"],
        id.as_str()
    );

    let dup = h
        .post(
            "/api/users/roles/",
            &admin,
            json!({"name": "managers", "modules": []}),
        )
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.json()["errors"]["name"].is_array());
    let bad = h
        .post(
            "/api/users/roles/",
            &admin,
            json!({"name": " ", "modules": ["settings.nope"]}),
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.json()["errors"]["name"][0], "This field is required.");
    assert_eq!(
        bad.json()["errors"]["modules"][0],
        "Unknown permission: settings.nope."
    );

    let r = h
        .put(
            &format!("/api/users/roles/{id}/"),
            &admin,
            json!({"name": "Area managers", "modules": ["settings.users.list"], "version": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["message"], "Role updated successfully");
    assert_eq!(r.json()["data"]["version"], 2);
    let stale = h
        .put(
            &format!("/api/users/roles/{id}/"),
            &admin,
            json!({"name": "X", "modules": [], "version": 1}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);

    h.user(&admin, "holder@example.com", Some(&id)).await;
    let list = h.get("/api/users/roles/?search=area", &admin).await.json();
    assert_eq!(list["pagination"]["count"], 1);
    assert_eq!(list["data"][0]["users_count"], 1);
    let r = h
        .delete("/api/users/roles/", &admin, json!({"role_ids": [id]}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["message"],
        "Role \"Area managers\" is in use by: holder@example.com"
    );

    let free = h.role(&admin, "Spare", &[]).await;
    let r = h
        .delete(
            "/api/users/roles/",
            &admin,
            json!({"role_ids": [free, "missing"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(
        h.get(&format!("/api/users/roles/{free}/"), &admin)
            .await
            .status,
        StatusCode::OK,
        "all or nothing"
    );
    let r = h
        .delete("/api/users/roles/", &admin, json!({"role_ids": [free]}))
        .await;
    assert_eq!(r.json()["message"], "Role deleted successfully");
    let r = h
        .delete("/api/users/roles/", &admin, json!({"role_ids": []}))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

async fn every_endpoint_requires_its_permission(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let role = h.role(&admin, "Nothing", &[]).await;
    h.user(&admin, "nobody@example.com", Some(&role)).await;
    let nobody = h.token("nobody@example.com", "password-123").await;
    let target = h.user(&admin, "target@example.com", None).await;
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/users/".into(), None),
        (
            Method::POST,
            "/api/users/".into(),
            Some(form("x@example.com")),
        ),
        (
            Method::DELETE,
            "/api/users/".into(),
            Some(json!({"user_ids": [target]})),
        ),
        (Method::GET, "/api/users/export/".into(), None),
        (Method::GET, format!("/api/users/{target}/"), None),
        (
            Method::PUT,
            format!("/api/users/{target}/"),
            Some(form("y@example.com")),
        ),
        (
            Method::POST,
            format!("/api/users/{target}/active/"),
            Some(json!({"active": false})),
        ),
        (Method::GET, "/api/users/roles/".into(), None),
        (
            Method::POST,
            "/api/users/roles/".into(),
            Some(json!({"name": "R", "modules": []})),
        ),
        (
            Method::DELETE,
            "/api/users/roles/".into(),
            Some(json!({"role_ids": [role]})),
        ),
        (Method::GET, format!("/api/users/roles/{role}/"), None),
        (
            Method::PUT,
            format!("/api/users/roles/{role}/"),
            Some(json!({"name": "R", "modules": []})),
        ),
        (Method::GET, "/api/filters/roles/".into(), None),
        (Method::GET, "/api/filters/roles/modules/".into(), None),
        (
            Method::GET,
            "/api/filters/employees/positions/".into(),
            None,
        ),
    ];
    for (method, path, body) in calls {
        let r = h
            .call(method.clone(), &path, Some(&nobody), body.clone())
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{method} {path}");
        assert!(r.json()["message"]
            .as_str()
            .unwrap()
            .starts_with("You do not have permission"));
        let r = h.call(method.clone(), &path, None, body).await;
        assert_eq!(
            r.status,
            StatusCode::UNAUTHORIZED,
            "{method} {path} without a token"
        );
    }
    // Any signed-in user may read the employee list for pickers.
    assert_eq!(
        h.get("/api/filters/employees/", &nobody).await.status,
        StatusCode::OK
    );
    assert_eq!(
        h.get("/api/users/", &admin).await.json()["pagination"]["count"],
        3,
        "nothing changed"
    );
}

async fn nobody_escalates_or_removes_the_last_admin(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let me = h.get("/api/users/me/", &admin).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = h
        .post(
            &format!("/api/users/{me}/active/"),
            &admin,
            json!({"active": false}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = h.put(&format!("/api/users/{me}/"), &admin, json!({"name": "Admin", "email": ADMIN_EMAIL, "access_all_modules": false, "access_all_machines": true})).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["message"],
        "You cannot remove your own administrator rights."
    );
    let r = h
        .delete("/api/users/", &admin, json!({"user_ids": [me]}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT);

    // A user manager without all modules cannot hand out more than they hold.
    let mgr_role = h
        .role(
            &admin,
            "User managers",
            &[
                "settings.users.list",
                "settings.users.new",
                "settings.users.edit",
                "settings.roles.list",
                "settings.roles.new",
            ],
        )
        .await;
    let big_role = h
        .role(
            &admin,
            "Everything",
            &["settings.users.delete", "reports.sales_overview.list"],
        )
        .await;
    h.user(&admin, "mgr@example.com", Some(&mgr_role)).await;
    let mgr = h.token("mgr@example.com", "password-123").await;
    let mut f = form("esc@example.com");
    f["role_id"] = json!(big_role);
    let r = h.post("/api/users/", &mgr, f).await;
    assert_eq!(
        r.json()["errors"]["role_id"][0],
        "This role grants permissions you do not hold."
    );
    let mut f = form("esc@example.com");
    f["access_all_modules"] = json!(true);
    f["access_all_machines"] = json!(true);
    let r = h.post("/api/users/", &mgr, f).await;
    assert!(r.json()["errors"]["access_all_modules"].is_array());
    assert!(r.json()["errors"]["access_all_machines"].is_array());
    let r = h
        .post(
            "/api/users/roles/",
            &mgr,
            json!({"name": "Sneaky", "modules": ["settings.users.delete"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = h.post("/api/users/", &mgr, form("ok@example.com")).await;
    assert_eq!(r.status, StatusCode::CREATED);
}

async fn exports_read_back_as_csv_and_xlsx(b: Backend) {
    use calamine::Reader;
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let role = h.role(&admin, "Refillers", &[]).await;
    let mut f = form("zoe@example.com");
    f["name"] = json!("Zoë =SUM(A1)");
    f["role_id"] = json!(role);
    h.post("/api/users/", &admin, f).await;

    let r = h
        .get("/api/users/export/?format=csv&ordering=email", &admin)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers["content-disposition"]
        .to_str()
        .unwrap()
        .contains("users.csv"));
    let text = String::from_utf8(r.bytes.clone()).unwrap();
    let mut rd = csv::Reader::from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    assert_eq!(rd.headers().unwrap().get(1), Some("E-mail"));
    let rows: Vec<csv::StringRecord> = rd.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(&rows[1][1], "zoe@example.com");
    assert_eq!(&rows[1][3], "Refillers");
    assert_eq!(&rows[1][0], "Zoë =SUM(A1)");

    h.post(
        "/api/settings/languges/switch/",
        &admin,
        json!({"language": "fr"}),
    )
    .await;
    let r = h
        .get("/api/users/export/?format=xlsx&search=zoe", &admin)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(r.bytes)).unwrap();
    let sheet = book.worksheet_range("Utilisateurs").unwrap();
    assert_eq!(sheet.get_value((0, 0)).unwrap().to_string(), "Nom");
    assert_eq!(
        sheet.get_value((1, 1)).unwrap().to_string(),
        "zoe@example.com"
    );
    assert_eq!(sheet.height(), 2);

    let r = h.get("/api/users/export/?format=pdf", &admin).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

async fn filters_for_the_users_screens(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    h.role(&admin, "Zeta", &[]).await;
    h.role(&admin, "alpha", &[]).await;
    h.post("/api/users/", &admin, form("p@example.com")).await;
    let roles = h.get("/api/filters/roles/", &admin).await.json();
    let names: Vec<_> = roles["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].clone())
        .collect();
    assert_eq!(names, vec![json!("alpha"), json!("Zeta")]);
    let tree = h
        .get("/api/filters/roles/modules/?lang=it", &admin)
        .await
        .json();
    assert_eq!(tree["data"][2]["name"], "Impostazioni");
    assert_eq!(
        tree["data"][2]["children"][0]["children"][0]["key"],
        "settings.users.list"
    );
    let emp = h.get("/api/filters/employees/", &admin).await.json();
    assert_eq!(emp["data"].as_array().unwrap().len(), 2);
    let pos = h
        .get("/api/filters/employees/positions/", &admin)
        .await
        .json();
    assert_eq!(pos["data"], json!(["Administrator", "Refiller"]));
    let r = h
        .call(Method::GET, "/api/filters/nope/", Some(&admin), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

on_both_stores!(
    user_crud_with_the_spec_messages,
    user_form_validation,
    list_search_filters_ordering_and_paging,
    roles_crud_messages_and_conflicts,
    every_endpoint_requires_its_permission,
    nobody_escalates_or_removes_the_last_admin,
    exports_read_back_as_csv_and_xlsx,
    filters_for_the_users_screens,
);
