//! The one question the engine answers ([`EngineAsk`]): which machines, which products, summed
//! by what, over which days into which buckets; and its answer ([`Sums`]).

use chrono::NaiveDate;
use std::collections::BTreeSet;
use vendfleet_domain::sales::Figures;

/// Which products a sum covers.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Products<'a> {
    /// Every vend, whatever its product: read from the columns by machine (no product figures).
    /// Summed [`By::Product`] it is [`Products::Each`].
    Every,
    /// Every product, each apart: read from the product columns.
    Each,
    /// These products only (a product since deleted keeps its sales): the product columns.
    Chosen(&'a BTreeSet<String>),
}

/// What a sum adds its figures up by: the rows of [`Sums::figures`], each `buckets` long.
#[derive(Debug, Clone, Copy)]
pub(crate) enum By<'a> {
    /// A row a machine asked, in their order.
    Machine,
    /// A row a group list: the machine at position `k` of those asked goes to row
    /// `rows.of[k]` (a report by location sums its machines into a row a location).
    Rows(&'a Rows),
    /// A row a product, numbered as [`Sums::products`] lists them.
    Product,
    /// One row: the chosen machines and products together (most of the fleet: the fleet's
    /// figures less the machines left out).
    Total,
}

/// Where each machine's sums go when summed [`By::Rows`].
#[derive(Debug)]
pub(crate) struct Rows {
    /// The row of the machine at each position of the machines asked.
    pub of: Vec<u32>,
    /// How many rows.
    pub count: usize,
}

impl By<'_> {
    /// How many rows a sum of `machines` machines and `products` products has.
    pub(super) fn rows(self, machines: usize, products: usize) -> usize {
        match self {
            By::Machine => machines,
            By::Rows(rows) => rows.count,
            By::Product | By::Total => products,
        }
    }

    /// The row of the machine at position `k` of those asked (by machine or group list).
    pub(super) fn row(self, k: usize) -> usize {
        match self {
            By::Rows(rows) => rows.of[k] as usize,
            By::Machine | By::Product | By::Total => k,
        }
    }

    /// Whether rows are machines (or their group lists).
    pub(super) fn by_machine(self) -> bool {
        matches!(self, By::Machine | By::Rows(_))
    }
}

/// One question to the engine: the figures of `machines` (their slots in the columns, from
/// [`super::Engine::slots`]) of `products` over the days `span`, summed `by` rows and into
/// `buckets` buckets, `bucket` giving each day's.
pub(crate) struct EngineAsk<'a, B> {
    pub machines: &'a [Option<usize>],
    pub products: Products<'a>,
    pub by: By<'a>,
    pub span: (NaiveDate, NaiveDate),
    pub buckets: usize,
    pub bucket: B,
}

/// The engine's answer: `figures[row * buckets + bucket]`, and the products the rows are
/// (summed [`By::Product`]; empty otherwise).
pub(crate) struct Sums {
    pub products: Vec<String>,
    pub figures: Vec<Figures>,
}
