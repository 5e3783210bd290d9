import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import InputAdornment from '@mui/material/InputAdornment';
import type { Client } from '../../../api/types';
import { Form, FormAlerts, TextInput, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { useCreateClient, useUpdateClient } from '../api/clients';
import { CLIENT_ERROR_ALIASES, clientSchema, emptyClientValues, toClientForm, valuesFromClient } from './client-form-values';

interface Props {
  /** The client to edit; none to create one. */
  client?: Client;
  onClose: () => void;
}

/** Create or edit a client. Mount it per client (key) so the values start from the record. */
export function ClientDialog({ client, onClose }: Props) {
  const { t } = useTranslation();
  const creating = !client;
  const form = useServerForm({
    schema: clientSchema,
    defaultValues: client ? valuesFromClient(client) : emptyClientValues(),
    aliases: CLIENT_ERROR_ALIASES,
    versioned: !creating,
  });
  const create = useCreateClient();
  const update = useUpdateClient();
  const saving = form.formState.isSubmitting;

  const submit = form.submitWith(
    async (values) => {
      if (creating) {
        await create.mutateAsync(toClientForm(values));
        toast.success(t('success.clientCreated'));
      } else {
        await update.mutateAsync({ id: client.id, form: toClientForm(values, client.version) });
        toast.success(t('success.clientUpdated'));
      }
      onClose();
    },
    { onError: () => toast.error(creating ? t('errors.clientCreate') : t('errors.clientUpdate')) },
  );

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm">
      <Form form={form} onSubmit={submit} data-testid="client-dialog">
        <DialogTitle>{creating ? t('clients.newClient') : t('clients.editClient')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, pt: '8px !important' }}>
          <FormAlerts stale={form.stale} />
          <TextInput name="name" label={t('clients.name')} required />
          <TextInput name="contact_name" label={t('clients.contactName')} />
          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextInput name="email" type="email" label={t('clients.email')} />
            <TextInput name="phone" type="tel" label={t('clients.phone')} />
          </Box>
          <TextInput
            name="commission"
            label={t('clients.commission')}
            helperText={t('clients.commissionHint')}
            placeholder="0"
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
      </Form>
    </Dialog>
  );
}
