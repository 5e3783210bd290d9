//! Privilege escalation, tried from outside as an attacker would: a user-administrator whose
//! machine access is one location tries every way to reach beyond its own access through the
//! user-administration endpoints, and each attempt is refused with nothing changed (read back as
//! the all-machines administrator). Also: derived figures (tag machine counts, "in use" names)
//! count and name only what the caller may see. On SQLite and on DynamoDB.

mod shared_reports;

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};

/// The fleet: two clients, a location each, one machine each, a tag on the second machine and a
/// model used by both.
struct Fleet {
    c1: String,
    c2: String,
    l1: String,
    l2: String,
    m1: String,
    m2: String,
    t1: String,
    model: String,
}

async fn fleet(h: &Harness, admin: &str) -> Fleet {
    let c1 = create(h, admin, "/api/clients/", json!({"name": "Client One"})).await;
    let c2 = create(h, admin, "/api/clients/", json!({"name": "Client Two"})).await;
    let l1 = create(
        h,
        admin,
        "/api/locations/",
        json!({"name": "Gare de Lyon", "client_id": c1, "time_zone": "Europe/Paris"}),
    )
    .await;
    let l2 = create(
        h,
        admin,
        "/api/locations/",
        json!({"name": "Milano Centrale", "client_id": c2, "time_zone": "Europe/Rome"}),
    )
    .await;
    let model = create(
        h,
        admin,
        "/api/machines/models/",
        json!({"name": "Kikko", "type": "Hot drinks", "manufacturer": "Evoca"}),
    )
    .await;
    let m1 = create(
        h,
        admin,
        "/api/machines/",
        json!({"name": "Paris One", "location_id": l1, "model_id": model}),
    )
    .await;
    let m2 = create(
        h,
        admin,
        "/api/machines/",
        json!({"name": "Secret Milan", "location_id": l2, "model_id": model}),
    )
    .await;
    let t1 = create(h, admin, "/api/machines/tags/", json!({"name": "Station"})).await;
    let r = h
        .post(
            "/api/machines/tags/manage/",
            admin,
            json!({"machine_ids": [m2], "add": [t1]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    Fleet {
        c1,
        c2,
        l1,
        l2,
        m1,
        m2,
        t1,
        model,
    }
}

const USER_ADMIN: &[&str] = &[
    "settings.users.list",
    "settings.users.new",
    "settings.users.edit",
    "settings.users.delete",
    "settings.roles.list",
    "settings.roles.new",
    "settings.roles.edit",
    "settings.roles.delete",
    "settings.machines.list",
    "settings.machines.tags_list",
    "settings.models.delete",
];

fn user_form(email: &str, role: &str, extra: Value) -> Value {
    let mut f = json!({"name": "Someone", "email": email, "password": "password-123",
                       "role_id": role, "access_all_machines": false});
    for (k, v) in extra.as_object().unwrap() {
        f[k] = v.clone();
    }
    f
}

/// A user as the all-machines administrator reads it back.
async fn read(h: &Harness, admin: &str, id: &str) -> Value {
    let r = h.get(&format!("/api/users/{id}/"), admin).await;
    assert_eq!(r.status, StatusCode::OK);
    r.json()["data"].clone()
}

fn refused(r: &Reply, what: &str) {
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "{what} must be refused: {}",
        String::from_utf8_lossy(&r.bytes)
    );
    assert!(
        r.json()["message"].as_str().is_some_and(|m| m.len() > 10),
        "{what}: a message that says why: {}",
        r.json()
    );
}

async fn a_scoped_user_admin_cannot_reach_beyond_its_access(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let f = fleet(&h, &admin).await;
    let role = h.role(&admin, "User admins", USER_ADMIN).await;
    let admin_id = h.get("/api/users/me/", &admin).await.json()["data"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = h
        .post(
            "/api/users/",
            &admin,
            user_form("mgr@example.com", &role, json!({"location_ids": [f.l1]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let mgr_id = r.json()["data"]["id"].as_str().unwrap().to_string();
    // A peer with the same role but all machines.
    let r = h
        .post(
            "/api/users/",
            &admin,
            user_form(
                "peer@example.com",
                &role,
                json!({"access_all_machines": true}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let peer_id = r.json()["data"]["id"].as_str().unwrap().to_string();
    // A user with all modules but only the same location.
    let r = h
        .post(
            "/api/users/",
            &admin,
            user_form(
                "boss@example.com",
                &role,
                json!({"access_all_modules": true, "location_ids": [f.l1]}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let boss_id = r.json()["data"]["id"].as_str().unwrap().to_string();
    let mgr = h.token("mgr@example.com", "password-123").await;
    let before_admin = read(&h, &admin, &admin_id).await;
    let before_peer = read(&h, &admin, &peer_id).await;
    let before_boss = read(&h, &admin, &boss_id).await;
    let users_before = h.get("/api/users/", &admin).await.json()["pagination"]["count"].clone();

    // 1. The all-machines administrator: password, e-mail, deactivation, deletion.
    let victim = |extra: Value| {
        let mut body = json!({"name": "Administrator", "email": ADMIN_EMAIL,
                              "access_all_modules": true, "access_all_machines": true,
                              "version": before_admin["version"]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let r = h
        .put(
            &format!("/api/users/{admin_id}/"),
            &mgr,
            victim(json!({"password": "hijacked-123"})),
        )
        .await;
    refused(&r, "changing the administrator's password");
    assert_eq!(
        h.login(ADMIN_EMAIL, "hijacked-123").await.status,
        StatusCode::UNAUTHORIZED,
        "the attacker cannot sign in as the administrator"
    );
    let r = h
        .put(
            &format!("/api/users/{admin_id}/"),
            &mgr,
            victim(json!({"email": "attacker@example.com"})),
        )
        .await;
    refused(&r, "changing the administrator's e-mail");
    let r = h
        .post(
            &format!("/api/users/{admin_id}/active/"),
            &mgr,
            json!({"active": false}),
        )
        .await;
    refused(&r, "deactivating the administrator");
    let r = h
        .delete("/api/users/", &mgr, json!({"user_ids": [admin_id]}))
        .await;
    refused(&r, "deleting the administrator");

    // 2. A peer with all machines, and a user with all modules, are beyond reach too.
    for (id, before, what) in [
        (&peer_id, &before_peer, "the all-machines peer"),
        (&boss_id, &before_boss, "the all-modules user"),
    ] {
        let mut body = before.clone();
        for k in [
            "id",
            "role_name",
            "last_login",
            "created_at",
            "updated_at",
            "can_manage",
        ] {
            body.as_object_mut().unwrap().remove(k);
        }
        body["password"] = json!("hijacked-123");
        let r = h.put(&format!("/api/users/{id}/"), &mgr, body).await;
        refused(&r, &format!("editing {what}"));
        let r = h
            .post(
                &format!("/api/users/{id}/active/"),
                &mgr,
                json!({"active": false}),
            )
            .await;
        refused(&r, &format!("deactivating {what}"));
        let r = h
            .delete("/api/users/", &mgr, json!({"user_ids": [id]}))
            .await;
        refused(&r, &format!("deleting {what}"));
    }

    // 3. Widening its own access.
    let me = read(&h, &admin, &mgr_id).await;
    for (extra, what) in [
        (json!({"location_ids": [f.l1, f.l2]}), "another location"),
        (
            json!({"location_ids": [f.l1], "client_ids": [f.c1]}),
            "its location's client",
        ),
        (
            json!({"location_ids": [f.l1], "machine_tag_ids": [f.t1]}),
            "a tag",
        ),
        (
            json!({"location_ids": [f.l1], "machine_ids": [f.m2]}),
            "another machine",
        ),
        (json!({"access_all_machines": true}), "all machines"),
        (
            json!({"location_ids": [f.l1], "access_all_modules": true}),
            "all modules",
        ),
    ] {
        let mut body = json!({"name": "Someone", "email": "mgr@example.com", "role_id": role,
                              "access_all_machines": false, "version": me["version"]});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let r = h.put(&format!("/api/users/{mgr_id}/"), &mgr, body).await;
        refused(&r, &format!("widening itself to {what}"));
    }
    let machines = h.get("/api/machines/", &mgr).await.json();
    assert_eq!(machines["pagination"]["count"], 1, "{machines}");
    assert_eq!(machines["data"][0]["id"], f.m1.as_str());

    // 4. Creating users with ids outside its own scope.
    for (extra, field) in [
        (json!({"client_ids": [f.c2]}), "client_ids"),
        (json!({"client_ids": [f.c1]}), "client_ids"),
        (json!({"location_ids": [f.l2]}), "location_ids"),
        (json!({"machine_tag_ids": [f.t1]}), "machine_tag_ids"),
        (json!({"machine_ids": [f.m2]}), "machine_ids"),
        (json!({"access_all_machines": true}), "access_all_machines"),
        (json!({"access_all_modules": true}), "access_all_modules"),
    ] {
        let r = h
            .post(
                "/api/users/",
                &mgr,
                user_form("wide@example.com", &role, extra.clone()),
            )
            .await;
        refused(&r, &format!("creating a user with {extra}"));
        assert!(
            r.json()["errors"][field].is_array(),
            "{extra}: the refusal names {field}: {}",
            r.json()
        );
    }
    assert_eq!(
        h.login("wide@example.com", "password-123").await.status,
        StatusCode::UNAUTHORIZED,
        "no such user was made"
    );
    // Nor through a role holding more than it does.
    let big = h
        .role(
            &admin,
            "Everything",
            &["settings.users.delete", "reports.sales_overview.list"],
        )
        .await;
    let r = h
        .post(
            "/api/users/",
            &mgr,
            user_form("wide@example.com", &big, json!({"location_ids": [f.l1]})),
        )
        .await;
    refused(&r, "creating a user with a more powerful role");

    // 5. Roles: not one granting more than it holds, nor one held by users beyond its reach.
    let r = h
        .put(
            &format!("/api/users/roles/{big}/"),
            &mgr,
            json!({"name": "Everything", "modules": ["settings.users.delete"]}),
        )
        .await;
    refused(&r, "stripping a more powerful role");
    let r = h
        .delete("/api/users/roles/", &mgr, json!({"role_ids": [big]}))
        .await;
    refused(&r, "deleting a more powerful role");
    let r = h
        .put(
            &format!("/api/users/roles/{role}/"),
            &mgr,
            json!({"name": "User admins", "modules": ["settings.users.list"]}),
        )
        .await;
    refused(&r, "changing the role its all-machines peer holds");
    // The roles list says so, for the web to show no action the server would refuse.
    let roles = h.get("/api/users/roles/?page_size=50", &mgr).await.json();
    let can = |name: &str| {
        roles["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| r["can_manage"].clone())
            .unwrap()
    };
    assert_eq!(can("Everything"), false, "more permissions than the caller");
    assert_eq!(can("User admins"), false, "held by users beyond reach");
    let own = h.role(&mgr, "Crew", &["settings.users.list"]).await;
    assert_eq!(
        h.get(&format!("/api/users/roles/{own}/"), &mgr)
            .await
            .json()["data"]["can_manage"],
        true
    );

    // Nothing changed, read back as the all-machines administrator.
    assert_eq!(read(&h, &admin, &admin_id).await, before_admin);
    assert_eq!(read(&h, &admin, &peer_id).await, before_peer);
    assert_eq!(read(&h, &admin, &boss_id).await, before_boss);
    assert_eq!(read(&h, &admin, &mgr_id).await, me);
    assert_eq!(
        h.get("/api/users/", &admin).await.json()["pagination"]["count"],
        users_before
    );
    let roles = h.get("/api/users/roles/", &admin).await.json();
    assert!(roles["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "User admins"
            && r["modules"].as_array().unwrap().len() == USER_ADMIN.len()));
    let h2 = h.token(ADMIN_EMAIL, ADMIN_PASSWORD).await;
    assert!(!h2.is_empty(), "the administrator still signs in");

    // 6. Within its reach it works: a user at its location and machine, then edited.
    let r = h
        .post(
            "/api/users/",
            &mgr,
            user_form(
                "crew@example.com",
                &role,
                json!({"location_ids": [f.l1], "machine_ids": [f.m1]}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    assert_eq!(r.json()["data"]["can_manage"], true);
    let crew = r.json()["data"].clone();
    let r = h
        .put(
            &format!("/api/users/{}/", crew["id"].as_str().unwrap()),
            &mgr,
            json!({"name": "Crew", "email": "crew@example.com", "role_id": role,
                   "location_ids": [f.l1], "version": crew["version"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());

    // 7. The list shows everybody, read-only beyond its reach.
    let list = h.get("/api/users/?page_size=50", &mgr).await.json();
    let can = |email: &str| {
        list["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["email"] == email)
            .map(|u| u["can_manage"].clone())
            .unwrap()
    };
    assert_eq!(can(ADMIN_EMAIL), false);
    assert_eq!(can("peer@example.com"), false);
    assert_eq!(can("boss@example.com"), false);
    assert_eq!(can("crew@example.com"), true);
    assert_eq!(can("mgr@example.com"), true);
    let all = h.get("/api/users/?page_size=50", &admin).await.json();
    assert!(all["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u["can_manage"] == true));
}

async fn scope_ids_must_exist(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let f = fleet(&h, &admin).await;
    let role = h.role(&admin, "Refillers", &[]).await;
    for field in [
        "client_ids",
        "location_ids",
        "machine_tag_ids",
        "machine_ids",
    ] {
        let r = h
            .post(
                "/api/users/",
                &admin,
                user_form("ghost@example.com", &role, json!({field: ["no-such-id"]})),
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{field}: {}", r.json());
        assert!(r.json()["errors"][field].is_array(), "{}", r.json());
    }
    let r = h
        .post(
            "/api/users/",
            &admin,
            user_form(
                "real@example.com",
                &role,
                json!({"client_ids": [f.c1], "location_ids": [f.l2, f.l2], "machine_tag_ids": [f.t1], "machine_ids": [f.m1]}),
            ),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    assert_eq!(
        r.json()["data"]["location_ids"],
        json!([f.l2]),
        "duplicates dropped"
    );
}

async fn derived_figures_respect_the_scope(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let f = fleet(&h, &admin).await;
    let role = h.role(&admin, "User admins", USER_ADMIN).await;
    h.post(
        "/api/users/",
        &admin,
        user_form("mgr@example.com", &role, json!({"location_ids": [f.l1]})),
    )
    .await;
    let mgr = h.token("mgr@example.com", "password-123").await;
    let count = |tags: &Value| {
        tags["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == f.t1.as_str())
            .map(|t| t["machines_count"].clone())
            .unwrap()
    };
    assert_eq!(count(&h.get("/api/machines/tags/", &admin).await.json()), 1);
    assert_eq!(
        count(&h.get("/api/machines/tags/", &mgr).await.json()),
        0,
        "the tagged machine is outside the caller's scope"
    );
    // A model used by a machine in scope and one outside: the 409 names only the first.
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/models/{}/", f.model),
            Some(&mgr),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.json());
    let m = r.json()["message"].as_str().unwrap().to_string();
    assert!(m.contains("Paris One"), "{m}");
    assert!(!m.contains("Secret Milan") && !m.contains("1 more"), "{m}");
    let r = h
        .call(
            Method::DELETE,
            &format!("/api/machines/models/{}/", f.model),
            Some(&admin),
            None,
        )
        .await;
    let m = r.json()["message"].as_str().unwrap().to_string();
    assert!(m.contains("Paris One") && m.contains("Secret Milan"), "{m}");
    let _ = (&f.c2, &f.m2);
}

/// The catalogue (machines, locations …) is read from snapshots kept between requests. A change
/// made through one process is in the scope of the very next request, there and in another
/// process (a second Lambda) over the same store: a machine moved into or out of a scoped user's
/// location, a location given to another client, a machine tagged.
async fn the_scope_follows_every_catalogue_change_at_once(b: Backend) {
    let h = Harness::on_store(b).await;
    // Another process writing the same store is DynamoDB's case (many Lambdas). The embedded
    // server is its data directory's sole writer (docs/architecture.md, "Requests"): it keeps
    // snapshots while the count of its own catalogue writes stands, so there the changes are
    // made and read in one process.
    let twin = h.twin();
    let other = match b {
        Backend::Dynamo => &twin,
        Backend::Sqlite => &h,
    };
    let admin = h.admin().await;
    let f = fleet(&h, &admin).await;
    let role = h.role(&admin, "Viewers", &["settings.machines.list"]).await;
    for (email, scope) in [
        ("loc@example.com", json!({"location_ids": [f.l1]})),
        ("cli@example.com", json!({"client_ids": [f.c1]})),
        ("tag@example.com", json!({"machine_tag_ids": [f.t1]})),
    ] {
        let r = h
            .post("/api/users/", &admin, user_form(email, &role, scope))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    }
    let by_location = h.token("loc@example.com", "password-123").await;
    let by_client = h.token("cli@example.com", "password-123").await;
    let by_tag = h.token("tag@example.com", "password-123").await;
    async fn seen(h: &Harness, token: &str) -> Vec<String> {
        let r = h.get("/api/machines/?ordering=name", token).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
        let mut names: Vec<String> = r.json()["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["name"].as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    }
    let both = ["Paris One", "Secret Milan"];
    let check = async |token: &str, want: &[&str], after: &str| {
        for (process, h) in [("this process", &h), ("another process", other)] {
            // Twice: the second answer comes from the snapshot where one is kept.
            for _ in 0..2 {
                assert_eq!(seen(h, token).await, want, "{after}, in {process}");
            }
        }
    };
    check(&by_location, &["Paris One"], "at first").await;
    check(&by_client, &["Paris One"], "at first").await;
    check(&by_tag, &["Secret Milan"], "at first").await;

    let machine = |location: &str| json!({"name": "Secret Milan", "model_id": f.model, "location_id": location});
    let r = other
        .put(
            &format!("/api/machines/{}/settings/", f.m2),
            &admin,
            machine(&f.l1),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    check(&by_location, &both, "the machine moved in").await;
    check(&by_client, &both, "the machine moved in").await;

    let r = h
        .put(
            &format!("/api/locations/{}/", f.l1),
            &admin,
            json!({"name": "Gare de Lyon", "client_id": f.c2, "time_zone": "Europe/Paris"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    check(&by_client, &[], "the location went to another client").await;
    check(&by_location, &both, "the location went to another client").await;

    let r = other
        .put(
            &format!("/api/machines/{}/settings/", f.m2),
            &admin,
            machine(&f.l2),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    check(&by_location, &["Paris One"], "the machine moved out").await;

    // The settings form carries the machine's tags: saved without them, it lost its tag.
    check(&by_tag, &[], "the tagged machine saved without its tag").await;
    let tags = async |h: &Harness, machine: &str, change: &str| {
        let r = h
            .post(
                "/api/machines/tags/manage/",
                &admin,
                json!({"machine_ids": [machine], change: [f.t1]}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    };
    tags(&h, &f.m1, "add").await;
    check(&by_tag, &["Paris One"], "a machine tagged").await;
    tags(other, &f.m2, "add").await;
    check(&by_tag, &both, "another machine tagged").await;
    tags(other, &f.m1, "remove").await;
    check(&by_tag, &["Secret Milan"], "a machine untagged").await;
}

on_both_stores!(
    a_scoped_user_admin_cannot_reach_beyond_its_access,
    scope_ids_must_exist,
    derived_figures_respect_the_scope,
    the_scope_follows_every_catalogue_change_at_once,
);
