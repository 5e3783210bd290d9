import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { fieldLimits } from '../../../api/limits';
import { TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import { text } from '../../../components/form/rules';
import { paths } from '../../../routes/paths';
import { useCopyTemplate } from '../api/templates';
import type { CopyTemplateForm, ReportTemplate } from '../../../api/types';

export interface CopyValues {
  name: string;
}

/** The copy's name: required, within the document's limit. */
export function copySchema(): $ZodType<CopyValues, CopyValues> {
  return z.object({ name: text(fieldLimits('CopyTemplateBody', 'name'), { required: true }) }) as unknown as $ZodType<CopyValues, CopyValues>;
}

/** `POST templates/{id}/copy/`: the name trimmed. */
export function toCopyInput(values: CopyValues): CopyTemplateForm {
  return { name: values.name.trim() };
}

/**
 * "Save as": copies another user's template into a private one of the caller's, under the name
 * given (the original's to start with), then opens the copy to be changed.
 */
export function CopyTemplateDialog({ template, onClose }: { template: Pick<ReportTemplate, 'id' | 'name'>; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const copy = useCopyTemplate();
  const schema = useMemo(() => copySchema(), []);
  const form = useServerForm({ schema, defaultValues: { name: template.name } });

  return (
    <FormDialog
      form={form}
      save={async (values) => {
        const reply = await copy.mutateAsync({ id: template.id, input: toCopyInput(values) });
        navigate(paths.report.editTemplate(reply.data.id));
      }}
      success={t('reportGenerator.copied')}
      failure={t('reportGenerator.copyFailed')}
      onClose={onClose}
      title={t('reportGenerator.copyTitle')}
      intro={t('reportGenerator.copyIntro', { name: template.name })}
      maxWidth="xs"
      testId="copy-template-form"
      submitLabel={t('reportGenerator.saveCopy')}
      submitTestId="copy-template-submit"
    >
      <TextInput name="name" label={t('reportGenerator.copyName')} required autoFocus slotProps={{ htmlInput: { 'data-testid': 'copy-template-name' } }} />
    </FormDialog>
  );
}
