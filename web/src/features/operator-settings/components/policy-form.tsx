import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OperatorSettings } from '../../../api/types';
import { Form, FormAlerts, TextInput, useServerForm } from '../../../components/form';
import { formatDate, formatDateTime } from '../../../components/format';
import { toast } from '../../../components/snackbar';
import { useUpdatePolicy } from '../api/policy';
import { policySchema, toPolicyForm, valuesFromSettings } from '../policy-logic';
import { DomainsInput } from './domains-input';

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

/**
 * The operator's settings: the calendar (set by the server's configuration, read-only) and the
 * policy on data leaving the system — the domains scheduled reports may be mailed to besides users,
 * and the shortest interval between a scheduled query's runs. Only a fleet administrator changes
 * the policy (`editable`); everyone else reads it.
 */
export function PolicyForm({ settings }: { settings: OperatorSettings }) {
  const { t, i18n } = useTranslation();
  const schema = useMemo(() => policySchema(), []);
  const form = useServerForm({ schema, defaultValues: valuesFromSettings(settings), versioned: true });
  const update = useUpdatePolicy();
  const readOnly = !settings.editable;

  const submit = form.submitWith(
    async (values) => {
      await update.mutateAsync(toPolicyForm(values, settings.version));
      toast.success(t('dataPolicy.saved'));
    },
    { onError: () => toast.error(t('dataPolicy.saveFailed')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="policy-form">
      <FormAlerts stale={form.stale} testId="policy-form-error" />
      {readOnly ? (
        <Alert severity="info" data-testid="policy-read-only">
          {t('dataPolicy.readOnly')}
        </Alert>
      ) : null}
      <Card>
        <CardHeader title={t('dataPolicy.calendar')} subheader={t('dataPolicy.calendarHint')} />
        <CardContent sx={grid}>
          <TextField
            label={t('dataPolicy.timeZone')}
            value={settings.time_zone}
            helperText={t('dataPolicy.today', { date: formatDate(settings.today, i18n.language) })}
            slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'policy-time-zone' } }}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('dataPolicy.leaving')} subheader={t('dataPolicy.leavingHint')} />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
          <DomainsInput disabled={readOnly} />
          <Box sx={grid}>
            <TextInput
              name="min_task_interval_minutes"
              label={t('dataPolicy.minInterval')}
              required
              disabled={readOnly}
              helperText={t('dataPolicy.minIntervalHint')}
              slotProps={{
                htmlInput: { 'data-testid': 'policy-min-interval', inputMode: 'numeric' },
                input: { endAdornment: <InputAdornment position="end">{t('dataPolicy.minutes')}</InputAdornment> },
              }}
            />
          </Box>
          {settings.updated_at ? (
            <Typography variant="caption" sx={{ color: 'text.secondary' }} data-testid="policy-updated">
              {t('dataPolicy.updatedAt', { at: formatDateTime(settings.updated_at, i18n.language) })}
            </Typography>
          ) : null}
        </CardContent>
      </Card>
      {readOnly ? null : (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button type="submit" variant="contained" loading={form.formState.isSubmitting} data-testid="policy-submit">
            {t('common.saveChanges')}
          </Button>
        </Box>
      )}
    </Form>
  );
}
