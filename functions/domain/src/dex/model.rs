//! The audit's shapes: what a file holds, read into typed figures (docs/dex.md has the JSON contract).

use serde::{Deserialize, Serialize};

pub(super) const CRC_16_ARC: crc::Crc<u16> = crc::Crc::<u16>::new(&crc::CRC_16_ARC);

/// Values machines write for "not set" (u32::MAX, u16::MAX, eight nines): read as empty.
pub(super) const NOT_SET: [u64; 3] = [4_294_967_295, 65_535, 99_999_999];

/// Warnings kept per audit; a file of garbage should not print megabytes of them.
pub(super) const MAX_WARNINGS: usize = 200;

/// The exact warning for an audit without `ID4`.
pub const NO_ID4: &str = "no ID4: money scale comes from the machine's settings";

/// CRC-16/ARC (polynomial 0x8005 reflected, init 0, no final xor): the `G85` checksum.
pub fn crc16_arc(bytes: &[u8]) -> u16 {
    CRC_16_ARC.checksum(bytes)
}

/// Every audit found in one file, in file order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DexFile {
    pub audits: Vec<Audit>,
}

/// A file that cannot be read: where, which segment, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("line {line}, segment {segment}: {message}")]
pub struct DexError {
    /// 1-based line of the file.
    pub line: usize,
    /// The segment id (or the start of the line when it has none).
    pub segment: String,
    pub message: String,
}

/// What `G85` says about the bytes from `ST` through the line before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Checksum {
    Ok,
    Bad,
    #[default]
    Absent,
}

/// The line ends of the bytes `G85` was found to match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LineEnds {
    /// CR LF, as transmitted.
    Crlf,
    Lf,
    Cr,
    /// More than one kind.
    Mixed,
}

impl LineEnds {
    /// Its name in a warning.
    pub fn describe(self) -> &'static str {
        match self {
            LineEnds::Crlf => "CR LF",
            LineEnds::Lf => "LF",
            LineEnds::Cr => "CR",
            LineEnds::Mixed => "mixed",
        }
    }
}

/// One audit (one `DXS`…`DXE`, or one envelope-less run of segments). Money is in minor units
/// of the audit's currency: divide by 10^`decimal_places`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Audit {
    /// 1-based line where the audit starts (its `DXS`, or its first segment without one).
    pub line: usize,
    /// `ID1`: the machine's identity.
    pub machine: Option<Machine>,
    /// `ID401`: decimal places of every money figure; `None` without `ID4`.
    pub decimal_places: Option<u32>,
    /// `ID402` as written: a leading 1 then the ISO 4217 numeric code ("1978" = EUR).
    pub currency_code: Option<String>,
    /// The ISO 4217 numeric code taken from `ID402` ("978").
    pub currency_numeric: Option<String>,
    /// `G85` checked against CRC-16/ARC of the bytes from `ST` through the line before `G85`,
    /// as written and, when their line ends are not CR LF, with CR LF line ends.
    pub checksum: Checksum,
    /// The line ends of the form `G85` matched (`crlf` for a file converted after its
    /// checksum was computed); `None` unless `checksum` is `Ok`.
    #[serde(default)]
    pub checksum_line_ends: Option<LineEnds>,
    /// The audit was cut off: its envelope has no `DXE`. What was read is kept; the last line
    /// may be cut inside its elements.
    #[serde(default)]
    pub truncated: bool,
    /// One per `PA1`, with its `PA2`–`PA5` and `PA7`.
    pub selections: Vec<Selection>,
    /// `VA1`: paid vends.
    pub paid_vends: Option<VendCounters>,
    /// `VA2`: test vends.
    pub test_vends: Option<VendCounters>,
    /// `VA3`: free vends.
    pub free_vends: Option<VendCounters>,
    /// `CA2`: cash sales.
    pub cash_sales: Option<VendCounters>,
    /// `CA3`: cash in.
    pub cash_in: Option<CashIn>,
    /// `CA4`: cash dispensed.
    pub cash_out: Option<CashOut>,
    /// `CA10`: coins filled into the tubes by hand.
    pub manual_fill: Option<ManualFill>,
    /// `CA15`: value in all coin tubes.
    pub tube_contents: Option<TubeContents>,
    /// `CA17`: one per coin tube.
    pub coin_tubes: Vec<CoinTube>,
    /// `DA2`: cashless device 1 sales.
    pub cashless1: Option<VendCounters>,
    /// `DB2`: cashless device 2 sales.
    pub cashless2: Option<VendCounters>,
    /// `TA2`: token sales.
    pub tokens: Option<VendCounters>,
    /// `EA3`: read counters and the date of this read.
    pub reads: Option<Reads>,
    /// What was odd about the file, each with its line where there is one.
    pub warnings: Vec<String>,
}

/// `ID1`: the machine's identity, as the machine reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// `ID101`
    pub serial: Option<String>,
    /// `ID102`
    pub model: Option<String>,
    /// `ID103`: build standard.
    pub build: Option<String>,
    /// `ID104`
    pub location: Option<String>,
    /// `ID105`: user defined.
    pub user_defined: Option<String>,
    /// `ID106`
    pub asset_number: Option<String>,
}

