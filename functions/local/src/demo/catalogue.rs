//! The demo catalogue: planned from the seed alone (pure), then made through the application
//! services — refiller role and employees, route tags, clients, models, products with recipes,
//! locations and machines with their planograms — so every rule and validation applies.

use super::data::{self, City, ProductSpec, CITIES};
use super::options::Options;
use super::sim::{mix, normal, weighted, Cash, Kind, MachineSim, Setup, Site, Slot};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};
use tokio::task::JoinSet;
use vendfleet_app::auth::Principal;
use vendfleet_app::fleet::{ClientInput, LocationInput, ModelInput};
use vendfleet_app::machines::{Device, MachineInput, Peripherals, SalesSource, SelectionInput};
use vendfleet_app::products::{ComponentInput, ProductInput, RecipeLineInput};
use vendfleet_app::users::{RoleInput, UserInput};
use vendfleet_app::{App, AppError};

/// Machines whose planograms are filled at once.
const PARALLEL_PLANOGRAMS: usize = 3;

fn err(what: &'static str) -> impl Fn(AppError) -> String {
    move |e| format!("seeding the demo fleet ({what}): {e}")
}

/// One selection of a planned machine.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotPlan {
    pub code: String,
    pub product: &'static str,
    pub max: i64,
    pub price: i64,
    pub weight: f64,
    pub expiry: Option<NaiveDate>,
}

/// A planned machine.
#[derive(Debug, Clone, PartialEq)]
pub struct MachinePlan {
    pub index: usize,
    pub name: String,
    pub serial: String,
    pub kind: Kind,
    pub model: usize,
    pub slots: Vec<SlotPlan>,
    pub bill_validator: bool,
    pub daily: f64,
    pub cashless_share: f64,
    pub audits: bool,
    pub collect_at: i64,
    pub float: i64,
}

/// A planned location and its machines.
#[derive(Debug, Clone, PartialEq)]
pub struct LocationPlan {
    pub city: usize,
    pub site: Site,
    pub name: String,
    pub address: String,
    pub lat: f64,
    pub lon: f64,
    pub route: usize,
    pub machines: Vec<MachinePlan>,
}

/// A route: its tag and its refiller.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutePlan {
    pub city: usize,
    pub tag: String,
    pub refiller: String,
    pub email: String,
}

/// The whole catalogue, before anything is stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub routes: Vec<RoutePlan>,
    pub locations: Vec<LocationPlan>,
}

#[cfg(test)]
impl Plan {
    /// The machines, in index order.
    pub fn machines(&self) -> impl Iterator<Item = (&LocationPlan, &MachinePlan)> {
        self.locations
            .iter()
            .flat_map(|l| l.machines.iter().map(move |m| (l, m)))
    }
}

fn zone(city: &City) -> chrono_tz::Tz {
    vendfleet_domain::calendar::parse_zone(city.zone).unwrap_or(chrono_tz::Europe::Paris)
}

fn lists(
    italian: bool,
) -> (
    &'static [ProductSpec],
    &'static [ProductSpec],
    Vec<&'static ProductSpec>,
) {
    let (snacks, drinks, hot) = if italian {
        (data::IT_SNACKS, data::IT_DRINKS, data::IT_HOT)
    } else {
        (data::FR_SNACKS, data::FR_DRINKS, data::FR_HOT)
    };
    (snacks, drinks, hot.iter().map(|(p, _)| p).collect())
}

fn ascii_lower(s: &str) -> String {
    super::audit::element_text(s, 64)
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == ' ' || *c == '-')
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(".")
}

