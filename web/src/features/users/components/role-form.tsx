import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import TextField from '@mui/material/TextField';
import type { PermissionNode, Role } from '../../../api/types';
import { LoadingScreen } from '../../../components/loading-screen';
import { replyMessage } from '../../../components/server-list/server-list';
import { toast } from '../../../components/snackbar';
import { collect, rules, type FieldErrors } from '../../../components/validation';
import { paths } from '../../../routes/paths';
import { useCreateRole, useUpdateRole } from '../api/roles';
import { PermissionTree } from './permission-tree';
import { selectionFromModules } from './permission-tree-logic';
import { fieldMessages, isStaleVersion } from './server-errors';

interface Props {
  role?: Role;
  catalogue: PermissionNode[] | undefined;
  catalogueFailed: boolean;
}

export function RoleForm({ role, catalogue, catalogueFailed }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !role;
  // A role beyond the caller's reach is shown read-only: the server would refuse a change.
  const readOnly = Boolean(role && !role.can_manage);
  const [name, setName] = useState(role?.name ?? '');
  // Until the catalogue arrives the role's stored keys are kept as they are.
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const selected = picked ?? selectionFromModules(role?.modules ?? [], catalogue ?? []);
  const [errors, setErrors] = useState<FieldErrors<'name'>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const create = useCreateRole();
  const update = useUpdateRole(role?.id ?? '');

  const nameMessage = errors.name ? t(errors.name.key, errors.name.values) : serverErrors.name;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = collect({ name: rules.required(name) ?? rules.maxLength(name, 80) });
    setErrors(found);
    if (found.name) return;
    setStale(false);
    const form = { name: name.trim(), modules: [...selected].sort() };
    try {
      const reply = creating
        ? await create.mutateAsync(form)
        : await update.mutateAsync({ ...form, version: role.version });
      toast.success(replyMessage(reply) ?? '');
      navigate(paths.settings.userManagement);
    } catch (error) {
      setServerErrors(fieldMessages(error));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.roleCreate') : t('errors.roleUpdate'));
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {readOnly ? (
        <Alert severity="info" data-testid="role-read-only">
          {t('users.roleBeyondReach')}
        </Alert>
      ) : null}
      {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
      <Card>
        <CardContent>
          <TextField
            name="name"
            label={t('users.roleName')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setErrors({});
              setServerErrors({});
            }}
            error={Boolean(nameMessage)}
            helperText={nameMessage}
            required
            fullWidth
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('users.permissions')} subheader={t('users.permissionsHint')} />
        <CardContent>
          {serverErrors.modules ? <Alert severity="error" sx={{ mb: 2 }}>{serverErrors.modules}</Alert> : null}
          {catalogue ? (
            <PermissionTree catalogue={catalogue} selected={selected} onChange={setPicked} />
          ) : catalogueFailed ? (
            <Alert severity="error">{t('users.noPermissionsLoaded')}</Alert>
          ) : (
            <LoadingScreen inline />
          )}
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button variant="outlined" color="inherit" onClick={() => navigate(`${paths.settings.userManagement}?tab=roles`)}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={create.isPending || update.isPending} disabled={readOnly} data-testid="role-submit">
          {creating ? t('users.newRole') : t('common.saveChanges')}
        </Button>
      </Box>
    </Box>
  );
}
