import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
  type GridRowSelectionModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import SearchIcon from '@mui/icons-material/Search';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { isApiError } from '../../../api/client';
import type { Role } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate } from '../../../components/format';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { paths } from '../../../routes/paths';
import { useDeleteRoles, useRoles } from '../api/roles';
import { EMPTY_SELECTION, PAGE_SIZES, selectedIds } from './selection';

const SORTABLE = ['name', 'created_at'];

export function RolesTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [confirmIds, setConfirmIds] = useState<string[] | null>(null);
  const debouncedSearch = useDebouncedValue(search.trim());
  const sort = sortModel[0];
  const ordering = sort?.sort && SORTABLE.includes(sort.field) ? `${sort.sort === 'desc' ? '-' : ''}${sort.field}` : '';

  const roles = useRoles({ page: pagination.page + 1, page_size: pagination.pageSize, search: debouncedSearch, ordering });
  const deleteRoles = useDeleteRoles();
  const rows = useMemo(() => roles.data?.data ?? [], [roles.data]);
  const chosen = selectedIds(selection, rows);
  const canEdit = can('settings.roles.edit');
  const canDelete = can('settings.roles.delete');

  const confirmDelete = async () => {
    if (!confirmIds) return;
    try {
      const reply = await deleteRoles.mutateAsync(confirmIds);
      toast.success(reply?.message ?? t('common.delete'));
      setSelection(EMPTY_SELECTION);
    } catch (error) {
      // A role still in use answers 409 naming its users: say who.
      toast.error(isApiError(error) && error.status === 409 ? `${t('errors.deletion')}: ${error.message}` : t('errors.deletion'));
    } finally {
      setConfirmIds(null);
    }
  };

  const columns: GridColDef<Role>[] = [
    { field: 'name', headerName: t('users.roleName'), flex: 1, minWidth: 200 },
    {
      field: 'modules',
      headerName: t('users.modulesCount'),
      minWidth: 120,
      sortable: false,
      valueGetter: (_value, row) => row.modules.length,
    },
    { field: 'users_count', headerName: t('users.usersCount'), minWidth: 110, sortable: false },
    {
      field: 'created_at',
      headerName: t('users.createdAt'),
      minWidth: 140,
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
              <IconButton aria-label={`${t('common.edit')}: ${row.name}`} onClick={() => navigate(paths.settings.editRole(row.id))}>
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {canDelete ? (
            <Tooltip title={t('common.delete')}>
              <IconButton aria-label={`${t('common.delete')}: ${row.name}`} color="error" onClick={() => setConfirmIds([row.id])}>
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
        <TextField
          size="small"
          value={search}
          placeholder={t('common.search')}
          onChange={(event) => {
            setSearch(event.target.value);
            setPagination((previous) => ({ ...previous, page: 0 }));
          }}
          sx={{ flexGrow: 1, minWidth: 200 }}
          slotProps={{
            htmlInput: { 'aria-label': t('common.search'), 'data-testid': 'roles-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        {canDelete && chosen.length > 0 ? (
          <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={() => setConfirmIds(chosen)}>
            {t('common.delete')} ({t('common.selected', { count: chosen.length })})
          </Button>
        ) : null}
      </Box>
      <Box data-testid="roles-grid">
      <DataGrid
        rows={rows}
        columns={columns}
        rowCount={roles.data?.pagination.count ?? 0}
        loading={roles.isFetching}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        disableColumnFilter
        paginationModel={pagination}
        onPaginationModelChange={(model) => {
          setPagination(model);
          setSelection(EMPTY_SELECTION);
        }}
        pageSizeOptions={PAGE_SIZES}
        sortModel={sortModel}
        onSortModelChange={(model) => {
          setSortModel(model);
          setPagination((previous) => ({ ...previous, page: 0 }));
        }}
        checkboxSelection={canDelete}
        disableRowSelectionOnClick
        rowSelectionModel={selection}
        onRowSelectionModelChange={setSelection}
        localeText={{ ...localeText, noRowsLabel: t('users.noRoles') }}
        autoHeight
        sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
      />
      </Box>
      <ConfirmDialog
        open={Boolean(confirmIds)}
        title={t('users.deleteTitle')}
        content={t('users.deleteRolesConfirm', { count: confirmIds?.length ?? 0 })}
        confirmLabel={t('common.delete')}
        loading={deleteRoles.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirmIds(null)}
      />
    </Card>
  );
}
