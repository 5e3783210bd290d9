import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Query } from '../../../api/client';
import type { ReportColumn, SalesDetailRow } from '../../../api/types';
import type { GroupingPeriod, ReportValue } from '../../../components/report-filters/report-filter-state';
import { ServerList } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { exportSalesDetail, useSalesColumns, useSalesDetail } from '../api/sales';
import { formatPeriodDate } from '../../../components/format';
import { formatValue } from '../../../components/reports/sales-figures';
import { NO_GROUP_ID } from './total-table';

const SORTABLE = { name: 'name', total: 'total' };

interface DetailTableProps {
  query: Query;
  enabled: boolean;
  value: ReportValue;
  grouping: GroupingPeriod;
  canExport: boolean;
}

/** A column's title: a day or month in the UI language, a week as the server names it. */
function columnTitle(column: ReportColumn, grouping: GroupingPeriod, language: string): string {
  if (column.kind !== 'period' || !column.date || grouping === 'week') return column.header_name;
  return formatPeriodDate(column.date, grouping, language);
}

/**
 * The chosen value of each group in each period: server paging, ordering (name, total) and search
 * in the URL (list kit), columns from `/api/table/header/`, CSV and XLSX export of every row.
 */
export function DetailTable({ query, enabled, value, grouping, canExport }: DetailTableProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const list = useListState();
  const header = useSalesColumns(query, enabled);
  const detail = useSalesDetail(query, list.params, enabled);

  const data = useMemo(
    () => (detail.data ? { ...detail.data, data: detail.data.data.map((row) => ({ ...row, id: row.id || NO_GROUP_ID })) } : undefined),
    [detail.data],
  );
  const columns: GridColDef<SalesDetailRow>[] = (header.data ?? []).map((column) => {
    const headerName = columnTitle(column, grouping, language);
    if (column.kind === 'group') return { field: 'name', headerName, flex: 2, minWidth: 200 };
    const format = (cell: number | undefined) => formatValue(cell ?? 0, value, language);
    if (column.kind === 'total')
      return { field: 'total', headerName, type: 'number', minWidth: 120, valueFormatter: format, cellClassName: 'sales-total-cell' };
    return {
      field: column.field,
      headerName,
      type: 'number',
      minWidth: 110,
      valueGetter: (_cell, row) => row.values[column.field] ?? 0,
      valueFormatter: format,
    };
  });

  return (
    <Box data-testid="sales-detail">
      <Typography variant="h6" sx={{ mb: 1.5 }}>
        {t('sales.detail')}
      </Typography>
      <ServerList
        list={list}
        query={{ data, isFetching: detail.isFetching || header.isFetching, isError: detail.isError || header.isError, refetch: () => Promise.all([detail.refetch(), header.refetch()]) }}
        columns={columns}
        name="sales-detail"
        noRowsLabel={t('sales.noSales')}
        rowLabel={(row) => row.name}
        sortable={SORTABLE}
        wide
        onExport={canExport ? (format) => exportSalesDetail(format, { ...query, search: list.params.search, ordering: list.params.ordering }) : undefined}
      />
    </Box>
  );
}
