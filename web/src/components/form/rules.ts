// Zod checks for form fields, built from the limits the OpenAPI document declares (`fieldLimits`)
// so the form and the server agree. Where the document declares nothing, the caller passes the
// client's own rule (e.g. a phone's length). Values stay as typed (strings); the form's
// `to…Form` function builds the request body once they pass.
import * as z from 'zod/mini';
import type { $RefinementCtx, $ZodType } from 'zod/v4/core';
import type { FieldLimits } from '../../api/limits';
import type { I18nKey } from '../../locales/keys';
import { percentToBps } from '../percent';
import { parseDecimal, type FieldProblem } from '../validation';
import { problem, readProblem } from './problem';
import { byField } from './values';

export const PASSWORD_MIN = 8;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_SHAPE = /^\+?[\d .()-]+$/;

type Ctx = $RefinementCtx<string>;

function fail(ctx: Ctx, key: I18nKey, values?: Record<string, unknown>): void {
  ctx.addIssue({ code: 'custom', message: problem(key, values) });
}

/** Characters as the server counts them (code points, not UTF-16 units). */
const length = (text: string) => [...text].length;

export interface TextRule {
  /** Overrides the document's `required` (a password needed on create only). */
  required?: boolean;
  /** The longest value when the document declares no `maxLength`. */
  maxLength?: number;
  /** The shortest non-empty value when the document declares no `minLength`. */
  minLength?: number;
  /** The message when the value is shorter than the minimum. */
  minMessage?: I18nKey;
  /** A client pattern when the document declares none, and the message when it does not match. */
  pattern?: RegExp;
  patternMessage?: I18nKey;
  /** Further checks on the trimmed, non-empty value. */
  check?: (value: string) => FieldProblem | undefined;
}

/**
 * A text field: required (not blank) when the document or `rule` says so; when given, within the
 * length limits and matching the pattern. Empty optional values pass.
 */
export function text(limits: FieldLimits, rule: TextRule = {}) {
  const required = rule.required ?? limits.required;
  const max = limits.maxLength ?? rule.maxLength;
  const min = limits.minLength ?? rule.minLength;
  const pattern = limits.pattern !== undefined ? new RegExp(limits.pattern) : rule.pattern;
  return z.string().check(
    z.superRefine((raw, ctx) => {
      const value = raw.trim();
      if (!value) {
        if (required) fail(ctx, 'validation.required');
        return;
      }
      if (max !== undefined && length(value) > max) return fail(ctx, 'validation.maxLength', { count: max });
      if (min !== undefined && length(value) < min) return fail(ctx, rule.minMessage ?? 'validation.minLength', { count: min });
      if (pattern && !pattern.test(value)) return fail(ctx, rule.patternMessage ?? 'validation.pattern');
      const found = rule.check?.(value);
      if (found) fail(ctx, found.key, found.values);
    }),
  );
}

/** Plain text fields (`text`), each with the document's limits: part of a form's schema. */
export function texts<const K extends string>(limits: NoInfer<(field: K) => FieldLimits>, fields: readonly K[]) {
  return byField(fields, (field) => text(limits(field)));
}

/** An e-mail address (required or optional as the document says). */
export function email(limits: FieldLimits, rule: Pick<TextRule, 'required'> = {}) {
  return text(limits, { ...rule, check: (value) => (EMAIL.test(value) ? undefined : { key: 'validation.email' }) });
}

/** Digits with spaces, dots, dashes, brackets and a leading +, 6 to 20 digits; empty is fine. */
export function phone(limits: FieldLimits, rule: Pick<TextRule, 'maxLength'> = {}) {
  return text(limits, {
    ...rule,
    check: (value) => {
      const digits = value.replace(/\D/g, '').length;
      return PHONE_SHAPE.test(value) && digits >= 6 && digits <= 20 ? undefined : { key: 'validation.phone' };
    },
  });
}

/**
 * A password, not trimmed: at least the document's `minLength` (or 8) when given, at most its
 * `maxLength`; required as the document or `rule` says.
 */
