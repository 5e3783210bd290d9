//! The demo fleet's raw material: cities with real streets, site names, clients, machine models,
//! products with their VAT (France and Italy), recipes and refillers' names.

use super::sim::{Kind, Site};

/// A city the operator works in.
pub struct City {
    pub name: &'static str,
    /// Three letters for machine names.
    pub code: &'static str,
    pub italian: bool,
    pub region: &'static str,
    pub lat: f64,
    pub lon: f64,
    pub zone: &'static str,
    /// Share of the fleet.
    pub weight: f64,
    pub streets: &'static [&'static str],
    /// Postcodes of the city's districts.
    pub postcodes: &'static [&'static str],
    pub stations: &'static [&'static str],
}

pub const CITIES: &[City] = &[
    City {
        name: "Paris",
        code: "PAR",
        italian: false,
        region: "Île-de-France",
        lat: 48.8566,
        lon: 2.3522,
        zone: "Europe/Paris",
        weight: 0.22,
        streets: &[
            "Rue de Rivoli",
            "Boulevard Haussmann",
            "Rue de Dunkerque",
            "Avenue de France",
            "Rue de Vaugirard",
            "Boulevard Saint-Michel",
            "Rue du Faubourg Saint-Antoine",
            "Avenue d'Italie",
            "Rue de la Convention",
            "Boulevard de l'Hôpital",
        ],
        postcodes: &[
            "75001", "75004", "75005", "75010", "75011", "75012", "75013", "75014", "75015",
            "75017",
        ],
        stations: &[
            "Gare du Nord",
            "Gare de Lyon",
            "Gare Montparnasse",
            "Gare Saint-Lazare",
            "Gare de l'Est",
        ],
    },
    City {
        name: "Lyon",
        code: "LYS",
        italian: false,
        region: "Auvergne-Rhône-Alpes",
        lat: 45.7640,
        lon: 4.8357,
        zone: "Europe/Paris",
        weight: 0.12,
        streets: &[
            "Rue Garibaldi",
            "Cours Lafayette",
            "Rue de la République",
            "Avenue Jean Jaurès",
            "Boulevard Marius Vivier-Merle",
            "Rue Paul Bert",
            "Cours Gambetta",
            "Avenue Berthelot",
        ],
        postcodes: &[
            "69001", "69002", "69003", "69006", "69007", "69008", "69009",
        ],
        stations: &["Gare de Lyon-Part-Dieu", "Gare de Lyon-Perrache"],
    },
    City {
        name: "Marseille",
        code: "MRS",
        italian: false,
        region: "Provence-Alpes-Côte d'Azur",
        lat: 43.2965,
        lon: 5.3698,
        zone: "Europe/Paris",
        weight: 0.10,
        streets: &[
            "La Canebière",
            "Rue de Rome",
            "Boulevard Baille",
            "Avenue du Prado",
            "Rue Saint-Ferréol",
            "Boulevard National",
            "Rue Paradis",
        ],
        postcodes: &[
            "13001", "13003", "13004", "13005", "13006", "13008", "13010",
        ],
        stations: &["Gare Saint-Charles", "Gare de la Blancarde"],
    },
    City {
        name: "Lille",
        code: "LIL",
        italian: false,
        region: "Hauts-de-France",
        lat: 50.6292,
        lon: 3.0573,
        zone: "Europe/Paris",
        weight: 0.07,
        streets: &[
            "Rue Nationale",
            "Boulevard de la Liberté",
            "Rue Solférino",
            "Avenue du Peuple Belge",
            "Rue Faidherbe",
            "Boulevard Vauban",
            "Rue Gambetta",
        ],
        postcodes: &["59000", "59800"],
        stations: &["Gare Lille-Flandres", "Gare Lille-Europe"],
    },
    City {
        name: "Milano",
        code: "MIL",
        italian: true,
        region: "Lombardia",
        lat: 45.4642,
        lon: 9.1900,
        zone: "Europe/Rome",
        weight: 0.18,
        streets: &[
            "Via Torino",
            "Corso Buenos Aires",
            "Via Padova",
            "Viale Monza",
            "Corso Como",
            "Via Vittor Pisani",
            "Viale Sarca",
            "Via Giuseppe Ripamonti",
        ],
        postcodes: &[
            "20121", "20124", "20125", "20126", "20127", "20135", "20141", "20154",
        ],
        stations: &[
            "Stazione Centrale",
            "Stazione Porta Garibaldi",
            "Stazione Cadorna",
        ],
    },
    City {
        name: "Torino",
        code: "TRN",
        italian: true,
        region: "Piemonte",
        lat: 45.0703,
        lon: 7.6869,
        zone: "Europe/Rome",
        weight: 0.09,
        streets: &[
            "Via Roma",
            "Corso Vittorio Emanuele II",
            "Via Nizza",
            "Corso Duca degli Abruzzi",
            "Via Po",
            "Corso Francia",
            "Via Garibaldi",
        ],
        postcodes: &[
            "10121", "10122", "10123", "10126", "10129", "10138", "10143",
        ],
        stations: &["Stazione Porta Nuova", "Stazione Porta Susa"],
    },
    City {
        name: "Roma",
        code: "ROM",
        italian: true,
        region: "Lazio",
        lat: 41.9028,
        lon: 12.4964,
        zone: "Europe/Rome",
        weight: 0.14,
        streets: &[
            "Via del Corso",
            "Via Nazionale",
            "Viale di Trastevere",
            "Via Tiburtina",
            "Via Appia Nuova",
            "Viale Regina Elena",
            "Via Cavour",
        ],
        postcodes: &[
            "00184", "00185", "00153", "00162", "00179", "00161", "00186",
        ],
        stations: &[
            "Stazione Termini",
            "Stazione Tiburtina",
            "Stazione Ostiense",
        ],
    },
    City {
        name: "Bologna",
        code: "BLQ",
        italian: true,
        region: "Emilia-Romagna",
        lat: 44.4949,
        lon: 11.3426,
        zone: "Europe/Rome",
        weight: 0.08,
        streets: &[
            "Via dell'Indipendenza",
            "Via Emilia Levante",
            "Via Zamboni",
            "Viale Masini",
            "Via Massarenti",
            "Via Saragozza",
            "Via Marconi",
        ],
        postcodes: &["40121", "40125", "40126", "40127", "40138"],
        stations: &["Stazione di Bologna Centrale"],
    },
];

