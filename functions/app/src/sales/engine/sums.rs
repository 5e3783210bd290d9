//! The sales engine's sums: the chosen machines' figures over a span, by machine, group row,
//! product or in all, read from the columns (`columns.rs`) at their three grains; which machines
//! sold on a day; and the units by weekday the planning's velocities need.

use super::ask::{By, EngineAsk, Products, Sums};
use super::cells::{DayCells, Picked, Sum};
use super::columns::Engine;
use super::levels;
use crate::ports::sales::WeekdayUnits;
use chrono::{Datelike, NaiveDate};
use std::collections::{BTreeSet, HashMap};
use vendfleet_domain::sales::Figures;

/// A product sum over at least this many cells (about half a millisecond on one core) is
/// read by two threads.
const TWO_THREADS_CELLS: usize = 100_000;

impl Engine {
    /// The answer to `ask` (see [`EngineAsk`]). `None` when the columns are not built, or
    /// products matter and the columns hold no product figures.
    pub fn sums<B: Fn(NaiveDate) -> usize + Sync>(&self, ask: &EngineAsk<'_, B>) -> Option<Sums> {
        let (machines, span, buckets) = (ask.machines, ask.span, ask.buckets);
        match (ask.products, ask.by) {
            (Products::Every, By::Product) | (Products::Each, _) => {
                self.product_sums(machines, None, span, buckets, &ask.bucket, ask.by)
            }
            (Products::Chosen(set), by) => {
                self.product_sums(machines, Some(set), span, buckets, &ask.bucket, by)
            }
            (Products::Every, by) => {
                let figures = self.machine_sums(machines, span, buckets, &ask.bucket, by)?;
                Some(Sums {
                    products: Vec::new(),
                    figures,
                })
            }
        }
    }

    /// For each of `machines` (in order), its figures over the days `from..=to` summed into
    /// `buckets` buckets, `bucket` giving each day's: `out[m * buckets + b]` (by their group
    /// rows: [`By::Rows`]); or, [`By::Total`], all of theirs together: `out[b]` (most of the
    /// fleet: the fleet's figures less the machines left out). `None` when the columns are not
    /// built.
    fn machine_sums(
        &self,
        machines: &[Option<usize>],
        (from, to): (NaiveDate, NaiveDate),
        buckets: usize,
        bucket: impl Fn(NaiveDate) -> usize,
        by: By<'_>,
    ) -> Option<Vec<Figures>> {
        let guard = self.read_columns();
        let columns = guard.as_ref()?;
        let pieces = levels::pieces(from, to, &bucket);
        if !matches!(by, By::Total) {
            let count = by.rows(machines.len(), 0);
            let mut out = vec![Figures::default(); count * buckets];
            for (date, column) in columns.days.over(&pieces) {
                let b = bucket(date);
                for (k, slot) in machines.iter().enumerate() {
                    if let Some(f) = slot.and_then(|i| column.get(i)) {
                        out[by.row(k) * buckets + b].add(f);
                    }
                }
            }
            return Some(out);
        }
        let picked = Picked::new(columns.index.len(), machines);
        let mut out = vec![Figures::default(); buckets];
        let left_out = columns.index.len() - picked.slots.len();
        if left_out < picked.slots.len() {
            for (date, f) in columns.fleet.over(&pieces) {
                out[bucket(date)].add(f);
            }
            let left: Vec<usize> = (0..columns.index.len())
                .filter(|i| !picked.has(*i))
                .collect();
            for (date, column) in columns.days.over(&pieces).filter(|_| left_out > 0) {
                let b = bucket(date);
                for f in left.iter().filter_map(|i| column.get(*i)) {
                    out[b].add(&f.negated());
                }
            }
        } else {
            for (date, column) in columns.days.over(&pieces) {
                let b = bucket(date);
                for f in picked.slots.iter().filter_map(|(_, i)| column.get(*i)) {
                    out[b].add(f);
                }
            }
        }
        Some(out)
    }

