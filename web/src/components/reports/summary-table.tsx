import type { ReactNode } from 'react';
import { DataGrid, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import { gridLoading, PAGE_SIZES } from '../grid';
import { useGridLocaleText } from '../grid-locale';
import { HEADER_SX } from '../server-list/column-widths';

export interface SummaryTableProps<R extends GridValidRowModel> {
  title: ReactNode;
  subheader?: ReactNode;
  rows: R[];
  columns: GridColDef<R>[];
  loading: boolean;
  noRowsLabel: string;
  testId: string;
  /** Defaults to the row's `id`. */
  getRowId?: (row: R) => string;
  pageSize?: number;
  /** Above the grid (an error to retry). */
  notice?: ReactNode;
}

/**
 * A report's summary: every row in one reply (totals by group, by employee, by product), paged
 * and sorted by the grid itself; the server's order until a header is clicked. Scrolls sideways
 * when its columns do not fit (a tablet).
 */
export function SummaryTable<R extends GridValidRowModel>({ title, subheader, rows, columns, loading, noRowsLabel, testId, getRowId, pageSize = 10, notice }: SummaryTableProps<R>) {
  const localeText = useGridLocaleText();
  return (
    <Card data-testid={testId} aria-busy={loading} sx={{ height: 1 }}>
      <CardHeader title={title} subheader={subheader} slotProps={{ subheader: { variant: 'body2', sx: { mt: 0.5 } } }} />
      {notice ? <Box sx={{ px: 2.5, pb: 2 }}>{notice}</Box> : null}
      <DataGrid
        rows={rows}
        columns={columns}
        getRowId={getRowId}
        {...gridLoading(loading)}
        autoHeight
        disableColumnFilter
        disableRowSelectionOnClick
        pageSizeOptions={PAGE_SIZES}
        initialState={{ pagination: { paginationModel: { pageSize } } }}
        localeText={{ ...localeText, noRowsLabel }}
        sx={{ border: 'none', '--DataGrid-overlayHeight': '160px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' }, ...HEADER_SX }}
      />
    </Card>
  );
}
