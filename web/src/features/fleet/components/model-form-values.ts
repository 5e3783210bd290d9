import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { MachineModel, MachineModelForm } from '../../../api/types';
import { problemsOf, text } from '../../../components/form/rules';

const limits = limitsOf('ModelForm');

/** The model form's checks: required fields and lengths as the server declares them. */
export const modelSchema = z.object({
  name: text(limits('name')),
  type: text(limits('type')),
  manufacturer: text(limits('manufacturer')),
});

export type ModelFormValues = z.infer<typeof modelSchema>;

export type ModelField = keyof ModelFormValues;

export const MODEL_ERROR_ALIASES = { model_type: 'type' };

export function emptyModelValues(): ModelFormValues {
  return { name: '', type: '', manufacturer: '' };
}

export function valuesFromModel(model: MachineModel): ModelFormValues {
  return { name: model.name ?? '', type: model.type ?? '', manufacturer: model.manufacturer ?? '' };
}

export function validateModel(values: ModelFormValues) {
  return problemsOf(modelSchema, values);
}

export function toModelForm(values: ModelFormValues, version?: number): MachineModelForm {
  const form: MachineModelForm = {
    name: values.name.trim(),
    type: values.type.trim(),
    manufacturer: values.manufacturer.trim(),
  };
  if (version !== undefined) form.version = version;
  return form;
}
