import { useTranslation } from 'react-i18next';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DashboardSpan } from '../../../api/types';
import type { I18nKey } from '../../../locales/keys';
import { formatDateRange, formatPeriodDate } from '../../../components/format';
import { KpiCards } from '../../../components/reports/kpi-cards';
import { isEmptySpan } from '../../../components/reports/sales-figures';
import { DASHBOARD_KPIS } from '../dashboard-logic';

const KPI_SIZE = { xs: 12, sm: 6, md: 3 } as const;

interface SalesSpanProps {
  /** `today` or `month`: the section's test ids (`dashboard-today-sales_minor-value`…). */
  part: 'today' | 'month';
  /** Undefined while the dashboard loads. */
  span?: DashboardSpan;
  /** The sales overview of the same span. */
  href?: string;
}

const TEXTS: Record<SalesSpanProps['part'], { title: I18nKey; previous: I18nKey; empty: I18nKey }> = {
  today: { title: 'dashboard.today', previous: 'dashboard.sameDayLastWeek', empty: 'dashboard.noSalesToday' },
  month: { title: 'dashboard.month', previous: 'dashboard.sameDaysLastMonth', empty: 'dashboard.noSalesMonth' },
};

/** Today's or this month's sales, quantity, cash and cashless against the span before; each card opens the report. */
export function SalesSpan({ part, span, href }: SalesSpanProps) {
  const { t, i18n } = useTranslation();
  const texts = TEXTS[part];
  const date = (value: string) => formatPeriodDate(value, 'span', i18n.language);
  // The server's comparison: today against the same weekday a week before, the month to date
  // against the same days of the month before.
  const previous = span ? formatDateRange(span.previous_from, span.previous_to, i18n.language) : '';
  const caption = !span
    ? ''
    : part === 'today'
      ? t('dashboard.todaySpan', { date: date(span.date_to), previous })
      : t('dashboard.monthSpan', { from: date(span.date_from), to: date(span.date_to), previous });
  return (
    <Stack spacing={1.5} component="section" data-testid={`dashboard-${part}`}>
      <div>
        <Typography variant="h6" component="h2">
          {t(texts.title)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', minHeight: '1.43em' }} data-testid={`dashboard-${part}-span`}>
          {caption}
        </Typography>
      </div>
      <KpiCards
        total={span?.figures}
        previous={span?.previous}
        loading={!span}
        kpis={DASHBOARD_KPIS}
        prefix={`dashboard-${part}`}
        previousText={texts.previous}
        href={href}
        size={KPI_SIZE}
      />
      {span && isEmptySpan(span.figures) ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid={`dashboard-${part}-empty`}>
          {t(texts.empty)}
        </Typography>
      ) : null}
    </Stack>
  );
}
