import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { MachineModel, MachineModelForm } from '../../../api/types';
import { problemsOf, texts } from '../../../components/form/rules';
import { blankTexts, textsOf, trimmedTexts, withVersion } from '../../../components/form/values';

const limits = limitsOf('ModelForm');

/** A model's fields: all texts. */
const FIELDS = ['name', 'type', 'manufacturer'] as const;

/** The model form's checks: required fields and lengths as the server declares them. */
export const modelSchema = z.object(texts(limits, FIELDS));

export type ModelFormValues = z.infer<typeof modelSchema>;

export type ModelField = keyof ModelFormValues;

export const MODEL_ERROR_ALIASES = { model_type: 'type' };

export function emptyModelValues(): ModelFormValues {
  return blankTexts(FIELDS);
}

export function valuesFromModel(model: MachineModel): ModelFormValues {
  return textsOf(model, FIELDS);
}

export function validateModel(values: ModelFormValues) {
  return problemsOf(modelSchema, values);
}

export function toModelForm(values: ModelFormValues, version?: number): MachineModelForm {
  return withVersion(trimmedTexts(values, FIELDS), version);
}
