import { useMemo, useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import PlayIcon from '@mui/icons-material/PlayArrowOutlined';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import { useReportPermission } from '../../../auth/use-permission';
import { Form, FormAlerts, TextInput, useFieldMessage, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { useDebouncedValue } from '../../../components/use-debounced-value';
import { paths } from '../../../routes/paths';
import type { ReportTemplate, ReportVisibility } from '../../../api/types';
import { useGeneratorModules } from '../../../components/report-definition/definition-api';
import { DefinitionFilters, FileOptions, ModuleSelect } from '../../../components/report-definition/definition-fields';
import { paramsProblem, VISIBILITIES } from '../../../components/report-definition/definition-logic';
import { withGroupedErrors } from '../../../components/report-definition/server-fields';
import { useGenerateReport } from '../api/reports';
import { useCreateTemplate, useUpdateTemplate } from '../api/templates';
import { templateActions, toGenerateInput, toTemplateInput, type GenerateInput, type ReportFormValues } from '../report-logic';
import { CopyTemplateDialog } from './copy-template-dialog';
import { reportSchema } from './report-form-values';
import { ReportPreview } from './report-preview';

/** How long the form rests before the preview asks again. */
export const PREVIEW_DELAY_MS = 500;

/** The name the preview request carries: the rows do not depend on it, so typing the name asks nothing. */
const PREVIEW_NAME = 'preview';

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

function VisibilityInput() {
  const { t } = useTranslation();
  const { field } = useController<ReportFormValues, 'visibility'>({ name: 'visibility' });
  const message = useFieldMessage('visibility');
  return (
    <FormControl error={Boolean(message)} sx={{ gridColumn: { md: '1 / -1' } }}>
      <FormLabel id="report-visibility-label">{t('reportGenerator.visibilityTitle')}</FormLabel>
      <RadioGroup row aria-labelledby="report-visibility-label" name="visibility" value={field.value} onChange={(event) => field.onChange(event.target.value as ReportVisibility)}>
        {VISIBILITIES.map((visibility) => (
          <FormControlLabel
            key={visibility}
            value={visibility}
            control={<Radio slotProps={{ input: { 'data-testid': `report-visibility-${visibility}` } as object }} />}
            label={t(`reportGenerator.visibility.${visibility}`)}
          />
        ))}
      </RadioGroup>
      <FormHelperText>{message ?? t(`reportGenerator.visibilityHint.${field.value}`)}</FormHelperText>
    </FormControl>
  );
}

/** The preview's request for the form's values, once they say what to show; rests `PREVIEW_DELAY_MS` after each change. */
function usePreviewInput(): GenerateInput | null {
  const values = useWatch<ReportFormValues>() as ReportFormValues;
  let input: GenerateInput | null = null;
  if (values.module && !paramsProblem(values.module, values.params ?? {})) {
    input = toGenerateInput({ ...values, name: PREVIEW_NAME, columns: values.columns ?? [], params: values.params ?? {} });
  }
  // A text, so the same definition is the same value and resting on it renders nothing more.
  const rested = useDebouncedValue(JSON.stringify(input), PREVIEW_DELAY_MS);
  return useMemo(() => JSON.parse(rested) as GenerateInput | null, [rested]);
}

function Preview() {
  const { t } = useTranslation();
  const input = usePreviewInput();
  return <ReportPreview input={input} waiting={t('reportGenerator.previewWaiting')} />;
}

interface Props {
  initial: ReportFormValues;
  /** The template being edited; none for a new report. */
  template?: ReportTemplate;
}

/**
 * A new report, or a template: name, module, the module's filters, the file's format, chart and
 * columns, who sees it; a live preview of its first rows; "Save template" and "Generate now".
 */
export function ReportForm({ initial, template }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = useReportPermission('report_generator');
  const modules = useGeneratorModules();
  const schema = useMemo(() => reportSchema(), []);
  const form = useServerForm({ schema, defaultValues: initial, versioned: Boolean(template) });
  const create = useCreateTemplate();
  const update = useUpdateTemplate(template?.id ?? '');
  const generate = useGenerateReport();
  const [busy, setBusy] = useState<'save' | 'generate' | null>(null);

  const canSave = template ? allowed('edit_template') && template.editable : allowed('new');
  const canGenerate = allowed('run');
  // Another user's template is theirs to change: the caller may save a copy of it and change that.
  const canCopy = template ? templateActions(allowed, template).copy : false;
  const [copying, setCopying] = useState(false);

  const saveTemplate = form.submitWith(
    async (values) => {
      if (template) {
        await withGroupedErrors(() => update.mutateAsync(toTemplateInput(values, template.version)));
        toast.success(t('reportGenerator.templateUpdated'));
      } else {
        await withGroupedErrors(() => create.mutateAsync(toTemplateInput(values)));
        toast.success(t('reportGenerator.templateCreated'));
      }
      navigate(`${paths.report.reportGenerator}?tab=templates`);
    },
    { onError: () => toast.error(template ? t('reportGenerator.templateUpdateFailed') : t('reportGenerator.templateCreateFailed')) },
  );

  const generateNow = form.submitWith(
    async (values) => {
      await withGroupedErrors(() => generate.mutateAsync(toGenerateInput(values)));
      toast.success(t('reportGenerator.queued', { name: values.name.trim() }));
      navigate(paths.report.reportGenerator);
    },
    { onError: () => toast.error(t('reportGenerator.generateFailed')) },
  );

  const run = (action: 'save' | 'generate') => async () => {
    setBusy(action);
    try {
      await (action === 'save' ? saveTemplate() : generateNow());
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Form
        form={form}
        onSubmit={canSave ? run('save') : run('generate')}
        sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}
        data-testid="report-form"
      >
        <FormAlerts stale={form.stale} testId="report-form-error" />
        {template && !canSave ? (
          <Alert severity="info" data-testid="report-template-read-only">
            {template.editable ? t('reportGenerator.noEditPermission') : canCopy ? t('reportGenerator.copyToChange') : t('reportGenerator.readOnlyTemplate')}
          </Alert>
        ) : null}
        <Card>
          <CardHeader title={t('reportGenerator.report')} />
          <CardContent sx={grid}>
            <TextInput name="name" label={t('reportGenerator.name')} required helperText={t('reportGenerator.nameHint')} slotProps={{ htmlInput: { 'data-testid': 'report-name' } }} />
            <ModuleSelect modules={modules.data ?? []} loading={modules.isLoading} />
            <VisibilityInput />
          </CardContent>
        </Card>
        <DefinitionFilters />
        <FileOptions />
        <Preview />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5, flexWrap: 'wrap' }}>
          <Button variant="outlined" color="inherit" onClick={() => navigate(paths.report.reportGenerator)} disabled={busy !== null}>
            {t('common.cancel')}
          </Button>
          {canCopy ? (
            <Button
              variant={canGenerate ? 'outlined' : 'contained'}
              startIcon={<CopyIcon />}
              disabled={busy !== null}
              onClick={() => setCopying(true)}
              data-testid="report-copy-template"
            >
              {t('reportGenerator.saveCopy')}
            </Button>
          ) : null}
          {canSave ? (
            <Button
              variant={canGenerate ? 'outlined' : 'contained'}
              startIcon={<SaveIcon />}
              loading={busy === 'save'}
              disabled={busy === 'generate'}
              onClick={() => void run('save')()}
              data-testid="report-save-template"
            >
              {t('reportGenerator.saveTemplate')}
            </Button>
          ) : null}
          {canGenerate ? (
            <Button
              variant="contained"
              startIcon={<PlayIcon />}
              loading={busy === 'generate'}
              disabled={busy === 'save'}
              onClick={() => void run('generate')()}
              data-testid="report-generate"
            >
              {t('reportGenerator.generateNow')}
            </Button>
          ) : null}
        </Box>
      </Form>
      {/* Beside the form, not in it: a submit in the dialog must not reach this form. */}
      {copying && template ? <CopyTemplateDialog template={template} onClose={() => setCopying(false)} /> : null}
    </>
  );
}
