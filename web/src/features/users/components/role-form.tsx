import { useController } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import { limitsOf } from '../../../api/limits';
import type { PermissionNode, Role } from '../../../api/types';
import { Form, FormAlerts, FormFooter, TextInput, useFieldMessage, useServerForm } from '../../../components/form';
import { text } from '../../../components/form/rules';
import { LoadingScreen } from '../../../components/loading-screen';
import { replyMessage } from '../../../components/server-list/server-list';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useCreateRole, useUpdateRole } from '../api/roles';
import { PermissionTree } from './permission-tree';
import { selectionFromModules } from './permission-tree-logic';

const limits = limitsOf('RoleForm');

/** The role form's checks. `modules` is null until a permission is touched: the role's own are kept. */
export const roleSchema = z.object({
  name: text(limits('name')),
  modules: z.nullable(z.array(z.string())),
});

type RoleValues = z.infer<typeof roleSchema>;

interface Props {
  role?: Role;
  catalogue: PermissionNode[] | undefined;
  catalogueFailed: boolean;
}

function Permissions({ role, catalogue, catalogueFailed }: Props) {
  const { t } = useTranslation();
  const { field } = useController<RoleValues, 'modules'>({ name: 'modules' });
  const message = useFieldMessage('modules');
  // Until the catalogue arrives the role's stored keys are kept as they are.
  const selected = field.value ? new Set(field.value) : selectionFromModules(role?.modules ?? [], catalogue ?? []);
  return (
    <>
      {message ? <Alert severity="error" sx={{ mb: 2 }}>{message}</Alert> : null}
      {catalogue ? (
        <PermissionTree catalogue={catalogue} selected={selected} onChange={(next) => field.onChange([...next])} />
      ) : catalogueFailed ? (
        <Alert severity="error">{t('users.noPermissionsLoaded')}</Alert>
      ) : (
        <LoadingScreen inline />
      )}
    </>
  );
}

export function RoleForm({ role, catalogue, catalogueFailed }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !role;
  // A role beyond the caller's reach is shown read-only: the server would refuse a change.
  const readOnly = Boolean(role && !role.can_manage);
  const form = useServerForm({ schema: roleSchema, defaultValues: { name: role?.name ?? '', modules: null }, versioned: !creating });
  const create = useCreateRole();
  const update = useUpdateRole(role?.id ?? '');

  const submit = form.submitWith(
    async (values) => {
      const modules = values.modules ?? [...selectionFromModules(role?.modules ?? [], catalogue ?? [])];
      const body = { name: values.name.trim(), modules: [...modules].sort() };
      const reply = creating ? await create.mutateAsync(body) : await update.mutateAsync({ ...body, version: role.version });
      toast.success(replyMessage(reply) ?? '');
      navigate(paths.settings.userManagement);
    },
    { onError: () => toast.error(creating ? t('errors.roleCreate') : t('errors.roleUpdate')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {readOnly ? (
        <Alert severity="info" data-testid="role-read-only">
          {t('users.roleBeyondReach')}
        </Alert>
      ) : null}
      <FormAlerts stale={form.stale} />
      <Card>
        <CardContent>
          <TextInput name="name" label={t('users.roleName')} required />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('users.permissions')} subheader={t('users.permissionsHint')} />
        <CardContent>
          <Permissions role={role} catalogue={catalogue} catalogueFailed={catalogueFailed} />
        </CardContent>
      </Card>
      <FormFooter cancelTo={`${paths.settings.userManagement}?tab=roles`} submitLabel={creating ? t('users.newRole') : t('common.saveChanges')} disabled={readOnly} testId="role-submit" />
    </Form>
  );
}
