import type { I18nKey } from '../locales/keys';

/** A field problem: a translation key and its values, translated where it is shown. */
export interface FieldProblem {
  key: I18nKey;
  values?: Record<string, unknown>;
}

export type FieldErrors<F extends string> = Partial<Record<F, FieldProblem>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_SHAPE = /^\+?[\d .()-]+$/;

export const rules = {
  required: (value: string): FieldProblem | undefined => (value.trim() ? undefined : { key: 'validation.required' }),
  email: (value: string): FieldProblem | undefined =>
    !value.trim() ? { key: 'validation.required' } : EMAIL.test(value.trim()) ? undefined : { key: 'validation.email' },
  minLength: (value: string, count: number): FieldProblem | undefined =>
    value.length >= count ? undefined : { key: 'validation.passwordMin', values: { count } },
  maxLength: (value: string, count: number): FieldProblem | undefined =>
    value.trim().length <= count ? undefined : { key: 'validation.maxLength', values: { count } },
  /** Empty is fine; otherwise digits with spaces, dots, dashes, brackets and a leading +, 6 to 20 digits. */
  phone: (value: string): FieldProblem | undefined => {
    const v = value.trim();
    if (!v) return undefined;
    const digits = v.replace(/\D/g, '').length;
    return PHONE_SHAPE.test(v) && digits >= 6 && digits <= 20 ? undefined : { key: 'validation.phone' };
  },
  /** Empty is fine; otherwise an e-mail address. */
  optionalEmail: (value: string): FieldProblem | undefined =>
    !value.trim() || EMAIL.test(value.trim()) ? undefined : { key: 'validation.email' },
};

/** A decimal typed by a person: dot or comma, optional sign. `null` for empty, `NaN` when not a number. */
export function parseDecimal(text: string): number | null {
  const v = text.trim().replace(',', '.');
  if (!v) return null;
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(v) ? Number(v) : Number.NaN;
}

/** Keeps only the fields that have a problem. */
export function collect<F extends string>(checks: Record<F, FieldProblem | undefined>): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const [field, problem] of Object.entries(checks) as [F, FieldProblem | undefined][]) {
    if (problem) out[field] = problem;
  }
  return out;
}

export const PASSWORD_MIN = 8;
