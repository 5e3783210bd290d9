import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DashboardSpan, DashboardToday } from '../../../api/types';
import { formatClock, formatDateRange, formatPeriodDate } from '../../../components/format';
import { KpiCards, type KpiCardsProps } from '../../../components/reports/kpi-cards';
import { isEmptySpan } from '../../../components/reports/sales-figures';
import { DASHBOARD_KPIS, dashboardLinks } from '../dashboard-logic';

const KPI_SIZE = { xs: 12, sm: 6, md: 3 } as const;

interface SalesSpanProps extends Pick<KpiCardsProps, 'total' | 'previous' | 'comparisons' | 'previousText' | 'href'> {
  /** `today` or `month`: the section's test ids (`dashboard-today-sales_minor-value`…). */
  part: 'today' | 'month';
  title: string;
  /** What the span is and what it is compared with; empty while loading. */
  caption: string;
  /** Shown under the cards when nothing sold. */
  empty: string;
}

/** A span's sales, quantity, cash and cashless against the span(s) before; each card opens the report. */
function SalesSpan({ part, title, caption, empty, total, ...cards }: SalesSpanProps) {
  return (
    <Stack spacing={1.5} component="section" data-testid={`dashboard-${part}`}>
      <div>
        <Typography variant="h6" component="h2" data-testid={`dashboard-${part}-title`}>
          {title}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', minHeight: '1.43em' }} data-testid={`dashboard-${part}-span`}>
          {caption}
        </Typography>
      </div>
      <KpiCards total={total} loading={!total} kpis={DASHBOARD_KPIS} prefix={`dashboard-${part}`} size={KPI_SIZE} {...cards} />
      {total && isEmptySpan(total) ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={`dashboard-${part}-empty`}>
          {empty}
        </Typography>
      ) : null}
    </Stack>
  );
}

/** A day with its weekday, short ("Thu, Nov 19", "jeu. 19 nov."). */
export function formatWeekday(date: string, language: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return new Intl.DateTimeFormat(language, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(parsed);
}

/**
 * Today so far, each figure against the same hours of yesterday and of the same weekday a week
 * before (the server's figures, never the whole of those days): "Today until 9:00 AM", "vs
 * yesterday until 9:00 AM", "vs Thu, Nov 19 until 9:00 AM".
 */
export function TodaySpan({ today }: { today?: DashboardToday }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const until = today ? formatClock(today.until, language) : '';
  return (
    <SalesSpan
      part="today"
      title={today ? t('dashboard.todayUntil', { until }) : t('dashboard.today')}
      caption={
        today
          ? t('dashboard.todaySpan', {
              date: formatPeriodDate(today.date, 'span', language),
              until,
              yesterday: formatWeekday(today.yesterday.date, language),
              weekBefore: formatWeekday(today.week_before.date, language),
            })
          : ''
      }
      empty={t('dashboard.noSalesToday')}
      total={today?.figures}
      comparisons={
        today
          ? [
              { key: 'yesterday', label: t('dashboard.yesterdayUntil', { until }), figures: today.yesterday },
              { key: 'week_before', label: t('dashboard.dayUntil', { day: formatWeekday(today.week_before.date, language), until }), figures: today.week_before },
            ]
          : undefined
      }
      href={today ? dashboardLinks.today(today.date) : undefined}
    />
  );
}

/** This month to date against the same days of the month before. */
export function MonthSpan({ month }: { month?: DashboardSpan }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const date = (value: string) => formatPeriodDate(value, 'span', language);
  return (
    <SalesSpan
      part="month"
      title={t('dashboard.month')}
      caption={
        month
          ? t('dashboard.monthSpan', { from: date(month.date_from), to: date(month.date_to), previous: formatDateRange(month.previous_from, month.previous_to, language) })
          : ''
      }
      empty={t('dashboard.noSalesMonth')}
      total={month?.figures}
      previous={month?.previous}
      previousText="dashboard.sameDaysLastMonth"
      href={dashboardLinks.month}
    />
  );
}
