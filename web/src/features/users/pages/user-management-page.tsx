import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import AddIcon from '@mui/icons-material/Add';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { RolesTable } from '../components/roles-table';
import { UsersTable } from '../components/users-table';

type TabName = 'users' | 'roles';

/** Users and Roles: two lists under one address, the tab kept in `?tab=`. */
export default function UserManagementPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const [searchParams, setSearchParams] = useSearchParams();
  const canUsers = can('settings.users.list');
  const canRoles = can('settings.roles.list');
  const requested = searchParams.get('tab') === 'roles' ? 'roles' : 'users';
  const tab: TabName = requested === 'roles' ? (canRoles ? 'roles' : 'users') : canUsers ? 'users' : 'roles';

  const action = (
    <>
      {can('settings.users.new') ? (
        <Button component={RouterLink} to={paths.settings.createUser} variant="contained" startIcon={<AddIcon />} data-testid="new-user">
          {t('users.newUser')}
        </Button>
      ) : null}
      {can('settings.roles.new') ? (
        <Button component={RouterLink} to={paths.settings.createRole} variant="outlined" color="inherit" startIcon={<AddIcon />} data-testid="new-role">
          {t('users.newRole')}
        </Button>
      ) : null}
    </>
  );

  return (
    <>
      <ScreenHeader action={action} />
      <Box sx={{ mb: 3 }}>
        <Tabs
          value={tab}
          onChange={(_event, value: TabName) => setSearchParams(value === 'users' ? {} : { tab: value }, { replace: true })}
        >
          {canUsers ? <Tab value="users" label={t('users.tabUsers')} data-testid="tab-users" /> : null}
          {canRoles ? <Tab value="roles" label={t('users.tabRoles')} data-testid="tab-roles" /> : null}
        </Tabs>
      </Box>
      {tab === 'users' ? <UsersTable /> : <RolesTable />}
    </>
  );
}