/// Count and value of vends since initialisation and since the last reset: `PA2`–`PA4`
/// (count first: `xx01` count, `xx02` value, `xx03` count, `xx04` value) and `VA1`–`VA3`,
/// `CA2`, `DA2`, `DB2`, `TA2` (value first: `xx01` value, `xx02` count, `xx03` value,
/// `xx04` count).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VendCounters {
    /// `PA201` / `VA102`
    pub vends_since_init: Option<u64>,
    /// `PA202` / `VA101`
    pub value_since_init_minor: Option<u64>,
    /// `PA203` / `VA104`
    pub vends_since_reset: Option<u64>,
    /// `PA204` / `VA103`
    pub value_since_reset_minor: Option<u64>,
}

impl VendCounters {
    /// Since-reset figures without since-init ones: a shape some machines write.
    pub(super) fn only_since_reset(&self) -> bool {
        self.vends_since_init.is_none()
            && self.value_since_init_minor.is_none()
            && (self.vends_since_reset.is_some() || self.value_since_reset_minor.is_some())
    }
}

/// One selection (`PA1`) and its figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// `PA101`: the selection id (button or slot).
    pub id: String,
    /// `PA102`: price.
    pub price_minor: Option<u64>,
    /// `PA103`: product name.
    pub name: Option<String>,
    /// `PA104`: capacity.
    pub capacity: Option<u64>,
    /// `PA108`: current level.
    pub level: Option<u64>,
    /// `PA2`: paid vends.
    pub sales: Option<VendCounters>,
    /// `PA3`: test vends.
    pub test_vends: Option<VendCounters>,
    /// `PA4`: free vends.
    pub free_vends: Option<VendCounters>,
    /// `PA5`: sold out.
    pub sold_out: Option<SoldOut>,
    /// `PA7`: sales per payment device and price list.
    pub by_payment_device: Vec<DeviceSales>,
}

/// `PA5`: when the selection sold out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SoldOut {
    /// `PA501`: YYMMDD as written.
    pub date: Option<String>,
    /// `PA502`: HHMM (or HHMMSS) as written.
    pub time: Option<String>,
    /// `PA503`: how many times it sold out.
    pub count: Option<u64>,
}

/// `PA7`: one selection's sales through one payment device and price list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceSales {
    /// `PA702`: `CA` cash, `DA`/`DB` cashless 1/2, `TA` token.
    pub device: Option<String>,
    /// `PA703`
    pub price_list: Option<u64>,
    /// `PA704`: the price applied.
    pub price_minor: Option<u64>,
    /// `PA705`
    pub vends_since_init: Option<u64>,
    /// `PA706`
    pub value_since_init_minor: Option<u64>,
    /// `PA707`
    pub vends_since_reset: Option<u64>,
    /// `PA708`
    pub value_since_reset_minor: Option<u64>,
}

/// `CA3`: cash taken in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashIn {
    /// `CA301`
    pub since_reset_minor: Option<u64>,
    /// `CA302`
    pub to_box_since_reset_minor: Option<u64>,
    /// `CA303`
    pub to_tubes_since_reset_minor: Option<u64>,
    /// `CA304`
    pub bills_since_reset_minor: Option<u64>,
    /// `CA305`
    pub since_init_minor: Option<u64>,
    /// `CA306`
    pub to_box_since_init_minor: Option<u64>,
    /// `CA307`
    pub to_tubes_since_init_minor: Option<u64>,
    /// `CA308`
    pub bills_since_init_minor: Option<u64>,
}

/// `CA4`: cash paid out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashOut {
    /// `CA401`: change.
    pub change_since_reset_minor: Option<u64>,
    /// `CA402`: dispensed by hand.
    pub manual_since_reset_minor: Option<u64>,
    /// `CA403`
    pub change_since_init_minor: Option<u64>,
    /// `CA404`
    pub manual_since_init_minor: Option<u64>,
}

/// `CA10`: coins filled into the tubes by hand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManualFill {
    /// `CA1001`
    pub value_since_reset_minor: Option<u64>,
    /// `CA1002`
    pub value_since_init_minor: Option<u64>,
}

/// `CA15`: what the coin tubes hold (the float).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TubeContents {
    /// `CA1501`
    pub value_minor: Option<u64>,
}

/// `CA17`: one coin tube.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoinTube {
    /// `CA1701`: coin type number.
    pub coin_type: Option<u64>,
    /// `CA1702`
    pub coin_value_minor: Option<u64>,
    /// `CA1703`: coins in the tube.
    pub coins: Option<u64>,
    /// `CA1704`
    pub coins_manually_filled: Option<u64>,
    /// `CA1705`
    pub coins_manually_dispensed: Option<u64>,
}

/// `EA3`: read counters and this read's date.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reads {
    /// `EA301`: reads with reset since initialisation.
    pub reads_with_reset: Option<u64>,
    /// `EA302`: date of this read, YYMMDD as written.
    pub date: Option<String>,
    /// `EA303`: time of this read, HHMM as written.
    pub time: Option<String>,
    /// `EA304`: the reading device.
    pub reader: Option<String>,
    /// `EA305`
    pub last_date: Option<String>,
    /// `EA306`
    pub last_time: Option<String>,
    /// `EA307`
    pub last_reader: Option<String>,
    /// `EA308`: reads with or without reset since initialisation.
    pub reads_since_init: Option<u64>,
}
