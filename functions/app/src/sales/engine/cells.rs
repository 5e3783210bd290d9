//! A day's product figures in the sales engine: every machine's cells of the day in one vector,
//! ordered by machine and then product, with where each machine's cells start, and beside it
//! the cells' places by product. A question about a few machines reads only theirs; one about a
//! few products reads only those products' cells (whichever is fewer cells); one about most of
//! the fleet and every product reads the day's cells one after the other in memory (no vector
//! per machine to follow).

use vendfleet_domain::sales::Figures;

/// A machine's figures of one product and day, narrowed: revenue is cash plus cashless.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Cell {
    /// The product's number in the engine's columns.
    pub product: u32,
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
        if f.sales_minor != f.cash_minor + f.cashless_minor {
            return None;
        }
        let add = |a: i32, b: i64| i32::try_from(i64::from(a) + b).ok();
        Some(Cell {
            product: self.product,
            quantity: add(self.quantity, f.quantity)?,
            net: add(self.net, f.sales_excl_tax_minor)?,
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
        f.sales_minor += i64::from(self.cash) + i64::from(self.cashless);
        f.sales_excl_tax_minor += i64::from(self.net);
        f.cash_minor += i64::from(self.cash);
        f.cashless_minor += i64::from(self.cashless);
        f.free_quantity += i64::from(self.free);
        f.test_quantity += i64::from(self.test);
        f.transactions += i64::from(self.transactions);
    }
}

/// A sum of cells, each figure widened (revenue is cash plus cashless): quantity, net, cash,
/// cashless, free, test, transactions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Sum([i64; 7]);

impl Sum {
    /// The sum of `cells`.
    pub fn of(cells: &[Cell]) -> Sum {
        let mut sum = Sum::default();
        cells.iter().for_each(|c| sum.add(c));
        sum
    }

    pub fn add(&mut self, c: &Cell) {
        let figures = [
            c.quantity,
            c.net,
            c.cash,
            c.cashless,
            c.free,
            c.test,
            c.transactions,
        ];
        for (s, f) in self.0.iter_mut().zip(figures) {
            *s += i64::from(f);
        }
    }

    pub fn is_zero(&self) -> bool {
        self.0 == [0; 7]
    }

    /// The figures summed, as [`Cell::figures`] gives a cell's.
    pub fn figures(&self) -> Figures {
        let [quantity, net, cash, cashless, free, test, transactions] = self.0;
        Figures {
            quantity,
            sales_minor: cash + cashless,
            sales_excl_tax_minor: net,
            cash_minor: cash,
            cashless_minor: cashless,
            free_quantity: free,
            test_quantity: test,
            transactions,
        }
    }
}

/// One period's cells, by machine index and then product number: packed as a build made them
/// (every machine's cells in one vector), or open once a commit has added a cell to the period
/// (each machine's cells in a vector of its own, so that a new cell moves only its machine's
/// cells, not every later machine's: a commit costs the products of one machine, not the
/// cells of the whole fleet's day, week or month).
#[derive(Debug)]
pub(super) enum DayCells {
    Packed(Packed),
    Open(Vec<Vec<Cell>>),
}

impl Default for DayCells {
    fn default() -> Self {
        DayCells::Packed(Packed::default())
    }
}

/// Every machine's cells of a period in one vector.
#[derive(Debug, Default)]
pub(super) struct Packed {
    /// Machine `i`'s cells are `cells[starts[i]..starts[i + 1]]`; machines indexed at or past
    /// `starts.len() - 1` have none this day.
    starts: Vec<u32>,
    cells: Vec<Cell>,
    /// Product `p`'s cells, by machine: `(machine, place in cells)` pairs
    /// `by_product[product_starts[p]..product_starts[p + 1]]` (8 bytes a cell). A question
    /// about a few products reads only their cells.
    product_starts: Vec<u32>,
    by_product: Vec<(u32, u32)>,
}

