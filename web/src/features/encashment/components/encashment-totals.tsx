import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Grid from '@mui/material/Grid';
import type { Query } from '../../../api/client';
import type { OverShort as OverShortRow } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { formatMoney, REPORT_CURRENCY } from '../../../components/money';
import { reportColumns } from '../../../components/reports/report-columns';
import { EmptyReport, ReportFailure } from '../../../components/reports/report-notices';
import { StatCards } from '../../../components/reports/stat-cards';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useEncashmentTotals } from '../api/encashment';
import { formatOverShort, overShortTone, TONE_COLOR } from '../encashment-logic';
import { OverShort } from './over-short';

/** The row id of the collections of no known employee (the server's id is empty). */
const NO_ID = '__none__';

/** Overs and shorts of each employee or machine: who and where the cash goes missing more than once. */
function OverShortTable({ kind, rows, loading }: { kind: 'employee' | 'machine'; rows: OverShortRow[]; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const col = reportColumns<OverShortRow>(i18n.language);
  const columns: GridColDef<OverShortRow>[] = [
    col.text('name', kind === 'employee' ? t('encashment.employee') : t('encashment.machine'), {
      minWidth: 150,
      valueGetter: (value: string) => value || t('encashment.unknownEmployee'),
    }),
    { field: 'over_short_minor', headerName: t('encashment.overShort'), type: 'number', minWidth: 130, renderCell: ({ row }) => <OverShort minor={row.compared ? row.over_short_minor : null} /> },
    col.count('shorts', t('encashment.shorts'), {
      minWidth: 100,
      valueFormatter: (_value, row) => t('encashment.shortsOf', { shorts: formatCount(row.shorts, i18n.language), compared: formatCount(row.compared, i18n.language) }),
    }),
    col.count('collections', t('encashment.collections'), { minWidth: 110 }),
    col.money('collected_minor', t('encashment.collected')),
    col.money('expected_minor', t('encashment.expected')),
  ];
  return (
    <SummaryTable
      testId={`encashment-by-${kind}`}
      title={kind === 'employee' ? t('encashment.byEmployee') : t('encashment.byMachine')}
      subheader={t('encashment.mostShortFirst')}
      rows={rows}
      getRowId={(row) => row.id || NO_ID}
      columns={columns}
      loading={loading}
      noRowsLabel={t('encashment.noCollections')}
    />
  );
}

/** The period's collections against what the machines' sales say, then the same by employee and by machine. */
export function EncashmentTotals({ query }: { query: Query }) {
  const { t, i18n } = useTranslation();
  const totals = useEncashmentTotals(query);
  const money = (minor: number) => formatMoney(minor, REPORT_CURRENCY, i18n.language);
  const count = (value: number) => formatCount(value, i18n.language);
  if (totals.isError) return <ReportFailure query={totals} testId="encashment-totals-error" text={t('encashment.loadFailed')} />;
  const data = totals.data;
  const total = data?.total;
  const tone = overShortTone(total?.compared ? total.over_short_minor : null);
  return (
    <>
      {total && total.collections === 0 && !totals.isFetching ? <EmptyReport testId="encashment-empty" title={t('encashment.noCollections')} /> : null}
      <StatCards
        testId="encashment-total"
        loading={!total}
        stats={[
          { key: 'collections', label: t('encashment.collections'), value: count(total?.collections ?? 0), caption: t('encashment.comparedCaption', { compared: count(total?.compared ?? 0) }) },
          { key: 'collected', label: t('encashment.collected'), value: money(total?.collected_minor ?? 0) },
          { key: 'expected', label: t('encashment.expected'), value: money(total?.expected_minor ?? 0), caption: t('encashment.expectedCaption') },
          {
            key: 'over_short',
            label: t('encashment.overShort'),
            value: total?.compared ? formatOverShort(total.over_short_minor, REPORT_CURRENCY, i18n.language) : '—',
            color: tone === 'none' ? undefined : `${TONE_COLOR[tone]}.main`,
            caption: t('encashment.shortsCaption', { shorts: count(total?.shorts ?? 0), compared: count(total?.compared ?? 0) }),
          },
        ]}
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, xl: 6 }}>
          <OverShortTable kind="employee" rows={data?.by_employee ?? []} loading={totals.isFetching} />
        </Grid>
        <Grid size={{ xs: 12, xl: 6 }}>
          <OverShortTable kind="machine" rows={data?.by_machine ?? []} loading={totals.isFetching} />
        </Grid>
      </Grid>
    </>
  );
}