/// Share of locations by site.
pub const SITE_WEIGHTS: [(Site, f64); 7] = [
    (Site::Station, 0.12),
    (Site::Hospital, 0.13),
    (Site::Office, 0.27),
    (Site::School, 0.11),
    (Site::University, 0.11),
    (Site::Factory, 0.15),
    (Site::Gym, 0.11),
];

/// Machines at one location of a site, at least and at most.
pub fn machines_per_location(site: Site) -> (usize, usize) {
    match site {
        Site::Station | Site::Hospital => (2, 4),
        Site::University => (2, 3),
        Site::Office | Site::Factory => (1, 3),
        Site::School | Site::Gym => (1, 2),
    }
}

/// The kinds of machine a site gets first (then the others in turn).
pub fn first_kind(site: Site) -> Kind {
    match site {
        Site::Office | Site::Hospital | Site::Factory => Kind::Coffee,
        Site::Gym => Kind::ColdDrinks,
        Site::Station | Site::School | Site::University => Kind::Snack,
    }
}

/// Prices at a site relative to the list price.
pub fn price_factor(site: Site) -> f64 {
    match site {
        Site::Station => 1.1,
        Site::Hospital => 1.05,
        Site::School => 0.95,
        _ => 1.0,
    }
}

pub const FR_NAMESAKES: &[&str] = &[
    "Pasteur",
    "Jean Moulin",
    "Victor Hugo",
    "Marie Curie",
    "Voltaire",
    "Jules Ferry",
    "Saint-Louis",
    "Lavoisier",
    "Jean Jaurès",
    "Simone Veil",
];
pub const IT_NAMESAKES: &[&str] = &[
    "Galileo Galilei",
    "Alessandro Volta",
    "San Giovanni",
    "Leonardo da Vinci",
    "Sant'Orsola",
    "Enrico Fermi",
    "Guglielmo Marconi",
    "Dante Alighieri",
    "Maria Montessori",
    "San Luca",
];
pub const FR_BUILDINGS: &[&str] = &[
    "Tour Horizon",
    "Le Sémaphore",
    "Parc Avenir",
    "Espace Lumière",
    "Le Trident",
    "Les Docks",
];
pub const IT_BUILDINGS: &[&str] = &[
    "Torre Aurora",
    "Centro Direzionale Nord",
    "Palazzo Meridiana",
    "Business Park Sud",
    "Torre Vega",
    "Corte dei Mercanti",
];
pub const FR_COMPANIES: &[&str] = &[
    "Delattre Emballages",
    "Mécanique du Rhône",
    "Textiles du Nord",
    "Agro Provence",
    "Verrerie Moderne",
];
pub const IT_COMPANIES: &[&str] = &[
    "Ferraris Meccanica",
    "Tessiture Lombarde",
    "Officine Emiliane",
    "Pastificio Romano",
    "Vetreria Sabauda",
];
pub const FR_CAMPUSES: &[&str] = &["Centre", "Sciences", "Santé", "Lettres"];
pub const IT_CAMPUSES: &[&str] = &["Ingegneria", "Economia", "Medicina", "Lettere"];
pub const FR_GYMS: &[&str] = &["Forme Plus", "Cardio Club", "Move Studio"];
pub const IT_GYMS: &[&str] = &["Olimpia", "Virtus", "Energia"];

