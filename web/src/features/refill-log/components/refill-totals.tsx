import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import type { Query } from '../../../api/client';
import type { ProductRefills } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportFailure } from '../../../components/reports/report-notices';
import { StatCards } from '../../../components/reports/stat-cards';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useRefillTotals } from '../api/refill-log';

/** The period's units added and removed, in all and by product. */
export function RefillTotals({ query }: { query: Query }) {
  const { t, i18n } = useTranslation();
  const totals = useRefillTotals(query);
  const rows = totals.data;
  const col = reportColumns<ProductRefills>(i18n.language);
  if (totals.isError) return <ReportFailure query={totals} testId="refill-totals-error" text={t('refillLog.loadFailed')} />;
  const sum = (field: 'amount_added' | 'amount_removed' | 'net' | 'lines') => formatCount((rows ?? []).reduce((total, row) => total + row[field], 0), i18n.language);
  const columns: GridColDef<ProductRefills>[] = [
    col.text('product_name', t('refillLog.product'), { minWidth: 180, flex: 2 }),
    col.count('amount_added', t('refillLog.added')),
    col.count('amount_removed', t('refillLog.removed')),
    col.count('net', t('refillLog.net')),
    col.count('lines', t('refillLog.lines')),
  ];
  return (
    <>
      <StatCards
        testId="refill-total"
        loading={!rows}
        stats={[
          { key: 'added', label: t('refillLog.added'), value: sum('amount_added') },
          { key: 'removed', label: t('refillLog.removed'), value: sum('amount_removed') },
          { key: 'net', label: t('refillLog.net'), value: sum('net') },
          { key: 'products', label: t('refillLog.products'), value: formatCount(rows?.length ?? 0, i18n.language), caption: t('refillLog.linesCaption', { lines: sum('lines') }) },
        ]}
      />
      <SummaryTable
        testId="refill-products"
        title={t('refillLog.byProduct')}
        rows={rows ?? []}
        getRowId={(row) => row.product_id}
        columns={columns}
        loading={totals.isFetching}
        noRowsLabel={t('refillLog.noRefills')}
      />
    </>
  );
}
