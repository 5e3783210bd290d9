// The route's reports: who visited each stop and what they booked, the stock through the van,
// and how well the forecast matched what the refiller found.
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Stack from '@mui/material/Stack';
import { formatDecimal, formatShare } from '../../../components/format';
import type { AccuracyLine, RouteStop, StockLine } from '../../../api/types';
import { formatMoney } from '../../../components/money';
import { NO_FIGURE, reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { StatCards } from '../../../components/reports/stat-cards';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useRouteAccuracy, useRouteStocks, useRouteStops } from '../api/routes';
import { accuracyRows } from '../route-logic';

type VisitRow = RouteStop & { id: string };
type AccuracyRow = AccuracyLine & { id: string };

/** Who visited each stop and when, what they filled and removed, the cash bag and the cash collected. */
export function VisitReportTab({ routeId }: { routeId: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const stops = useRouteStops(routeId);
  const col = reportColumns<VisitRow>(language);
  if (stops.isError) return <ReportFailure query={stops} testId="route-visits-error" text={t('plannedRoutes.stopsFailed')} />;
  const rows: VisitRow[] = (stops.data ?? []).map((stop) => ({ ...stop, id: stop.machine_id }));
  const visited = rows.filter((row) => row.visit).length;
  const columns: GridColDef<VisitRow>[] = [
    col.count('order', '#', { minWidth: 50, flex: 0.2 }),
    col.text('machine_name', t('plannedRoutes.machine'), { minWidth: 150, flex: 1.2 }),
    { field: 'who', headerName: t('plannedRoutes.who'), minWidth: 120, flex: 1, valueGetter: (_value, row) => (row.visit ? row.visit.employee_name : t('plannedRoutes.notVisited')) },
    col.dateTime('when', t('plannedRoutes.when'), { valueGetter: (_value, row) => row.visit?.at ?? null }),
    col.count('filled', t('plannedRoutes.filled'), { valueGetter: (_value, row) => row.visit?.filled ?? null }),
    col.count('removed', t('plannedRoutes.removed'), { valueGetter: (_value, row) => row.visit?.removed ?? null }),
    { field: 'cash_bag', headerName: t('plannedRoutes.cashBag'), minWidth: 100, valueGetter: (_value, row) => row.visit?.cash_bag || NO_FIGURE },
    {
      field: 'collected',
      headerName: t('plannedRoutes.collected'),
      type: 'number',
      minWidth: 110,
      valueGetter: (_value, row) => row.visit?.collected_minor ?? null,
      valueFormatter: (value: number | null, row) => (typeof value === 'number' ? formatMoney(value, row.currency, language) : NO_FIGURE),
    },
  ];
  return (
    <SummaryTable
      testId="route-visit-report"
      title={t('plannedRoutes.visitReport')}
      subheader={t('plannedRoutes.visitedCount', { visited, stops: rows.length })}
      rows={rows}
      columns={columns}
      loading={stops.isFetching}
      noRowsLabel={t('plannedRoutes.noStops')}
      pageSize={25}
    />
  );
}

/** Per product and component: what the van took, what went into the machines, what came out, and what came back. */
export function StockTab({ routeId }: { routeId: string }) {
  const { t, i18n } = useTranslation();
  const stocks = useRouteStocks(routeId);
  const col = reportColumns<StockLine>(i18n.language);
  if (stocks.isError) return <ReportFailure query={stocks} testId="route-stocks-error" text={t('plannedRoutes.stocksFailed')} />;
  const columns = (nameHeader: string): GridColDef<StockLine>[] => [
    col.text('name', nameHeader, { minWidth: 160, flex: 2 }),
    col.count('loaded', t('plannedRoutes.loaded')),
    col.count('filled', t('plannedRoutes.filled')),
    col.count('removed', t('plannedRoutes.removed')),
    col.count('returned', t('plannedRoutes.returned')),
  ];
  const components = stocks.data?.components ?? [];
  return (
    <Stack spacing={3}>
      <SummaryTable
        testId="route-stock-products"
        title={t('plannedRoutes.stockProducts')}
        subheader={t('plannedRoutes.returnedHint')}
        rows={stocks.data?.products ?? []}
        columns={columns(t('plannedRoutes.product'))}
        loading={stocks.isFetching}
        noRowsLabel={t('plannedRoutes.noStock')}
        pageSize={25}
      />
      {components.length > 0 ? (
        <SummaryTable
          testId="route-stock-components"
          title={t('plannedRoutes.stockComponents')}
          rows={components}
          columns={columns(t('plannedRoutes.component'))}
          loading={stocks.isFetching}
          noRowsLabel={t('plannedRoutes.noStock')}
          pageSize={25}
        />
      ) : null}
    </Stack>
  );
}

/** The forecast against the need the refiller found (max − found): the route's accuracy and the lines behind it. */
export function AccuracyTab({ routeId }: { routeId: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const accuracy = useRouteAccuracy(routeId);
  const col = reportColumns<AccuracyRow>(language);
  if (accuracy.isError) return <ReportFailure query={accuracy} testId="route-accuracy-error" text={t('plannedRoutes.accuracyFailed')} />;
  const columns: GridColDef<AccuracyRow>[] = [
    col.text('machine_name', t('plannedRoutes.machine'), { minWidth: 140 }),
    col.text('product_name', t('plannedRoutes.product'), { minWidth: 150, flex: 1.5 }),
    col.count('predicted', t('plannedRoutes.predictedNeed')),
    col.count('actual', t('plannedRoutes.actualNeed')),
    col.count('filled', t('plannedRoutes.filled')),
    { ...col.count('error', t('plannedRoutes.error')), valueFormatter: (value: number | null) => (typeof value === 'number' ? formatDecimal(value, language, 1) : NO_FIGURE) },
    { ...col.count('abs_error', t('plannedRoutes.absError')), valueFormatter: (value: number | null) => (typeof value === 'number' ? formatDecimal(value, language, 1) : NO_FIGURE) },
  ];
  const value = accuracy.data?.accuracy;
  return (
    <Stack spacing={3}>
      <StatCards
        testId="route-accuracy"
        loading={!accuracy.data}
        size={{ xs: 12, sm: 6 }}
        stats={[
          {
            key: 'accuracy',
            label: t('plannedRoutes.accuracy'),
            value: typeof value === 'number' ? formatShare(value, language) : NO_FIGURE,
            caption: typeof value === 'number' ? t('plannedRoutes.accuracyHint') : t('plannedRoutes.accuracyNone'),
          },
        ]}
      />
      <SummaryTable
        testId="route-accuracy-lines"
        title={t('plannedRoutes.accuracyLines')}
        rows={accuracyRows(accuracy.data?.lines ?? [])}
        columns={columns}
        loading={accuracy.isFetching}
        noRowsLabel={t('plannedRoutes.noAccuracy')}
        pageSize={25}
      />
    </Stack>
  );
}
