import type { MachineModel, MachineModelForm } from '../../../api/types';
import { collect, rules, type FieldErrors } from '../../../components/validation';

export interface ModelFormValues {
  name: string;
  type: string;
  manufacturer: string;
}

export type ModelField = keyof ModelFormValues;

export const MODEL_ERROR_ALIASES = { model_type: 'type' };

export function emptyModelValues(): ModelFormValues {
  return { name: '', type: '', manufacturer: '' };
}

export function valuesFromModel(model: MachineModel): ModelFormValues {
  return { name: model.name ?? '', type: model.type ?? '', manufacturer: model.manufacturer ?? '' };
}

export function validateModel(values: ModelFormValues): FieldErrors<ModelField> {
  return collect<ModelField>({
    name: rules.required(values.name) ?? rules.maxLength(values.name, 150),
    type: rules.required(values.type) ?? rules.maxLength(values.type, 60),
    manufacturer: rules.required(values.manufacturer) ?? rules.maxLength(values.manufacturer, 100),
  });
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
