//! The dashboard: today so far against the same hours before, the trend charts, this month's
//! figures and top lists, and the machines that need attention.

use crate::kit::dto::Data;
use crate::kit::error::ApiResult;
use crate::kit::extract::{Authorized, SignedIn};
use crate::kit::state::AppState;
use crate::sales::SalesFiguresDto;
use axum::extract::State;
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};
use vendfleet_app::dashboard::{Attention, DaySeries, SpanFigures, Today, Top, Trend};
use vendfleet_domain::attention::Reason;
use vendfleet_domain::sales::Figures;

/// The dashboard's route (served with the sales area).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(dashboard))
}

/// A span's sales and those of the span it is compared with (`previous_from`–`previous_to`:
/// the calendar period before, or the same weekdays before).
#[derive(Debug, Serialize, ToSchema)]
pub struct SpanFiguresDto {
    pub date_from: NaiveDate,
    pub date_to: NaiveDate,
    pub figures: SalesFiguresDto,
    pub previous_from: NaiveDate,
    pub previous_to: NaiveDate,
    pub previous: SalesFiguresDto,
}

impl From<&SpanFigures> for SpanFiguresDto {
    fn from(s: &SpanFigures) -> Self {
        SpanFiguresDto {
            date_from: s.from,
            date_to: s.to,
            figures: (&s.figures).into(),
            previous_from: s.previous_from,
            previous_to: s.previous_to,
            previous: (&s.previous).into(),
        }
    }
}

/// One day's sales.
#[derive(Debug, Serialize, ToSchema)]
pub struct DayFiguresDto {
    pub date: NaiveDate,
    #[serde(flatten)]
    pub figures: SalesFiguresDto,
}

impl DayFiguresDto {
    fn of(date: NaiveDate, figures: &Figures) -> Self {
        DayFiguresDto {
            date,
            figures: figures.into(),
        }
    }

    fn series(days: &DaySeries) -> Vec<Self> {
        days.iter().map(|(d, f)| DayFiguresDto::of(*d, f)).collect()
    }
}

/// Today so far, against the same hours of yesterday and of the same weekday a week before
/// (wall-clock hours in each sale's location's zone).
#[derive(Debug, Serialize, ToSchema)]
pub struct TodayDto {
    pub date: NaiveDate,
    /// The operator's wall-clock time now (`HH:MM:SS`): the compared days stop there.
    #[schema(value_type = String, example = "09:00:00")]
    pub until: chrono::NaiveTime,
    pub figures: SalesFiguresDto,
    /// Yesterday up to `until`.
    pub yesterday: DayFiguresDto,
    /// The same weekday a week before, up to `until`.
    pub week_before: DayFiguresDto,
}

impl From<&Today> for TodayDto {
    fn from(t: &Today) -> Self {
        TodayDto {
            date: t.day,
            until: t.until,
            figures: (&t.figures).into(),
            yesterday: DayFiguresDto::of(t.day - chrono::Duration::days(1), &t.yesterday),
            week_before: DayFiguresDto::of(t.day - chrono::Duration::days(7), &t.week_before),
        }
    }
}

/// The trend charts: each of the last 30 days (today included), and this month by day against
/// the month it is compared with (the same days of the previous month).
#[derive(Debug, Serialize, ToSchema)]
pub struct TrendDto {
    pub last_days: Vec<DayFiguresDto>,
    pub month: Vec<DayFiguresDto>,
    pub previous_month: Vec<DayFiguresDto>,
}

impl From<&Trend> for TrendDto {
    fn from(t: &Trend) -> Self {
        TrendDto {
            last_days: DayFiguresDto::series(&t.last_days),
            month: DayFiguresDto::series(&t.month),
            previous_month: DayFiguresDto::series(&t.previous_month),
        }
    }
}

/// A product or machine of a top list, with its figures this month.
#[derive(Debug, Serialize, ToSchema)]
pub struct TopDto {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub figures: SalesFiguresDto,
}

impl From<&Top> for TopDto {
    fn from(t: &Top) -> Self {
        TopDto {
            id: t.id.clone(),
            name: t.name.clone(),
            figures: (&t.figures).into(),
        }
    }
}

/// One reason a machine needs attention.
#[derive(Debug, Serialize, ToSchema)]
pub struct FindingDto {
    /// `offline`, `sold_out`, `low`, `expiring`, `cash_box_full` or `held_audits`.
    #[schema(value_type = crate::kit::contract::AttentionReason, inline)]
    pub reason: Reason,
    /// Selections (sold out, low, expiring), minor units in the cash box, held reads, or hours
    /// since the last event (none when the machine never reported).
    pub amount: Option<i64>,
}

/// A machine that needs attention.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttentionDto {
    pub machine_id: String,
    pub machine_name: String,
    pub location_id: Option<String>,
    pub location_name: Option<String>,
    pub findings: Vec<FindingDto>,
}

impl From<Attention> for AttentionDto {
    fn from(x: Attention) -> Self {
        AttentionDto {
            machine_id: x.machine.id,
            machine_name: x.machine.name,
            location_id: x.machine.location_id,
            location_name: x.location_name,
            findings: x
                .findings
                .into_iter()
                .map(|f| FindingDto {
                    reason: f.reason,
                    amount: f.amount,
                })
                .collect(),
        }
    }
}

/// The dashboard; a part is null when the user may not see the report behind it (sales: any
/// sales overview permission; attention: the machines list).
#[derive(Debug, Serialize, ToSchema)]
pub struct DashboardDto {
    /// The operator's today so far.
    pub today: Option<TodayDto>,
    /// The trend charts.
    pub trend: Option<TrendDto>,
    /// This month up to today.
    pub month: Option<SpanFiguresDto>,
    /// This month's five best-selling products.
    pub top_products: Option<Vec<TopDto>>,
    /// This month's five best-selling machines.
    pub top_machines: Option<Vec<TopDto>>,
    /// Machines needing attention, most findings first.
    pub attention: Option<Vec<AttentionDto>>,
}

/// The dashboard of the signed-in user, within their machine scope.
#[utoipa::path(get, path = "/api/dashboard/", tag = "sales", security(("bearer" = [])),
    responses((status = 200, body = Data<DashboardDto>)))]
async fn dashboard(
    State(s): State<AppState>,
    a: Authorized<SignedIn>,
) -> ApiResult<axum::Json<Data<DashboardDto>>> {
    let d = s.app.dashboard.dashboard(a.principal()).await?;
    let tops = |v: &Option<Vec<Top>>| v.as_ref().map(|v| v.iter().map(Into::into).collect());
    Ok(axum::Json(Data {
        data: DashboardDto {
            today: d.today.as_ref().map(Into::into),
            trend: d.trend.as_ref().map(Into::into),
            month: d.month.as_ref().map(Into::into),
            top_products: tops(&d.top_products),
            top_machines: tops(&d.top_machines),
            attention: d.attention.map(|v| v.into_iter().map(Into::into).collect()),
        },
    }))
}
