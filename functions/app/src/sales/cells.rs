//! A day's product figures in the sales engine: every machine's cells of the day in one vector,
//! ordered by product and then machine, with where each product's cells start. A question about
//! a few products reads only their cells; any other reads the day's cells one after the other
//! in memory (no vector per machine to follow).

use vendfleet_domain::sales::Figures;

/// A machine's figures of one product and day, narrowed: revenue is cash plus cashless.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Cell {
    /// The machine's index in the engine's columns.
    pub machine: u32,
    pub quantity: i32,
    pub net: i32,
    pub cash: i32,
    pub cashless: i32,
    pub free: i32,
    pub test: i32,
    pub transactions: i32,
}

impl Cell {
    /// `self` plus `f`, `None` when a figure leaves the cell's range or `f`'s revenue is not
    /// its cash plus cashless (as every vend's is).
    pub fn plus(&self, f: &Figures) -> Option<Cell> {
        if f.revenue_minor != f.cash_minor + f.cashless_minor {
            return None;
        }
        let add = |a: i32, b: i64| i32::try_from(i64::from(a) + b).ok();
        Some(Cell {
            machine: self.machine,
            quantity: add(self.quantity, f.quantity)?,
            net: add(self.net, f.net_minor)?,
            cash: add(self.cash, f.cash_minor)?,
            cashless: add(self.cashless, f.cashless_minor)?,
            free: add(self.free, f.free_quantity)?,
            test: add(self.test, f.test_quantity)?,
            transactions: add(self.transactions, f.transactions)?,
        })
    }

    /// The cell's figures (revenue: cash plus cashless).
    pub fn figures(&self) -> Figures {
        let mut f = Figures::default();
        self.add_to(&mut f);
        f
    }

    pub fn add_to(&self, f: &mut Figures) {
        f.quantity += i64::from(self.quantity);
        f.revenue_minor += i64::from(self.cash) + i64::from(self.cashless);
        f.net_minor += i64::from(self.net);
        f.cash_minor += i64::from(self.cash);
        f.cashless_minor += i64::from(self.cashless);
        f.free_quantity += i64::from(self.free);
        f.test_quantity += i64::from(self.test);
        f.transactions += i64::from(self.transactions);
    }
}

/// One day's cells, by product number and then machine index.
#[derive(Debug, Default)]
pub(super) struct DayCells {
    /// Product `p`'s cells are `cells[starts[p]..starts[p + 1]]`; products numbered at or past
    /// `starts.len() - 1` have none this day.
    starts: Vec<u32>,
    cells: Vec<Cell>,
}

impl DayCells {
    /// The day's cells from `(product, cell)` pairs in any order, one pair per product and
    /// machine.
    pub fn from_unordered(mut pairs: Vec<(u32, Cell)>) -> DayCells {
        pairs.sort_unstable_by_key(|(p, c)| (*p, c.machine));
        let products = pairs.last().map_or(0, |(p, _)| *p as usize + 1);
        let mut starts = vec![0u32; products + 1];
        for (p, _) in &pairs {
            starts[*p as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        DayCells {
            starts,
            cells: pairs.into_iter().map(|(_, c)| c).collect(),
        }
    }

    /// Product `p`'s cells, by machine index.
    pub fn of_product(&self, p: u32) -> &[Cell] {
        let p = p as usize;
        match (self.starts.get(p), self.starts.get(p + 1)) {
            (Some(a), Some(b)) => &self.cells[*a as usize..*b as usize],
            _ => &[],
        }
    }

    /// Every product with cells this day and its cells.
    pub fn products(&self) -> impl Iterator<Item = (u32, &[Cell])> + '_ {
        self.starts
            .windows(2)
            .enumerate()
            .filter(|(_, w)| w[0] < w[1])
            .map(|(p, w)| (p as u32, &self.cells[w[0] as usize..w[1] as usize]))
    }

    /// The cell of product `p` and machine `machine`, added (zero) when missing.
    pub fn cell_mut(&mut self, p: u32, machine: u32) -> &mut Cell {
        let p = p as usize;
        if self.starts.len() < p + 2 {
            let end = self.cells.len() as u32;
            self.starts.resize(p + 2, end);
        }
        let (a, b) = (self.starts[p] as usize, self.starts[p + 1] as usize);
        let at = match self.cells[a..b].binary_search_by_key(&machine, |c| c.machine) {
            Ok(i) => a + i,
            Err(i) => {
                let cell = Cell {
                    machine,
                    ..Cell::default()
                };
                self.cells.insert(a + i, cell);
                for s in &mut self.starts[p + 1..] {
                    *s += 1;
                }
                a + i
            }
        };
        &mut self.cells[at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(machine: u32, quantity: i32) -> Cell {
        Cell {
            machine,
            quantity,
            ..Cell::default()
        }
    }

    fn quantities(day: &DayCells, p: u32) -> Vec<(u32, i32)> {
        day.of_product(p)
            .iter()
            .map(|c| (c.machine, c.quantity))
            .collect()
    }

    #[test]
    fn cells_are_found_by_product_in_machine_order() {
        let day = DayCells::from_unordered(vec![(2, cell(5, 1)), (0, cell(9, 2)), (2, cell(1, 3))]);
        assert_eq!(quantities(&day, 0), vec![(9, 2)]);
        assert!(day.of_product(1).is_empty());
        assert_eq!(quantities(&day, 2), vec![(1, 3), (5, 1)]);
        assert!(day.of_product(3).is_empty());
        let listed: Vec<u32> = day.products().map(|(p, _)| p).collect();
        assert_eq!(listed, vec![0, 2]);
    }

    #[test]
    fn a_new_cell_keeps_every_product_in_place() {
        let mut day = DayCells::from_unordered(vec![(0, cell(4, 1)), (2, cell(1, 1))]);
        day.cell_mut(0, 2).quantity += 5;
        day.cell_mut(2, 1).quantity += 1;
        day.cell_mut(1, 3).quantity += 7;
        // A product numbered past every one the day had.
        day.cell_mut(6, 0).quantity += 4;
        assert_eq!(quantities(&day, 0), vec![(2, 5), (4, 1)]);
        assert_eq!(quantities(&day, 1), vec![(3, 7)]);
        assert_eq!(quantities(&day, 2), vec![(1, 2)]);
        assert!(day.of_product(5).is_empty());
        assert_eq!(quantities(&day, 6), vec![(0, 4)]);
        let empty = DayCells::default();
        assert!(empty.of_product(0).is_empty());
        assert_eq!(empty.products().count(), 0);
    }
}