/// Plans `opts.machines` machines from `opts.seed`; dates (expiry) are relative to `now`.
pub fn plan(opts: &Options, now: DateTime<Utc>) -> Plan {
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut locations: Vec<LocationPlan> = Vec::new();
    let mut names = BTreeSet::new();
    let mut per_city = vec![0usize; CITIES.len()];
    let mut index = 0;
    while index < opts.machines {
        let city_i = weighted(&mut rng, CITIES.iter().map(|c| c.weight)).unwrap_or(0);
        let city = &CITIES[city_i];
        let site = data::SITE_WEIGHTS
            [weighted(&mut rng, data::SITE_WEIGHTS.iter().map(|s| s.1)).unwrap_or(0)]
        .0;
        per_city[city_i] += 1;
        let pick = rng.random_range(0..1000);
        let base = data::site_name(site, city.italian, pick, city);
        let base = if site == Site::Station {
            base
        } else {
            format!("{base} — {}", city.name)
        };
        let mut name = base.clone();
        let mut n = 2;
        while !names.insert(name.to_lowercase()) {
            name = format!("{base} {n}");
            n += 1;
        }
        let street = city.streets[rng.random_range(0..city.streets.len())];
        let postcode = city.postcodes[rng.random_range(0..city.postcodes.len())];
        let number = rng.random_range(1..=180);
        let address = if city.italian {
            format!("{street} {number}, {postcode} {}", city.name)
        } else {
            format!("{number} {street}, {postcode} {}", city.name)
        };
        let lat = city.lat + normal(&mut rng) * 0.02;
        let lon = city.lon + normal(&mut rng) * 0.03;
        let (lo, hi) = data::machines_per_location(site);
        let count = rng.random_range(lo..=hi).min(opts.machines - index);
        let kinds = [Kind::Snack, Kind::ColdDrinks, Kind::Coffee];
        let first = kinds
            .iter()
            .position(|k| *k == data::first_kind(site))
            .unwrap_or(0);
        let ordinal = per_city[city_i];
        let mut machines = Vec::new();
        for j in 0..count {
            let kind = kinds[(first + j) % 3];
            machines.push(plan_machine(
                &mut rng, index, city, site, kind, ordinal, j, now,
            ));
            index += 1;
        }
        locations.push(LocationPlan {
            city: city_i,
            site,
            name,
            address,
            lat: (lat * 1e5).round() / 1e5,
            lon: (lon * 1e5).round() / 1e5,
            route: 0,
            machines,
        });
    }
    // Routes: one per 20 machines of a city; its locations dealt out in turn.
    let mut routes = Vec::new();
    let mut used_names = (0usize, 0usize);
    for (city_i, city) in CITIES.iter().enumerate() {
        let machines: usize = locations
            .iter()
            .filter(|l| l.city == city_i)
            .map(|l| l.machines.len())
            .sum();
        if machines == 0 {
            continue;
        }
        let count = machines.div_ceil(20);
        let first_route = routes.len();
        for n in 0..count {
            let (pool, used) = if city.italian {
                (data::IT_REFILLERS, &mut used_names.1)
            } else {
                (data::FR_REFILLERS, &mut used_names.0)
            };
            let refiller = pool[*used % pool.len()].to_string();
            let round = *used / pool.len();
            *used += 1;
            let mut email = ascii_lower(&refiller);
            if round > 0 {
                email = format!("{email}{}", round + 1);
            }
            routes.push(RoutePlan {
                city: city_i,
                tag: format!("Route {} {}", city.name, n + 1),
                refiller,
                email: format!("{email}@demo.vendfleet.local"),
            });
        }
        for (k, l) in locations
            .iter_mut()
            .filter(|l| l.city == city_i)
            .enumerate()
        {
            l.route = first_route + k % count;
        }
    }
    Plan { routes, locations }
}

