import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { Client } from '../../../api/types';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import type { FieldErrors } from '../../../components/validation';
import { useCreateClient, useUpdateClient } from '../api/clients';
import {
  CLIENT_ERROR_ALIASES,
  emptyClientValues,
  toClientForm,
  validateClient,
  valuesFromClient,
  type ClientField,
  type ClientFormValues,
} from './client-form-values';

interface Props {
  /** The client to edit; none to create one. */
  client?: Client;
  onClose: () => void;
}

/** Create or edit a client. Mount it per client (key) so the values start from the record. */
export function ClientDialog({ client, onClose }: Props) {
  const { t } = useTranslation();
  const creating = !client;
  const [values, setValues] = useState<ClientFormValues>(client ? valuesFromClient(client) : emptyClientValues());
  const [errors, setErrors] = useState<FieldErrors<ClientField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const create = useCreateClient();
  const update = useUpdateClient();
  const saving = create.isPending || update.isPending;

  const set = (field: ClientField, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
    setServerErrors((previous) => ({ ...previous, [field]: '' }));
  };

  const message = (field: ClientField): string | undefined => {
    const problem = errors[field];
    if (problem) return t(problem.key, problem.values);
    return serverErrors[field] || undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateClient(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setStale(false);
    try {
      if (creating) {
        await create.mutateAsync(toClientForm(values));
        toast.success(t('success.clientCreated'));
      } else {
        await update.mutateAsync({ id: client.id, form: toClientForm(values, client.version) });
        toast.success(t('success.clientUpdated'));
      }
      onClose();
    } catch (error) {
      setServerErrors(fieldMessages(error, CLIENT_ERROR_ALIASES));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.clientCreate') : t('errors.clientUpdate'));
    }
  };

  const text = (field: Exclude<ClientField, 'commission'>, label: string, type = 'text', required = false) => (
    <TextField
      name={field}
      type={type}
      label={label}
      value={values[field]}
      onChange={(event) => set(field, event.target.value)}
      error={Boolean(message(field))}
      helperText={message(field)}
      required={required}
      autoComplete="off"
      fullWidth
    />
  );

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} data-testid="client-dialog">
        <DialogTitle>{creating ? t('clients.newClient') : t('clients.editClient')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, pt: '8px !important' }}>
          {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
          {text('name', t('clients.name'), 'text', true)}
          {text('contact_name', t('clients.contactName'))}
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {text('email', t('clients.email'), 'email')}
            {text('phone', t('clients.phone'), 'tel')}
          </Box>
          <TextField
            name="commission"
            label={t('clients.commission')}
            value={values.commission}
            onChange={(event) => set('commission', event.target.value)}
            error={Boolean(message('commission'))}
            helperText={message('commission') ?? t('clients.commissionHint')}
            placeholder="0"
            autoComplete="off"
            fullWidth
            slotProps={{
              htmlInput: { inputMode: 'decimal' },
              input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button variant="outlined" color="inherit" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={saving} data-testid="client-submit">
            {creating ? t('clients.newClient') : t('common.saveChanges')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
