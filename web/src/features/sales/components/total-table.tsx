import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import type { SalesRow } from '../../../api/types';
import type { ReportValue } from '../../../components/report-filters/report-filter-state';
import { reportColumns } from '../../../components/reports/report-columns';
import { SummaryTable } from '../../../components/reports/summary-table';
import { ChangeBadge } from '../../../components/reports/kpi-cards';
import type { KpiKey } from '../../../components/reports/sales-figures';

/** The row id of the sales of no group (the server's id is empty). */
export const NO_GROUP_ID = '__none__';

const VALUE_FIGURE: Record<ReportValue, KpiKey> = { sales: 'sales_minor', quantity: 'quantity', sales_excl_tax: 'sales_excl_tax_minor' };

interface TotalTableProps {
  rows: SalesRow[];
  /** The group's name ("Machine", "Product"…), for the title and the first column. */
  groupLabel: string;
  value: ReportValue;
  loading: boolean;
}

/** One row a group with its five figures and the change of the chosen value; the grid pages and sorts them itself. */
export function TotalTable({ rows, groupLabel, value, loading }: TotalTableProps) {
  const { t, i18n } = useTranslation();
  const gridRows = useMemo(() => rows.map((row) => ({ ...row, id: row.id || NO_GROUP_ID })), [rows]);
  const figure = VALUE_FIGURE[value];
  const col = reportColumns<SalesRow>(i18n.language);
  const columns: GridColDef<SalesRow>[] = [
    col.text('name', groupLabel, { flex: 1.6, minWidth: 160 }),
    col.money('sales_minor', t('sales.kpiSales'), { flex: 1, minWidth: 120 }),
    col.money('sales_excl_tax_minor', t('sales.kpiSalesExclTax'), { flex: 1, minWidth: 120 }),
    col.count('quantity', t('sales.kpiQuantity'), { flex: 0.8, minWidth: 100 }),
    col.money('cash_minor', t('sales.kpiCash'), { flex: 1, minWidth: 120 }),
    col.money('cashless_minor', t('sales.kpiCashless'), { flex: 1, minWidth: 120 }),
    {
      field: 'change',
      headerName: t('sales.change'),
      type: 'number',
      flex: 0.8,
      minWidth: 110,
      valueGetter: (_cell, row) => (row.previous[figure] === 0 ? null : (row[figure] - row.previous[figure]) / Math.abs(row.previous[figure])),
      renderCell: ({ row }) => <ChangeBadge current={row[figure]} previous={row.previous[figure]} />,
    },
  ];
  return (
    <SummaryTable
      testId="sales-total-table"
      title={t('sales.totals', { group: groupLabel.toLowerCase() })}
      rows={gridRows}
      columns={columns}
      loading={loading}
      noRowsLabel={t('sales.noSales')}
    />
  );
}
