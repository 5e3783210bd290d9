import type { I18nKey } from '../locales/keys';

/** A field problem: a translation key and its values, translated where it is shown. */
export interface FieldProblem {
  key: I18nKey;
  values?: Record<string, unknown>;
}

export type FieldErrors<F extends string> = Partial<Record<F, FieldProblem>>;

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
