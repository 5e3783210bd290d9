import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import { LoadingScreen } from '../../../components/loading-screen';
import { REPORT_CURRENCY } from '../../../components/money';
import { usePlanningSettings, useSavePlanningSettings } from '../api/planning';
import type { PlanningSettings } from '../../../api/types';
import { SETTINGS_ALIASES, settingsSchema, toSettingsBody, valuesFromSettings, type SettingsValues } from '../settings-values';
import { refusal } from './generate-panel';

const grid = { display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, minmax(0, 1fr))' } } as const;

function SettingsForm({ settings, onClose }: { settings: PlanningSettings; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useServerForm({ schema: settingsSchema, defaultValues: valuesFromSettings(settings), aliases: SETTINGS_ALIASES, versioned: true });
  const save = useSavePlanningSettings();
  const field = (name: keyof SettingsValues, label: string, extra: { type?: string; helperText?: string } = {}) => (
    <TextInput
      name={name}
      label={label}
      type={extra.type}
      helperText={extra.helperText}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `settings-${name}`, inputMode: extra.type ? undefined : 'decimal' } }}
    />
  );
  const section = (title: string) => (
    <Typography variant="subtitle2" sx={{ mt: 1 }}>
      {title}
    </Typography>
  );
  return (
    <FormDialog
      form={form}
      save={(values) => save.mutateAsync(toSettingsBody(values, settings.version ?? 0))}
      success={t('routePlanning.settingsSaved')}
      failure={t('routePlanning.settingsFailed')}
      onClose={onClose}
      title={t('routePlanning.settings')}
      maxWidth="md"
      testId="planning-settings-form"
      submitLabel={t('common.saveChanges')}
      submitTestId="planning-settings-submit"
    >
      {section(t('routePlanning.settingsNeed'))}
      <Box sx={grid}>
        {field('low_share_pct', t('routePlanning.lowSharePct'))}
        {field('expiry_days', t('routePlanning.expiryDays'))}
        {field('auto_collect', t('routePlanning.autoCollectAmount', { currency: REPORT_CURRENCY }))}
        {field('stale_hours', t('routePlanning.staleHours'))}
        {field('velocity_days', t('routePlanning.velocityDays'), { helperText: t('routePlanning.velocityDaysHint') })}
        {field('horizon_days', t('routePlanning.horizonDays'))}
      </Box>
      {section(t('routePlanning.settingsRoutes'))}
      <Box sx={grid}>
        {field('van_capacity', t('routePlanning.vanCapacity'))}
        {field('shift_start', t('routePlanning.shiftStart'), { type: 'time' })}
        {field('shift_end', t('routePlanning.shiftEnd'), { type: 'time' })}
        {field('service_minutes', t('routePlanning.serviceMinutes'))}
        {field('road_factor', t('routePlanning.roadFactor'))}
        {field('speed_kmh', t('routePlanning.speedKmh'))}
        {field('depot_latitude', t('routePlanning.depotLatitude'), { helperText: t('routePlanning.depotHint') })}
        {field('depot_longitude', t('routePlanning.depotLongitude'))}
      </Box>
    </FormDialog>
  );
}

/** The operator's planning settings; the server decides who may change them (403 shown on the form). */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const settings = usePlanningSettings(true);
  if (settings.data) return <SettingsForm key={settings.data.version} settings={settings.data} onClose={onClose} />;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('routePlanning.settings')}</DialogTitle>
      <DialogContent data-testid="planning-settings-loading">
        {settings.isError ? <Typography color="error">{refusal(settings.error, t('routePlanning.settingsLoadFailed'))}</Typography> : <LoadingScreen inline />}
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose}>
          {t('common.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
