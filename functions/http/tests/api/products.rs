//! Products area through the real router, on SQLite and on DynamoDB: products with price history,
//! components, composite products and their recipes, product tags, filters, exports, in-use
//! rules and permissions.

use crate::common::*;
use axum::http::{Method, StatusCode};
use serde_json::{json, Value};
use vendfleet_app::ports::{Clock, Item, Key};

async fn del(h: &Harness, token: &str, path: &str) -> Reply {
    h.call(Method::DELETE, path, Some(token), None).await
}

fn product(name: &str, price: i64) -> Value {
    json!({"name": name, "price_minor": price, "vat_bps": 1000, "units": "pcs"})
}

async fn products_crud_validation_and_price_history(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let admin_id = h.login(ADMIN_EMAIL, ADMIN_PASSWORD).await.json()["data"]["user"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = h
        .post(
            "/api/products/",
            &admin,
            json!({"name": "Espresso", "sku": "ESP-1", "price_minor": 150, "vat_bps": 550,
                   "units": "cl", "max_quantity": 40}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    assert_eq!(r.json()["message"], "Product created successfully");
    let p = r.json()["data"].clone();
    assert_eq!(p["currency"], "EUR");
    assert_eq!(p["vat_bps"], 550);
    assert_eq!(p["max_quantity"], 40);
    assert_eq!(p["inactive"], false);
    assert_eq!(p["is_composite"], false);
    assert_eq!(p["version"], 1);
    assert!(p["createdAt"].is_string());
    let id = p["id"].as_str().unwrap().to_string();

    let bad = [
        (
            json!({"price_minor": 1, "vat_bps": 0}),
            "name",
            "This field is required.",
        ),
        (
            json!({"name": "X", "vat_bps": 0}),
            "price_minor",
            "This field is required.",
        ),
        (
            json!({"name": "X", "price_minor": -1, "vat_bps": 0}),
            "price_minor",
            "Must be 0 or more.",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 10001}),
            "vat_bps",
            "Must be between 0 and 10000 basis points (0–100 %).",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": -5}),
            "vat_bps",
            "Must be between 0 and 10000 basis points (0–100 %).",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "currency": "EURO"}),
            "currency",
            "Enter an ISO 4217 currency code (e.g. EUR).",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "currency": "XYZ"}),
            "currency",
            "Enter an ISO 4217 currency code (e.g. EUR).",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "max_quantity": 0}),
            "max_quantity",
            "Must be between 1 and 1000000.",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "tag_ids": ["nope"]}),
            "tag_ids",
            "Choose existing tags (nope is not one).",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "recipe": [{"component_id": "c", "quantity": 1}]}),
            "recipe",
            "Only a composite product has a recipe.",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "is_composite": true}),
            "recipe",
            "A composite product needs at least one component.",
        ),
        (
            json!({"name": "X", "price_minor": 1.5, "vat_bps": 0}),
            "price_minor",
            "Wrong type: floating point `1.5`, expected i64.",
        ),
        (
            json!({"name": "X", "price_minor": 1, "vat_bps": 0, "colour": "red"}),
            "",
            "",
        ),
    ];
    for (body, field, msg) in bad {
        let r = h.post("/api/products/", &admin, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body}: {}", r.json());
        if !field.is_empty() {
            assert_eq!(r.json()["errors"][field][0], msg, "{body}: {}", r.json());
        }
    }
    let dup = h
        .post("/api/products/", &admin, product("ESPRESSO", 1))
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.json()["errors"]["name"].is_array());

    // Two price edits, by two people, at two times.
    let role = h
        .role(
            &admin,
            "Pricing",
            &["settings.products.list", "settings.products.edit"],
        )
        .await;
    h.user(&admin, "pricing@example.com", Some(&role)).await;
    let pricing = h.token("pricing@example.com", "password-123").await;
    h.clock.advance(chrono::Duration::minutes(5));
    let mut body = product("Espresso", 170);
    body["version"] = json!(1);
    let r = h.put(&format!("/api/products/{id}/"), &admin, body).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Product updated successfully");
    assert_eq!(r.json()["data"]["version"], 2);
    assert_eq!(r.json()["data"]["sku"], "", "a PUT is the whole form");
    let second_at = h.clock.now();
    h.clock.advance(chrono::Duration::minutes(5));
    let mut body = product("Espresso", 180);
    body["version"] = json!(2);
    let r = h.put(&format!("/api/products/{id}/"), &pricing, body).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let third_at = h.clock.now();
    // A change that is not a price change adds nothing.
    let mut body = product("Espresso lungo", 180);
    body["version"] = json!(3);
    assert_eq!(
        h.put(&format!("/api/products/{id}/"), &admin, body)
            .await
            .status,
        StatusCode::OK
    );
    let stale = h
        .put(
            &format!("/api/products/{id}/"),
            &admin,
            json!({"name": "Old", "price_minor": 1, "vat_bps": 0, "version": 1}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);

    let d = h.get(&format!("/api/products/{id}/detail/"), &admin).await;
    assert_eq!(d.status, StatusCode::OK, "{}", d.json());
    let d = d.json()["data"].clone();
    assert_eq!(d["name"], "Espresso lungo");
    let history = d["price_history"].as_array().unwrap();
    assert_eq!(history.len(), 3, "{d}");
    assert_eq!(history[0]["old_price_minor"], 170);
    assert_eq!(history[0]["new_price_minor"], 180);
    assert_eq!(history[0]["changed_by"]["name"], "Test User");
    assert_eq!(
        history[0]["changed_at"]
            .as_str()
            .unwrap()
            .parse::<chrono::DateTime<chrono::Utc>>()
            .unwrap(),
        third_at
    );
    assert_eq!(history[1]["old_price_minor"], 150);
    assert_eq!(history[1]["new_price_minor"], 170);
    assert_eq!(history[1]["changed_by"]["id"], admin_id.as_str());
    assert_eq!(
        history[1]["changed_at"]
            .as_str()
            .unwrap()
            .parse::<chrono::DateTime<chrono::Utc>>()
            .unwrap(),
        second_at
    );
    assert_eq!(history[2]["old_price_minor"], Value::Null);
    assert_eq!(history[2]["new_price_minor"], 150);

    // Lists: search, ordering, filters.
    create(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Water 50cl", "price_minor": 100, "vat_bps": 2000, "inactive": true}),
    )
    .await;
    create(
        &h,
        &admin,
        "/api/products/",
        json!({"name": "Crisps", "price_minor": 120, "vat_bps": 1000, "currency": "chf"}),
    )
    .await;
    let list = h
        .get("/api/products/?ordering=-price_minor", &admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 3);
    assert_eq!(list["data"][0]["name"], "Espresso lungo");
    assert_eq!(list["data"][2]["name"], "Water 50cl");
    assert_eq!(
        h.get("/api/products/?inactive=true", &admin).await.json()["data"][0]["name"],
        "Water 50cl"
    );
    assert_eq!(
        h.get("/api/products/?inactive=false&ordering=vat_bps", &admin)
            .await
            .json()["data"][0]["name"],
        "Crisps"
    );
    assert_eq!(
        h.get("/api/products/?search=crisps", &admin).await.json()["data"][0]["currency"],
        "CHF"
    );
    for q in [
        "inactive=maybe",
        "composite=1",
        "ordering=colour",
        "page_size=0",
    ] {
        assert_eq!(
            h.get(&format!("/api/products/?{q}"), &admin).await.status,
            StatusCode::BAD_REQUEST,
            "{q}"
        );
    }
    let opts = h.get("/api/filters/products/", &admin).await.json();
    assert_eq!(
        opts["data"].as_array().unwrap().len(),
        2,
        "active only: {opts}"
    );
    assert_eq!(opts["data"][0]["name"], "Crisps");

    let r = del(&h, &admin, &format!("/api/products/{id}/")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Product deleted successfully");
    for path in [
        format!("/api/products/{id}/"),
        format!("/api/products/{id}/detail/"),
    ] {
        assert_eq!(h.get(&path, &admin).await.status, StatusCode::NOT_FOUND);
    }
    assert_eq!(
        h.put(&format!("/api/products/{id}/"), &admin, product("X", 1))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        del(&h, &admin, &format!("/api/products/{id}/"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    // The name is free again.
    create(&h, &admin, "/api/products/", product("Espresso", 150)).await;
}

async fn components_composites_and_recipes(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let r = h
        .post(
            "/api/products/components/",
            &admin,
            json!({"name": "Coffee beans", "unit": "g"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    assert_eq!(r.json()["message"], "Component created successfully");
    let coffee = r.json()["data"]["id"].as_str().unwrap().to_string();
    let cup = create(
        &h,
        &admin,
        "/api/products/components/",
        json!({"name": "Cup", "unit": "pcs"}),
    )
    .await;
    let sugar = create(
        &h,
        &admin,
        "/api/products/components/",
        json!({"name": "Sugar", "unit": "g", "inactive": true}),
    )
    .await;
    let r = h
        .post("/api/products/components/", &admin, json!({"name": ""}))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json()["errors"]["name"][0], "This field is required.");
    assert_eq!(r.json()["errors"]["unit"][0], "This field is required.");
    assert_eq!(
        h.post(
            "/api/products/components/",
            &admin,
            json!({"name": "cup", "unit": "pcs"})
        )
        .await
        .status,
        StatusCode::CONFLICT
    );
    let r = h
        .put(
            &format!("/api/products/components/{sugar}/"),
            &admin,
            json!({"name": "Sugar", "unit": "g", "version": 1}),
        )
        .await;
    assert_eq!(r.json()["message"], "Component updated successfully");
    assert_eq!(r.json()["data"]["inactive"], false);
    assert_eq!(
        h.put(
            &format!("/api/products/components/{sugar}/"),
            &admin,
            json!({"name": "Sugar", "unit": "kg", "version": 1})
        )
        .await
        .status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        h.get(&format!("/api/products/components/{cup}/"), &admin)
            .await
            .json()["data"]["unit"],
        "pcs"
    );
    let list = h
        .get("/api/products/components/?ordering=-name", &admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 3);
    assert_eq!(list["data"][0]["name"], "Sugar");
    assert_eq!(
        h.get("/api/filters/products/components/", &admin)
            .await
            .json()["data"][0]["name"],
        "Coffee beans"
    );

    // A composite product with a recipe, and every way a recipe can be wrong.
    let recipe =
        json!([{"component_id": coffee, "quantity": 7}, {"component_id": cup, "quantity": 1}]);
    let r = h
        .post("/api/products/", &admin, json!({"name": "Cappuccino", "price_minor": 180, "vat_bps": 1000, "is_composite": true, "recipe": recipe}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.json());
    let cappuccino = r.json()["data"].clone();
    assert_eq!(cappuccino["recipe"][0]["component_name"], "Coffee beans");
    assert_eq!(cappuccino["recipe"][0]["unit"], "g");
    assert_eq!(cappuccino["recipe"][0]["quantity"], 7);
    let cid = cappuccino["id"].as_str().unwrap().to_string();
    let bad = [
        (
            json!([]),
            "recipe",
            "A composite product needs at least one component.",
        ),
        (
            json!([{"component_id": "nope", "quantity": 1}]),
            "recipe[0].component_id",
            "Choose an existing component.",
        ),
        (
            json!([{"component_id": cup, "quantity": 0}]),
            "recipe[0].quantity",
            "Must be more than 0 (and at most 1000000000).",
        ),
        (
            json!([{"component_id": cup, "quantity": -3}]),
            "recipe[0].quantity",
            "Must be more than 0 (and at most 1000000000).",
        ),
        (
            json!([{"component_id": cup}]),
            "recipe[0].quantity",
            "This field is required.",
        ),
        (
            json!([{"component_id": cup, "quantity": 1}, {"component_id": cup, "quantity": 2}]),
            "recipe[1].component_id",
            "This component is already in the recipe.",
        ),
    ];
    for (lines, field, msg) in &bad {
        let r = h
            .post("/api/products/", &admin, json!({"name": "Bad", "price_minor": 1, "vat_bps": 0, "is_composite": true, "recipe": lines}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{lines}");
        assert_eq!(r.json()["errors"][*field][0], *msg, "{lines}: {}", r.json());
        let r = h
            .put(
                &format!("/api/products/composite-products/{cid}/recipe/"),
                &admin,
                json!({"recipe": lines}),
            )
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{lines}");
        assert_eq!(r.json()["errors"][*field][0], *msg, "{lines}: {}", r.json());
    }
    let simple = create(&h, &admin, "/api/products/", product("Water", 100)).await;

    let list = h
        .get("/api/products/composite-products/", &admin)
        .await
        .json();
    assert_eq!(list["pagination"]["count"], 1);
    assert_eq!(list["data"][0]["name"], "Cappuccino");
    assert_eq!(
        h.get("/api/products/?composite=false", &admin).await.json()["data"][0]["name"],
        "Water"
    );
    let r = h
        .get(
            &format!("/api/products/composite-products/{cid}/recipe/"),
            &admin,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["data"]["recipe"].as_array().unwrap().len(), 2);
    assert_eq!(r.json()["data"]["version"], 1);
    assert_eq!(
        h.get(
            &format!("/api/products/composite-products/{simple}/recipe/"),
            &admin
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        h.get("/api/products/composite-products/nope/recipe/", &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // Replace the recipe: coffee out, sugar in.
    let r = h
        .put(
            &format!("/api/products/composite-products/{cid}/recipe/"),
            &admin,
            json!({"recipe": [{"component_id": cup, "quantity": 1}, {"component_id": sugar, "quantity": 5}], "version": 1}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Recipe updated successfully");
    assert_eq!(r.json()["data"]["version"], 2);
    assert_eq!(r.json()["data"]["recipe"][1]["component_name"], "Sugar");
    let stale = h
        .put(
            &format!("/api/products/composite-products/{cid}/recipe/"),
            &admin,
            json!({"recipe": [{"component_id": cup, "quantity": 2}], "version": 1}),
        )
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);

    // Coffee is free now, sugar and cup are in use.
    let r = del(&h, &admin, &format!("/api/products/components/{coffee}/")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Component deleted successfully");
    create(
        &h,
        &admin,
        "/api/products/composite-products/",
        json!({"name": "Tea", "price_minor": 90, "vat_bps": 1000, "recipe": [{"component_id": cup, "quantity": 1}]}),
    )
    .await;
    let r = del(&h, &admin, &format!("/api/products/components/{cup}/")).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["message"],
        "Component \"Cup\" is used by composite products: Cappuccino, Tea"
    );
    let r = del(&h, &admin, &format!("/api/products/components/{sugar}/")).await;
    assert_eq!(
        r.json()["message"],
        "Component \"Sugar\" is used by composite products: Cappuccino"
    );

    // Turning the product into a simple one drops its recipe; then its components are free.
    let r = h
        .put(
            &format!("/api/products/{cid}/"),
            &admin,
            json!({"name": "Cappuccino", "price_minor": 180, "vat_bps": 1000, "version": 2}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["data"]["recipe"], json!([]));
    assert_eq!(
        del(&h, &admin, &format!("/api/products/components/{sugar}/"))
            .await
            .status,
        StatusCode::OK
    );
    // Deleting a composite product frees its components.
    let tea = h
        .get("/api/products/composite-products/", &admin)
        .await
        .json()["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        del(
            &h,
            &admin,
            &format!("/api/products/composite-products/{simple}/")
        )
        .await
        .status,
        StatusCode::NOT_FOUND
    );
    let r = del(
        &h,
        &admin,
        &format!("/api/products/composite-products/{tea}/"),
    )
    .await;
    assert_eq!(r.json()["message"], "Product deleted successfully");
    assert_eq!(
        del(&h, &admin, &format!("/api/products/components/{cup}/"))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        h.get(&format!("/api/products/components/{cup}/"), &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
}

async fn tags_and_tags_manage(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let r = h
        .post("/api/products/tags/", &admin, json!({"name": "Hot drinks"}))
        .await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json()["message"], "Tag created successfully");
    let hot = r.json()["data"]["id"].as_str().unwrap().to_string();
    let promo = create(
        &h,
        &admin,
        "/api/products/tags/",
        json!({"name": "Promotion"}),
    )
    .await;
    assert_eq!(
        h.post("/api/products/tags/", &admin, json!({"name": "hot DRINKS"}))
            .await
            .status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        h.post("/api/products/tags/", &admin, json!({"name": " "}))
            .await
            .json()["errors"]["name"][0],
        "This field is required."
    );
    let r = h
        .put(
            &format!("/api/products/tags/{promo}/"),
            &admin,
            json!({"name": "Promo", "version": 1}),
        )
        .await;
    assert_eq!(r.json()["message"], "Tag updated successfully");
    assert_eq!(
        h.put(
            &format!("/api/products/tags/{promo}/"),
            &admin,
            json!({"name": "Promo 2", "version": 1})
        )
        .await
        .status,
        StatusCode::CONFLICT
    );
    assert_eq!(
        h.get("/api/products/tags/?search=pro", &admin).await.json()["data"][0]["name"],
        "Promo"
    );
    assert_eq!(
        h.get("/api/filters/products/tags/", &admin).await.json()["data"],
        json!([{"id": hot, "name": "Hot drinks"}, {"id": promo, "name": "Promo"}])
    );

    let mut body = product("Espresso", 150);
    body["tag_ids"] = json!([hot]);
    let espresso = create(&h, &admin, "/api/products/", body).await;
    let tea = create(&h, &admin, "/api/products/", product("Tea", 120)).await;
    assert_eq!(
        h.get(&format!("/api/products/{espresso}/"), &admin)
            .await
            .json()["data"]["tags"],
        json!([{"id": hot, "name": "Hot drinks"}])
    );

    let r = h
        .post(
            "/api/products/tags/manage/",
            &admin,
            json!({"product_ids": [espresso, tea], "add": [promo, hot]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Tags updated successfully");
    assert_eq!(r.json()["data"][1]["tag_ids"], json!([promo, hot]));
    assert_eq!(
        h.get(&format!("/api/products/?tag={promo}"), &admin)
            .await
            .json()["pagination"]["count"],
        2
    );
    // All or nothing: an unknown product (or tag) changes nothing.
    let r = h
        .post(
            "/api/products/tags/manage/",
            &admin,
            json!({"product_ids": [espresso, "nope"], "remove": [hot]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = h
        .post(
            "/api/products/tags/manage/",
            &admin,
            json!({"product_ids": [espresso], "remove": [hot, "nope"]}),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(
        h.get(&format!("/api/products/?tag={hot}"), &admin)
            .await
            .json()["pagination"]["count"],
        2,
        "untouched"
    );
    for body in [
        json!({"product_ids": [], "add": [hot]}),
        json!({"product_ids": [espresso]}),
        json!({"product_ids": [espresso], "add": [hot], "remove": [hot]}),
        json!({"product_ids": (0..51).map(|i| format!("p{i}")).collect::<Vec<_>>(), "add": [hot]}),
    ] {
        assert_eq!(
            h.post("/api/products/tags/manage/", &admin, body.clone())
                .await
                .status,
            StatusCode::BAD_REQUEST,
            "{body}"
        );
    }
    let r = h
        .post(
            "/api/products/tags/manage/",
            &admin,
            json!({"product_ids": [tea], "remove": [hot]}),
        )
        .await;
    assert_eq!(r.json()["data"][0]["tag_ids"], json!([promo]));

    // Deleting a tag removes it from its products in the same transaction.
    let r = del(&h, &admin, &format!("/api/products/tags/{promo}/")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(r.json()["message"], "Tag deleted successfully");
    let e = h
        .get(&format!("/api/products/{espresso}/"), &admin)
        .await
        .json()["data"]
        .clone();
    assert_eq!(e["tag_ids"], json!([hot]));
    assert_eq!(e["version"], 3);
    assert_eq!(
        h.get(&format!("/api/products/{tea}/"), &admin).await.json()["data"]["tag_ids"],
        json!([])
    );
    assert_eq!(
        h.get(&format!("/api/products/tags/{promo}/"), &admin)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        del(&h, &admin, &format!("/api/products/tags/{promo}/"))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    // The name is free again.
    create(
        &h,
        &admin,
        "/api/products/tags/",
        json!({"name": "Promotion"}),
    )
    .await;
}

async fn product_in_use_filters_and_export(b: Backend) {
    use calamine::Reader;
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let hot = create(&h, &admin, "/api/products/tags/", json!({"name": "Hot"})).await;
    let mut body = json!({"name": "Espresso", "sku": "ESP", "price_minor": 150, "vat_bps": 550, "units": "cl", "max_quantity": 40, "tag_ids": [hot]});
    let espresso = create(&h, &admin, "/api/products/", body.clone()).await;
    body = json!({"name": "Onigiri", "price_minor": 300, "vat_bps": 1000, "currency": "JPY", "inactive": true});
    create(&h, &admin, "/api/products/", body).await;

    // Two selections of two machines sell the espresso (as the machines area writes them).
    let m1 = create(&h, &admin, "/api/machines/", json!({"name": "Lobby 1"})).await;
    let m2 = create(&h, &admin, "/api/machines/", json!({"name": "Canteen"})).await;
    for (machine, selection, name) in [
        (&m1, "11", "Lobby 1"),
        (&m2, "12", "Canteen"),
        (&m1, "12", "Lobby 1"),
    ] {
        let mut attrs = serde_json::Map::new();
        attrs.insert("machine_id".into(), json!(machine));
        attrs.insert("machine_name".into(), json!(name));
        attrs.insert("product_id".into(), json!(espresso));
        let item = Item::new(
            Key::new(format!("MACHINE#{machine}"), format!("SEL#{selection}")),
            attrs,
        )
        .with_gsi2(
            format!("PRODUCTUSE#{espresso}"),
            format!("SEL#{machine}#{selection}"),
        );
        h.app.products.store().put(item, None).await.unwrap();
    }
    let r = del(&h, &admin, &format!("/api/products/{espresso}/")).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert_eq!(
        r.json()["message"],
        "Product \"Espresso\" is used by machines: Canteen, Lobby 1"
    );
    assert_eq!(
        h.get(&format!("/api/products/{espresso}/"), &admin)
            .await
            .status,
        StatusCode::OK
    );

    let r = h.get("/api/products/export/?format=xlsx", &admin).await;
    assert_eq!(r.status, StatusCode::OK);
    let mut book: calamine::Xlsx<_> =
        calamine::open_workbook_from_rs(std::io::Cursor::new(r.bytes)).unwrap();
    let sheet = book.worksheet_range("Products").unwrap();
    assert_eq!(sheet.height(), 3);
    assert_eq!(sheet.get_value((0, 4)).unwrap().to_string(), "VAT %");
    assert_eq!(sheet.get_value((1, 0)).unwrap().to_string(), "Espresso");
    // Numbers are numbers: the price in units of its currency, VAT as a fraction, quantities.
    use calamine::Data;
    assert_eq!(sheet.get_value((1, 2)), Some(&Data::Float(1.5)));
    assert_eq!(sheet.get_value((1, 4)), Some(&Data::Float(0.055)));
    assert_eq!(sheet.get_value((1, 6)), Some(&Data::Float(40.0)));
    assert_eq!(sheet.get_value((1, 7)).unwrap().to_string(), "Hot");
    assert_eq!(
        sheet.get_value((2, 2)),
        Some(&Data::Float(300.0)),
        "JPY has no decimals"
    );
    assert_eq!(sheet.get_value((2, 9)).unwrap().to_string(), "Yes");
    let csv = h
        .get("/api/products/export/?format=csv&inactive=false", &admin)
        .await;
    assert_eq!(csv.status, StatusCode::OK);
    let text = String::from_utf8(csv.bytes).unwrap();
    let mut rows = csv::Reader::from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 1);
    assert_eq!(&records[0][0], "Espresso");
    assert_eq!(&records[0][1], "ESP");
    assert_eq!(&records[0][3], "EUR");
    assert_eq!(&records[0][2], "1.50");
    assert_eq!(&records[0][4], "5.5");
    assert_eq!(&records[0][6], "40");
    // In French the CSV splits on ';' with decimal commas, as French spreadsheets read it.
    let r = h
        .post(
            "/api/settings/languges/switch/",
            &admin,
            json!({"language": "fr"}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    let csv = h
        .get("/api/products/export/?format=csv&inactive=false", &admin)
        .await;
    let text = String::from_utf8(csv.bytes).unwrap();
    assert!(text.starts_with('\u{feff}'), "UTF-8 with a BOM");
    let mut rows = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    assert_eq!(&rows.headers().unwrap()[0], "Nom");
    let records: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(records[0].len(), 10, "{:?}", records[0]);
    assert_eq!(&records[0][2], "1,50");
    assert_eq!(&records[0][4], "5,5");
    assert_eq!(
        h.get("/api/products/export/?format=pdf", &admin)
            .await
            .status,
        StatusCode::BAD_REQUEST
    );

    // Filters answer to anyone who edits planograms, too.
    let role = h
        .role(
            &admin,
            "Planogram editors",
            &["settings.machines.edit_product"],
        )
        .await;
    h.user(&admin, "planner@example.com", Some(&role)).await;
    let planner = h.token("planner@example.com", "password-123").await;
    let r = h.get("/api/filters/products/", &planner).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.json());
    assert_eq!(
        r.json()["data"],
        json!([{"id": espresso, "name": "Espresso"}])
    );
}

async fn every_endpoint_needs_its_permission(b: Backend) {
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let role = h
        .role(&admin, "Clients only", &["settings.clients.list"])
        .await;
    h.user(&admin, "nobody@example.com", Some(&role)).await;
    let nobody = h.token("nobody@example.com", "password-123").await;
    let p = create(&h, &admin, "/api/products/", product("Espresso", 150)).await;
    let c = create(
        &h,
        &admin,
        "/api/products/components/",
        json!({"name": "Cup", "unit": "pcs"}),
    )
    .await;
    let t = create(&h, &admin, "/api/products/tags/", json!({"name": "Hot"})).await;
    let form = product("X", 1);
    let calls: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/products/".into(), None),
        (Method::POST, "/api/products/".into(), Some(form.clone())),
        (Method::GET, "/api/products/export/".into(), None),
        (Method::GET, format!("/api/products/{p}/"), None),
        (
            Method::PUT,
            format!("/api/products/{p}/"),
            Some(form.clone()),
        ),
        (Method::DELETE, format!("/api/products/{p}/"), None),
        (Method::GET, format!("/api/products/{p}/detail/"), None),
        (Method::GET, "/api/products/components/".into(), None),
        (
            Method::POST,
            "/api/products/components/".into(),
            Some(json!({"name": "Lid", "unit": "pcs"})),
        ),
        (Method::GET, format!("/api/products/components/{c}/"), None),
        (
            Method::PUT,
            format!("/api/products/components/{c}/"),
            Some(json!({"name": "Lid", "unit": "pcs"})),
        ),
        (
            Method::DELETE,
            format!("/api/products/components/{c}/"),
            None,
        ),
        (
            Method::GET,
            "/api/products/composite-products/".into(),
            None,
        ),
        (
            Method::POST,
            "/api/products/composite-products/".into(),
            Some(form.clone()),
        ),
        (
            Method::GET,
            format!("/api/products/composite-products/{p}/"),
            None,
        ),
        (
            Method::DELETE,
            format!("/api/products/composite-products/{p}/"),
            None,
        ),
        (
            Method::GET,
            format!("/api/products/composite-products/{p}/recipe/"),
            None,
        ),
        (
            Method::PUT,
            format!("/api/products/composite-products/{p}/recipe/"),
            Some(json!({"recipe": []})),
        ),
        (Method::GET, "/api/products/tags/".into(), None),
        (
            Method::POST,
            "/api/products/tags/".into(),
            Some(json!({"name": "Cold"})),
        ),
        (Method::GET, format!("/api/products/tags/{t}/"), None),
        (
            Method::PUT,
            format!("/api/products/tags/{t}/"),
            Some(json!({"name": "Cold"})),
        ),
        (Method::DELETE, format!("/api/products/tags/{t}/"), None),
        (
            Method::POST,
            "/api/products/tags/manage/".into(),
            Some(json!({"product_ids": [p], "add": [t]})),
        ),
        (Method::GET, "/api/filters/products/".into(), None),
        (Method::GET, "/api/filters/products/tags/".into(), None),
        (
            Method::GET,
            "/api/filters/products/components/".into(),
            None,
        ),
    ];
    for (method, path, body) in &calls {
        let r = h
            .call(method.clone(), path, Some(&nobody), body.clone())
            .await;
        assert_eq!(
            r.status,
            StatusCode::FORBIDDEN,
            "{method} {path}: {}",
            r.json()
        );
        let r = h.call(method.clone(), path, None, body.clone()).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{method} {path}");
    }
    // Nothing changed.
    assert_eq!(
        h.get(&format!("/api/products/{p}/"), &admin).await.json()["data"]["name"],
        "Espresso"
    );
    assert_eq!(
        h.get(&format!("/api/products/tags/{t}/"), &admin)
            .await
            .json()["data"]["name"],
        "Hot"
    );

    // A product-list role reads products but changes nothing.
    let role = h.role(&admin, "Readers", &["settings.products.list"]).await;
    h.user(&admin, "reader@example.com", Some(&role)).await;
    let reader = h.token("reader@example.com", "password-123").await;
    assert_eq!(
        h.get("/api/products/", &reader).await.status,
        StatusCode::OK
    );
    assert_eq!(
        h.get("/api/products/export/", &reader).await.status,
        StatusCode::OK
    );
    assert_eq!(
        h.get(&format!("/api/products/{p}/detail/"), &reader)
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        h.put(&format!("/api/products/{p}/"), &reader, form)
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        h.get("/api/products/components/", &reader).await.status,
        StatusCode::FORBIDDEN
    );
}

async fn openapi_and_the_area_routers(b: Backend) {
    use axum::body::Body;
    use axum::http::{header, Request};
    use tower::ServiceExt;
    use vendfleet_http::{area, AppState, Area};
    let h = Harness::on_store(b).await;
    let admin = h.admin().await;
    let doc = h
        .call(Method::GET, "/api/openapi.json", None, None)
        .await
        .json();
    for p in [
        "/api/products/",
        "/api/products/{id}/detail/",
        "/api/products/composite-products/{id}/recipe/",
        "/api/products/tags/manage/",
        "/api/filters/products/components/",
    ] {
        assert!(doc["paths"][p].is_object(), "{p} missing");
    }
    assert!(doc["components"]["schemas"]["ProductDetailDto"].is_object());
    let state = AppState::new(h.app.clone());
    for (a, path, status) in [
        (Area::Products, "/api/products/", StatusCode::OK),
        (Area::Products, "/api/products/components/", StatusCode::OK),
        (
            Area::Products,
            "/api/products/a/b/c/",
            StatusCode::NOT_FOUND,
        ),
        (
            Area::Products,
            "/api/filters/products/",
            StatusCode::NOT_FOUND,
        ),
        (Area::Filters, "/api/filters/products/", StatusCode::OK),
        (Area::Filters, "/api/filters/products/tags/", StatusCode::OK),
    ] {
        let req = Request::builder()
            .uri(path)
            .header(header::AUTHORIZATION, format!("Bearer {admin}"))
            .body(Body::empty())
            .unwrap();
        let res = area(a, state.clone()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), status, "{a:?} {path}");
    }
}

on_both_stores!(
    products_crud_validation_and_price_history,
    components_composites_and_recipes,
    tags_and_tags_manage,
    product_in_use_filters_and_export,
    every_endpoint_needs_its_permission,
    openapi_and_the_area_routers,
);
