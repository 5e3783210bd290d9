// The dashboard's trend charts (loaded on their own: the charts library is large): each of the last
// 30 days, and this month to date against the same days of the month before.
import { useTranslation } from 'react-i18next';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Grid from '@mui/material/Grid';
import { useTheme } from '@mui/material/styles';
import type { DashboardTrend, DayFigures } from '../../../api/types';
import { formatClock, formatDateRange, formatPeriodDate } from '../../../components/format';
import { Described, formatTick } from '../../../components/reports/chart-parts';
import { changeOf, formatChange, formatValue } from '../../../components/reports/sales-figures';
import { monthToDate } from '../dashboard-logic';

const HEIGHT = 280;
/** The figure the charts show: sales, as the dashboard's cards lead with. */
const KEY = 'sales_minor';

export interface TrendChartsProps {
  trend: DashboardTrend;
  /** The operator's time now (`HH:MM:SS`): today's bar is today so far. */
  until?: string;
}

const total = (days: readonly DayFigures[]) => days.reduce((sum, day) => sum + day[KEY], 0);

/** "November 2026" of a bare date. */
function monthName(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

function LastDays({ days, until }: { days: DayFigures[]; until?: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const format = (figure: number | null) => (figure === null ? '—' : formatValue(figure, 'sales', language));
  const labels = days.map((day) => formatPeriodDate(day.date, 'day', language));
  const values = days.map((day) => day[KEY]);
  const highest = values.reduce((best, value, index) => (value > values[best] ? index : best), 0);
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  const span = first ? formatDateRange(first, last, language) : '';
  const summary = t('dashboard.lastDaysSummary', {
    days: days.length,
    span,
    total: format(total(days)),
    highest: format(values[highest] ?? null),
    highestAt: labels[highest] ?? '',
    today: format(values[values.length - 1] ?? null),
  });
  return (
    <Card sx={{ height: 1 }} data-testid="dashboard-trend-days" data-days={days.length}>
      <CardHeader
        title={t('dashboard.lastDays', { days: days.length })}
        subheader={until ? t('dashboard.lastDaysCaption', { span, until: formatClock(until, language) }) : span}
        slotProps={{ title: { variant: 'h6', component: 'h2' }, subheader: { variant: 'body2' } }}
      />
      <Described summary={summary} testId="dashboard-trend-days-summary">
        <BarChart
          height={HEIGHT}
          xAxis={[{ scaleType: 'band', data: labels }]}
          yAxis={[{ valueFormatter: (figure: number) => formatTick(figure, 'sales', language), width: 64 }]}
          series={[{ id: 'days', data: values, label: t('sales.kpiSales'), valueFormatter: format }]}
          grid={{ horizontal: true }}
          hideLegend
        />
      </Described>
    </Card>
  );
}

function MonthToDate({ month, previous }: { month: DayFigures[]; previous: DayFigures[] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const comparison = useTheme().palette.text.secondary;
  const format = (figure: number | null) => (figure === null ? '—' : formatValue(figure, 'sales', language));
  const series = monthToDate(month, previous, KEY);
  const current = month.length ? monthName(month[0].date, language) : t('dashboard.month');
  const before = previous.length ? monthName(previous[0].date, language) : '';
  const currentTotal = total(month);
  const previousTotal = total(previous);
  const summary = t('dashboard.monthToDateSummary', {
    month: current,
    previousMonth: before,
    day: month.length,
    current: format(currentTotal),
    previous: format(previousTotal),
    change: formatChange(changeOf(currentTotal, previousTotal), language),
  });
  return (
    <Card sx={{ height: 1 }} data-testid="dashboard-trend-month">
      <CardHeader
        title={t('dashboard.monthAgainstMonth')}
        subheader={t('dashboard.monthToDateCaption')}
        slotProps={{ title: { variant: 'h6', component: 'h2' }, subheader: { variant: 'body2' } }}
      />
      <Described summary={summary} testId="dashboard-trend-month-summary">
        <LineChart
          height={HEIGHT}
          xAxis={[
            {
              scaleType: 'point',
              data: series.days,
              valueFormatter: (day: number, context) => (context.location === 'tick' ? String(day) : t('dashboard.dayOfMonth', { day })),
            },
          ]}
          yAxis={[{ valueFormatter: (figure: number) => formatTick(figure, 'sales', language), width: 64 }]}
          series={[
            { id: 'month', data: series.current, label: current, valueFormatter: format, showMark: false, curve: 'linear' },
            { id: 'previous', data: series.previous, label: before, valueFormatter: format, showMark: false, curve: 'linear', color: comparison },
          ]}
          grid={{ horizontal: true }}
        />
      </Described>
    </Card>
  );
}

/** The two trend charts, side by side on a wide screen. */
export default function TrendCharts({ trend, until }: TrendChartsProps) {
  return (
    <Grid container spacing={3} data-testid="dashboard-trend">
      <Grid size={{ xs: 12, lg: 6 }}>
        <LastDays days={trend.last_days} until={until} />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <MonthToDate month={trend.month} previous={trend.previous_month} />
      </Grid>
    </Grid>
  );
}