/// The site's location name before its city and number.
pub fn site_name(site: Site, italian: bool, pick: usize, city: &City) -> String {
    let from = |list: &[&str]| list[pick % list.len()].to_string();
    match (site, italian) {
        (Site::Station, false) => {
            let spots = ["Hall", "Quai", "Galerie"];
            format!(
                "{} — {} {}",
                from(city.stations),
                spots[pick % 3],
                pick % 4 + 1
            )
        }
        (Site::Station, true) => {
            let spots = ["Atrio", "Binario", "Galleria"];
            format!(
                "{} — {} {}",
                from(city.stations),
                spots[pick % 3],
                pick % 12 + 1
            )
        }
        (Site::Hospital, false) => format!("Hôpital {}", from(FR_NAMESAKES)),
        (Site::Hospital, true) => format!("Ospedale {}", from(IT_NAMESAKES)),
        (Site::Office, false) => format!("Bureaux {}", from(FR_BUILDINGS)),
        (Site::Office, true) => format!("Uffici {}", from(IT_BUILDINGS)),
        (Site::School, false) => format!("Lycée {}", from(FR_NAMESAKES)),
        (Site::School, true) => format!("Liceo {}", from(IT_NAMESAKES)),
        (Site::University, false) => format!("Université — Campus {}", from(FR_CAMPUSES)),
        (Site::University, true) => format!("Università — Sede {}", from(IT_CAMPUSES)),
        (Site::Factory, false) => format!("Usine {}", from(FR_COMPANIES)),
        (Site::Factory, true) => format!("Stabilimento {}", from(IT_COMPANIES)),
        (Site::Gym, false) => format!("Salle de sport {}", from(FR_GYMS)),
        (Site::Gym, true) => format!("Palestra {}", from(IT_GYMS)),
    }
}

/// The client hosting a site's locations, by country (offices only some of the time), with its
/// commission in basis points.
pub fn client_of(site: Site, italian: bool) -> Option<(&'static str, i64)> {
    Some(match (site, italian) {
        (Site::Station, false) => ("Gares & Quais SA", 800),
        (Site::Station, true) => ("Stazioni Italia SpA", 900),
        (Site::Hospital, false) => ("Groupe Hospitalier Rive Gauche", 500),
        (Site::Hospital, true) => ("Azienda Ospedaliera San Luca", 500),
        (Site::University, false) => ("Campus Horizon SAS", 600),
        (Site::University, true) => ("Ateneo Servizi Srl", 600),
        (Site::Factory, false) => ("Industries Delattre", 300),
        (Site::Factory, true) => ("Officine Ferraris SpA", 300),
        (Site::Office, false) => ("Immobilière Lumière", 400),
        (Site::Office, true) => ("Aurora Uffici Srl", 400),
        _ => return None,
    })
}

