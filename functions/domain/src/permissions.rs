//! The permission catalogue of spec section 6: every permission code as a stable key,
//! grouped by module as the spec groups them, with display names in English, French and Italian.

use serde::Serialize;

use crate::language::Language;

/// Names of one catalogue entry in the three interface languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    pub en: &'static str,
    pub fr: &'static str,
    pub it: &'static str,
}

impl Names {
    /// The name in `lang`.
    pub fn get(&self, lang: Language) -> &'static str {
        match lang {
            Language::En => self.en,
            Language::Fr => self.fr,
            Language::It => self.it,
        }
    }
}

const fn n(en: &'static str, fr: &'static str, it: &'static str) -> Names {
    Names { en, fr, it }
}

macro_rules! catalogue {
    (
        $(
            group $gkey:literal $gnames:expr => {
                $(
                    area $akey:literal $anames:expr =>
                        $( crud($list:ident, $new:ident, $edit:ident, $delete:ident) )? {
                        $( $variant:ident = $pkey:literal $pnames:expr ),* $(,)?
                    }
                )+
            }
        )+
    ) => {
        /// One permission code. `key()` is the stable key stored in roles and sent to the web.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Permission {
            $( $( $( $list, $new, $edit, $delete, )? $( $variant, )* )+ )+
        }

        impl Permission {
            /// Every permission, in catalogue order.
            pub const ALL: &'static [Permission] = &[
                $( $( $( Permission::$list, Permission::$new, Permission::$edit, Permission::$delete, )?
                      $( Permission::$variant, )* )+ )+
            ];

            /// The stable key, e.g. `settings.users.list`.
            pub fn key(self) -> &'static str {
                match self {
                    $( $( $(
                        Permission::$list => concat!($gkey, ".", $akey, ".list"),
                        Permission::$new => concat!($gkey, ".", $akey, ".new"),
                        Permission::$edit => concat!($gkey, ".", $akey, ".edit"),
                        Permission::$delete => concat!($gkey, ".", $akey, ".delete"),
                    )? $( Permission::$variant => concat!($gkey, ".", $akey, ".", $pkey), )* )+ )+
                }
            }

            /// The display name of the permission itself (e.g. "List").
            pub fn names(self) -> Names {
                match self {
                    $( $( $(
                        Permission::$list => LIST,
                        Permission::$new => NEW,
                        Permission::$edit => EDIT,
                        Permission::$delete => DELETE,
                    )? $( Permission::$variant => $pnames, )* )+ )+
                }
            }

            /// Parses a stable key.
            pub fn from_key(key: &str) -> Option<Permission> {
                static BY_KEY: std::sync::OnceLock<std::collections::HashMap<&'static str, Permission>> =
                    std::sync::OnceLock::new();
                BY_KEY
                    .get_or_init(|| Permission::ALL.iter().map(|p| (p.key(), *p)).collect())
                    .get(key)
                    .copied()
            }
        }

        /// The catalogue as a tree: modules (groups) → areas → permissions.
        pub const CATALOGUE: &[Group] = &[
            $(
                Group {
                    key: $gkey,
                    names: $gnames,
                    areas: &[
                        $(
                            Area {
                                key: concat!($gkey, ".", $akey),
                                names: $anames,
                                permissions: &[
                                    $( Permission::$list, Permission::$new, Permission::$edit, Permission::$delete, )?
                                    $( Permission::$variant, )*
                                ],
                            },
                        )+
                    ],
                },
            )+
        ];
    };
}

/// A module of the catalogue (Planning, Reports, Settings).
#[derive(Debug)]
pub struct Group {
    pub key: &'static str,
    pub names: Names,
    pub areas: &'static [Area],
}

/// One area of a module (e.g. Users) with its permissions.
#[derive(Debug)]
pub struct Area {
    pub key: &'static str,
    pub names: Names,
    pub permissions: &'static [Permission],
}

const LIST: Names = n("List", "Liste", "Elenco");
const NEW: Names = n("New", "Créer", "Nuovo");
const EDIT: Names = n("Edit", "Modifier", "Modifica");
const DELETE: Names = n("Delete", "Supprimer", "Elimina");
const EXPORT: Names = n("Export", "Exporter", "Esporta");
const FULL: Names = n("Full access", "Accès complet", "Accesso completo");
const CHANGE_EMPLOYEE: Names = n("Change employee", "Changer d'employé", "Cambia dipendente");