    /// The figures of `machines` over the days `from..=to` of the chosen `products` (`None`:
    /// all), by machine (or group row), by product or in all, and by bucket as
    /// [`Engine::machine_sums`]. `None` when the columns are not built or hold no product
    /// figures.
    fn product_sums(
        &self,
        machines: &[Option<usize>],
        products: Option<&BTreeSet<String>>,
        (from, to): (NaiveDate, NaiveDate),
        buckets: usize,
        bucket: impl Fn(NaiveDate) -> usize + Sync,
        by: By<'_>,
    ) -> Option<Sums> {
        let guard = self.read_columns();
        let columns = guard.as_ref().filter(|c| c.products_ok)?;
        let chosen: Vec<bool> = columns
            .products
            .iter()
            .map(|p| products.is_none_or(|set| set.contains(p)))
            .collect();
        // A total is summed by product, then the products added up.
        let total = matches!(by, By::Total);
        let by = if total { By::Product } else { by };
        let rows = by.rows(machines.len(), columns.products.len());
        let mut out = vec![Figures::default(); rows * buckets];
        let picked = Picked::new(columns.index.len(), machines);
        let pieces = levels::pieces(from, to, &bucket);
        // The chosen products' numbers, for reading a period's cells by product.
        let wanted: Vec<u32> = (0u32..)
            .zip(&chosen)
            .filter(|(_, c)| **c)
            .map(|(p, _)| p)
            .collect();
        let answer = |figures: Vec<Figures>| match (by, total) {
            (_, true) => Sums {
                products: Vec::new(),
                figures: by_bucket(&figures, buckets),
            },
            (by, _) if by.by_machine() => Sums {
                products: Vec::new(),
                figures,
            },
            _ => Sums {
                products: columns.products.clone(),
                figures,
            },
        };
        if matches!(by, By::Product) {
            // Most of the fleet: the fleet's sums less the machines left out.
            let left_out = columns.index.len() - picked.slots.len();
            if left_out < picked.slots.len() {
                for (date, fleet) in columns.fleet_products.over(&pieces) {
                    let b = bucket(date);
                    for (p, f) in fleet.iter().enumerate().filter(|(p, _)| chosen[*p]) {
                        out[p * buckets + b].add(f);
                    }
                }
                for (date, day) in columns.day_products.over(&pieces).filter(|_| left_out > 0) {
                    let b = bucket(date);
                    let left_cells = day.cells_of_machines(left_out);
                    if products.is_some()
                        && day
                            .cells_of_products(&wanted)
                            .is_some_and(|n| n < left_cells)
                    {
                        day.each_of_products(&wanted, |i, c| {
                            if picked.row(i).is_none() {
                                out[c.product as usize * buckets + b].add(&c.figures().negated());
                            }
                        });
                        continue;
                    }
                    day.each_machine(|i, cells| {
                        if picked.has(i) {
                            return;
                        }
                        for c in cells.iter().filter(|c| chosen[c.product as usize]) {
                            out[c.product as usize * buckets + b].add(&c.figures().negated());
                        }
                    });
                }
                return Some(answer(out));
            }
        }
        // Some products with fewer cells than the picked machines have in a period: their
        // cells read by product, each kept when its machine is picked. The cells a period's sum
        // reads either way.
        let by_products_of = |day: &DayCells| {
            let scan = picked.cells_in(day);
            let by_products = products
                .is_some()
                .then(|| day.cells_of_products(&wanted))
                .flatten()
                .filter(|n| *n < scan);
            (by_products.is_some(), by_products.unwrap_or(scan))
        };
        // A period's cells are summed into narrow sums first (a machine's, or one a product,
        // small enough to stay in the CPU's nearest cache), each added to its row of the
        // answer once a period.
        let sum_over = |pieces: &[levels::Piece], out: &mut [Figures]| {
            let mut by_product = vec![Sum::default(); columns.products.len()];
            for (date, day) in columns.day_products.over(pieces) {
                let b = bucket(date);
                let (by_products, _) = by_products_of(day);
                if by_products && by.by_machine() {
                    day.each_of_products(&wanted, |i, c| {
                        if let Some(k) = picked.row(i) {
                            c.add_to(&mut out[by.row(k as usize) * buckets + b]);
                        }
                    });
                    continue;
                }
                if by_products {
                    day.each_of_products(&wanted, |i, c| {
                        if picked.row(i).is_some() {
                            by_product[c.product as usize].add(c);
                        }
                    });
                } else if by.by_machine() {
                    let mut machine = |k: u32, sum: Sum| {
                        if !sum.is_zero() {
                            let row = by.row(k as usize);
                            out[row * buckets + b].add(&sum.figures());
                        }
                    };
                    if products.is_some() {
                        // Some products: each picked machine's cells of them.
                        picked.each_index(day, |k, i| {
                            let mut sum = Sum::default();
                            day.each_chosen_of_machine(i, &chosen, |c| sum.add(c));
                            machine(k, sum);
                        });
                    } else {
                        picked.each(day, |k, cells| machine(k, Sum::of(cells)));
                    }
                    continue;
                } else if products.is_some() {
                    picked.each_index(day, |_, i| {
                        day.each_chosen_of_machine(i, &chosen, |c| {
                            by_product[c.product as usize].add(c);
                        })
                    });
                } else {
                    picked.each(day, |_, cells| {
                        for c in cells {
                            by_product[c.product as usize].add(c);
                        }
                    });
                }
                for (p, sum) in by_product.iter_mut().enumerate() {
                    if !sum.is_zero() {
                        out[p * buckets + b].add(&sum.figures());
                        *sum = Sum::default();
                    }
                }
            }
        };
        // A sum of many cells (a half of the fleet's days by day over months) is read by two
        // threads, each over its share of the pieces: one core does not draw the memory's
        // whole bandwidth. Smaller sums stay on the caller's thread (a thread costs tens of
        // microseconds).
        let cells: Vec<usize> = (pieces.iter())
            .map(|p| {
                let one = std::slice::from_ref(p);
                let day = columns.day_products.over(one).next();
                day.map_or(0, |(_, day)| by_products_of(day).1)
            })
            .collect();
        let all: usize = cells.iter().sum();
        if all >= TWO_THREADS_CELLS && pieces.len() > 1 {
            let mut so_far = 0;
            let half = cells
                .iter()
                .position(|n| {
                    so_far += n;
                    so_far * 2 >= all
                })
                .map_or(pieces.len() / 2, |k| (k + 1).min(pieces.len() - 1));
            let (first, second) = pieces.split_at(half);
            let mut other = vec![Figures::default(); out.len()];
            std::thread::scope(|s| {
                s.spawn(|| sum_over(second, &mut other));
                sum_over(first, &mut out);
            });
            for (a, b) in out.iter_mut().zip(&other) {
                a.add(b);
            }
        } else {
            sum_over(&pieces, &mut out);
        }
        Some(answer(out))
    }

