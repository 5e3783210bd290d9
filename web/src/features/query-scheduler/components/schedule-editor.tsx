// A query's schedule: presets that write the five cron fields, the fields themselves, the time
// zone, the schedule in words in the user's language and its next five runs (asked of the server,
// which also names the fields it refuses).
import { useMemo, useState } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import FormHelperText from '@mui/material/FormHelperText';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import { ChoiceField } from '../../../components/fields';
import Typography from '@mui/material/Typography';
import { useOperatorSettings } from '../../../api/operator-settings';
import { useFieldMessage } from '../../../components/form';
import { formatDuration } from '../../../components/format';
import { fieldMessages } from '../../../components/server-errors';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { isApiError } from '../../../api/client';
import type { Cron } from '../../../api/types';
import { useTimeZones } from '../api/filters';
import { useNextRuns } from '../api/tasks';
import {
  CRON_FIELDS,
  cronOfPreset,
  describeCron,
  formatInZone,
  parseTime,
  presetOf,
  PRESET_KINDS,
  timeText,
  WEEKDAYS,
  type CronField,
  type PresetKind,
} from '../cron-logic';
import { shortestGapMinutes, type ScheduleFormValues } from '../schedule-logic';

/** How long the fields rest before the next runs are asked again. */
export const NEXT_RUNS_DELAY_MS = 400;

const SUNDAY = Date.UTC(2023, 0, 1);

/** A day of the week's name in the language (0 = Sunday). */
function dayName(day: number, language: string): string {
  return new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(new Date(SUNDAY + day * 86_400_000));
}

function CronInput({ field: name, live, refused }: { field: CronField; live?: string; refused?: boolean }) {
  const { t } = useTranslation();
  const { field } = useController<ScheduleFormValues, `cron.${CronField}`>({ name: `cron.${name}` });
  const own = useFieldMessage(`cron.${name}`);
  const message = own ?? live;
  return (
    <TextField
      size="small"
      name={`cron.${name}`}
      label={t(`queryScheduler.cron.${name}`)}
      value={field.value ?? ''}
      onChange={(event) => field.onChange(event.target.value)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={Boolean(message) || Boolean(refused)}
      helperText={message ?? t(`queryScheduler.cronHint.${name}`)}
      slotProps={{ htmlInput: { 'data-testid': `cron-${name}`, spellCheck: false, style: { fontFamily: 'monospace' } } }}
    />
  );
}

function TimeZoneInput({ live }: { live?: string }) {
  const { t } = useTranslation();
  const zones = useTimeZones();
  const { field } = useController<ScheduleFormValues, 'time_zone'>({ name: 'time_zone' });
  const own = useFieldMessage('time_zone');
  const message = own ?? live;
  return (
    <Autocomplete
      options={zones.data ?? []}
      value={field.value || null}
      loading={zones.isLoading}
      onChange={(_event, next) => field.onChange(next ?? '')}
      renderInput={(params) => (
        <TextField
          {...params}
          name="time_zone"
          label={t('queryScheduler.timeZone')}
          required
          error={Boolean(message)}
          helperText={message ?? t('queryScheduler.timeZoneHint')}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'schedule-time-zone' } }}
        />
      )}
    />
  );
}

/** The presets: a kind, and the time (and day of the week) they run at; "custom" leaves the fields as typed. */
function PresetInputs({ cron, onCron }: { cron: Cron; onCron: (cron: Cron) => void }) {
  const { t, i18n } = useTranslation();
  const detected = presetOf(cron);
  // Choosing "custom" keeps it chosen even while the fields still read as a preset.
  const [custom, setCustom] = useState(detected.kind === 'custom');
  const kind: PresetKind = custom ? 'custom' : detected.kind;
  const time = detected.kind === 'custom' ? { hour: 7, minute: 0 } : detected;
  const weekday = detected.kind === 'weekly' ? detected.weekday : 1;

  const choose = (next: PresetKind) => {
    setCustom(next === 'custom');
    if (next === 'daily' || next === 'monthly') onCron(cronOfPreset({ kind: next, hour: time.hour, minute: time.minute }));
    if (next === 'weekly') onCron(cronOfPreset({ kind: 'weekly', weekday, hour: time.hour, minute: time.minute }));
  };
  const setTime = (text: string) => {
    const parsed = parseTime(text);
    if (!parsed || detected.kind === 'custom') return;
    onCron(cronOfPreset({ ...detected, ...parsed }));
  };

  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: kind === 'weekly' ? '2fr 1fr 1fr' : '2fr 1fr' } }}>
      <ChoiceField
        label={t('queryScheduler.repeat')}
        value={kind}
        choices={PRESET_KINDS}
        labelOf={(option) => t(`queryScheduler.presets.${option}`)}
        onChange={choose}
        testId="schedule-preset"
        choiceTestIds
      />
      {kind === 'weekly' && detected.kind === 'weekly' ? (
        <ChoiceField
          label={t('queryScheduler.weekday')}
          value={weekday}
          choices={WEEKDAYS}
          labelOf={(day) => dayName(day, i18n.language)}
          onChange={(day) => onCron(cronOfPreset({ ...detected, weekday: day }))}
          testId="schedule-weekday"
          choiceTestIds
        />
      ) : null}
      {kind !== 'custom' && detected.kind !== 'custom' ? (
        <TextField
          type="time"
          size="small"
          label={t('queryScheduler.at')}
          value={timeText(detected.hour, detected.minute)}
          onChange={(event) => setTime(event.target.value)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'schedule-time', step: 60 } }}
        />
      ) : null}
    </Box>
  );
}

