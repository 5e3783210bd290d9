import { useMemo } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import type { User } from '../../../api/types';
import { Form, FormAlerts, FormFooter, FreeSoloInput, SelectInput, SwitchInput, TextInput, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { LANGUAGES } from '../../../locales/i18n';
import { paths } from '../../../routes/paths';
import { usePositions, useRoleOptions } from '../api/filters';
import { useCreateUser, useUpdateUser } from '../api/users';
import { ScopePicker } from './scope-picker';
import { toUserForm, userSchema, type UserFormValues } from './user-form-values';

interface Props {
  initial: UserFormValues;
  user?: User;
}

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

type ScopeField = 'client_ids' | 'location_ids' | 'machine_tag_ids' | 'machine_ids';

function ScopeInput({ name, kind, label }: { name: ScopeField; kind: 'clients' | 'locations' | 'machineTags' | 'machines'; label: string }) {
  const { field } = useController<UserFormValues, ScopeField>({ name });
  return <ScopePicker kind={kind} label={label} value={field.value} onChange={field.onChange} />;
}

/** The machines the user may see: all, or those of the chosen clients, locations, tags and machines. */
function AccessScope() {
  const { t } = useTranslation();
  const all = useWatch<UserFormValues, 'access_all_machines'>({ name: 'access_all_machines' });
  if (all) return null;
  return (
    <Box sx={grid}>
      <ScopeInput name="client_ids" kind="clients" label={t('users.clients')} />
      <ScopeInput name="location_ids" kind="locations" label={t('users.locations')} />
      <ScopeInput name="machine_tag_ids" kind="machineTags" label={t('users.machineTags')} />
      <ScopeInput name="machine_ids" kind="machines" label={t('users.machines')} />
    </Box>
  );
}

export function UserForm({ initial, user }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !user;
  // Users beyond the caller's reach are shown read-only: the server would refuse a change.
  const readOnly = Boolean(user && !user.can_manage);
  const schema = useMemo(() => userSchema(creating), [creating]);
  const form = useServerForm({ schema, defaultValues: initial, versioned: !creating });
  const roles = useRoleOptions();
  const positions = usePositions();
  const create = useCreateUser();
  const update = useUpdateUser(user?.id ?? '');

  const submit = form.submitWith(
    async (values) => {
      if (creating) {
        await create.mutateAsync(toUserForm(values));
        toast.success(t('success.userCreated'));
      } else {
        await update.mutateAsync(toUserForm(values, user.version));
        toast.success(t('success.userUpdated'));
      }
      navigate(paths.settings.userManagement);
    },
    { onError: () => toast.error(creating ? t('errors.userCreate') : t('errors.userUpdate')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {readOnly ? (
        <Alert severity="info" data-testid="user-read-only">
          {t('users.beyondReach')}
        </Alert>
      ) : null}
      <FormAlerts stale={form.stale} />
      <Card>
        <CardHeader title={t('users.sectionDetails')} />
        <CardContent sx={grid}>
          <TextInput name="name" label={t('users.name')} required />
          <TextInput name="email" type="email" label={t('users.email')} required />
          <TextInput name="phone" type="tel" label={t('users.phone')} />
          <TextInput
            name="password"
            secret
            autoComplete="new-password"
            label={t('users.password')}
            helperText={creating ? undefined : t('users.passwordHintEdit')}
            required={creating}
          />
          <SelectInput name="role_id" label={t('users.role')} testId="user-role">
            <MenuItem value="">{t('users.noRole')}</MenuItem>
            {(roles.data ?? []).map((role) => (
              <MenuItem key={role.id} value={role.id}>
                {role.name}
              </MenuItem>
            ))}
          </SelectInput>
          <FreeSoloInput name="position" label={t('users.position')} options={positions.data ?? []} />
          <SelectInput name="language" label={t('users.language')}>
            {LANGUAGES.map((language) => (
              <MenuItem key={language.code} value={language.code} lang={language.code}>
                {language.label}
              </MenuItem>
            ))}
          </SelectInput>
          <SwitchInput name="active" label={t('common.active')} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('users.sectionAccess')} />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Box>
            <SwitchInput name="access_all_modules" label={t('users.accessAllModules')} />
            <FormHelperText sx={{ mt: 0 }}>{t('users.accessAllModulesHint')}</FormHelperText>
          </Box>
          <Box>
            <SwitchInput name="access_all_machines" label={t('users.accessAllMachines')} />
            <FormHelperText sx={{ mt: 0 }}>{t('users.accessAllMachinesHint')}</FormHelperText>
          </Box>
          <AccessScope />
        </CardContent>
      </Card>
      <FormFooter cancelTo={paths.settings.userManagement} submitLabel={creating ? t('users.newUser') : t('common.saveChanges')} disabled={readOnly} testId="user-submit" />
    </Form>
  );
}
