import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { DataSource } from '../../../api/types';
import { SwitchInput, TextInput, useFieldMessage, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import { useCreateDataSource, useUpdateDataSource } from '../api/data-sources';
import {
  emptySourceValues,
  FEEDS,
  NAYAX_SQS,
  sourceSchema,
  storedSecrets,
  toDataSourceForm,
  valuesFromSource,
  type SourceValues,
} from '../data-sources-logic';
import { SecretInput } from './secret-input';

const grid = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

/** A part of the form: its title, what it is for, its fields. */
function Section({ title, hint, testId, children }: { title: string; hint: string; testId?: string; children: ReactNode }) {
  return (
    <Box component="fieldset" data-testid={testId} sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box component="legend" sx={{ p: 0, mb: 0.5 }}>
        <Typography variant="subtitle2" component="span">
          {title}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: -1.5 }}>
        {hint}
      </Typography>
      {children}
    </Box>
  );
}

/** The queue of each feed, and the message when none is given (the form's or the server's). */
function FeedInputs() {
  const { t } = useTranslation();
  const message = useFieldMessage('feeds');
  return (
    <>
      {FEEDS.map((feed) => (
        <TextInput
          key={feed}
          name={`feeds.${feed}`}
          type="url"
          label={t(`dataSources.feeds.${feed}`)}
          placeholder="https://sqs.eu-west-1.amazonaws.com/…"
          slotProps={{ htmlInput: { 'data-testid': `source-feed-${feed}`, spellCheck: false, inputMode: 'url' } }}
        />
      ))}
      {message ? (
        <FormHelperText error data-testid="source-feeds-message" sx={{ mt: -1 }}>
          {message}
        </FormHelperText>
      ) : null}
    </>
  );
}

interface Props {
  /** The source to edit; none to create one. */
  source?: DataSource;
  onClose: () => void;
}

/**
 * Create or edit a data source: name, kind (Nayax Core only, shown), region, a queue per feed, the
 * AWS credentials and Nayax's encryption key. The secrets are write-only: never prefilled, sent
 * only when typed, cleared only on purpose. Mount it per source (key) so the values start from it.
 */
export function SourceDialog({ source, onClose }: Props) {
  const { t } = useTranslation();
  const creating = !source;
  const stored = storedSecrets(source);
  // The dialog is mounted per source: what is stored does not change while it is open.
  const [schema] = useState(() => sourceSchema(stored));
  const form = useServerForm<SourceValues>({
    schema,
    defaultValues: source ? valuesFromSource(source) : emptySourceValues(),
    versioned: !creating,
  });
  const create = useCreateDataSource();
  const update = useUpdateDataSource();

  return (
    <FormDialog
      form={form}
      save={(values) => (creating ? create.mutateAsync(toDataSourceForm(values)) : update.mutateAsync({ id: source.id, form: toDataSourceForm(values, source.version) }))}
      success={creating ? t('dataSources.created') : t('dataSources.updated')}
      failure={creating ? t('dataSources.createFailed') : t('dataSources.updateFailed')}
      onClose={onClose}
      title={creating ? t('dataSources.newSource') : t('dataSources.editSource')}
      maxWidth="md"
      testId="source-dialog"
      submitLabel={creating ? t('dataSources.newSource') : t('common.saveChanges')}
      submitTestId="source-submit"
    >
      <Box sx={grid}>
        <TextInput name="name" label={t('dataSources.name')} required slotProps={{ htmlInput: { 'data-testid': 'source-name' } }} />
        <TextField
          label={t('dataSources.kind')}
          value={t(`dataSources.kinds.${NAYAX_SQS}`)}
          fullWidth
          slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'source-kind' } }}
        />
        <TextInput
          name="region"
          label={t('dataSources.region')}
          required
          placeholder="eu-west-1"
          helperText={t('dataSources.regionHint')}
          slotProps={{ htmlInput: { 'data-testid': 'source-region', spellCheck: false } }}
        />
      </Box>
      <Section title={t('dataSources.queues')} hint={t('dataSources.queuesHint')} testId="source-feeds">
        <FeedInputs />
      </Section>
      <Section title={t('dataSources.credentials')} hint={t('dataSources.credentialsHint')}>
        <Box sx={grid}>
          <TextInput
            name="access_key_id"
            label={t('dataSources.accessKeyId')}
            slotProps={{ htmlInput: { 'data-testid': 'source-access-key-id', spellCheck: false } }}
          />
          <SecretInput name="secret_access_key" label={t('dataSources.secretAccessKey')} stored={stored.secret_access_key} testId="source-secret-access-key" />
        </Box>
      </Section>
      <Section title={t('dataSources.encryption')} hint={t('dataSources.encryptionHint')}>
        <Box sx={grid}>
          <SecretInput name="encryption_key" label={t('dataSources.encryptionKey')} stored={stored.encryption_key} testId="source-encryption-key" />
          <TextInput
            name="encryption_key_version"
            label={t('dataSources.encryptionKeyVersion')}
            slotProps={{ htmlInput: { 'data-testid': 'source-encryption-key-version', inputMode: 'numeric' } }}
          />
        </Box>
      </Section>
      <SwitchInput name="inactive" label={t('dataSources.inactive')} />
    </FormDialog>
  );
}