#[allow(clippy::too_many_arguments)]
fn plan_machine(
    rng: &mut StdRng,
    index: usize,
    city: &City,
    site: Site,
    kind: Kind,
    ordinal: usize,
    j: usize,
    now: DateTime<Utc>,
) -> MachinePlan {
    let (snacks, drinks, hot) = lists(city.italian);
    let models: Vec<usize> = data::MODELS
        .iter()
        .enumerate()
        .filter(|(_, m)| m.4 == kind)
        .map(|(i, _)| i)
        .collect();
    let model = models[rng.random_range(0..models.len())];
    let today = vendfleet_domain::calendar::local_date(now, zone(city));
    let (codes, pool, max_range): (Vec<String>, Vec<&ProductSpec>, (i64, i64)) = match kind {
        Kind::Snack => {
            let (rows, cols) = loop {
                let r = rng.random_range(2..=6);
                let c = rng.random_range(4..=8);
                if (8..=40).contains(&(r * c)) {
                    break (r, c);
                }
            };
            let codes = (0..rows)
                .flat_map(|r| (1..=cols).map(move |c| format!("{}{c}", (b'A' + r as u8) as char)))
                .collect();
            (codes, snacks.iter().collect(), (6, 15))
        }
        Kind::ColdDrinks => {
            let n = rng.random_range(8..=24);
            let codes = (1..=n).map(|i| format!("{}", 10 + i)).collect();
            (codes, drinks.iter().collect(), (10, 24))
        }
        Kind::Coffee => {
            let n = rng.random_range(8..=hot.len().min(14));
            let codes = (1..=n).map(|i| i.to_string()).collect();
            (codes, hot.clone(), (150, 400))
        }
    };
    // Products in a shuffled order, the popular ones repeated when there are more slots.
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.shuffle(rng);
    let mut by_popularity = order.clone();
    by_popularity.sort_by(|a, b| pool[*b].3.total_cmp(&pool[*a].3));
    let factor = data::price_factor(site);
    let expiry_machine = rng.random_bool(0.1);
    let mut slots = Vec::new();
    for (k, code) in codes.into_iter().enumerate() {
        let p = if k < order.len() {
            pool[order[k]]
        } else {
            pool[by_popularity[(k - order.len()) % by_popularity.len()]]
        };
        let (lo, hi) = if p.4 { (4, 8) } else { max_range };
        let max = rng.random_range(lo..=hi);
        let price = ((p.1 as f64 * factor / 10.0).round() as i64) * 10;
        let weight = p.3 * (normal(rng) * 0.25).exp();
        let expiry = if p.4 {
            Some(today + Duration::days(rng.random_range(1..=4)))
        } else if expiry_machine && rng.random_bool(0.15) {
            Some(today + Duration::days(rng.random_range(-1..=3)))
        } else {
            None
        };
        slots.push(SlotPlan {
            code,
            product: p.0,
            max,
            price,
            weight,
            expiry,
        });
    }
    let noise = (normal(rng) * 0.3).exp();
    let share =
        site.cashless_share() + normal(rng) * 0.03 - if kind == Kind::Coffee { 0.03 } else { 0.0 };
    let kind_code = match kind {
        Kind::Snack => "S",
        Kind::ColdDrinks => "D",
        Kind::Coffee => "C",
    };
    MachinePlan {
        index,
        name: format!("{}{:03}-{kind_code}{}", city.code, ordinal, j + 1),
        serial: format!("SN-{:06}", 100_001 + index),
        kind,
        model,
        slots,
        bill_validator: rng.random_bool(if kind == Kind::Coffee { 0.2 } else { 0.6 }),
        daily: site.base_daily() * kind.factor() * noise,
        cashless_share: share.clamp(0.45, 0.65),
        audits: rng.random_bool(0.12),
        collect_at: rng.random_range(60..=120) * 100,
        float: rng.random_range(30..=50) * 100,
    }
}

/// What the catalogue made.
pub struct Made {
    /// Each machine's id and its simulator, in index order.
    pub machines: Vec<(String, MachineSim)>,
    pub clients: usize,
    pub locations: usize,
    pub products: usize,
    pub refillers: usize,
}

/// Names of the records already there, lower-case, to reuse them (a catalogue left by an
/// earlier attempt, or made by hand before the first machine).
fn by_name<'a>(items: impl Iterator<Item = (&'a str, &'a str)>) -> BTreeMap<String, String> {
    items
        .map(|(name, id)| (name.to_lowercase(), id.to_string()))
        .collect()
}