catalogue! {
    group "planning" n("Planning", "Planification", "Pianificazione") => {
        area "route_planning" n("Route planning", "Planification des tournées", "Pianificazione percorsi") => {
            RoutePlanningList = "list" LIST,
            RoutePlanningGeneratePicklist = "generate_picklist" n("Generate picklist", "Générer la liste de préparation", "Genera lista di prelievo"),
            RoutePlanningChangeEmployee = "change_employee" CHANGE_EMPLOYEE,
        }
        area "planned_routes" n("Planned routes", "Tournées planifiées", "Percorsi pianificati") => {
            PlannedRoutesList = "list" LIST,
            PlannedRoutesDelete = "delete" DELETE,
            PlannedRoutesEdit = "edit" EDIT,
            PlannedRoutesExport = "export" EXPORT,
            PlannedRoutesChangeEmployee = "change_employee" CHANGE_EMPLOYEE,
        }
    }
    group "reports" n("Reports", "Rapports", "Report") => {
        area "sales_overview" n("Sales overview", "Aperçu des ventes", "Panoramica vendite") => {
            SalesOverviewGraph = "graph" n("Graph", "Graphique", "Grafico"),
            SalesOverviewList = "list" LIST,
            SalesOverviewTotalList = "total_list" n("Total list", "Liste des totaux", "Elenco totali"),
            SalesOverviewExport = "export" EXPORT,
            SalesOverviewFullAccess = "full_access" FULL,
        }
        area "encashment" n("Encashment", "Encaissement", "Incasso") => {
            EncashmentList = "list" LIST,
            EncashmentTotal = "total" n("Total", "Total", "Totale"),
            EncashmentExport = "export" EXPORT,
        }
        area "refill_log" n("Refill log", "Journal des réassorts", "Registro rifornimenti") => {
            RefillLogList = "list" LIST,
            RefillLogTotalList = "total_list" n("Total list", "Liste des totaux", "Elenco totali"),
            RefillLogExport = "export" EXPORT,
        }
        area "report_generator" n("Report generator", "Générateur de rapports", "Generatore di report") => {
            ReportGeneratorReportsList = "reports_list" n("Reports list", "Liste des rapports", "Elenco report"),
            ReportGeneratorTemplatesList = "templates_list" n("Templates list", "Liste des modèles", "Elenco modelli"),
            ReportGeneratorRun = "run" n("Run report", "Exécuter un rapport", "Esegui report"),
            ReportGeneratorNew = "new" NEW,
            ReportGeneratorDeleteReport = "delete_report" n("Delete report", "Supprimer un rapport", "Elimina report"),
            ReportGeneratorDeleteTemplate = "delete_template" n("Delete template", "Supprimer un modèle", "Elimina modello"),
            ReportGeneratorEditTemplate = "edit_template" n("Edit template", "Modifier un modèle", "Modifica modello"),
        }
        area "inventory_report" n("Inventory report", "Rapport d'inventaire", "Report inventario") => {
            InventoryProductsList = "products_list" n("Products list", "Liste des produits", "Elenco prodotti"),
            InventoryProductsExport = "products_export" n("Products export", "Export des produits", "Esportazione prodotti"),
            InventoryComponentsList = "components_list" n("Components list", "Liste des composants", "Elenco componenti"),
            InventoryComponentsExport = "components_export" n("Components export", "Export des composants", "Esportazione componenti"),
        }
        area "transaction_log" n("Transaction log", "Journal des transactions", "Registro transazioni") => {
            TransactionLogList = "list" LIST,
            TransactionLogExport = "export" EXPORT,
            TransactionLogFullAccess = "full_access" FULL,
        }
        area "settlements" n("Card settlements", "Règlements carte", "Regolamenti carte") => {
            SettlementsList = "list" LIST,
            SettlementsImport = "import" n("Import settlement files", "Importer des fichiers de règlement", "Importa file di regolamento"),
            SettlementsExport = "export" EXPORT,
        }
        area "vat" n("VAT report", "Rapport de TVA", "Report IVA") => {
            VatList = "list" LIST,
            VatExport = "export" EXPORT,
        }
        area "visit_ledger" n("Visit ledger", "Journal des visites", "Registro visite") => {
            VisitLedgerList = "list" LIST,
            VisitLedgerExport = "export" EXPORT,
        }
    }
    group "settings" n("Settings", "Paramètres", "Impostazioni") => {
        area "users" n("Users", "Utilisateurs", "Utenti") => crud(UsersList, UsersNew, UsersEdit, UsersDelete) {
            UsersExport = "export" EXPORT,
        }
        area "roles" n("Roles", "Rôles", "Ruoli") => crud(RolesList, RolesNew, RolesEdit, RolesDelete) {}
        area "machine_access" n("Machine access", "Accès aux machines", "Accesso alle macchine") => {
            AllMachinesAccessProvider = "all_machines" n("Grant access to all machines", "Accorder l'accès à toutes les machines", "Concedi accesso a tutte le macchine"),
            AllMachineTagsAccessProvider = "all_machine_tags" n("Grant access to all machine tags", "Accorder l'accès à toutes les étiquettes", "Concedi accesso a tutti i tag"),
        }
        area "clients" n("Clients", "Clients", "Clienti") => crud(ClientsList, ClientsNew, ClientsEdit, ClientsDelete) {}
        area "locations" n("Locations", "Emplacements", "Ubicazioni") => crud(LocationsList, LocationsNew, LocationsEdit, LocationsDelete) {
            LocationsExport = "export" EXPORT,
        }
        area "query_scheduler" n("Query scheduler", "Planificateur de requêtes", "Pianificatore query") => crud(QuerySchedulerList, QuerySchedulerNew, QuerySchedulerEdit, QuerySchedulerDelete) {}
        area "models" n("Machine models", "Modèles de machines", "Modelli di macchine") => crud(ModelsList, ModelsNew, ModelsEdit, ModelsDelete) {}
        area "machines" n("Machines", "Machines", "Macchine") => {
            MachinesList = "list" LIST,
            MachinesNew = "new" NEW,
            MachinesEdit = "edit" EDIT,
            MachinesEditProduct = "edit_product" n("Edit product", "Modifier le produit", "Modifica prodotto"),
            MachinesEditQuantityExpiry = "edit_quantity_expiry" n("Edit quantity and expiry", "Modifier la quantité et la péremption", "Modifica quantità e scadenza"),
            MachinesDelete = "delete" DELETE,
            MachinesExport = "export" EXPORT,
            MachineTagsList = "tags_list" n("Tags list", "Liste des étiquettes", "Elenco tag"),
            MachineTagsNew = "tags_new" n("New tag", "Nouvelle étiquette", "Nuovo tag"),
            MachineTagsDelete = "tags_delete" n("Delete tag", "Supprimer une étiquette", "Elimina tag"),
            MachinesReadEvaDts = "read_eva_dts" n("Read EVA-DTS", "Lire l'EVA-DTS", "Leggi EVA-DTS"),
            MachinesCollectCash = "collect_cash" n("Collect cash", "Collecter l'argent", "Raccogli contanti"),
        }
        area "data_sources" n("Data sources", "Sources de données", "Fonti dati") => crud(DataSourcesList, DataSourcesNew, DataSourcesEdit, DataSourcesDelete) {
            DataSourcesInbox = "inbox" n("Unmatched messages", "Messages non rapprochés", "Messaggi non abbinati"),
            DataSourcesImport = "import" n("Import history", "Importer l'historique", "Importa lo storico"),
        }
        area "products" n("Products", "Produits", "Prodotti") => crud(ProductsList, ProductsNew, ProductsEdit, ProductsDelete) {}
        area "components" n("Components", "Composants", "Componenti") => crud(ComponentsList, ComponentsNew, ComponentsEdit, ComponentsDelete) {}
        area "composite_products" n("Composite products", "Produits composés", "Prodotti composti") => crud(CompositeProductsList, CompositeProductsNew, CompositeProductsEdit, CompositeProductsDelete) {}
        area "product_tags" n("Product tags", "Étiquettes de produits", "Tag prodotti") => crud(ProductTagsList, ProductTagsNew, ProductTagsEdit, ProductTagsDelete) {}
    }
}

