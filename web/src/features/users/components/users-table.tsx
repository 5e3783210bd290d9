import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { User } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate, formatDateTime } from '../../../components/format';
import { replyMessage, ServerList } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useRoleOptions } from '../api/filters';
import type { UserListParams } from '../api/keys';
import { exportUsers, useDeleteUsers, useSetUserActive, useUsers } from '../api/users';

const SORTABLE = { name: 'name', email: 'email', created_at: 'created_at', last_login: 'last_login' };
const FILTERS = ['role', 'status'] as const;

type Status = UserListParams['status'];
const asStatus = (value: string): Status => (value === 'active' || value === 'inactive' ? value : '');

export function UsersTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const list = useListState(FILTERS);
  const status = asStatus(list.filters.status);
  const users = useUsers({ ...list.params, ...list.filters, status });
  const roles = useRoleOptions();
  const deleteUsers = useDeleteUsers();
  const setActive = useSetUserActive();
  const canEdit = can('settings.users.edit');
  // Users beyond the caller's reach are listed read-only: the server would refuse them.
  const manageable = (row: User) => row.can_manage;

  const toggleActive = async (user: User, active: boolean) => {
    try {
      const reply = await setActive.mutateAsync({ id: user.id, active });
      const message = replyMessage(reply);
      if (message) toast.success(message);
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : t('errors.generic'));
    }
  };

  const columns: GridColDef<User>[] = [
    {
      field: 'name',
      headerName: t('users.name'),
      flex: 1,
      minWidth: 120,
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
    { field: 'email', headerName: t('users.email'), flex: 1.5, minWidth: 240 },
    { field: 'phone', headerName: t('users.phone'), minWidth: 80 },
    { field: 'role_name', headerName: t('users.role'), minWidth: 90, valueGetter: (_value, row) => row.role_name || t('users.noRole') },
    {
      field: 'active',
      headerName: t('users.status'),
      minWidth: 120,
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
      minWidth: 110,
      valueFormatter: (value: string | null) => (value ? formatDateTime(value, i18n.language) : t('common.never')),
    },
    {
      field: 'created_at',
      headerName: t('users.createdAt'),
      minWidth: 90,
      valueFormatter: (value: string) => formatDate(value, i18n.language),
    },
  ];

  const statuses = [
    { id: 'active', name: t('common.active') },
    { id: 'inactive', name: t('common.inactive') },
  ];

  return (
    <ServerList
      name="users"
      list={list}
      query={users}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('users.noRows')}
      rowLabel={(row) => row.email}
      autoRowHeight
      filters={
        <>
          <ListFilter list={list} filter="role" label={t('users.role')} allLabel={t('users.allRoles')} options={roles.data ?? []} testId="users-role-filter" />
          <ListFilter list={list} filter="status" value={status} label={t('users.status')} allLabel={t('users.allStatuses')} options={statuses} testId="users-status-filter" />
        </>
      }
      onExport={can('settings.users.export') ? (format) => exportUsers(format, { ...list.exportParams, status }) : undefined}
      actions={
        canEdit
          ? [{ label: t('common.edit'), icon: <EditIcon fontSize="small" />, show: manageable, onClick: (row) => navigate(paths.settings.editUser(row.id)) }]
          : []
      }
      deletion={
        can('settings.users.delete')
          ? {
              show: manageable,
              bulk: true,
              title: t('users.deleteTitle'),
              confirmText: (rows) => t('users.deleteUsersConfirm', { count: rows.length }),
              remove: (rows) => deleteUsers.mutateAsync(rows.map((row) => row.id)),
              pending: deleteUsers.isPending,
              successText: (reply) => replyMessage(reply) ?? t('common.delete'),
            }
          : undefined
      }
    />
  );
}