/// A client's contact: a named person, an address at the client's (reserved `.example`) domain
/// and a phone number of its country, all made from its name.
pub fn client_contact(name: &str, italian: bool) -> vendfleet_app::fleet::ClientInput {
    let slug: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_lowercase();
    let n = name
        .bytes()
        .fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let (contact, phone) = if italian {
        (
            "Giulia Conti",
            format!("+39 02 {:04} {:04}", n % 10_000, (n / 10_000) % 10_000),
        )
    } else {
        (
            "Claire Martin",
            format!(
                "+33 1 {:02} {:02} {:02} {:02}",
                n % 100,
                (n / 100) % 100,
                (n / 10_000) % 100,
                (n / 1_000_000) % 100
            ),
        )
    };
    vendfleet_app::fleet::ClientInput {
        contact_name: contact.into(),
        email: format!("contact@{slug}.example"),
        phone,
        ..Default::default()
    }
}

/// Machine models: name, type, manufacturer, firmware, kind.
pub const MODELS: &[(&str, &str, &str, &str, Kind)] = &[
    ("Kikko Max", "Hot drinks", "Evoca", "4.2.1", Kind::Coffee),
    ("Lei 700", "Hot drinks", "Bianchi", "3.8.0", Kind::Coffee),
    ("FK 300", "Snacks", "Sielaff", "2.11.4", Kind::Snack),
    ("Merchant 6", "Snacks", "Crane", "6.0.2", Kind::Snack),
    (
        "Visionline",
        "Cold drinks",
        "Sielaff",
        "2.9.7",
        Kind::ColdDrinks,
    ),
    (
        "Melodia Drinks",
        "Cold drinks",
        "Evoca",
        "4.0.3",
        Kind::ColdDrinks,
    ),
];

