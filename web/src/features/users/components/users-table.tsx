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
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { isApiError } from '../../../api/client';
import type { User } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatDateTime } from '../../../components/format';
import { useGridLocaleText } from '../../../components/grid-locale';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { paths } from '../../../routes/paths';
import { useRoleOptions } from '../api/filters';
import type { UserListParams } from '../api/keys';
import { exportUsers, useDeleteUsers, useSetUserActive, useUsers, type ExportFormat } from '../api/users';
import { EMPTY_SELECTION, PAGE_SIZES, selectedIds } from './selection';

const SORTABLE = ['name', 'email', 'created_at', 'last_login'];


function ordering(model: GridSortModel): string {
  const first = model[0];
  if (!first || !first.sort || !SORTABLE.includes(first.field)) return '';
  return `${first.sort === 'desc' ? '-' : ''}${first.field}`;
}

export function UsersTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const localeText = useGridLocaleText();
  const [pagination, setPagination] = useState<GridPaginationModel>({ page: 0, pageSize: 25 });
  const [sortModel, setSortModel] = useState<GridSortModel>([]);
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [status, setStatus] = useState<UserListParams['status']>('');
  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const [confirmIds, setConfirmIds] = useState<string[] | null>(null);
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const [exporting, setExporting] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim());

  const params: UserListParams = {
    page: pagination.page + 1,
    page_size: pagination.pageSize,
    search: debouncedSearch,
    ordering: ordering(sortModel),
    role,
    status,
  };
  const users = useUsers(params);
  const roles = useRoleOptions();
  const deleteUsers = useDeleteUsers();
  const setActive = useSetUserActive();
  const rows = useMemo(() => users.data?.data ?? [], [users.data]);
  const chosen = selectedIds(selection, rows);
  const canEdit = can('settings.users.edit');
  const canDelete = can('settings.users.delete');

  const resetPage = () => setPagination((previous) => ({ ...previous, page: 0 }));

  const toggleActive = async (user: User, active: boolean) => {
    try {
      const reply = await setActive.mutateAsync({ id: user.id, active });
      if (reply?.message) toast.success(reply.message);
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : t('errors.generic'));
    }
  };

  const confirmDelete = async () => {
    if (!confirmIds) return;
    try {
      const reply = await deleteUsers.mutateAsync(confirmIds);
      toast.success(reply?.message ?? t('common.delete'));
      setSelection(EMPTY_SELECTION);
    } catch (error) {
      toast.error(isApiError(error) && error.status === 409 ? `${t('errors.deletion')}: ${error.message}` : t('errors.deletion'));
    } finally {
      setConfirmIds(null);
    }
  };

  const runExport = async (format: ExportFormat) => {
    setExportAnchor(null);
    setExporting(true);
    try {
      await exportUsers(format, { search: params.search, ordering: params.ordering, role, status });
    } catch {
      toast.error(t('errors.unexpected'));
    } finally {
      setExporting(false);
    }
  };

  const columns: GridColDef<User>[] = [
    {
      field: 'name',
      headerName: t('users.name'),
      flex: 1,
      minWidth: 200,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, lineHeight: 1.4, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {row.name}
          </Typography>
          <Typography variant="body2" noWrap sx={{ color: 'text.secondary' }}>
            {row.position}
          </Typography>
        </Box>
      ),
    },
    { field: 'email', headerName: t('users.email'), flex: 1, minWidth: 200 },
    { field: 'phone', headerName: t('users.phone'), minWidth: 140, sortable: false },
    {
      field: 'role_name',
      headerName: t('users.role'),
      minWidth: 140,
      sortable: false,
      valueGetter: (_value, row) => row.role_name || t('users.noRole'),
    },
    {
      field: 'active',
      headerName: t('users.status'),
      minWidth: 130,
      sortable: false,
      renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', alignItems: 'center', height: 1 }}>
          <Switch
            size="small"
            checked={row.active}
            disabled={!canEdit || !row.can_manage || setActive.isPending}
            onChange={(event) => void toggleActive(row, event.target.checked)}
            slotProps={{ input: { 'aria-label': `${t('users.toggleActive')}: ${row.email}` } }}
          />
          <Typography variant="body2" sx={{ color: row.active ? 'success.main' : 'text.disabled' }}>
            {row.active ? t('common.active') : t('common.inactive')}
          </Typography>
        </Box>
      ),
    },
    {
      field: 'last_login',
      headerName: t('users.lastLogin'),
      minWidth: 170,
      valueFormatter: (value: string | null) => (value ? formatDateTime(value, i18n.language) : t('common.never')),
    },
    {
      field: 'created_at',
      headerName: t('users.createdAt'),
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
          {canEdit && row.can_manage ? (
            <Tooltip title={t('common.edit')}>
              <IconButton aria-label={`${t('common.edit')}: ${row.email}`} onClick={() => navigate(paths.settings.editUser(row.id))}>
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {canDelete && row.can_manage ? (
            <Tooltip title={t('common.delete')}>
              <IconButton aria-label={`${t('common.delete')}: ${row.email}`} color="error" onClick={() => setConfirmIds([row.id])}>
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
          select
          size="small"
          label={t('users.role')}
          value={role}
          onChange={(event) => {
            setRole(event.target.value);
            resetPage();
          }}
          sx={{ minWidth: 180 }}
          data-testid="users-role-filter"
        >
          <MenuItem value="">{t('users.allRoles')}</MenuItem>
          {(roles.data ?? []).map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('users.status')}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as UserListParams['status']);
            resetPage();
          }}
          sx={{ minWidth: 160 }}
          data-testid="users-status-filter"
        >
          <MenuItem value="">{t('users.allStatuses')}</MenuItem>
          <MenuItem value="active">{t('common.active')}</MenuItem>
          <MenuItem value="inactive">{t('common.inactive')}</MenuItem>
        </TextField>
        <TextField
          size="small"
          value={search}
          placeholder={t('common.search')}
          onChange={(event) => {
            setSearch(event.target.value);
            resetPage();
          }}
          sx={{ flexGrow: 1, minWidth: 200 }}
          slotProps={{
            htmlInput: { 'aria-label': t('common.search'), 'data-testid': 'users-search' },
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
        {can('settings.users.export') ? (
          <>
            <Button
              color="inherit"
              variant="outlined"
              startIcon={<DownloadIcon />}
              loading={exporting}
              onClick={(event) => setExportAnchor(event.currentTarget)}
            >
              {t('common.export')}
            </Button>
            <Menu anchorEl={exportAnchor} open={Boolean(exportAnchor)} onClose={() => setExportAnchor(null)}>
              <MenuItem onClick={() => void runExport('csv')}>{t('common.exportCsv')}</MenuItem>
              <MenuItem onClick={() => void runExport('xlsx')}>{t('common.exportXlsx')}</MenuItem>
            </Menu>
          </>
        ) : null}
      </Box>
      <Box data-testid="users-grid">
      <DataGrid
        rows={rows}
        columns={columns}
        rowCount={users.data?.pagination.count ?? 0}
        loading={users.isFetching}
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
          resetPage();
        }}
        checkboxSelection={canDelete}
        // Users beyond the caller's reach are listed read-only: the server would refuse them.
        isRowSelectable={({ row }) => row.can_manage}
        disableRowSelectionOnClick
        rowSelectionModel={selection}
        onRowSelectionModelChange={setSelection}
        getRowHeight={() => 'auto'}
        localeText={{ ...localeText, noRowsLabel: t('users.noRows') }}
        autoHeight
        sx={{ border: 'none', '--DataGrid-overlayHeight': '200px', '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
      />
      </Box>
      <ConfirmDialog
        open={Boolean(confirmIds)}
        title={t('users.deleteTitle')}
        content={t('users.deleteUsersConfirm', { count: confirmIds?.length ?? 0 })}
        confirmLabel={t('common.delete')}
        loading={deleteUsers.isPending}
        onConfirm={() => void confirmDelete()}
        onClose={() => setConfirmIds(null)}
      />
    </Card>
  );
}
