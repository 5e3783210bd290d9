import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isApiError } from '../../../api/client';
import { usePermission } from '../../../auth/use-permission';
import { useReportFilters } from '../../../components/report-filters/report-filter-state';
import { RetryAlert } from '../../../components/retry-alert';
import { ScreenHeader } from '../../../components/screen-header';
import { useSalesTotals } from '../api/sales';
import { DetailTable } from '../components/detail-table';
import { KpiCards } from '../components/kpi-cards';
import { ReportFilterBar } from '../components/report-filter-bar';
import { TotalTable } from '../components/total-table';
import { formatPeriodDate, isEmptySpan } from '../sales-logic';

// The charts library is large: it loads with the charts, after the figures.
const SalesCharts = lazy(() => import('../components/sales-charts'));

const MODULE = 'reports.sales_overview';

/** The server's reason for a refused filter (400), else the generic text. */
function failureText(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.status !== 400) return fallback;
  const reasons = Object.values(error.errors).flat();
  return reasons.length ? reasons.join(' ') : error.message || fallback;
}

/** Sales overview: filters, KPI cards, charts, totals by group and the detail by period. */
export default function SalesOverviewPage() {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const allowed = (part: string) => can(`${MODULE}.full_access`) || can(`${MODULE}.${part}`);
  const canTotals = allowed('total_list');
  const canGraphs = allowed('graph');
  const canList = allowed('list');
  const canExport = allowed('export');

  const state = useReportFilters();
  const { filters, query, problem } = state;
  const ready = problem === null;
  const totals = useSalesTotals(query, ready && canTotals);
  const groupLabel = t(`reports.groupBys.${filters.group_by}`);
  const language = i18n.language;
  const span = totals.data;

  return (
    <>
      <ScreenHeader />
      <Stack spacing={3}>
        <ReportFilterBar state={state} />
        {problem ? (
          <Alert severity="info" data-testid="sales-span-problem">
            {t(`reports.${problem}`)}
          </Alert>
        ) : null}
        {ready && canTotals ? (
          <>
            {span ? (
              <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="sales-span">
                {t('sales.span', {
                  from: formatPeriodDate(span.date_from, 'span', language),
                  to: formatPeriodDate(span.date_to, 'span', language),
                  previousFrom: formatPeriodDate(span.previous_from, 'span', language),
                  previousTo: formatPeriodDate(span.previous_to, 'span', language),
                })}
              </Typography>
            ) : null}
            {totals.isError ? (
              <RetryAlert testId="sales-error" onRetry={() => void totals.refetch()}>
                {failureText(totals.error, t('sales.loadFailed'))}
              </RetryAlert>
            ) : null}
            {span && isEmptySpan(span.total) && !totals.isFetching ? (
              <Alert severity="info" data-testid="sales-empty">
                <AlertTitle>{t('sales.noSales')}</AlertTitle>
                {t('sales.noSalesHint')}
              </Alert>
            ) : null}
            {!totals.isError ? <KpiCards total={span?.total} previous={span?.previous} loading={totals.isPending} /> : null}
          </>
        ) : null}
        {ready && canGraphs ? (
          <Suspense fallback={<Skeleton variant="rounded" height={380} />}>
            <SalesCharts query={query} enabled={ready} value={filters.value} grouping={filters.grouping_period} groupLabel={groupLabel} />
          </Suspense>
        ) : null}
        {ready && canTotals && !totals.isError ? (
          <TotalTable rows={span?.rows ?? []} groupLabel={groupLabel} value={filters.value} loading={totals.isFetching} />
        ) : null}
        {ready && canList ? (
          <DetailTable query={query} enabled={ready} value={filters.value} grouping={filters.grouping_period} canExport={canExport} />
        ) : null}
      </Stack>
    </>
  );
}