/// A product of the list: name, list price (cents), VAT (basis points), popularity,
/// perishable (gets an expiry date).
pub type ProductSpec = (&'static str, i64, i64, f64, bool);

pub const FR_SNACKS: &[ProductSpec] = &[
    ("Chips nature 45 g", 150, 550, 1.6, false),
    ("Chips paprika 45 g", 150, 550, 1.0, false),
    ("Barre chocolat-caramel", 140, 2000, 2.0, false),
    ("Barre chocolat-noisettes", 150, 2000, 1.5, false),
    ("Gaufrette chocolat", 120, 2000, 0.9, false),
    ("Biscuits sablés", 130, 550, 0.8, false),
    ("Cookies pépites de chocolat", 160, 550, 1.1, false),
    ("Madeleines x2", 130, 550, 0.7, false),
    ("Barre de céréales", 120, 550, 0.9, false),
    ("Cacahuètes grillées 50 g", 140, 550, 0.6, false),
    ("Bonbons gélifiés 100 g", 170, 2000, 0.8, false),
    ("Chewing-gum menthe", 110, 2000, 0.7, false),
    ("Sandwich jambon-beurre", 390, 1000, 1.3, true),
    ("Salade de pâtes", 450, 1000, 0.7, true),
    ("Compote à boire", 130, 550, 0.5, false),
    ("Crackers au fromage", 150, 550, 0.6, false),
    ("Pain au chocolat", 180, 1000, 0.9, true),
    ("Mélange de fruits secs", 220, 550, 0.5, false),
];

pub const IT_SNACKS: &[ProductSpec] = &[
    ("Patatine classiche 40 g", 130, 1000, 1.6, false),
    ("Patatine alla paprika 40 g", 130, 1000, 0.9, false),
    ("Wafer al cacao", 100, 1000, 1.2, false),
    ("Barretta cioccolato e caramello", 130, 2200, 1.8, false),
    ("Barretta cioccolato al latte", 120, 2200, 1.4, false),
    ("Crackers integrali", 90, 1000, 0.9, false),
    ("Taralli pugliesi", 120, 1000, 1.0, false),
    ("Biscotti frollini", 110, 1000, 0.8, false),
    ("Merendina all'albicocca", 100, 1000, 0.8, false),
    ("Grissini torinesi", 100, 1000, 0.6, false),
    ("Caramelle alla frutta", 150, 2200, 0.7, false),
    ("Gomme da masticare", 100, 2200, 0.6, false),
    ("Panino prosciutto e formaggio", 350, 1000, 1.2, true),
    ("Tramezzino tonno", 300, 1000, 0.9, true),
    ("Yogurt da bere", 150, 400, 0.5, true),
    ("Frutta secca mista", 200, 1000, 0.5, false),
    ("Cornetto alla crema", 130, 1000, 0.9, true),
    ("Barretta ai cereali", 110, 1000, 0.8, false),
];

pub const FR_DRINKS: &[ProductSpec] = &[
    ("Eau minérale 50 cl", 120, 550, 1.6, false),
    ("Eau pétillante 50 cl", 130, 550, 0.9, false),
    ("Cola 33 cl", 180, 550, 2.0, false),
    ("Cola zéro 33 cl", 180, 550, 1.4, false),
    ("Limonade 33 cl", 170, 550, 0.7, false),
    ("Thé glacé pêche 50 cl", 220, 550, 1.2, false),
    ("Jus d'orange 33 cl", 220, 550, 0.9, false),
    ("Boisson énergisante 25 cl", 250, 550, 1.0, false),
    ("Eau aromatisée citron 50 cl", 180, 550, 0.6, false),
    ("Soda orange 33 cl", 180, 550, 0.8, false),
    ("Café glacé 25 cl", 260, 550, 0.5, false),
    ("Jus de pomme 33 cl", 200, 550, 0.6, false),
];

pub const IT_DRINKS: &[ProductSpec] = &[
    ("Acqua naturale 50 cl", 80, 2200, 1.8, false),
    ("Acqua frizzante 50 cl", 80, 2200, 1.1, false),
    ("Bibita cola 33 cl", 150, 2200, 1.8, false),
    ("Bibita cola zero 33 cl", 150, 2200, 1.2, false),
    ("Tè freddo al limone 50 cl", 180, 2200, 1.3, false),
    ("Tè freddo alla pesca 50 cl", 180, 2200, 1.1, false),
    ("Aranciata 33 cl", 150, 2200, 1.0, false),
    ("Chinotto 33 cl", 150, 2200, 0.5, false),
    ("Succo di pesca 20 cl", 130, 2200, 0.7, false),
    ("Bevanda energetica 25 cl", 220, 2200, 0.8, false),
    ("Latte UHT 20 cl", 120, 400, 0.4, false),
    ("Acqua tonica 33 cl", 150, 2200, 0.4, false),
];

/// Components of the hot drinks: name, unit.
pub const COMPONENTS: &[(&str, &str)] = &[
    ("Cup", "pcs"),
    ("Coffee beans", "g"),
    ("Sugar", "g"),
    ("Stirrer", "pcs"),
    ("Milk powder", "g"),
    ("Chocolate powder", "g"),
    ("Tea", "g"),
    ("Decaffeinated coffee", "g"),
    ("Ginseng mix", "g"),
];

/// A hot drink: the product and its recipe (component index, quantity).
pub type HotDrink = (ProductSpec, &'static [(usize, i64)]);

pub const FR_HOT: &[HotDrink] = &[
    (
        ("Expresso", 70, 1000, 2.0, false),
        &[(0, 1), (1, 7), (3, 1)],
    ),
    (
        ("Café allongé", 80, 1000, 1.4, false),
        &[(0, 1), (1, 8), (3, 1)],
    ),
    (
        ("Double expresso", 120, 1000, 0.7, false),
        &[(0, 1), (1, 14), (3, 1)],
    ),
    (
        ("Café crème", 100, 1000, 1.2, false),
        &[(0, 1), (1, 7), (4, 10), (3, 1)],
    ),
    (
        ("Cappuccino", 120, 1000, 1.3, false),
        &[(0, 1), (1, 7), (4, 12), (3, 1)],
    ),
    (
        ("Café latte", 130, 1000, 0.8, false),
        &[(0, 1), (1, 7), (4, 15), (3, 1)],
    ),
    (
        ("Chocolat chaud", 110, 1000, 1.0, false),
        &[(0, 1), (5, 25), (3, 1)],
    ),
    (
        ("Mokaccino", 130, 1000, 0.5, false),
        &[(0, 1), (1, 7), (5, 12), (4, 8), (3, 1)],
    ),
    (
        ("Thé noir", 80, 1000, 0.6, false),
        &[(0, 1), (6, 2), (3, 1)],
    ),
    (
        ("Café décaféiné", 80, 1000, 0.5, false),
        &[(0, 1), (7, 7), (3, 1)],
    ),
    (
        ("Expresso sucré", 70, 1000, 0.9, false),
        &[(0, 1), (1, 7), (2, 6), (3, 1)],
    ),
];

pub const IT_HOT: &[HotDrink] = &[
    (
        ("Caffè espresso", 50, 1000, 2.2, false),
        &[(0, 1), (1, 7), (3, 1)],
    ),
    (
        ("Caffè lungo", 60, 1000, 1.0, false),
        &[(0, 1), (1, 8), (3, 1)],
    ),
    (
        ("Caffè macchiato", 60, 1000, 1.3, false),
        &[(0, 1), (1, 7), (4, 4), (3, 1)],
    ),
    (
        ("Cappuccino classico", 80, 1000, 1.4, false),
        &[(0, 1), (1, 7), (4, 12), (3, 1)],
    ),
    (
        ("Latte macchiato", 90, 1000, 0.7, false),
        &[(0, 1), (1, 7), (4, 15), (3, 1)],
    ),
    (
        ("Caffè decaffeinato", 60, 1000, 0.6, false),
        &[(0, 1), (7, 7), (3, 1)],
    ),
    (
        ("Cioccolata calda", 90, 1000, 0.9, false),
        &[(0, 1), (5, 25), (3, 1)],
    ),
    (
        ("Caffè al ginseng", 80, 1000, 0.8, false),
        &[(0, 1), (8, 12), (3, 1)],
    ),
    (
        ("Marocchino", 80, 1000, 0.6, false),
        &[(0, 1), (1, 7), (5, 8), (4, 6), (3, 1)],
    ),
    (
        ("Tè al limone", 60, 1000, 0.5, false),
        &[(0, 1), (6, 2), (2, 5), (3, 1)],
    ),
    (
        ("Caffè ristretto", 50, 1000, 0.7, false),
        &[(0, 1), (1, 6), (3, 1)],
    ),
];

pub const FR_REFILLERS: &[&str] = &[
    "Julien Moreau",
    "Sophie Lambert",
    "Karim Haddad",
    "Camille Petit",
    "Nicolas Girard",
    "Léa Fontaine",
    "Thomas Roux",
    "Inès Benali",
    "Hugo Mercier",
    "Manon Chevalier",
];
pub const IT_REFILLERS: &[&str] = &[
    "Marco Bianchi",
    "Giulia Russo",
    "Luca Ferrari",
    "Chiara Esposito",
    "Matteo Romano",
    "Sara Colombo",
    "Davide Ricci",
    "Elena Greco",
    "Francesco Bruno",
    "Alessia Gallo",
];

/// The modules of the refiller role: their routes, the machines' stock and cash.
pub const REFILLER_MODULES: &[&str] = &[
    "planning.route_planning.list",
    "planning.planned_routes.list",
    "settings.machines.list",
    "settings.machines.edit_quantity_expiry",
    "settings.machines.read_eva_dts",
    "settings.machines.collect_cash",
    "reports.refill_log.list",
    "reports.encashment.list",
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn product_names_are_unique_case_insensitively_and_prices_are_whole_ten_cents() {
        let mut names = BTreeSet::new();
        let hot = FR_HOT.iter().chain(IT_HOT).map(|(p, _)| p);
        for p in FR_SNACKS
            .iter()
            .chain(IT_SNACKS)
            .chain(FR_DRINKS)
            .chain(IT_DRINKS)
            .chain(hot)
        {
            assert!(names.insert(p.0.to_lowercase()), "{} twice", p.0);
            assert_eq!(p.1 % 10, 0, "{}", p.0);
        }
        for (_, recipe) in FR_HOT.iter().chain(IT_HOT) {
            assert!(recipe.iter().all(|(c, q)| *c < COMPONENTS.len() && *q > 0));
        }
        for modules in REFILLER_MODULES {
            assert!(vendfleet_domain::permissions::Permission::from_key(modules).is_some());
        }
    }
}
