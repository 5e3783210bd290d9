//! How a demo fleet is asked for.

/// What to seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub machines: usize,
    /// Days of history, today's (up to now) included.
    pub days: u32,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            machines: 200,
            days: 90,
            seed: 1,
        }
    }
}
