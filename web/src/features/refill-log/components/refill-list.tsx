import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Chip from '@mui/material/Chip';
import type { Query } from '../../../api/client';
import type { Refill } from '../../../api/types';
import { reportColumns } from '../../../components/reports/report-columns';
import { ReportList } from '../../../components/reports/report-list';
import { RowOpenLink } from '../../../components/server-list/cells';
import { refillList } from '../api/refill-log';
import { RefillVisitDrawer } from './refill-visit-drawer';

const SOURCES = ['manual', 'fill-stock', 'empty-stock', 'copy-products', 'machine'] as const;

/** Every stock change of the period (by refillers and reported by machines), newest first; a line opens its visit. */
export function RefillList({ query }: { query: Query }) {
  const { t, i18n } = useTranslation();
  const [visit, setVisit] = useState<Refill | null>(null);
  const col = reportColumns<Refill>(i18n.language);
  const sourceLabel = (source: string) => {
    const known = SOURCES.find((item) => item === source);
    return known ? t(`refillLog.sources.${known}`) : source;
  };
  const columns: GridColDef<Refill>[] = [
    // What changed where first (the columns a 1280 px screen shows), then who, how and the site.
    col.dateTime('date', t('refillLog.date')),
    col.text('machine', t('refillLog.machine'), { minWidth: 120 }),
    col.text('selection', t('refillLog.selection'), { minWidth: 90, flex: 0.5 }),
    col.text('product_name', t('refillLog.product'), {
      minWidth: 180,
      flex: 1.5,
      // The keyboard's way to the visit (a click anywhere on the row opens it too).
      renderCell: ({ row }) => (
        <RowOpenLink label={t('refillLog.openVisit', { product: row.product_name })} onOpen={() => setVisit(row)} ellipsis>
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
      <ReportList
        title={t('refillLog.detail')}
        name="refill-list"
        source={refillList}
        query={query}
        columns={columns}
        noRowsLabel={t('refillLog.noRefills')}
        onRowClick={setVisit}
      />
      <RefillVisitDrawer line={visit} sourceLabel={sourceLabel} onClose={() => setVisit(null)} />
    </>
  );
}
