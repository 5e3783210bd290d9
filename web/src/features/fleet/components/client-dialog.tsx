import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import type { Client } from '../../../api/types';
import { TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
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

  return (
    <FormDialog
      form={form}
      save={(values) =>
        creating ? create.mutateAsync(toClientForm(values)) : update.mutateAsync({ id: client.id, form: toClientForm(values, client.version) })
      }
      success={creating ? t('success.clientCreated') : t('success.clientUpdated')}
      failure={creating ? t('errors.clientCreate') : t('errors.clientUpdate')}
      onClose={onClose}
      title={creating ? t('clients.newClient') : t('clients.editClient')}
      maxWidth="sm"
      testId="client-dialog"
      submitLabel={creating ? t('clients.newClient') : t('common.saveChanges')}
      submitTestId="client-submit"
    >
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
    </FormDialog>
  );
}