/// Makes the planned catalogue through the services, acting as `admin`.
pub async fn make(
    app: &App,
    admin: &Principal,
    opts: &Options,
    plan: &Plan,
) -> Result<Made, String> {
    // The refiller role and the route tags.
    let role_id = match app
        .users
        .directory()
        .all_roles()
        .await
        .map_err(err("roles"))?
        .into_iter()
        .find(|r| r.name.eq_ignore_ascii_case("Refiller"))
    {
        Some(r) => r.id,
        None => {
            app.users
                .create_role(
                    admin,
                    RoleInput {
                        name: "Refiller".into(),
                        modules: data::REFILLER_MODULES
                            .iter()
                            .map(|m| m.to_string())
                            .collect(),
                        version: None,
                    },
                )
                .await
                .map_err(err("the refiller role"))?
                .role
                .id
        }
    };
    let tags = app.machines.tags().all().await.map_err(err("tags"))?;
    let mut known = by_name(tags.iter().map(|t| (t.name.as_str(), t.id.as_str())));
    let mut route_tags = Vec::new();
    let mut refillers = Vec::new();
    for r in &plan.routes {
        let tag = match known.get(&r.tag.to_lowercase()) {
            Some(id) => id.clone(),
            None => {
                let id = app
                    .machines
                    .create_tag(&r.tag)
                    .await
                    .map_err(err("a route tag"))?
                    .id;
                known.insert(r.tag.to_lowercase(), id.clone());
                id
            }
        };
        let existing = app
            .users
            .directory()
            .user_by_email(&r.email)
            .await
            .map_err(err("users"))?;
        let user_id = match existing {
            Some(u) => u.id,
            None => {
                // A random password nobody knows: an administrator sets one to sign in as them.
                let mut raw = [0u8; 18];
                rand::Rng::fill(&mut rand::rng(), &mut raw);
                let password: String = raw.iter().map(|b| format!("{b:02x}")).collect();
                app.users
                    .create_user(
                        admin,
                        UserInput {
                            name: r.refiller.clone(),
                            email: r.email.clone(),
                            password: Some(password),
                            role_id: Some(role_id.clone()),
                            language: Some(if CITIES[r.city].italian { "it" } else { "fr" }.into()),
                            position: "Refiller".into(),
                            machine_tag_ids: vec![tag.clone()],
                            ..Default::default()
                        },
                    )
                    .await
                    .map_err(err("a refiller"))?
                    .user
                    .id
            }
        };
        route_tags.push(tag);
        refillers.push(user_id);
    }

    // Clients.
    let s = &app.fleet;
    let existing = s.clients().all().await.map_err(err("clients"))?;
    let mut clients = by_name(existing.iter().map(|c| (c.name.as_str(), c.id.as_str())));
    let mut used_clients = BTreeSet::new();
    for l in &plan.locations {
        if let Some((name, bps)) = data::client_of(l.site, CITIES[l.city].italian) {
            used_clients.insert(name);
            if let Entry::Vacant(slot) = clients.entry(name.to_lowercase()) {
                let c = s
                    .create_client(ClientInput {
                        name: name.into(),
                        commission_bps: Some(bps),
                        ..data::client_contact(name, CITIES[l.city].italian)
                    })
                    .await
                    .map_err(err("a client"))?;
                slot.insert(c.id);
            }
        }
    }

    // Models.
    let existing = s.models().all().await.map_err(err("models"))?;
    let mut models = by_name(existing.iter().map(|m| (m.name.as_str(), m.id.as_str())));
    for (name, kind, maker, _, _) in data::MODELS {
        if let Entry::Vacant(slot) = models.entry(name.to_lowercase()) {
            let m = s
                .create_model(ModelInput {
                    name: (*name).into(),
                    model_type: (*kind).into(),
                    manufacturer: (*maker).into(),
                    version: None,
                })
                .await
                .map_err(err("a model"))?;
            slot.insert(m.id);
        }
    }

    // Products: tags, components, goods and hot drinks of both countries.
    let p = &app.products;
    let existing = p.tags().all().await.map_err(err("product tags"))?;
    let mut product_tags = by_name(existing.iter().map(|t| (t.name.as_str(), t.id.as_str())));
    for name in ["Snacks", "Cold drinks", "Hot drinks"] {
        if let Entry::Vacant(slot) = product_tags.entry(name.to_lowercase()) {
            let t = p.create_tag(name).await.map_err(err("a product tag"))?;
            slot.insert(t.id);
        }
    }
    let existing = p.components().all().await.map_err(err("components"))?;
    let mut components = by_name(existing.iter().map(|c| (c.name.as_str(), c.id.as_str())));
    for (name, unit) in data::COMPONENTS {
        if let Entry::Vacant(slot) = components.entry(name.to_lowercase()) {
            let c = p
                .create_component(ComponentInput {
                    name: (*name).into(),
                    unit: (*unit).into(),
                    inactive: false,
                    version: None,
                })
                .await
                .map_err(err("a component"))?;
            slot.insert(c.id);
        }
    }
    let existing = p.products().all().await.map_err(err("products"))?;
    let mut products = by_name(existing.iter().map(|x| (x.name.as_str(), x.id.as_str())));
    let goods = [
        (data::FR_SNACKS, "Snacks"),
        (data::IT_SNACKS, "Snacks"),
        (data::FR_DRINKS, "Cold drinks"),
        (data::IT_DRINKS, "Cold drinks"),
    ]
    .into_iter()
    .flat_map(|(list, tag)| list.iter().map(move |spec| (spec, tag, None)));
    let hot = data::FR_HOT
        .iter()
        .chain(data::IT_HOT)
        .map(|(spec, recipe)| (spec, "Hot drinks", Some(*recipe)));
    let tag_of = |name: &str| product_tags[&name.to_lowercase()].clone();
    let mut made_products = 0;
    for ((name, price, vat, _, _), tag, recipe) in goods.chain(hot) {
        if products.contains_key(&name.to_lowercase()) {
            continue;
        }
        // Hot drinks are composites: a cup made from components.
        let input = ProductInput {
            name: (*name).into(),
            price_minor: Some(*price),
            currency: "EUR".into(),
            vat_bps: Some(*vat),
            units: if recipe.is_some() { "cup" } else { "pcs" }.into(),
            // Goods fill spirals and columns (the planograms' largest); cups are made to order.
            max_quantity: recipe
                .is_none()
                .then_some(if tag == "Cold drinks" { 24 } else { 15 }),
            tag_ids: vec![tag_of(tag)],
            is_composite: recipe.is_some(),
            recipe: recipe.map(|lines| {
                lines
                    .iter()
                    .map(|(c, q)| RecipeLineInput {
                        component_id: components[&data::COMPONENTS[*c].0.to_lowercase()].clone(),
                        quantity: Some(*q),
                    })
                    .collect()
            }),
            ..Default::default()
        };
        let made = p
            .create_product(admin, input)
            .await
            .map_err(err("a product"))?;
        products.insert(name.to_lowercase(), made.id);
        made_products += 1;
    }

    // Locations, then their machines with planograms.
    let existing = s.locations().all().await.map_err(err("locations"))?;
    let mut locations = by_name(existing.iter().map(|l| (l.name.as_str(), l.id.as_str())));
    let mut machines = Vec::with_capacity(opts.machines);
    let mut planograms: JoinSet<Result<(), String>> = JoinSet::new();
    for l in &plan.locations {
        let city = &CITIES[l.city];
        let client_id = data::client_of(l.site, city.italian)
            .map(|(name, _)| clients[&name.to_lowercase()].clone());
        let location_id = match locations.get(&l.name.to_lowercase()) {
            Some(id) => id.clone(),
            None => {
                let made = s
                    .create_location(
                        admin,
                        LocationInput {
                            name: l.name.clone(),
                            address: l.address.clone(),
                            location_type: l.site.label().into(),
                            region: city.region.into(),
                            client_id,
                            refiller_id: Some(refillers[l.route].clone()),
                            latitude: Some(l.lat),
                            longitude: Some(l.lon),
                            time_zone: city.zone.into(),
                            version: None,
                        },
                    )
                    .await
                    .map_err(err("a location"))?;
                locations.insert(l.name.to_lowercase(), made.id.clone());
                made.id
            }
        };
        for m in &l.machines {
            let (model_name, _, _, firmware, _) = data::MODELS[m.model];
            let device = |prefix: &str, fitted: bool| Device {
                fitted,
                serial: if fitted {
                    format!("{prefix}-{:06}", 500_001 + m.index)
                } else {
                    String::new()
                },
                model: String::new(),
            };
            let made = app
                .machines
                .create(
                    admin,
                    MachineInput {
                        name: m.name.clone(),
                        serial: m.serial.clone(),
                        mcu_serial: format!("MCU-{:06}", 700_001 + m.index),
                        model_id: Some(models[&model_name.to_lowercase()].clone()),
                        location_id: Some(location_id.clone()),
                        firmware: firmware.into(),
                        connection_method: "telemetry".into(),
                        protocol: "EVA-DTS".into(),
                        tag_ids: vec![route_tags[l.route].clone()],
                        peripherals: Peripherals {
                            coin_changer: device("CC", true),
                            bill_validator: device("BV", m.bill_validator),
                            cashless: device("CL", true),
                        },
                        currency: Some("EUR".into()),
                        decimal_places: Some(2),
                        // Machines read daily count their sales from the audits.
                        sales_source: m.audits.then_some(SalesSource::Audit),
                        // The card reader's terminal at the processor (settlement files).
                        terminal_id: Some(format!("NYX{:07}", 3_100_001 + m.index)),
                        // Its id at Nayax (`vendfleet simulate --nayax` sends as Nayax Core).
                        nayax_machine_id: Some((54_265 + m.index).to_string()),
                        ..Default::default()
                    },
                )
                .await
                .map_err(err("a machine"))?;
            let inputs: Vec<SelectionInput> = m
                .slots
                .iter()
                .map(|slot| SelectionInput {
                    selection: slot.code.clone(),
                    product_id: products[&slot.product.to_lowercase()].clone(),
                    max: slot.max,
                    price_minor: slot.price,
                    current: 0,
                    expiry_date: slot.expiry.map(|d| d.to_string()),
                })
                .collect();
            // Planograms of a few machines at once: their reads overlap the store's writes.
            while planograms.len() >= PARALLEL_PLANOGRAMS {
                if let Some(done) = planograms.join_next().await {
                    done.map_err(|e| format!("seeding the demo fleet: {e}"))??;
                }
            }
            let (app, admin, id) = (app.clone(), admin.clone(), made.id.clone());
            planograms.spawn(async move {
                for input in inputs {
                    app.machines
                        .upsert_selection(&admin, &id, input)
                        .await
                        .map_err(err("a selection"))?;
                }
                Ok(())
            });
            machines.push((made.id, simulator(opts.seed, l, m, &refillers[l.route])));
        }
    }
    while let Some(done) = planograms.join_next().await {
        done.map_err(|e| format!("seeding the demo fleet: {e}"))??;
    }
    Ok(Made {
        machines,
        clients: used_clients.len(),
        locations: plan.locations.len(),
        products: made_products,
        refillers: plan.routes.len(),
    })
}

