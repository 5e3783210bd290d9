import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import type { Machine, Refill } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { PAGE_SIZES } from '../../../components/grid';
import { useGridLocaleText } from '../../../components/grid-locale';
import { useRefills } from '../api/machines';

/** This machine's refill log (the last 30 days), newest first. */
export function RefillsTab({ machine }: { machine: Machine }) {
  const { t, i18n } = useTranslation();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const refills = useRefills({ page: pagination.page + 1, page_size: pagination.pageSize, machine: machine.id });
  const rows = useMemo(() => refills.data?.data ?? [], [refills.data]);
  const sourceLabel: Record<string, string> = {
    manual: t('machines.sourceManual'),
    'fill-stock': t('machines.fillStock'),
    'empty-stock': t('machines.emptyStock'),
  };

  const columns: GridColDef<Refill>[] = [
    { field: 'date', headerName: t('machines.date'), minWidth: 170, valueGetter: (_value, row) => formatDateTime(row.date, i18n.language) },
    { field: 'employee', headerName: t('machines.employee'), minWidth: 160, flex: 0.8 },
    {
      field: 'source',
      headerName: t('machines.source'),
      minWidth: 130,
      renderCell: ({ row }) => <Chip size="small" variant="outlined" label={sourceLabel[row.source] ?? row.source} />,
    },
    { field: 'selection', headerName: t('machines.selection'), minWidth: 100 },
    { field: 'product_name', headerName: t('machines.product'), minWidth: 160, flex: 1 },
    { field: 'amount_added', headerName: t('machines.added'), type: 'number', minWidth: 100 },
    { field: 'amount_removed', headerName: t('machines.removed'), type: 'number', minWidth: 100 },
  ];

  return (
    <Card>
      <Box data-testid="refills-grid">
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={refills.data?.pagination.count ?? 0}
          loading={refills.isFetching}
          paginationMode="server"
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={PAGE_SIZES}
          disableColumnSorting
          disableColumnFilter
          disableRowSelectionOnClick
          localeText={{ ...localeText, noRowsLabel: t('machines.noRefills') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
    </Card>
  );
}
