import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Chip from '@mui/material/Chip';
import type { Query } from '../../../api/client';
import type { Refill } from '../../../api/types';
import type { ReportColumns } from '../../../components/reports/report-columns';
import { useRowDrawer } from '../../../components/reports/report-drawer';
import { ReportList, type ReportListSpec } from '../../../components/reports/report-list';
import { RowOpenLink } from '../../../components/server-list/cells';
import { refillList } from '../api/refill-log';
import { RefillVisitDrawer } from './refill-visit-drawer';

const SOURCES = ['manual', 'fill-stock', 'empty-stock', 'copy-products', 'machine'] as const;

const LIST: ReportListSpec<Refill> = { name: 'refill-list', source: refillList, title: 'refillLog.detail', noRows: 'refillLog.noRefills' };

/** Every stock change of the period (by refillers and reported by machines), newest first; a line opens its visit. */
export function RefillList({ query }: { query: Query }) {
  const { t } = useTranslation();
  const visit = useRowDrawer<Refill>();
  const sourceLabel = (source: string) => {
    const known = SOURCES.find((item) => item === source);
    return known ? t(`refillLog.sources.${known}`) : source;
  };
  const columns = (col: ReportColumns<Refill>): GridColDef<Refill>[] => [
    // What changed where first (the columns a 1280 px screen shows), then who, how and the site.
    col.dateTime('date', t('refillLog.date')),
    col.text('machine', t('refillLog.machine'), { minWidth: 120 }),
    col.text('selection', t('refillLog.selection'), { minWidth: 90, flex: 0.5 }),
    col.text('product_name', t('refillLog.product'), {
      minWidth: 180,
      flex: 1.5,
      // The keyboard's way to the visit (a click anywhere on the row opens it too).
      renderCell: ({ row }) => (
        <RowOpenLink label={t('refillLog.openVisit', { product: row.product_name })} onOpen={() => visit.show(row)} ellipsis>
          {row.product_name}
        </RowOpenLink>
      ),
    }),
    col.count('amount_added', t('refillLog.added')),
    col.count('amount_removed', t('refillLog.removed')),
    col.text('employee', t('refillLog.employee'), { minWidth: 130 }),
    { field: 'source', headerName: t('refillLog.source'), minWidth: 190, renderCell: ({ row }) => <Chip size="small" variant="outlined" label={sourceLabel(row.source)} /> },
    col.text('location', t('refillLog.location'), { minWidth: 220 }),
  ];
  return (
    <>
      <ReportList spec={LIST} query={query} columns={columns} onRowClick={visit.show} />
      <RefillVisitDrawer drawer={visit} sourceLabel={sourceLabel} />
    </>
  );
}