    /// The positions of those of `machines` (their slots, from [`Engine::slots`]) with a sale
    /// on `day` (of one of `products`; `None`: any). `None` when the columns are not built, or
    /// products matter and they hold no product figures.
    pub fn selling(
        &self,
        machines: &[Option<usize>],
        products: Option<&BTreeSet<String>>,
        day: NaiveDate,
    ) -> Option<Vec<usize>> {
        let guard = self.read_columns();
        let columns = guard.as_ref()?;
        let chosen = machines.iter().copied().enumerate();
        Some(match products {
            None => {
                let Some(column) = columns.days.days().get(&day) else {
                    return Some(Vec::new());
                };
                let sold = |i: usize| column.get(i).is_some_and(|f| f.transactions > 0);
                chosen
                    .filter(|(_, slot)| slot.is_some_and(sold))
                    .map(|(k, _)| k)
                    .collect()
            }
            Some(set) => {
                if !columns.products_ok {
                    return None;
                }
                let wanted: Vec<bool> = columns.products.iter().map(|p| set.contains(p)).collect();
                let Some(day) = columns.day_products.days().get(&day) else {
                    return Some(Vec::new());
                };
                let sold = |i: usize| {
                    let mut any = false;
                    day.each_chosen_of_machine(i, &wanted, |c| any |= c.transactions > 0);
                    any
                };
                chosen
                    .filter(|(_, slot)| slot.is_some_and(sold))
                    .map(|(k, _)| k)
                    .collect()
            }
        })
    }

    /// Units out of each of `machines`' products (sold, free and test) by weekday over the days
    /// `from..=to`, ordered by machine and product, those with none left out (as
    /// [`crate::ports::sales::weekday_units_of`] sums them from the rollups). `None` when the
    /// columns are not built or hold no product figures.
    pub fn weekday_units(
        &self,
        machines: &[String],
        from: NaiveDate,
        to: NaiveDate,
    ) -> Option<Vec<WeekdayUnits>> {
        let guard = self.read_columns();
        let columns = guard.as_ref().filter(|c| c.products_ok)?;
        let slots: Vec<Option<usize>> = machines
            .iter()
            .map(|m| columns.index.get(m).copied())
            .collect();
        let picked = Picked::new(columns.index.len(), &slots);
        let mut by: HashMap<(u32, u32), [i64; 7]> = HashMap::new();
        for (date, day) in columns.day_products.days().range(from..=to) {
            let weekday = date.weekday().num_days_from_monday() as usize;
            picked.each(day, |k, cells| {
                for c in cells {
                    let units = i64::from(c.quantity) + i64::from(c.free) + i64::from(c.test);
                    if units != 0 {
                        by.entry((k, c.product)).or_default()[weekday] += units;
                    }
                }
            });
        }
        let mut out: Vec<WeekdayUnits> = by
            .into_iter()
            .map(|((k, p), units)| WeekdayUnits {
                machine_id: machines[k as usize].clone(),
                product_id: columns.products[p as usize].clone(),
                units,
            })
            .collect();
        out.sort_by(|a, b| (&a.machine_id, &a.product_id).cmp(&(&b.machine_id, &b.product_id)));
        Some(out)
    }
}

/// `rows` of figures by bucket (`rows[r * buckets + b]`) added up by bucket.
fn by_bucket(rows: &[Figures], buckets: usize) -> Vec<Figures> {
    let mut out = vec![Figures::default(); buckets];
    for row in rows.chunks(buckets) {
        for (o, f) in out.iter_mut().zip(row) {
            o.add(f);
        }
    }
    out
}
