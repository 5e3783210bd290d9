import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useReportPermission } from '../../../auth/use-permission';
import { useReportFilters } from '../../../components/report-filters/report-filter-state';
import { EmptyReport, ReportFailure } from '../../../components/reports/report-notices';
import { ReportScreen } from '../../../components/reports/report-screen';
import { useSalesTotals } from '../api/sales';
import { ChartKindToggle, useChartKind } from '../components/chart-kind';
import { DetailTable } from '../components/detail-table';
import { KpiCards } from '../../../components/reports/kpi-cards';
import { TotalTable } from '../components/total-table';
import { formatDateRange, formatPeriodDate } from '../../../components/format';
import { isEmptySpan } from '../../../components/reports/sales-figures';

// The charts library is large: it loads with the charts, after the figures.
const SalesCharts = lazy(() => import('../components/sales-charts'));

/** Sales overview: filters, KPI cards, charts (over time as a line or bars, `?chart=`), totals by group and the detail by period. */
export default function SalesOverviewPage() {
  const { t, i18n } = useTranslation();
  const allowed = useReportPermission('sales_overview');
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
  const compared = span ? formatDateRange(span.previous_from, span.previous_to, language) : undefined;
  const [chartKind, setChartKind] = useChartKind();

  return (
    <ReportScreen name="sales" state={state}>
      {canTotals ? (
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
          {totals.isError ? <ReportFailure query={totals} testId="sales-error" text={t('sales.loadFailed')} /> : null}
          {span && isEmptySpan(span.total) && !totals.isFetching ? <EmptyReport testId="sales-empty" title={t('sales.noSales')} hint={t('sales.noSalesHint')} /> : null}
          {!totals.isError ? <KpiCards total={span?.total} previous={span?.previous} loading={totals.isPending} compared={compared} /> : null}
        </>
      ) : null}
      {canGraphs ? (
        <Suspense fallback={<Skeleton variant="rounded" height={380} />}>
          <SalesCharts
            query={query}
            enabled={ready}
            value={filters.value}
            grouping={filters.grouping_period}
            groupLabel={groupLabel}
            compared={compared}
            kind={chartKind}
            kindToggle={<ChartKindToggle kind={chartKind} onChange={setChartKind} />}
          />
        </Suspense>
      ) : null}
      {canTotals && !totals.isError ? (
        <TotalTable rows={span?.rows ?? []} groupLabel={groupLabel} value={filters.value} loading={totals.isFetching} />
      ) : null}
      {canList ? <DetailTable query={query} enabled={ready} value={filters.value} grouping={filters.grouping_period} canExport={canExport} /> : null}
    </ReportScreen>
  );
}
