import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import type { LanguageCode, User } from '../../../api/types';
import { PasswordField } from '../../../components/password-field';
import { toast } from '../../../components/snackbar';
import type { FieldErrors } from '../../../components/validation';
import { LANGUAGES } from '../../../locales/i18n';
import { paths } from '../../../routes/paths';
import { usePositions, useRoleOptions } from '../api/filters';
import { useCreateUser, useUpdateUser } from '../api/users';
import { ScopePicker } from './scope-picker';
import { fieldMessages, isStaleVersion } from './server-errors';
import { toUserForm, validateUser, type UserField, type UserFormValues } from './user-form-values';

interface Props {
  initial: UserFormValues;
  user?: User;
}

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

export function UserForm({ initial, user }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !user;
  // Users beyond the caller's reach are shown read-only: the server would refuse a change.
  const readOnly = Boolean(user && !user.can_manage);
  const [values, setValues] = useState<UserFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors<UserField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const roles = useRoleOptions();
  const positions = usePositions();
  const create = useCreateUser();
  const update = useUpdateUser(user?.id ?? '');
  const saving = create.isPending || update.isPending;

  const set = <K extends UserField>(field: K, value: UserFormValues[K]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
    setServerErrors((previous) => ({ ...previous, [field]: '' }));
  };

  const message = (field: UserField): string | undefined => {
    const problem = errors[field];
    if (problem) return t(problem.key, problem.values);
    return serverErrors[field] || undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateUser(values, creating);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setStale(false);
    try {
      if (creating) {
        await create.mutateAsync(toUserForm(values));
        toast.success(t('success.userCreated'));
      } else {
        await update.mutateAsync(toUserForm(values, user.version));
        toast.success(t('success.userUpdated'));
      }
      navigate(paths.settings.userManagement);
    } catch (error) {
      setServerErrors(fieldMessages(error));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.userCreate') : t('errors.userUpdate'));
    }
  };

  const text = (field: 'name' | 'email' | 'phone', label: string, type = 'text') => (
    <TextField
      name={field}
      type={type}
      label={label}
      value={values[field]}
      onChange={(event) => set(field, event.target.value)}
      error={Boolean(message(field))}
      helperText={message(field)}
      required={field !== 'phone'}
      autoComplete="off"
      fullWidth
    />
  );

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {readOnly ? (
        <Alert severity="info" data-testid="user-read-only">
          {t('users.beyondReach')}
        </Alert>
      ) : null}
      {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
      <Card>
        <CardHeader title={t('users.sectionDetails')} />
        <CardContent sx={grid}>
          {text('name', t('users.name'))}
          {text('email', t('users.email'), 'email')}
          {text('phone', t('users.phone'), 'tel')}
          <PasswordField
            name="password"
            autoComplete="new-password"
            label={t('users.password')}
            value={values.password}
            onChange={(event) => set('password', event.target.value)}
            error={Boolean(message('password'))}
            helperText={message('password') ?? (creating ? undefined : t('users.passwordHintEdit'))}
            required={creating}
            fullWidth
          />
          <TextField
            select
            name="role_id"
            label={t('users.role')}
            value={values.role_id}
            onChange={(event) => set('role_id', event.target.value)}
            error={Boolean(message('role_id'))}
            helperText={message('role_id')}
            fullWidth
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'user-role' } as object } }}
          >
            <MenuItem value="">{t('users.noRole')}</MenuItem>
            {(roles.data ?? []).map((role) => (
              <MenuItem key={role.id} value={role.id}>
                {role.name}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            freeSolo
            options={positions.data ?? []}
            value={values.position}
            onInputChange={(_event, value) => set('position', value)}
            renderInput={(params) => (
              <TextField {...params} name="position" label={t('users.position')} error={Boolean(message('position'))} helperText={message('position')} />
            )}
          />
          <TextField
            select
            name="language"
            label={t('users.language')}
            value={values.language}
            onChange={(event) => set('language', event.target.value as LanguageCode)}
            fullWidth
          >
            {LANGUAGES.map((language) => (
              <MenuItem key={language.code} value={language.code} lang={language.code}>
                {language.label}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={<Switch checked={values.active} onChange={(event) => set('active', event.target.checked)} name="active" />}
            label={t('common.active')}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('users.sectionAccess')} />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Box>
            <FormControlLabel
              control={
                <Switch
                  checked={values.access_all_modules}
                  onChange={(event) => set('access_all_modules', event.target.checked)}
                  name="access_all_modules"
                />
              }
              label={t('users.accessAllModules')}
            />
            <FormHelperText sx={{ mt: 0 }}>{t('users.accessAllModulesHint')}</FormHelperText>
          </Box>
          <Box>
            <FormControlLabel
              control={
                <Switch
                  checked={values.access_all_machines}
                  onChange={(event) => set('access_all_machines', event.target.checked)}
                  name="access_all_machines"
                />
              }
              label={t('users.accessAllMachines')}
            />
            <FormHelperText sx={{ mt: 0 }}>{t('users.accessAllMachinesHint')}</FormHelperText>
          </Box>
          {!values.access_all_machines ? (
            <Box sx={grid}>
              <ScopePicker kind="clients" label={t('users.clients')} value={values.client_ids} onChange={(ids) => set('client_ids', ids)} />
              <ScopePicker kind="locations" label={t('users.locations')} value={values.location_ids} onChange={(ids) => set('location_ids', ids)} />
              <ScopePicker kind="machineTags" label={t('users.machineTags')} value={values.machine_tag_ids} onChange={(ids) => set('machine_tag_ids', ids)} />
              <ScopePicker kind="machines" label={t('users.machines')} value={values.machine_ids} onChange={(ids) => set('machine_ids', ids)} />
            </Box>
          ) : null}
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button variant="outlined" color="inherit" onClick={() => navigate(paths.settings.userManagement)}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={saving} disabled={readOnly} data-testid="user-submit">
          {creating ? t('users.newUser') : t('common.saveChanges')}
        </Button>
      </Box>
    </Box>
  );
}
