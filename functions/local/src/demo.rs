//! `vendfleet seed-demo`: a small demo fleet, made through the application services (so every
//! rule and validation applies), for a first look at the product.

use vendfleet_app::auth::Principal;
use vendfleet_app::machines::{Device, MachineInput, Peripherals, SelectionInput};
use vendfleet_app::products::{ComponentInput, ProductInput, RecipeLineInput};
use vendfleet_app::settings::{ClientInput, LocationInput, ModelInput};
use vendfleet_app::{App, AppError};

/// Products with their prices (minor units), as a machine's planogram is filled from them.
type Goods = Vec<(String, i64)>;

fn err(e: AppError) -> String {
    format!("seeding the demo fleet: {e}")
}

/// Whether the fleet already has machines (the demo is only seeded into an empty fleet).
pub async fn fleet_is_empty(app: &App) -> Result<bool, String> {
    Ok(app.machines.machines().all().await.map_err(err)?.is_empty())
}

/// Seeds clients, locations, models, products (with a composite coffee), tags and machines
/// with filled planograms, acting as `admin`.
pub async fn seed(app: &App, admin: &Principal) -> Result<usize, String> {
    let s = &app.settings;
    let mut clients = Vec::new();
    for (name, bps) in [("Gare du Nord SA", 800), ("Ospedale San Carlo", 500)] {
        let c = s
            .create_client(ClientInput {
                name: name.into(),
                commission_bps: Some(bps),
                ..Default::default()
            })
            .await
            .map_err(err)?;
        clients.push(c.id);
    }
    let sites = [
        (
            "Gare du Nord — Hall 1",
            "18 Rue de Dunkerque, Paris",
            "Station",
            "Île-de-France",
            Some(0),
            48.8809,
            2.3553,
            "Europe/Paris",
        ),
        (
            "Gare du Nord — Quai 2",
            "18 Rue de Dunkerque, Paris",
            "Station",
            "Île-de-France",
            Some(0),
            48.8812,
            2.3549,
            "Europe/Paris",
        ),
        (
            "San Carlo — Reparto A",
            "Via Pio II 3, Milano",
            "Hospital",
            "Lombardia",
            Some(1),
            45.4599,
            9.1178,
            "Europe/Rome",
        ),
        (
            "Dépôt Lyon",
            "12 Rue Garibaldi, Lyon",
            "Warehouse",
            "Auvergne-Rhône-Alpes",
            None,
            45.7597,
            4.8522,
            "Europe/Paris",
        ),
    ];
    let mut locations = Vec::new();
    for (name, address, kind, region, client, lat, lon, tz) in sites {
        let l = s
            .create_location(
                admin,
                LocationInput {
                    name: name.into(),
                    address: address.into(),
                    location_type: kind.into(),
                    region: region.into(),
                    client_id: client.map(|i: usize| clients[i].clone()),
                    refiller_id: Some(admin.user.id.clone()),
                    latitude: Some(lat),
                    longitude: Some(lon),
                    time_zone: tz.into(),
                    version: None,
                },
            )
            .await
            .map_err(err)?;
        locations.push(l.id);
    }
    let mut models = Vec::new();
    for (name, kind, maker) in [
        ("Kikko Max", "Hot drinks", "Evoca"),
        ("FK 300", "Snacks", "Sielaff"),
        ("Visionline", "Cold drinks", "Sielaff"),
    ] {
        let m = s
            .create_model(ModelInput {
                name: name.into(),
                model_type: kind.into(),
                manufacturer: maker.into(),
                version: None,
            })
            .await
            .map_err(err)?;
        models.push(m.id);
    }

    let p = &app.products;
    let snack_tag = p.create_tag("Snacks").await.map_err(err)?.id;
    let drink_tag = p.create_tag("Drinks").await.map_err(err)?.id;
    let mut components = Vec::new();
    for (name, unit) in [
        ("Cup", "pcs"),
        ("Coffee beans", "g"),
        ("Sugar", "g"),
        ("Stirrer", "pcs"),
        ("Milk powder", "g"),
    ] {
        let c = p
            .create_component(ComponentInput {
                name: name.into(),
                unit: unit.into(),
                inactive: false,
                version: None,
            })
            .await
            .map_err(err)?;
        components.push(c.id);
    }
    let product = |name: &str, price: i64, vat: i64, units: &str, tag: &str| ProductInput {
        name: name.into(),
        price_minor: Some(price),
        currency: "EUR".into(),
        vat_bps: Some(vat),
        units: units.into(),
        tag_ids: vec![tag.to_string()],
        ..Default::default()
    };
    let mut snacks = Vec::new();
    for (name, price) in [
        ("Crisps 45 g", 180),
        ("Chocolate bar", 150),
        ("Cereal bar", 130),
        ("Peanuts 50 g", 160),
    ] {
        snacks.push((
            p.create_product(admin, product(name, price, 550, "pcs", &snack_tag))
                .await
                .map_err(err)?
                .id,
            price,
        ));
    }
    let mut drinks = Vec::new();
    for (name, price) in [
        ("Water 50 cl", 120),
        ("Cola 33 cl", 200),
        ("Iced tea 50 cl", 220),
    ] {
        drinks.push((
            p.create_product(admin, product(name, price, 550, "pcs", &drink_tag))
                .await
                .map_err(err)?
                .id,
            price,
        ));
    }
    let mut coffees = Vec::new();
    for (name, price, recipe) in [
        ("Espresso", 110, vec![(0, 1), (1, 7), (3, 1)]),
        ("Cappuccino", 150, vec![(0, 1), (1, 7), (4, 12), (3, 1)]),
    ] {
        let mut input = product(name, price, 1000, "cup", &drink_tag);
        input.is_composite = true;
        input.recipe = Some(
            recipe
                .into_iter()
                .map(|(c, q)| RecipeLineInput {
                    component_id: components[c].clone(),
                    quantity: Some(q),
                })
                .collect(),
        );
        coffees.push((p.create_product(admin, input).await.map_err(err)?.id, price));
    }

    let route = app.machines.create_tag("Route Nord").await.map_err(err)?.id;
    let fitted = |serial: &str| Device {
        fitted: true,
        serial: serial.into(),
        model: String::new(),
    };
    let plan: [(&str, usize, usize, &Goods, i64); 5] = [
        ("GDN-H1-Snack", 0, 1, &snacks, 12),
        ("GDN-H1-Drinks", 0, 2, &drinks, 10),
        ("GDN-Q2-Coffee", 1, 0, &coffees, 200),
        ("HSC-A-Snack", 2, 1, &snacks, 12),
        ("HSC-A-Coffee", 2, 0, &coffees, 200),
    ];
    let mut made = 0;
    for (i, (name, loc, model, goods, capacity)) in plan.into_iter().enumerate() {
        let m = app
            .machines
            .create(
                admin,
                MachineInput {
                    name: name.into(),
                    serial: format!("SN-{:05}", 10_001 + i),
                    mcu_serial: format!("MCU-{:05}", 70_001 + i),
                    model_id: Some(models[model].clone()),
                    location_id: Some(locations[loc].clone()),
                    firmware: "4.2.1".into(),
                    connection_method: "telemetry".into(),
                    protocol: "EVA-DTS".into(),
                    tag_ids: if loc == 0 || loc == 1 {
                        vec![route.clone()]
                    } else {
                        vec![]
                    },
                    peripherals: Peripherals {
                        coin_changer: fitted(&format!("CC-{i}")),
                        bill_validator: Device::default(),
                        cashless: fitted(&format!("CL-{i}")),
                    },
                    currency: Some("EUR".into()),
                    decimal_places: Some(2),
                    ..Default::default()
                },
            )
            .await
            .map_err(err)?;
        for (slot, (product_id, price)) in goods.iter().enumerate() {
            let input = SelectionInput {
                selection: format!("{}", 10 + slot * 2),
                product_id: product_id.clone(),
                max: capacity,
                price_minor: *price,
                current: 0,
                expiry_date: None,
            };
            app.machines
                .upsert_selection(admin, &m.id, input)
                .await
                .map_err(err)?;
        }
        app.machines
            .restock(admin, &m.id, &[], true)
            .await
            .map_err(err)?;
        made += 1;
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use vendfleet_app::config::{AuthSettings, Secret};
    use vendfleet_app::machines::RefillListParams;
    use vendfleet_app::ports::ManualClock;

    /// Seeding and the default refill log agree at any hour: just before and after midnight in
    /// Paris, Milan and Lyon, and late on the last day of a month.
    #[tokio::test]
    async fn seeds_a_full_fleet_through_the_services() {
        for at in [
            "2026-11-22T10:30:00Z",
            "2026-11-22T22:59:00Z",
            "2026-11-22T23:30:00Z",
            "2026-12-31T23:30:00Z",
        ] {
            seeds_at(at.parse().unwrap()).await;
        }
    }

    async fn seeds_at(at: chrono::DateTime<chrono::Utc>) {
        let dir = tempfile::tempdir().unwrap();
        let embedded = vendfleet_adapters_embedded::Embedded::open(dir.path(), b"t").unwrap();
        let app = App::new(
            embedded.adapters(),
            Arc::new(ManualClock::new(at)),
            AuthSettings::with_secret(Secret::new("x".repeat(32))),
            Default::default(),
        );
        app.auth
            .ensure_admin("admin@demo.test", "demo-password-1")
            .await
            .unwrap();
        let user = app
            .users
            .directory()
            .user_by_email("admin@demo.test")
            .await
            .unwrap()
            .unwrap();
        let admin = app.auth.principal(user).await.unwrap();
        assert!(fleet_is_empty(&app).await.unwrap());
        assert_eq!(seed(&app, &admin).await.unwrap(), 5);
        assert!(!fleet_is_empty(&app).await.unwrap());
        let machines = app.machines.machines().all().await.unwrap();
        assert_eq!(machines.len(), 5);
        for m in &machines {
            let plan = app.machines.selections(&admin, &m.id).await.unwrap();
            assert!(!plan.is_empty());
            assert!(
                plan.iter()
                    .all(|s| s.selection.current == s.selection.max && !s.product_name.is_empty()),
                "{}",
                m.name
            );
        }
        let log = app
            .machines
            .refills(
                &admin,
                &RefillListParams {
                    page_size: Some(200),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(log.count, 15, "one fill line per selection");
        assert_eq!(app.settings.locations().all().await.unwrap().len(), 4);
    }
}
