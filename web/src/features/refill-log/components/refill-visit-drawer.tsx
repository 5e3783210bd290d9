import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import type { Refill } from '../../../api/types';
import { formatCount, formatDateTime } from '../../../components/format';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportDrawer, type RowDrawer } from '../../../components/reports/report-drawer';
import { ReportFailure } from '../../../components/reports/report-notices';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useRefillVisit } from '../api/refill-log';

interface RefillVisitDrawerProps {
  /** The log line whose visit to show. */
  drawer: RowDrawer<Refill>;
  sourceLabel: (source: string) => string;
}

/** Everything one refill visit added and removed, selection by selection. */
export function RefillVisitDrawer({ drawer, sourceLabel }: RefillVisitDrawerProps) {
  const { t, i18n } = useTranslation();
  const line = drawer.row;
  const visit = useRefillVisit(line?.id ?? null);
  const rows = visit.data ?? [];
  const col = reportColumns<Refill>(i18n.language);
  const columns: GridColDef<Refill>[] = [
    col.text('selection', t('refillLog.selection'), { minWidth: 90, flex: 0.5 }),
    col.text('product_name', t('refillLog.product'), { minWidth: 180, flex: 2 }),
    col.count('amount_added', t('refillLog.added')),
    col.count('amount_removed', t('refillLog.removed')),
  ];
  const sum = (field: 'amount_added' | 'amount_removed') => formatCount(rows.reduce((total, row) => total + row[field], 0), i18n.language);
  return (
    <ReportDrawer
      control={drawer}
      testId="refill-visit"
      width={560}
      title={line ? t('refillLog.visit', { machine: line.machine }) : ''}
      subtitle={line ? [formatDateTime(line.date, i18n.language), line.employee, sourceLabel(line.source), line.location].filter(Boolean).join(' · ') : ''}
    >
      {visit.isError ? (
        <ReportFailure query={visit} testId="refill-visit-error" text={t('refillLog.visitFailed')} />
      ) : (
        <SummaryTable
          testId="refill-visit-table"
          title={t('refillLog.visitProducts')}
          subheader={visit.data ? t('refillLog.visitTotals', { added: sum('amount_added'), removed: sum('amount_removed') }) : undefined}
          rows={rows}
          columns={columns}
          loading={visit.isFetching}
          noRowsLabel={t('refillLog.noRefills')}
          pageSize={25}
        />
      )}
    </ReportDrawer>
  );
}
