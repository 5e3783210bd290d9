import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataGrid, type GridColDef, type GridPaginationModel, type GridSortModel } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import type { Client } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate } from '../../../components/format';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { useClients, useDeleteClient } from '../api/clients';
import { deletionFailure, SearchField } from '../../../components/fields';
import { orderingOf, PAGE_SIZES } from '../../../components/grid';
import { formatPercent } from '../../../components/percent';

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', createdAt: 'created_at', commission_bps: 'commission_bps' };

export function ClientsTable({ onEdit }: { onEdit: (client: Client) => void }) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [confirm, setConfirm] = useState<Client | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim());

  const clients = useClients({
    page: pagination.page + 1,
    page_size: pagination.pageSize,
    search: debouncedSearch,
    ordering: orderingOf(sortModel, SORTABLE),
  });
  const deleteClient = useDeleteClient();
  const rows = useMemo(() => clients.data?.data ?? [], [clients.data]);
  const canEdit = can('settings.clients.edit');
  const canDelete = can('settings.clients.delete');

  const confirmDelete = async () => {
    if (!confirm) return;
    try {
      await deleteClient.mutateAsync(confirm.id);
      toast.success(t('success.clientDeleted'));
    } catch (error) {
      // A client still hosting locations answers 409 naming them.
      toast.error(deletionFailure(error, t('errors.deletion')));
    } finally {
      setConfirm(null);
    }
  };

  const columns: GridColDef<Client>[] = [
    {
      field: 'name',
      headerName: t('clients.name'),
      flex: 1,
      minWidth: 200,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, lineHeight: 1.4, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {row.name}
          </Typography>
          {row.contact_name ? (
            <Typography variant="body2" noWrap sx={{ color: 'text.secondary' }}>
              {row.contact_name}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { field: 'email', headerName: t('clients.email'), flex: 1, minWidth: 180, sortable: false },
    { field: 'phone', headerName: t('clients.phone'), minWidth: 140, sortable: false },
    {
      field: 'commission_bps',
      headerName: t('clients.commission'),
      minWidth: 140,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (value: number) => formatPercent(value ?? 0, i18n.language),
    },
    {
      field: 'createdAt',
      headerName: t('clients.createdAt'),
      minWidth: 130,
      valueFormatter: (value: string) => formatDate(value, i18n.language),
    },
    {
      field: 'actions',
      headerName: t('common.actions'),
      sortable: false,
      disableColumnMenu: true,
      align: 'right',
      headerAlign: 'right',
      minWidth: 110,
      renderCell: ({ row }) => (
        <>
          {canEdit ? (
            <Tooltip title={t('common.edit')}>
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => onEdit(row)}>
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {canDelete ? (
            <Tooltip title={t('common.delete')}>
              <IconButton aria-label={`${t('common.delete')}: ${row.name}`} color="error" onClick={() => setConfirm(row)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <Card>
      <Box sx={{ p: 2.5, display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <SearchField
          value={search}
          testId="clients-search"
          onChange={(value) => {
            setSearch(value);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
        />
      </Box>
      <Box data-testid="clients-grid">
        <DataGrid
          rows={rows}
          columns={columns}
          rowCount={clients.data?.pagination.count ?? 0}
          loading={clients.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          paginationModel={pagination}
          onPaginationModelChange={setPagination}
          pageSizeOptions={PAGE_SIZES}
          sortModel={sortModel}
          onSortModelChange={(model) => {
            setSortModel(model);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
          disableRowSelectionOnClick
          getRowHeight={() => 'auto'}
          localeText={{ ...localeText, noRowsLabel: t('clients.noRows') }}
          autoHeight
          sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
        />
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t('clients.deleteTitle')}
        content={t('clients.deleteConfirm', { name: confirm?.name ?? '' })}
        confirmLabel={t('common.delete')}
        loading={deleteClient.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirm(null)}
      />
    </Card>
  );
}
