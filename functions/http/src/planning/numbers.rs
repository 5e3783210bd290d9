//! How planning rounds the figures it shows.

pub(crate) fn one_decimal(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

pub(crate) fn two_decimals(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
