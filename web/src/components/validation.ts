import type { I18nKey } from '../locales/keys';

/** A field problem: a translation key and its values, translated where it is shown. */
export interface FieldProblem {
  key: I18nKey;
  values?: Record<string, unknown>;
}

export type FieldErrors<F extends string> = Partial<Record<F, FieldProblem>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const rules = {
  required: (value: string): FieldProblem | undefined => (value.trim() ? undefined : { key: 'validation.required' }),
  email: (value: string): FieldProblem | undefined =>
    !value.trim() ? { key: 'validation.required' } : EMAIL.test(value.trim()) ? undefined : { key: 'validation.email' },
  minLength: (value: string, count: number): FieldProblem | undefined =>
    value.length >= count ? undefined : { key: 'validation.passwordMin', values: { count } },
  maxLength: (value: string, count: number): FieldProblem | undefined =>
    value.length <= count ? undefined : { key: 'validation.maxLength', values: { count } },
};

/** Keeps only the fields that have a problem. */
export function collect<F extends string>(checks: Record<F, FieldProblem | undefined>): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const [field, problem] of Object.entries(checks) as [F, FieldProblem | undefined][]) {
    if (problem) out[field] = problem;
  }
  return out;
}

export const PASSWORD_MIN = 8;
