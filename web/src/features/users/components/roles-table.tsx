import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { Role } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate } from '../../../components/format';
import { replyMessage, ServerList } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { paths } from '../../../routes/paths';
import { useDeleteRoles, useRoles } from '../api/roles';

const SORTABLE = { name: 'name', created_at: 'created_at' };

/** Roles with more permissions than the caller, or held by users beyond its reach, are read-only. */
const manageable = (row: Role) => row.can_manage;

export function RolesTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const list = useListState();
  const roles = useRoles(list.params);
  const deleteRoles = useDeleteRoles();

  const columns: GridColDef<Role>[] = [
    { field: 'name', headerName: t('users.roleName'), flex: 1, minWidth: 200 },
    { field: 'modules', headerName: t('users.modulesCount'), minWidth: 120, valueGetter: (_value, row) => row.modules.length },
    { field: 'users_count', headerName: t('users.usersCount'), minWidth: 110 },
    {
      field: 'created_at',
      headerName: t('users.createdAt'),
      minWidth: 130,
      valueFormatter: (value: string) => formatDate(value, i18n.language),
    },
  ];

  return (
    <ServerList
      name="roles"
      list={list}
      query={roles}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('users.noRoles')}
      rowLabel={(row) => row.name}
      actions={
        can('settings.roles.edit')
          ? [{ label: t('common.edit'), icon: <EditIcon fontSize="small" />, show: manageable, onClick: (row) => navigate(paths.settings.editRole(row.id)) }]
          : []
      }
      deletion={
        can('settings.roles.delete')
          ? {
              show: manageable,
              bulk: true,
              title: t('users.deleteTitle'),
              confirmText: (rows) => t('users.deleteRolesConfirm', { count: rows.length }),
              // A role still in use answers 409 naming its users: the toast says who.
              remove: (rows) => deleteRoles.mutateAsync(rows.map((row) => row.id)),
              pending: deleteRoles.isPending,
              successText: (reply) => replyMessage(reply) ?? t('common.delete'),
            }
          : undefined
      }
    />
  );
}