impl DayCells {
    /// The day's cells from `(machine, cell)` pairs in any order, one pair per machine and
    /// product.
    pub fn from_unordered(mut pairs: Vec<(u32, Cell)>) -> DayCells {
        pairs.sort_unstable_by_key(|(m, c)| (*m, c.product));
        let machines = pairs.last().map_or(0, |(m, _)| *m as usize + 1);
        let mut starts = vec![0u32; machines + 1];
        for (m, _) in &pairs {
            starts[*m as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        // Stable: each product's places stay in machine order.
        let mut by_product: Vec<(u32, u32)> =
            (0u32..).zip(&pairs).map(|(k, (m, _))| (*m, k)).collect();
        by_product.sort_by_key(|(_, k)| pairs[*k as usize].1.product);
        let products = pairs
            .iter()
            .map(|(_, c)| c.product as usize + 1)
            .max()
            .unwrap_or(0);
        let mut product_starts = vec![0u32; products + 1];
        for (_, c) in &pairs {
            product_starts[c.product as usize + 1] += 1;
        }
        for p in 1..product_starts.len() {
            product_starts[p] += product_starts[p - 1];
        }
        DayCells::Packed(Packed {
            starts,
            cells: pairs.into_iter().map(|(_, c)| c).collect(),
            product_starts,
            by_product,
        })
    }

    /// How many cells the products numbered `products` have this period, where they can be
    /// read by product (a packed period); `None` for an open one.
    pub fn cells_of_products(&self, products: &[u32]) -> Option<usize> {
        let DayCells::Packed(p) = self else {
            return None;
        };
        let count = |q: &u32| {
            let at = |k: usize| p.product_starts.get(k).copied().unwrap_or(0);
            let q = *q as usize;
            at(q + 1).saturating_sub(at(q)) as usize
        };
        Some(products.iter().map(count).sum())
    }

    /// Calls `f` with each cell of the products numbered `products` and its machine's index,
    /// product by product and then by machine. Does nothing for an open period (see
    /// [`DayCells::cells_of_products`]).
    pub fn each_of_products<'a>(&'a self, products: &[u32], mut f: impl FnMut(usize, &'a Cell)) {
        let DayCells::Packed(p) = self else {
            return;
        };
        for q in products.iter().map(|q| *q as usize) {
            if let (Some(a), Some(b)) = (p.product_starts.get(q), p.product_starts.get(q + 1)) {
                for (m, k) in &p.by_product[*a as usize..*b as usize] {
                    f(*m as usize, &p.cells[*k as usize]);
                }
            }
        }
    }

    /// About how many cells `machines` of the period's machines have: their share of its cells
    /// (the machines counted up to the highest index with cells).
    pub fn cells_of_machines(&self, machines: usize) -> usize {
        let (cells, indexed) = match self {
            DayCells::Packed(p) => (p.cells.len(), p.starts.len().saturating_sub(1)),
            DayCells::Open(by_machine) => (by_machine.iter().map(Vec::len).sum(), by_machine.len()),
        };
        let indexed = indexed.max(1);
        cells.saturating_mul(machines.min(indexed)) / indexed
    }

    /// Machine `i`'s cells, by product number.
    pub fn of_machine(&self, i: usize) -> &[Cell] {
        match self {
            DayCells::Packed(p) => match (p.starts.get(i), p.starts.get(i + 1)) {
                (Some(a), Some(b)) => &p.cells[*a as usize..*b as usize],
                _ => &[],
            },
            DayCells::Open(by_machine) => by_machine.get(i).map_or(&[], Vec::as_slice),
        }
    }

    /// Calls `f` with machine `i`'s cells of the products `chosen` marks (by product number;
    /// a product numbered past its end is not chosen).
    pub fn each_chosen_of_machine<'a>(
        &'a self,
        i: usize,
        chosen: &[bool],
        mut f: impl FnMut(&'a Cell),
    ) {
        let is_chosen = |p: u32| chosen.get(p as usize) == Some(&true);
        for c in self.of_machine(i) {
            if is_chosen(c.product) {
                f(c);
            }
        }
    }

    /// Calls `f` with every machine with cells this period and its cells, in machine order.
    pub fn each_machine<'a>(&'a self, mut f: impl FnMut(usize, &'a [Cell])) {
        match self {
            DayCells::Packed(p) => {
                for (i, w) in p.starts.windows(2).enumerate() {
                    if w[0] < w[1] {
                        f(i, &p.cells[w[0] as usize..w[1] as usize]);
                    }
                }
            }
            DayCells::Open(by_machine) => {
                for (i, cells) in by_machine.iter().enumerate() {
                    if !cells.is_empty() {
                        f(i, cells);
                    }
                }
            }
        }
    }

    /// The cell of machine `i` and product `product`, added (zero) when missing; a packed
    /// period is opened first (once).
    pub fn cell_mut(&mut self, i: usize, product: u32) -> &mut Cell {
        if let DayCells::Packed(p) = self {
            let mut by_machine: Vec<Vec<Cell>> = vec![Vec::new(); p.starts.len().saturating_sub(1)];
            for (m, cells) in by_machine.iter_mut().enumerate() {
                let (a, b) = (p.starts[m] as usize, p.starts[m + 1] as usize);
                cells.extend_from_slice(&p.cells[a..b]);
            }
            *self = DayCells::Open(by_machine);
        }
        let DayCells::Open(by_machine) = self else {
            unreachable!("opened above")
        };
        if by_machine.len() <= i {
            by_machine.resize_with(i + 1, Vec::new);
        }
        let cells = &mut by_machine[i];
        let at = match cells.binary_search_by_key(&product, |c| c.product) {
            Ok(k) => k,
            Err(k) => {
                let cell = Cell {
                    product,
                    ..Cell::default()
                };
                cells.insert(k, cell);
                k
            }
        };
        &mut cells[at]
    }
}

/// A machine index's row in an answer: not one of the machines asked.
const NONE: u32 = u32::MAX;

/// The machines a sum is over, as the columns index them.
pub(super) struct Picked {
    /// (position in the machines asked, index in the columns) of each one with figures.
    pub slots: Vec<(u32, usize)>,
    /// For each index of the columns, its position in the machines asked ([`NONE`]: not there).
    row_of: Vec<u32>,
    /// Few of the fleet: their cells are read by index, not the day's in a row.
    few: bool,
}

impl Picked {
    /// The machines asked by their index in columns of `indexed` machines (`None`: none
    /// there yet).
    pub fn new(indexed: usize, machines: &[Option<usize>]) -> Picked {
        let mut row_of = vec![NONE; indexed];
        let mut slots = Vec::with_capacity(machines.len());
        for (k, m) in (0u32..).zip(machines) {
            if let Some(i) = m {
                row_of[*i] = k;
                slots.push((k, *i));
            }
        }
        let few = slots.len() * 8 < indexed;
        Picked { slots, row_of, few }
    }

    pub fn has(&self, i: usize) -> bool {
        self.row_of[i] != NONE
    }

    /// Machine index `i`'s position in the machines asked, `None` when not asked.
    pub fn row(&self, i: usize) -> Option<u32> {
        self.row_of.get(i).copied().filter(|k| *k != NONE)
    }

    /// How many cells of `day` reading the picked machines' own would look through (an
    /// estimate: the picked share of the day's cells).
    pub fn cells_in(&self, day: &DayCells) -> usize {
        day.cells_of_machines(self.slots.len())
    }

    /// Calls `f` with each picked machine's position and cells of `day`.
    pub fn each(&self, day: &DayCells, mut f: impl FnMut(u32, &[Cell])) {
        self.each_index(day, |k, i| f(k, day.of_machine(i)));
    }

    /// Calls `f` with each picked machine's position and index, those with cells of `day`
    /// at least (all of them when few).
    pub fn each_index(&self, day: &DayCells, mut f: impl FnMut(u32, usize)) {
        if self.few {
            for (k, i) in &self.slots {
                f(*k, *i);
            }
        } else {
            day.each_machine(|i, _| {
                if self.has(i) {
                    f(self.row_of[i], i);
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(product: u32, quantity: i32) -> Cell {
        Cell {
            product,
            quantity,
            ..Cell::default()
        }
    }

    fn listed(day: &DayCells) -> Vec<usize> {
        let mut out = Vec::new();
        day.each_machine(|i, _| out.push(i));
        out
    }

    fn chosen_of(day: &DayCells, i: usize, chosen: &[bool]) -> Vec<u32> {
        let mut out = Vec::new();
        day.each_chosen_of_machine(i, chosen, |c| out.push(c.product));
        out
    }

    fn quantities(day: &DayCells, i: usize) -> Vec<(u32, i32)> {
        day.of_machine(i)
            .iter()
            .map(|c| (c.product, c.quantity))
            .collect()
    }

    #[test]
    fn a_sum_of_cells_is_their_figures_added() {
        let cells = [
            Cell {
                product: 1,
                quantity: 2,
                net: 90,
                cash: 100,
                cashless: 0,
                free: 1,
                test: 0,
                transactions: 2,
            },
            Cell {
                product: 4,
                quantity: 1,
                net: 45,
                cash: 0,
                cashless: 50,
                free: 0,
                test: 3,
                transactions: 1,
            },
        ];
        let mut want = Figures::default();
        cells.iter().for_each(|c| c.add_to(&mut want));
        assert_eq!(Sum::of(&cells).figures(), want);
        assert!(Sum::default().is_zero() && !Sum::of(&cells).is_zero());
    }

    #[test]
    fn cells_are_found_by_machine_in_product_order() {
        let day = DayCells::from_unordered(vec![(2, cell(5, 1)), (0, cell(9, 2)), (2, cell(1, 3))]);
        assert_eq!(quantities(&day, 0), vec![(9, 2)]);
        assert!(day.of_machine(1).is_empty());
        assert_eq!(quantities(&day, 2), vec![(1, 3), (5, 1)]);
        assert!(day.of_machine(3).is_empty());
        assert_eq!(listed(&day), vec![0, 2]);
        let chosen = [false, true, false, false, false, true];
        let of = |i| chosen_of(&day, i, &chosen);
        assert_eq!(of(2), vec![1, 5]);
        assert!(of(0).is_empty(), "product 9 is past the chosen list");
        assert!(of(7).is_empty());
    }

    #[test]
    fn cells_are_found_by_product_in_machine_order() {
        let day = DayCells::from_unordered(vec![
            (3, cell(5, 1)),
            (0, cell(9, 2)),
            (1, cell(5, 4)),
            (3, cell(1, 3)),
            (0, cell(5, 6)),
        ]);
        let read = |products: &[u32]| {
            let mut out = Vec::new();
            day.each_of_products(products, |i, c| out.push((i, c.product, c.quantity)));
            out
        };
        assert_eq!(read(&[5]), vec![(0, 5, 6), (1, 5, 4), (3, 5, 1)]);
        assert_eq!(read(&[1, 9]), vec![(3, 1, 3), (0, 9, 2)]);
        assert!(
            read(&[2, 40]).is_empty(),
            "no cells, or numbered past every one"
        );
        assert_eq!(day.cells_of_products(&[5, 9, 40]), Some(4));
        assert_eq!((day.cells_of_machines(4), day.cells_of_machines(2)), (5, 2));
        // An opened period is read by machine only.
        let mut open = DayCells::from_unordered(vec![(0, cell(5, 1))]);
        open.cell_mut(1, 5).quantity += 1;
        assert_eq!(open.cells_of_products(&[5]), None);
        assert_eq!(
            (open.cells_of_machines(2), open.cells_of_machines(1)),
            (2, 1)
        );
    }

    #[test]
    fn a_new_cell_keeps_every_machine_in_place() {
        let mut day = DayCells::from_unordered(vec![(0, cell(4, 1)), (2, cell(1, 1))]);
        day.cell_mut(0, 2).quantity += 5;
        day.cell_mut(2, 1).quantity += 1;
        day.cell_mut(1, 3).quantity += 7;
        // A machine indexed past every one the day had.
        day.cell_mut(6, 0).quantity += 4;
        assert_eq!(quantities(&day, 0), vec![(2, 5), (4, 1)]);
        assert_eq!(quantities(&day, 1), vec![(3, 7)]);
        assert_eq!(quantities(&day, 2), vec![(1, 2)]);
        assert!(day.of_machine(5).is_empty());
        assert_eq!(quantities(&day, 6), vec![(0, 4)]);
        let chosen = [false, true, true, true];
        let of = |i| chosen_of(&day, i, &chosen);
        assert_eq!(
            (of(0), of(1), of(2), of(6)),
            (vec![2], vec![3], vec![1], vec![])
        );
        let empty = DayCells::default();
        assert!(empty.of_machine(0).is_empty());
        assert!(listed(&empty).is_empty());
        assert_eq!(listed(&day), vec![0, 1, 2, 6]);
    }
}
