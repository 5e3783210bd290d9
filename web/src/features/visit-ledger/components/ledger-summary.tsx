import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Skeleton from '@mui/material/Skeleton';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { UseQueryResult } from '@tanstack/react-query';
import type { VisitSum, VisitSummary } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { formatMoney, REPORT_CURRENCY } from '../../../components/money';
import { reportColumns } from '../../../components/reports/report-columns';
import { EmptyReport, ReportFailure } from '../../../components/reports/report-notices';
import { formatSignedMoney, signedColor } from '../../../components/reports/signed-money';
import { StatCards } from '../../../components/reports/stat-cards';
import { SummaryTable } from '../../../components/reports/summary-table';
import { Variance } from './status-parts';

const VarianceTrend = lazy(() => import('./variance-trend'));

/** The row id of the collections of no known employee (the server's id is empty). */
const NO_ID = '__none__';

const KINDS = ['employee', 'machine'] as const;
type Kind = (typeof KINDS)[number];

/** The sums of each employee or machine: counts, money, shorts and overs, what is unexplained, and the trend. */
function SumTable({ kind, summary, loading }: { kind: Kind; summary: VisitSummary | undefined; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const count = (value: number) => formatCount(value, language);
  const col = reportColumns<VisitSum>(language);
  const grain = summary?.trend_grain ?? 'week';
  const columns: GridColDef<VisitSum>[] = [
    col.text('name', kind === 'employee' ? t('visitLedger.employee') : t('visitLedger.machine'), {
      minWidth: 150,
      valueGetter: (value: string) => value || t('visitLedger.unknownEmployee'),
    }),
    { field: 'variance_minor', headerName: t('visitLedger.variance'), type: 'number', minWidth: 120, renderCell: ({ row }) => <Variance minor={row.compared ? row.variance_minor : null} currency={REPORT_CURRENCY} /> },
    {
      field: 'trend',
      headerName: t('visitLedger.trend', { grain: t(`visitLedger.grain.${grain}`) }),
      minWidth: 150,
      sortable: false,
      renderCell: ({ row }) => (
        <Suspense fallback={<Skeleton variant="rounded" width={120} height={36} />}>
          <VarianceTrend points={row.trend} grain={grain} />
        </Suspense>
      ),
    },
    col.count('unexplained', t('visitLedger.unexplainedColumn'), {
      minWidth: 130,
      valueFormatter: (_value, row) => t('visitLedger.unexplainedOf', { count: count(row.unexplained), amount: formatMoney(row.unexplained_minor, REPORT_CURRENCY, language) }),
    }),
    col.count('explained', t('visitLedger.explainedColumn'), { minWidth: 100 }),
    col.count('shorts', t('visitLedger.shortsColumn'), {
      minWidth: 170,
      valueFormatter: (_value, row) => t('visitLedger.shortsOverCompared', { shorts: count(row.shorts), overs: count(row.overs), compared: count(row.compared) }),
    }),
    col.count('visits', t('visitLedger.visits'), { minWidth: 100 }),
    col.money('collected_minor', t('visitLedger.collected')),
    col.money('cash_sales_minor', t('visitLedger.cashSales')),
    col.money('counted_minor', t('visitLedger.counted')),
  ];
  return (
    <SummaryTable
      testId={`visit-by-${kind}`}
      title={kind === 'employee' ? t('visitLedger.byEmployee') : t('visitLedger.byMachine')}
      subheader={t('visitLedger.mostShortFirst')}
      rows={(kind === 'employee' ? summary?.by_employee : summary?.by_machine) ?? []}
      getRowId={(row) => row.id || NO_ID}
      columns={columns}
      loading={loading}
      noRowsLabel={t('visitLedger.noLines')}
    />
  );
}

/** The period's totals, then the same by employee or by machine (a tab each), most short first. */
export function LedgerSummary({ summary }: { summary: UseQueryResult<VisitSummary> }) {
  const { t, i18n } = useTranslation();
  const [kind, setKind] = useState<Kind>('employee');
  const money = (minor: number) => formatMoney(minor, REPORT_CURRENCY, i18n.language);
  const count = (value: number) => formatCount(value, i18n.language);
  if (summary.isError) return <ReportFailure query={summary} testId="visit-summary-error" text={t('visitLedger.loadFailed')} />;
  const data = summary.data;
  const total = data?.total;
  const variance = total?.variance_minor ?? 0;
  return (
    <>
      {total && total.visits === 0 && !summary.isFetching ? <EmptyReport testId="visit-empty" title={t('visitLedger.noLines')} /> : null}
      <StatCards
        testId="visit-total"
        loading={!total}
        stats={[
          { key: 'visits', label: t('visitLedger.visits'), value: count(total?.visits ?? 0), caption: t('visitLedger.comparedCaption', { compared: count(total?.compared ?? 0) }) },
          { key: 'cash_sales', label: t('visitLedger.cashSales'), value: money(total?.cash_sales_minor ?? 0) },
          { key: 'counted', label: t('visitLedger.counted'), value: money(total?.counted_minor ?? 0) },
          {
            key: 'variance',
            label: t('visitLedger.variance'),
            value: total?.compared ? formatSignedMoney(variance, REPORT_CURRENCY, i18n.language) : '—',
            color: !total?.compared || variance === 0 ? undefined : `${signedColor(variance)}.main`,
            caption: t('visitLedger.varianceCaption', { shorts: count(total?.shorts ?? 0), overs: count(total?.overs ?? 0) }),
          },
          {
            key: 'unexplained',
            label: t('visitLedger.status.unexplained'),
            value: count(total?.unexplained ?? 0),
            color: total?.unexplained ? 'error.main' : undefined,
            caption: t('visitLedger.unexplainedCaption', { amount: money(total?.unexplained_minor ?? 0) }),
          },
          { key: 'explained', label: t('visitLedger.status.explained'), value: count(total?.explained ?? 0), caption: t('visitLedger.explainedCaption') },
        ]}
      />
      <Tabs value={kind} onChange={(_event, value: Kind) => setKind(value)} aria-label={t('visitLedger.bySummary')} data-testid="visit-summary-tabs">
        {KINDS.map((value) => (
          <Tab key={value} value={value} label={value === 'employee' ? t('visitLedger.byEmployee') : t('visitLedger.byMachine')} data-testid={`visit-tab-${value}`} />
        ))}
      </Tabs>
      <SumTable kind={kind} summary={data} loading={summary.isFetching} />
    </>
  );
}