/**
 * Under the cron fields: the server's reason for refusing the schedule as a whole (it runs more
 * often than the operator allows), else the operator's shortest interval, with a warning when the
 * next runs shown are closer than that.
 */
function IntervalLine({ message, runs }: { message?: string; runs: string[] }) {
  const { t, i18n } = useTranslation();
  const settings = useOperatorSettings();
  if (message) {
    return (
      <FormHelperText error sx={{ mt: -1 }} data-testid="schedule-cron-message">
        {message}
      </FormHelperText>
    );
  }
  const minimum = settings.data?.min_task_interval_minutes;
  if (!minimum) return null;
  const interval = formatDuration(minimum * 60, i18n.language);
  const gap = shortestGapMinutes(runs);
  const tooOften = gap !== null && gap < minimum;
  return (
    <FormHelperText sx={{ mt: -1, color: tooOften ? 'warning.main' : undefined }} data-testid="schedule-interval">
      {tooOften ? t('queryScheduler.tooOften', { gap: formatDuration(gap * 60, i18n.language), interval }) : t('queryScheduler.minInterval', { interval })}
    </FormHelperText>
  );
}

/** The schedule card of a query's form. */
export function ScheduleEditor() {
  const { t, i18n } = useTranslation();
  const { setValue, clearErrors } = useFormContext<ScheduleFormValues>();
  const cron = useWatch<ScheduleFormValues, 'cron'>({ name: 'cron' });
  const timeZone = useWatch<ScheduleFormValues, 'time_zone'>({ name: 'time_zone' });
  const complete = CRON_FIELDS.every((field) => (cron?.[field] ?? '').trim() !== '') && Boolean(timeZone);
  const rested = useDebouncedValue(JSON.stringify({ cron, timeZone, complete }), NEXT_RUNS_DELAY_MS);
  const asked = useMemo(() => JSON.parse(rested) as { cron: Cron; timeZone: string; complete: boolean }, [rested]);
  const runs = useNextRuns(asked.cron, asked.timeZone, asked.complete);
  const live = runs.isError ? fieldMessages(runs.error) : {};
  const unplaced = runs.isError && Object.keys(live).length === 0 ? (isApiError(runs.error) ? runs.error.message : t('errors.generic')) : null;
  const words = cron ? describeCron(cron, i18n.language) : null;
  const language = i18n.language;
  const shownRuns = runs.isError || !asked.complete ? [] : (runs.data?.runs ?? []);
  // The server's reason for the schedule as a whole (`cron`), not one of its fields'.
  const cronMessage = useFieldMessage('cron');

  const setCron = (next: Cron) => {
    setValue('cron', next, { shouldDirty: true });
    clearErrors('cron');
  };

  return (
    <Card data-testid="schedule-editor">
      <CardHeader title={t('queryScheduler.schedule')} />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
        <PresetInputs cron={cron} onCron={setCron} />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, 1fr)', lg: 'repeat(5, 1fr)' } }}>
          {CRON_FIELDS.map((field) => (
            <CronInput key={field} field={field} live={live[field] ?? live[`cron.${field}`]} refused={Boolean(cronMessage)} />
          ))}
        </Box>
        <IntervalLine message={cronMessage} runs={shownRuns} />
        {unplaced ? <Alert severity="error">{unplaced}</Alert> : null}
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <TimeZoneInput live={live.time_zone} />
            <Box>
              <Typography variant="overline" sx={{ color: 'text.secondary' }}>
                {t('queryScheduler.inWords')}
              </Typography>
              <Typography variant="subtitle1" data-testid="schedule-words">
                {words ?? t('queryScheduler.noWords')}
              </Typography>
              {runs.data?.eventbridge && !runs.isError ? (
                <Typography variant="caption" sx={{ color: 'text.secondary', fontFamily: 'monospace' }} data-testid="schedule-eventbridge">
                  {runs.data.eventbridge}
                </Typography>
              ) : null}
            </Box>
          </Box>
          <Box data-testid="schedule-next-runs" aria-busy={runs.isFetching}>
            <Typography variant="overline" sx={{ color: 'text.secondary' }}>
              {t('queryScheduler.nextRuns', { zone: asked.timeZone || '—' })}
            </Typography>
            <Box sx={{ height: 4 }}>{runs.isFetching ? <LinearProgress aria-label={t('app.loading')} /> : null}</Box>
            {shownRuns.length > 0 ? (
              <List dense disablePadding>
                {shownRuns.map((run) => (
                  <ListItem key={run} disableGutters data-testid="schedule-next-run">
                    <ListItemText primary={formatInZone(run, asked.timeZone, language)} />
                  </ListItem>
                ))}
              </List>
            ) : (
              <Typography variant="body2" sx={{ color: 'text.secondary', py: 1 }}>
                {runs.isError ? t('queryScheduler.nextRunsRefused') : runs.isFetching ? t('app.loading') : t('queryScheduler.noNextRuns')}
              </Typography>
            )}
          </Box>
        </Box>
      </CardContent>
    </Card>
  );
}
