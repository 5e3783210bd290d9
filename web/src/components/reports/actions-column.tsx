import type { ReactNode } from 'react';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';

/** A summary table's last column: the row's icon buttons, right-aligned, neither sortable nor in the column menu. */
export function actionsColumn<R extends GridValidRowModel>(headerName: string, buttons: (row: R) => ReactNode, width = 110): GridColDef<R> {
  return {
    field: 'actions',
    headerName,
    sortable: false,
    disableColumnMenu: true,
    align: 'right',
    headerAlign: 'right',
    width,
    renderCell: ({ row }) => <Box sx={{ display: 'flex', justifyContent: 'flex-end', width: 1 }}>{buttons(row)}</Box>,
  };
}
