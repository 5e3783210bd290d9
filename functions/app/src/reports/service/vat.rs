//! The VAT report: sales by VAT rate (gross, net, VAT), taxable and exempt apart, by client,
//! location or month — from the ledger, each sale at the rate its product had when it was sold,
//! so that its totals are the sales overview's to the cent.

use super::*;
use crate::fleet::Location;
use chrono::Datelike;
use vendfleet_domain::events::VendClass;
use vendfleet_domain::report::Choice;

vendfleet_domain::choice! {
    /// What the VAT report groups by, beside the rate.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
    pub enum VatGroup {
        /// The rates only.
        #[default]
        Rate,
        Client,
        /// Where the machine stood when it sold.
        Location,
        Month,
    }
}

/// Gross, net and VAT of a set of sales.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VatFigures {
    pub quantity: i64,
    pub gross_minor: i64,
    pub net_minor: i64,
    pub vat_minor: i64,
}

impl VatFigures {
    fn add(&mut self, quantity: i64, gross: i64, net: i64) {
        self.quantity += quantity;
        self.gross_minor += gross;
        self.net_minor += net;
        self.vat_minor += gross - net;
    }
}

/// One group at one rate.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VatRow {
    /// The group's key (a client, location or `YYYY-MM`; empty: none; with `rate`, empty).
    pub key: String,
    pub name: String,
    /// Basis points: 550 is 5.5 %.
    pub rate_bps: u32,
    #[serde(flatten)]
    pub figures: VatFigures,
}

/// One rate's totals.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VatRate {
    pub rate_bps: u32,
    #[serde(flatten)]
    pub figures: VatFigures,
}

/// The VAT report.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct VatReport {
    pub date_from: chrono::NaiveDate,
    pub date_to: chrono::NaiveDate,
    /// `rate`, `client`, `location` or `month`.
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub group: VatGroup,
    /// By group name, then rate (highest first).
    pub rows: Vec<VatRow>,
    /// By rate, highest first.
    pub by_rate: Vec<VatRate>,
    pub taxable: VatFigures,
    pub exempt: VatFigures,
    pub total: VatFigures,
    /// Sales taken in before the ledger kept rates, counted at their product's current rate.
    pub legacy_sales: i64,
}

impl ReportsService {
    /// The VAT report of the sales query (period, machine and product filters) within the
    /// user's scope.
    pub async fn vat(
        &self,
        p: &Principal,
        params: &SalesParams,
        group: Option<&str>,
    ) -> AppResult<VatReport> {
        let mut errors = FieldErrors::new();
        let group = match group.map(str::trim).filter(|g| !g.is_empty()) {
            None => VatGroup::Rate,
            Some(k) => VatGroup::from_key(k).unwrap_or_else(|| {
                errors.add("group", "Choose one of: rate, client, location, month.");
                VatGroup::Rate
            }),
        };
        errors.into_result()?;
        let q = params.check(self.calendar.today())?;
        let (machines, locations) = self.sales.chosen_machines(p, &q).await?;
        let products = self.sales.chosen_products(&q).await?;
        let catalogue = self.products.products().all_shared().await?;
        let clients = self.sales.fleet().client_names().await?;
        let ids: Vec<String> = machines.iter().map(|m| m.id.clone()).collect();
        let ledger = if ids.is_empty() {
            Vec::new()
        } else {
            self.sales.store().ledger_of(&ids, q.from, q.to).await?
        };
        let mut rows: BTreeMap<(String, u32), VatFigures> = BTreeMap::new();
        let mut names: BTreeMap<String, String> = BTreeMap::new();
        let mut legacy_sales = 0;
        for v in &ledger {
            if v.class != VendClass::Sale
                || products
                    .as_ref()
                    .is_some_and(|ps| !ps.contains(&v.product_id))
            {
                continue;
            }
            let rate = match v.vat_bps {
                Some(r) => r,
                None => {
                    legacy_sales += 1;
                    catalogue.get(&v.product_id).map_or(0, |p| p.vat_bps)
                }
            };
            let location: Option<&Location> = v.location_id.as_ref().and_then(|l| locations.get(l));
            let key = match group {
                VatGroup::Rate => String::new(),
                VatGroup::Location => v.location_id.clone().unwrap_or_default(),
                VatGroup::Client => location
                    .and_then(|l| l.client_id.clone())
                    .unwrap_or_default(),
                VatGroup::Month => {
                    format!("{:04}-{:02}", v.local_date.year(), v.local_date.month())
                }
            };
            if !names.contains_key(&key) {
                let name = match group {
                    VatGroup::Rate | VatGroup::Month => key.clone(),
                    VatGroup::Location => location.map(|l| l.name.clone()).unwrap_or_default(),
                    VatGroup::Client => clients.get(&key).cloned().unwrap_or_default(),
                };
                names.insert(key.clone(), name);
            }
            rows.entry((key, rate)).or_default().add(
                i64::from(v.quantity),
                v.revenue_minor,
                v.net_minor,
            );
        }
        let mut by_rate: BTreeMap<u32, VatFigures> = BTreeMap::new();
        let (mut taxable, mut exempt, mut total) = Default::default();
        for ((_, rate), f) in &rows {
            for sum in [
                by_rate.entry(*rate).or_default(),
                if *rate > 0 { &mut taxable } else { &mut exempt },
                &mut total,
            ] {
                sum.add(f.quantity, f.gross_minor, f.net_minor);
            }
        }
        let mut rows: Vec<VatRow> = rows
            .into_iter()
            .map(|((key, rate_bps), figures)| VatRow {
                name: names.get(&key).cloned().unwrap_or_default(),
                key,
                rate_bps,
                figures,
            })
            .collect();
        rows.sort_by(|a, b| {
            a.name
                .to_lowercase()
                .cmp(&b.name.to_lowercase())
                .then_with(|| a.key.cmp(&b.key))
                .then_with(|| b.rate_bps.cmp(&a.rate_bps))
        });
        Ok(VatReport {
            date_from: q.from,
            date_to: q.to,
            group,
            rows,
            by_rate: by_rate
                .into_iter()
                .rev()
                .map(|(rate_bps, figures)| VatRate { rate_bps, figures })
                .collect(),
            taxable,
            exempt,
            total,
            legacy_sales,
        })
    }
}
