//! A machine's product rollups of one day or month packed into one value: every product's
//! figures side by side, so that a report reads one row per machine and period instead of one
//! per product (a month of 50 machines: 50 rows, not 600).
//!
//! Layout, repeated once per product in no particular order: the product id's length in bytes
//! (`u16`), its UTF-8 bytes, then the eight figures in the order of [`Figures::NAMES`], each an
//! `i64`; every integer big-endian (what SQL's `printf('%016x')` writes, so the migration can
//! pack existing rows in SQL).

use vendfleet_domain::sales::Figures;

const FIGURES_BYTES: usize = 8 * 8;

/// The entries of a packed value; an error names what is wrong with it.
pub fn entries(mut bytes: &[u8]) -> impl Iterator<Item = Result<(&str, Figures), String>> {
    std::iter::from_fn(move || {
        if bytes.is_empty() {
            return None;
        }
        let entry = (|| {
            let (len, rest) = bytes.split_first_chunk::<2>().ok_or("truncated length")?;
            let len = usize::from(u16::from_be_bytes(*len));
            if rest.len() < len + FIGURES_BYTES {
                return Err("truncated entry".to_string());
            }
            let (id, rest) = rest.split_at(len);
            let id = std::str::from_utf8(id).map_err(|e| e.to_string())?;
            let mut a = [0i64; 8];
            for (i, slot) in a.iter_mut().enumerate() {
                let at = i * 8;
                *slot = i64::from_be_bytes(rest[at..at + 8].try_into().expect("8 bytes"));
            }
            bytes = &rest[FIGURES_BYTES..];
            Ok((id, Figures::from_array(a)))
        })();
        if entry.is_err() {
            bytes = &[];
        }
        Some(entry)
    })
}

/// Packs entries (product ids of at most `u16::MAX` bytes: the store's ids are far shorter).
pub fn pack<'a>(entries: impl IntoIterator<Item = (&'a str, &'a Figures)>) -> Vec<u8> {
    let mut out = Vec::new();
    for (id, f) in entries {
        let len = u16::try_from(id.len()).expect("a product id under 64 KiB");
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(id.as_bytes());
        for v in f.to_array() {
            out.extend_from_slice(&v.to_be_bytes());
        }
    }
    out
}

/// `old` with `delta` added product by product (products new to it appended).
pub fn add(old: &[u8], delta: &[(&str, Figures)]) -> Result<Vec<u8>, String> {
    let mut merged: Vec<(String, Figures)> = Vec::new();
    for e in entries(old) {
        let (id, f) = e?;
        merged.push((id.to_string(), f));
    }
    for (id, f) in delta {
        match merged.iter_mut().find(|(m, _)| m == id) {
            Some((_, sum)) => sum.add(f),
            None => merged.push((id.to_string(), *f)),
        }
    }
    Ok(pack(merged.iter().map(|(id, f)| (id.as_str(), f))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig(q: i64) -> Figures {
        Figures::from_array([q, 150 * q, 125 * q, -3, 0, 7, 0, 1])
    }

    #[test]
    fn every_i64_survives() {
        let f = Figures::from_array([i64::MIN, i64::MAX, -1, 0, 1, -3, 1 << 40, -(1 << 40)]);
        let a = pack([("x", &f)]);
        assert_eq!(
            entries(&a).map(Result::unwrap).collect::<Vec<_>>(),
            [("x", f)]
        );
    }

    #[test]
    fn packs_reads_back_and_adds() {
        let a = pack([("p-1", &fig(2)), ("produit-é", &fig(1))]);
        let back: Vec<(&str, Figures)> = entries(&a).map(Result::unwrap).collect();
        assert_eq!(back, [("p-1", fig(2)), ("produit-é", fig(1))]);

        let sum = add(&a, &[("p-2", fig(5)), ("p-1", fig(3))]).unwrap();
        let mut back: Vec<(&str, Figures)> = entries(&sum).map(Result::unwrap).collect();
        back.sort_by_key(|(id, _)| *id);
        let mut p1 = fig(2);
        p1.add(&fig(3));
        assert_eq!(back, [("p-1", p1), ("p-2", fig(5)), ("produit-é", fig(1))]);
        assert!(entries(&[]).next().is_none());
    }

    #[test]
    fn a_damaged_value_is_an_error_not_a_panic() {
        let a = pack([("p-1", &fig(2))]);
        for cut in [1, 3, a.len() - 1] {
            let got: Vec<_> = entries(&a[..cut]).collect();
            assert_eq!(got.len(), 1);
            assert!(got[0].is_err(), "cut at {cut}");
        }
    }
}
