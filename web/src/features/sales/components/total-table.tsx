import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef } from '@mui/x-data-grid';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import type { SalesRow } from '../../../api/types';
import { PAGE_SIZES } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { HEADER_SX } from '../../../components/server-list/column-widths';
import type { ReportValue } from '../../../components/report-filters/report-filter-state';
import { formatCount, formatEuros, type KpiKey } from '../sales-logic';
import { ChangeBadge } from './kpi-cards';

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
  const localeText = useGridLocaleText();
  const language = i18n.language;
  const gridRows = useMemo(() => rows.map((row) => ({ ...row, id: row.id || NO_GROUP_ID })), [rows]);
  const figure = VALUE_FIGURE[value];
  const money = (field: KpiKey, headerName: string): GridColDef<SalesRow> => ({
    field,
    headerName,
    type: 'number',
    flex: 1,
    minWidth: 120,
    valueFormatter: (cell: number) => formatEuros(cell, language),
  });
  const columns: GridColDef<SalesRow>[] = [
    { field: 'name', headerName: groupLabel, flex: 1.6, minWidth: 160 },
    money('sales_minor', t('sales.kpiSales')),
    money('sales_excl_tax_minor', t('sales.kpiSalesExclTax')),
    { field: 'quantity', headerName: t('sales.kpiQuantity'), type: 'number', flex: 0.8, minWidth: 100, valueFormatter: (cell: number) => formatCount(cell, language) },
    money('cash_minor', t('sales.kpiCash')),
    money('cashless_minor', t('sales.kpiCashless')),
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
    <Card data-testid="sales-total-table">
      <CardHeader title={t('sales.totals', { group: groupLabel.toLowerCase() })} />
      <DataGrid
        rows={gridRows}
        columns={columns}
        loading={loading}
        autoHeight
        disableColumnFilter
        disableRowSelectionOnClick
        pageSizeOptions={PAGE_SIZES}
        initialState={{ pagination: { paginationModel: { pageSize: 10 } } }}
        localeText={{ ...localeText, noRowsLabel: t('sales.noSales') }}
        sx={{ border: 'none', '--DataGrid-overlayHeight': '160px', ...HEADER_SX }}
      />
    </Card>
  );
}