/// The simulator of a planned machine, empty (the history starts with the route filling it).
pub fn simulator(seed: u64, l: &LocationPlan, m: &MachinePlan, refiller: &str) -> MachineSim {
    let city = &CITIES[l.city];
    let setup = Setup {
        id_prefix: m.serial.clone(),
        serial: m.serial.clone(),
        model: data::MODELS[m.model].0.into(),
        location: l.name.clone(),
        kind: m.kind,
        site: l.site,
        italian: city.italian,
        zone: zone(city),
        refiller: Some(refiller.to_string()),
        daily: m.daily,
        cashless_share: m.cashless_share,
        audits: m.audits,
        collect_at: m.collect_at,
    };
    let slots = m
        .slots
        .iter()
        .map(|s| {
            Slot::new(
                s.code.clone(),
                s.product.into(),
                s.max,
                0,
                s.price,
                s.weight,
            )
        })
        .collect();
    MachineSim::new(
        setup,
        slots,
        Cash::new(m.float, m.bill_validator),
        mix(seed, m.index as u64),
        0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(machines: usize, seed: u64) -> Options {
        Options {
            machines,
            days: 1,
            seed,
        }
    }

    #[test]
    fn the_plan_is_the_same_for_a_seed_and_differs_between_seeds() {
        let now = "2026-03-15T10:00:00Z".parse().unwrap();
        let a = plan(&opts(200, 1), now);
        assert_eq!(a, plan(&opts(200, 1), now));
        assert_ne!(a, plan(&opts(200, 2), now));
        assert_eq!(a.machines().count(), 200);
        let names: BTreeSet<String> = a.machines().map(|(_, m)| m.name.clone()).collect();
        assert_eq!(names.len(), 200, "machine names are unique");
        let locations: BTreeSet<String> =
            a.locations.iter().map(|l| l.name.to_lowercase()).collect();
        assert_eq!(
            locations.len(),
            a.locations.len(),
            "location names are unique"
        );
        for (i, (_, m)) in a.machines().enumerate() {
            assert_eq!(m.index, i);
            assert!(
                (8..=40).contains(&m.slots.len()),
                "{}: {}",
                m.name,
                m.slots.len()
            );
            let codes: BTreeSet<&str> = m.slots.iter().map(|s| s.code.as_str()).collect();
            assert_eq!(codes.len(), m.slots.len());
            assert!((0.45..=0.65).contains(&m.cashless_share));
        }
        for kind in [Kind::Snack, Kind::ColdDrinks, Kind::Coffee] {
            assert!(a.machines().any(|(_, m)| m.kind == kind));
        }
        let cities: BTreeSet<usize> = a.locations.iter().map(|l| l.city).collect();
        assert_eq!(cities.len(), CITIES.len(), "200 machines reach every city");
        let emails: BTreeSet<&str> = a.routes.iter().map(|r| r.email.as_str()).collect();
        assert_eq!(emails.len(), a.routes.len());
        assert!(a
            .machines()
            .any(|(_, m)| m.slots.iter().any(|s| s.expiry.is_some())));
    }

    #[test]
    fn a_tiny_fleet_is_planned_exactly() {
        let now = "2026-03-15T10:00:00Z".parse().unwrap();
        for n in [1, 2, 3, 7] {
            assert_eq!(plan(&opts(n, 9), now).machines().count(), n);
        }
    }
}