export function password(limits: FieldLimits, rule: Pick<TextRule, 'required'> = {}) {
  const required = rule.required ?? limits.required;
  const min = limits.minLength ?? PASSWORD_MIN;
  const max = limits.maxLength;
  return z.string().check(
    z.superRefine((value, ctx) => {
      if (!value) {
        if (required) fail(ctx, 'validation.required');
        return;
      }
      if (length(value) < min) return fail(ctx, 'validation.passwordMin', { count: min });
      if (max !== undefined && length(value) > max) fail(ctx, 'validation.maxLength', { count: max });
    }),
  );
}

/** A decimal typed with a dot or a comma, within the document's `minimum`..`maximum`. */
export function decimal(limits: FieldLimits, rule: Pick<TextRule, 'required'> = {}) {
  return text(limits, {
    ...rule,
    check: (value) => {
      const number = parseDecimal(value);
      if (number === null || Number.isNaN(number)) return { key: 'validation.number' };
      return outOfRange(number, limits);
    },
  });
}

/**
 * A whole number within the document's `minimum`..`maximum`. `message`, when given, is shown for
 * what is not a whole number and for one below the minimum (e.g. "a whole number above 0").
 */
export function wholeNumber(limits: FieldLimits, rule: Pick<TextRule, 'required'> & { message?: I18nKey } = {}) {
  return text(limits, {
    ...rule,
    check: (value) => {
      if (!/^\d+$/.test(value)) return { key: rule.message ?? 'validation.wholeNumber' };
      const number = Number(value);
      if (rule.message && limits.minimum !== undefined && number < limits.minimum) return { key: rule.message };
      return outOfRange(number, limits);
    },
  });
}

/**
 * A percentage typed with up to 2 decimals for a field the server takes in basis points: the
 * document's `minimum`/`maximum` in basis points give the range shown in percent.
 */
export function percentOfBps(limits: FieldLimits) {
  const min = (limits.minimum ?? 0) / 100;
  const max = (limits.maximum ?? 10_000) / 100;
  return text(limits, {
    check: (value) => {
      const result = percentToBps(value);
      if (!result.ok) return result.reason === 'range' ? { key: 'validation.range', values: { min, max } } : { key: 'validation.percent' };
      return result.bps / 100 < min || result.bps / 100 > max ? { key: 'validation.range', values: { min, max } } : undefined;
    },
  });
}

function outOfRange(value: number, limits: FieldLimits): FieldProblem | undefined {
  const { minimum: min, maximum: max } = limits;
  if ((min === undefined || value >= min) && (max === undefined || value <= max)) return undefined;
  if (min !== undefined && max !== undefined) return { key: 'validation.range', values: { min, max } };
  return min !== undefined ? { key: 'validation.atLeast', values: { min } } : { key: 'validation.atMost', values: { max } };
}

/** A list of `item`s, at most the document's `maxItems`. */
export function list<T extends $ZodType>(item: T, limits: FieldLimits) {
  const items = z.array(item);
  return limits.maxItems === undefined ? items : items.check(z.maxLength(limits.maxItems, { error: problem('validation.maxItems', { count: limits.maxItems }) }));
}

/** A list of ids, at most the document's `maxItems`. */
export function ids(limits: FieldLimits) {
  return list(z.string(), limits);
}

/** Adds a problem at `path` from an object-level refinement (cross-field rules). */
export function addProblem(ctx: $RefinementCtx<unknown>, path: (string | number)[], key: I18nKey, values?: Record<string, unknown>): void {
  ctx.addIssue({ code: 'custom', path, message: problem(key, values) });
}

/**
 * The form's own problems for these values, by field path (`name`, `recipe.1.quantity`), first
 * one per field: what the fields would show.
 */
export function problemsOf<T>(schema: $ZodType<T>, values: T): Record<string, FieldProblem> {
  const result = z.safeParse(schema, values);
  const out: Record<string, FieldProblem> = {};
  if (result.success) return out;
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    if (out[path]) continue;
    out[path] = readProblem(issue.message) ?? { key: 'validation.server', values: { message: issue.message } };
  }
  return out;
}