/// A localised node of the catalogue tree, as `/api/filters/roles/modules/` answers it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CatalogueNode {
    pub key: String,
    pub name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<CatalogueNode>,
}

/// The whole catalogue as a tree with names in `lang`.
pub fn catalogue_tree(lang: Language) -> Vec<CatalogueNode> {
    let node = |key: &str, names: &Names, children| CatalogueNode {
        key: key.to_string(),
        name: names.get(lang).to_string(),
        children,
    };
    CATALOGUE
        .iter()
        .map(|g| {
            let areas = g.areas.iter().map(|a| {
                let permissions = a.permissions.iter();
                let leaves = permissions.map(|p| node(p.key(), &p.names(), Vec::new()));
                node(a.key, &a.names, leaves.collect())
            });
            node(g.key, &g.names, areas.collect())
        })
        .collect()
}

/// The permissions a user holds: everything, or an explicit set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grants {
    All,
    Some(std::collections::BTreeSet<Permission>),
}

impl Grants {
    /// Builds grants from stored module keys; unknown keys (from an older catalogue) are ignored.
    pub fn from_keys<'a>(keys: impl IntoIterator<Item = &'a str>) -> Grants {
        Grants::Some(keys.into_iter().filter_map(Permission::from_key).collect())
    }

    /// Whether `p` is granted.
    pub fn has(&self, p: Permission) -> bool {
        match self {
            Grants::All => true,
            Grants::Some(set) => set.contains(&p),
        }
    }

    /// The granted keys, in catalogue order.
    pub fn keys(&self) -> Vec<&'static str> {
        Permission::ALL
            .iter()
            .filter(|p| self.has(**p))
            .map(|p| p.key())
            .collect()
    }

    /// Whether these grants include every permission of `other` (all modules only all modules).
    pub fn covers(&self, other: &Grants) -> bool {
        match (self, other) {
            (Grants::All, _) => true,
            (Grants::Some(_), Grants::All) => false,
            (Grants::Some(mine), Grants::Some(theirs)) => theirs.is_subset(mine),
        }
    }

    /// Whether these grants make their holder an administrator of access (users and roles).
    pub fn is_access_admin(&self) -> bool {
        self.has(Permission::UsersEdit) && self.has(Permission::RolesEdit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_unique_and_round_trip() {
        let mut seen = HashSet::new();
        for p in Permission::ALL {
            assert!(seen.insert(p.key()), "duplicate key {}", p.key());
            assert_eq!(Permission::from_key(p.key()), Some(*p));
        }
        assert_eq!(Permission::from_key("settings.users.nope"), None);
    }

    #[test]
    fn every_permission_sits_in_exactly_one_area() {
        let in_tree: Vec<_> = CATALOGUE
            .iter()
            .flat_map(|g| g.areas.iter().flat_map(|a| a.permissions.iter().copied()))
            .collect();
        assert_eq!(in_tree.len(), Permission::ALL.len());
        for g in CATALOGUE {
            for a in g.areas {
                assert!(a.key.starts_with(g.key));
                for p in a.permissions {
                    assert!(
                        p.key().starts_with(a.key),
                        "{} not under {}",
                        p.key(),
                        a.key
                    );
                }
            }
        }
    }

    #[test]
    fn every_name_is_translated() {
        let mut names = vec![];
        for g in CATALOGUE {
            names.push(g.names);
            for a in g.areas {
                names.push(a.names);
            }
        }
        names.extend(Permission::ALL.iter().map(|p| p.names()));
        for n in names {
            assert!(!n.en.is_empty() && !n.fr.is_empty() && !n.it.is_empty());
        }
        let tree = catalogue_tree(Language::Fr);
        assert_eq!(tree[0].name, "Planification");
        assert_eq!(tree[2].children[0].children[0].key, "settings.users.list");
    }

    #[test]
    fn grants_from_keys_ignore_unknown() {
        let g = Grants::from_keys(["settings.users.list", "bogus"]);
        assert!(g.has(Permission::UsersList));
        assert!(!g.has(Permission::UsersEdit));
        assert_eq!(g.keys(), vec!["settings.users.list"]);
        assert!(Grants::All.is_access_admin());
        assert!(!g.is_access_admin());
    }
}
