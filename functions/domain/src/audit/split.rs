//! Cash and cashless in what a read books, from the audit's own counters.
//!
//! A selection with payment-device counters (`PA7`) in both reads that add up to its paid
//! vends and value is split by them. The others share what is left of the machine's cash
//! sales (`CA2`, less the cash those selections took), in proportion to their value (largest
//! remainder, so the cash booked equals the machine's counter to the minor unit); without
//! `CA2`, what is left of the machine's cashless sales (`DA2`, `DB2`, `TA2`) is taken off
//! instead; with neither, it is booked as cash. Each selection's cash vends follow its cash
//! value at its average price over the read.

use super::*;
use std::collections::BTreeSet;

/// The difference of two tallies; `None` when a counter went back.
fn since(prev: Option<Tally>, next: Option<Tally>, reset: bool) -> Option<Tally> {
    let n = next?;
    if reset {
        return Some(n);
    }
    let p = prev?;
    Some(Tally {
        vends: n.vends.checked_sub(p.vends)?,
        value_minor: n.value_minor.checked_sub(p.value_minor)?,
    })
}

/// `whole × part / of`, in integers (`of` > 0, `part` ≤ `of`).
fn share(whole: u64, part: u64, of: u64) -> u64 {
    (u128::from(whole) * u128::from(part) / u128::from(of)) as u64
}

/// `whole × part / of`, rounded half up (`of` > 0, `part` ≤ `of`).
fn rounded_share(whole: u64, part: u64, of: u64) -> u64 {
    let (product, of) = (u128::from(whole) * u128::from(part), u128::from(of));
    (product / of + u128::from(2 * (product % of) >= of)) as u64
}

/// Splits `total` over `weights` in proportion, largest remainder first (ties in order), each
/// share at most its weight when `total` ≤ the weights' sum.
fn apportion(total: u64, weights: &[u64]) -> Vec<u64> {
    let sum = weights.iter().fold(0u64, |a, &w| a.saturating_add(w));
    if sum == 0 {
        return vec![0; weights.len()];
    }
    let mut out: Vec<u64> = weights.iter().map(|&w| share(total, w, sum)).collect();
    let mut left = total - out.iter().sum::<u64>();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    let remainder = |i: usize| (u128::from(total) * u128::from(weights[i])) % u128::from(sum);
    order.sort_by(|&a, &b| remainder(b).cmp(&remainder(a)).then(a.cmp(&b)));
    for i in order {
        if left == 0 {
            break;
        }
        if remainder(i) > 0 {
            out[i] += 1;
            left -= 1;
        }
    }
    out
}

/// Fills the cash and cashless parts of `deltas` (selections reset since the baseline count
/// their new counters).
pub(super) fn split_payments(
    prev: &ReadCounters,
    next: &ReadCounters,
    reset: &BTreeSet<String>,
    deltas: &mut BTreeMap<String, Delta>,
) {
    let mut own_cash = 0u64;
    let mut own_cashless = 0u64;
    let mut rest: Vec<&String> = Vec::new();
    for (id, d) in deltas.iter_mut() {
        let (p, n) = (prev.selections.get(id), next.selections.get(id));
        let was_reset = reset.contains(id);
        let own = p.zip(n).and_then(|(p, n)| {
            let cash = since(p.cash, n.cash, was_reset)?;
            let cashless = since(p.cashless, n.cashless, was_reset)?;
            (cash.vends.checked_add(cashless.vends) == Some(d.vends)
                && cash.value_minor.checked_add(cashless.value_minor) == Some(d.value_minor))
            .then_some((cash, cashless))
        });
        match own {
            Some((cash, cashless)) => {
                d.cash_vends = cash.vends;
                d.cash_minor = cash.value_minor;
                d.cashless_vends = cashless.vends;
                d.cashless_minor = cashless.value_minor;
                own_cash = own_cash.saturating_add(cash.value_minor);
                own_cashless = own_cashless.saturating_add(cashless.value_minor);
            }
            None => rest.push(id),
        }
    }
    let rest: Vec<String> = rest.into_iter().cloned().collect();
    let value = rest
        .iter()
        .fold(0u64, |a, id| a.saturating_add(deltas[id].value_minor));
    let cash = match (
        since(prev.cash, next.cash, false),
        since(prev.cashless, next.cashless, false),
    ) {
        (Some(c), _) => c.value_minor.saturating_sub(own_cash).min(value),
        (None, Some(d)) => value - d.value_minor.saturating_sub(own_cashless).min(value),
        (None, None) => value,
    };
    let weights: Vec<u64> = rest.iter().map(|id| deltas[id].value_minor).collect();
    let parts = apportion(cash, &weights);
    for (id, cash_minor) in rest.iter().zip(parts) {
        let d = deltas.get_mut(id).expect("a selection of the read");
        d.cash_minor = cash_minor;
        d.cashless_minor = d.value_minor - cash_minor;
        d.cash_vends = if d.value_minor > 0 {
            rounded_share(d.vends, cash_minor, d.value_minor)
        } else if value > 0 {
            rounded_share(d.vends, cash, value)
        } else {
            d.vends
        }
        .min(d.vends);
        d.cashless_vends = d.vends - d.cash_vends;
    }
}

#[cfg(test)]
mod tests {
    use super::apportion;

    #[test]
    fn apportion_keeps_the_total_and_each_weight() {
        assert_eq!(apportion(650, &[650, 900]), vec![273, 377]);
        assert_eq!(apportion(0, &[5, 5]), vec![0, 0]);
        assert_eq!(apportion(10, &[0, 0]), vec![0, 0]);
        assert_eq!(apportion(3, &[1, 1, 1, 1]), vec![1, 1, 1, 0]);
        assert_eq!(apportion(7, &[7]), vec![7]);
    }
}
