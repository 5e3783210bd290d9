import { useMemo } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useReportPermission } from '../../../auth/use-permission';
import { Form, FormAlerts, FormFooter, TextInput, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import type { ReportModule, ReportTemplate, Task } from '../../../api/types';
import { useTemplates } from '../../../components/report-definition/definition-api';
import { DefinitionFilters, FileOptions, ModuleSelect } from '../../../components/report-definition/definition-fields';
import { withGroupedErrors } from '../../../components/report-definition/server-fields';
import { useSchedulerModules, useSchedulerPeriods, useTimeZones } from '../api/filters';
import { useCreateTask, useUpdateTask } from '../api/tasks';
import { joinScheduleErrors, scheduleSchema, SCHEDULE_ALIASES, toTaskInput, withTemplate, type ScheduleFormValues } from '../schedule-logic';
import { Deliveries } from './deliveries';
import { RecipientsInput } from './recipients-input';
import { ScheduleEditor } from './schedule-editor';

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;
/** Enough templates of one module for a picker. */
const TEMPLATE_PAGE = 100;

function StatusInput() {
  const { t } = useTranslation();
  const { field } = useController<ScheduleFormValues, 'status'>({ name: 'status' });
  return (
    <FormControlLabel
      control={
        <Switch
          name="status"
          checked={field.value === 'active'}
          onChange={(event) => field.onChange(event.target.checked ? 'active' : 'paused')}
          slotProps={{ input: { 'data-testid': 'schedule-active' } as object }}
        />
      }
      label={field.value === 'active' ? t('queryScheduler.activeHint') : t('queryScheduler.pausedHint')}
    />
  );
}

/** A template of the module, or the query's own filters; a template brings its definition. */
function TemplateInput({ module, templates }: { module: ReportModule; templates: ReportTemplate[] }) {
  const { t } = useTranslation();
  const { getValues, setValue } = useFormContext<ScheduleFormValues>();
  const chosen = useWatch<ScheduleFormValues, 'template_id'>({ name: 'template_id' });
  const choose = (id: string) => {
    const template = templates.find((item) => item.id === id && item.module === module) ?? null;
    const next = withTemplate(getValues(), template);
    const dirty = { shouldDirty: true };
    setValue('template_id', next.template_id, dirty);
    setValue('params', next.params, dirty);
    setValue('format', next.format, dirty);
    setValue('graph', next.graph, dirty);
    setValue('columns', next.columns, dirty);
  };
  return (
    <TextField
      select
      fullWidth
      label={t('queryScheduler.template')}
      value={chosen}
      onChange={(event) => choose(event.target.value)}
      helperText={chosen ? t('queryScheduler.templateHint') : t('queryScheduler.ownFiltersHint')}
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'schedule-template' } as object } }}
    >
      <MenuItem value="">{t('queryScheduler.ownFilters')}</MenuItem>
      {templates.map((template) => (
        <MenuItem key={template.id} value={template.id}>
          {template.name}
        </MenuItem>
      ))}
      {chosen && !templates.some((template) => template.id === chosen) ? <MenuItem value={chosen}>{t('queryScheduler.unknownTemplate')}</MenuItem> : null}
    </TextField>
  );
}

/** What the query's report holds: a template's definition, or its own filters and file options. */
function ReportDefinition({ module }: { module: ReportModule }) {
  const { t } = useTranslation();
  const allowed = useReportPermission('report_generator');
  const canTemplates = allowed('templates_list');
  const templates = useTemplates({ page: 1, page_size: TEMPLATE_PAGE, search: '', ordering: 'name', module }, canTemplates);
  const periods = useSchedulerPeriods();
  const chosen = useWatch<ScheduleFormValues, 'template_id'>({ name: 'template_id' });
  const modules = useSchedulerModules();
  return (
    <>
      <Card>
        <CardHeader title={t('queryScheduler.report')} />
        <CardContent sx={grid}>
          <ModuleSelect modules={modules.data ?? []} loading={modules.isLoading} locked schedule />
          {canTemplates && !templates.isError ? <TemplateInput module={module} templates={templates.data?.data ?? []} /> : null}
        </CardContent>
      </Card>
      {chosen ? (
        <Alert severity="info" data-testid="schedule-uses-template">
          {t('queryScheduler.usesTemplate')}
        </Alert>
      ) : (
        <>
          <DefinitionFilters periods={periods.data ?? []} />
          <FileOptions />
        </>
      )}
    </>
  );
}

interface Props {
  module: ReportModule;
  initial: ScheduleFormValues;
  task?: Task;
}

/** A scheduled query: its name, its report (a template or the module's filters), recipients and schedule. */
export function ScheduleForm({ module, initial, task }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const zones = useTimeZones();
  const schema = useMemo(() => scheduleSchema(zones.data), [zones.data]);
  const form = useServerForm({ schema, defaultValues: initial, aliases: SCHEDULE_ALIASES, versioned: Boolean(task) });
  const create = useCreateTask();
  const update = useUpdateTask(task?.id ?? '');

  const submit = form.submitWith(
    async (values) => {
      // Every reason of a field in one message: each refused address, the schedule's interval.
      const save = (request: () => Promise<unknown>) => withGroupedErrors(() => request().catch((error: unknown) => Promise.reject(joinScheduleErrors(error))));
      if (task) {
        await save(() => update.mutateAsync(toTaskInput(values, task.version)));
        toast.success(t('queryScheduler.updated'));
      } else {
        await save(() => create.mutateAsync(toTaskInput(values)));
        toast.success(t('queryScheduler.created'));
      }
      navigate(paths.settings.queryScheduler);
    },
    { onError: () => toast.error(task ? t('queryScheduler.updateFailed') : t('queryScheduler.createFailed')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="schedule-form">
      <FormAlerts stale={form.stale} testId="schedule-form-error" />
      {task?.paused_reason ? (
        <Alert severity="warning" data-testid="schedule-paused-reason">
          <AlertTitle>{t('queryScheduler.pausedBySystem')}</AlertTitle>
          {task.paused_reason}
        </Alert>
      ) : null}
      <Card>
        <CardHeader title={t('queryScheduler.query')} />
        <CardContent sx={grid}>
          <TextInput name="name" label={t('queryScheduler.name')} required slotProps={{ htmlInput: { 'data-testid': 'schedule-name' } }} />
          <StatusInput />
        </CardContent>
      </Card>
      <ReportDefinition module={module} />
      <Card>
        <CardHeader title={t('queryScheduler.recipients')} />
        <CardContent>
          <RecipientsInput />
        </CardContent>
      </Card>
      <ScheduleEditor />
      {task ? <Deliveries task={task} /> : null}
      <FormFooter cancelTo={paths.settings.queryScheduler} submitLabel={task ? t('common.saveChanges') : t('queryScheduler.createQuery')} testId="schedule-submit" />
    </Form>
  );
}
