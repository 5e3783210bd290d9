import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { fieldLimits } from '../../../api/limits';
import { SwitchInput, TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import { text } from '../../../components/form/rules';

/** Components (`ComponentForm`) have a unit and an inactive flag; tags (`ProductTagForm`) only a name. */
export function simpleSchema(withUnit: boolean) {
  return z.object({
    name: text(withUnit ? fieldLimits('ComponentForm', 'name') : fieldLimits('ProductTagForm', 'name')),
    unit: withUnit ? text(fieldLimits('ComponentForm', 'unit')) : z.string(),
    inactive: z.boolean(),
  });
}

export type SimpleValues = z.infer<ReturnType<typeof simpleSchema>>;

interface Props {
  title: string;
  submitLabel: string;
  initial: SimpleValues;
  /** Components have a unit and an inactive flag; tags only a name. */
  withUnit: boolean;
  /** Editing a record read at a version (a 409 then means it changed since). */
  versioned?: boolean;
  testId: string;
  /** Saves; rejects on a failed request (its reply is shown on the form). */
  onSave: (values: SimpleValues) => Promise<void>;
  onClose: () => void;
}

/** A small create/edit dialog: a name, and for components a unit and the inactive switch. */
export function SimpleDialog({ title, submitLabel, initial, withUnit, versioned, testId, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const schema = useMemo(() => simpleSchema(withUnit), [withUnit]);
  const form = useServerForm({ schema, defaultValues: initial, versioned });

  return (
    <FormDialog
      form={form}
      save={(values) => onSave({ ...values, name: values.name.trim(), unit: values.unit.trim() })}
      onClose={onClose}
      title={title}
      maxWidth="xs"
      testId={testId}
      submitLabel={submitLabel}
      submitTestId={`${testId}-submit`}
    >
      <TextInput name="name" label={withUnit ? t('products.name') : t('products.tagName')} required />
      {withUnit ? <TextInput name="unit" label={t('products.unit')} required /> : null}
      {withUnit ? <SwitchInput name="inactive" label={t('products.inactive')} /> : null}
    </FormDialog>
  );
}
