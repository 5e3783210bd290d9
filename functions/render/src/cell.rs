//! One typed cell of a table, and how a CSV writes it in the reader's spreadsheet dialect.

/// One cell of an export, typed: numbers stay numbers, money and dates keep their kind.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cell {
    Text(String),
    Int(i64),
    /// A decimal number that is no money (coordinates).
    Number(f64),
    /// Money in minor units, with its currency's decimal places and ISO code.
    Money {
        minor: i64,
        exponent: u32,
        currency: String,
    },
    /// A percentage in basis points (550 = 5.5 %).
    PercentBps(i64),
    Date(chrono::NaiveDate),
    /// An instant, written in UTC.
    DateTime(chrono::DateTime<chrono::Utc>),
    Empty,
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Self {
        v.map(Into::into).unwrap_or(Cell::Empty)
    }
}

impl From<i64> for Cell {
    fn from(v: i64) -> Self {
        Cell::Int(v)
    }
}

impl From<f64> for Cell {
    fn from(v: f64) -> Self {
        Cell::Number(v)
    }
}

impl From<chrono::DateTime<chrono::Utc>> for Cell {
    fn from(v: chrono::DateTime<chrono::Utc>) -> Self {
        Cell::DateTime(v)
    }
}

/// How a language writes a CSV that its spreadsheets open in columns: the field separator and
/// the decimal mark (French and Italian spreadsheets use `;` and `,`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsvDialect {
    pub separator: u8,
    pub decimal: char,
}

impl CsvDialect {
    /// The dialect of `lang`.
    pub fn of(lang: vendfleet_domain::Language) -> Self {
        match lang.code() {
            "fr" | "it" => CsvDialect {
                separator: b';',
                decimal: ',',
            },
            _ => CsvDialect {
                separator: b',',
                decimal: '.',
            },
        }
    }
}

/// A number of minor units as a decimal text with `exp` places (`-1234`, 2 → `-12.34`).
fn scaled(minor: i64, exp: u32, decimal: char) -> String {
    if exp == 0 {
        return minor.to_string();
    }
    let scale = 10u64.pow(exp);
    let abs = minor.unsigned_abs();
    let sign = if minor < 0 { "-" } else { "" };
    format!(
        "{sign}{}{decimal}{:0width$}",
        abs / scale,
        abs % scale,
        width = exp as usize
    )
}

/// A text cell that a spreadsheet would run as a formula (= + - @, or a leading tab or carriage
/// return that some programs strip first) gets a leading apostrophe.
pub fn defuse(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

impl Cell {
    /// The cell as CSV text in `dialect`.
    pub fn csv_text(&self, dialect: CsvDialect) -> String {
        match self {
            Cell::Text(t) => defuse(t),
            Cell::Int(v) => v.to_string(),
            Cell::Number(v) => v.to_string().replace('.', &dialect.decimal.to_string()),
            Cell::Money {
                minor, exponent, ..
            } => scaled(*minor, *exponent, dialect.decimal),
            Cell::PercentBps(bps) => {
                let text = scaled(*bps, 2, dialect.decimal);
                let trimmed = text.trim_end_matches('0');
                trimmed
                    .strip_suffix(dialect.decimal)
                    .unwrap_or(trimmed)
                    .to_string()
            }
            Cell::Date(d) => d.format("%Y-%m-%d").to_string(),
            Cell::DateTime(t) => t.format("%Y-%m-%d %H:%M").to_string(),
            Cell::Empty => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_in_each_dialect() {
        let fr = CsvDialect::of(vendfleet_domain::Language::Fr);
        let en = CsvDialect::of(vendfleet_domain::Language::En);
        let money = Cell::Money {
            minor: -1234,
            exponent: 2,
            currency: "EUR".into(),
        };
        assert_eq!(money.csv_text(fr), "-12,34");
        assert_eq!(money.csv_text(en), "-12.34");
        let yen = Cell::Money {
            minor: 300,
            exponent: 0,
            currency: "JPY".into(),
        };
        assert_eq!(yen.csv_text(fr), "300");
        assert_eq!(Cell::PercentBps(550).csv_text(fr), "5,5");
        assert_eq!(Cell::PercentBps(2000).csv_text(en), "20");
        assert_eq!(Cell::PercentBps(1025).csv_text(en), "10.25");
        assert_eq!(Cell::Number(48.85).csv_text(fr), "48,85");
        assert_eq!(Cell::Int(-5).csv_text(fr), "-5", "numbers are not defused");
    }

    #[test]
    fn formulas_are_defused_including_tab_and_carriage_return() {
        for bad in ["=SUM(A1)", "+1", "-1", "@x", "\t=1", "\r=1"] {
            assert!(defuse(bad).starts_with('\''), "{bad:?}");
        }
        assert_eq!(defuse("Zoë"), "Zoë");
    }
}
