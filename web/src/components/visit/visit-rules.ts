// A stop's visit as the refiller types it (the planned route's visit form, the refiller's phone app):
// its values, checks and request body.
import * as z from 'zod/mini';
import type { FieldLimits } from '../../api/limits';
import type { FillFromRouteRequest, PicklistLine, RemovalReason } from '../../api/types';
import { addProblem, text, wholeNumber } from '../form/rules';
import { amountToMinor } from '../money';

export const REMOVED_REASONS = ['expired', 'damaged', 'other'] as const satisfies readonly RemovalReason[];

/** The removal reason this web knows, or null for another. */
export function removalReason(value: string | null | undefined): RemovalReason | null {
  return REMOVED_REASONS.find((reason) => reason === value) ?? null;
}

/** A fresh id for one booking: a retry sends it again, so the server books the visit once. */
export function newRequestId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

/** One selection of the visit form, as typed. */
export interface VisitLineValues {
  selection: string;
  product_name: string;
  max: number;
  found: string;
  filled: string;
  removed: string;
  /** '' until something is removed. */
  removed_reason: '' | RemovalReason;
}

export interface VisitValues {
  lines: VisitLineValues[];
  cash_bag: string;
  /** The collected cash as an amount ("12.50"); empty: none. */
  collected: string;
}

/**
 * The form of a stop's visit: found is the predicted stock (whole units, within max), filled what
 * brings the selection to par (the picklist's case surplus goes back to the van), nothing removed.
 */
export function visitValues(lines: readonly PicklistLine[]): VisitValues {
  return {
    lines: lines.map((line) => {
      const found = Math.min(line.max, Math.max(0, Math.floor(line.predicted_at_visit)));
      return {
        selection: line.selection,
        product_name: line.product_name,
        max: line.max,
        found: String(found),
        filled: String(Math.max(0, line.max - found)),
        removed: '0',
        removed_reason: '',
      };
    }),
    cash_bag: '',
    collected: '',
  };
}

const count: FieldLimits = { required: true, minimum: 0, maximum: 10_000 };
const optionalText: FieldLimits = { required: false, maxLength: 40 };

/** The visit form's checks: whole numbers, found within max, a reason for what is removed, an amount in the currency's decimals. */
export function visitSchema(decimals: number) {
  return z.object({
    lines: z.array(
      z
        .object({
          selection: z.string(),
          product_name: z.string(),
          max: z.number(),
          found: wholeNumber(count),
          filled: wholeNumber(count),
          removed: wholeNumber(count),
          removed_reason: z.union([z.literal(''), z.enum(REMOVED_REASONS)]),
        })
        .check(
          z.superRefine((line, ctx) => {
            const found = Number(line.found);
            const filled = Number(line.filled);
            const removed = Number(line.removed);
            if (/^\d+$/.test(line.found) && found > line.max) addProblem(ctx, ['found'], 'validation.currentAboveMax');
            if (/^\d+$/.test(line.removed) && removed > 0 && !line.removed_reason) addProblem(ctx, ['removed_reason'], 'plannedRoutes.visitForm.reasonRequired');
            if ([line.found, line.filled, line.removed].every((value) => /^\d+$/.test(value)) && removed > found + filled) {
              addProblem(ctx, ['removed'], 'plannedRoutes.visitForm.removedTooMany');
            }
            if ([line.found, line.filled, line.removed].every((value) => /^\d+$/.test(value)) && found + filled - removed > line.max) {
              addProblem(ctx, ['filled'], 'validation.currentAboveMax');
            }
          }),
        ),
    ),
    cash_bag: text(optionalText),
    collected: text(
      { required: false },
      {
        check: (value) => {
          const result = amountToMinor(value, decimals);
          if (result.ok) return undefined;
          return result.reason === 'decimals' ? { key: 'validation.amountDecimals', values: { count: decimals } } : { key: 'validation.amount' };
        },
      },
    ),
  });
}

/** `POST /api/machines/fill-from-route/`: the stop's lines, and the cash when given. Call once the values pass. */
export function toFillBody(values: VisitValues, ids: { routeId: string; machineId: string; requestId: string }, decimals: number): FillFromRouteRequest {
  const body: FillFromRouteRequest = {
    route_id: ids.routeId,
    machine_id: ids.machineId,
    request_id: ids.requestId,
    lines: values.lines.map((line) => {
      const removed = Number(line.removed.trim());
      return {
        selection: line.selection,
        found: Number(line.found.trim()),
        filled: Number(line.filled.trim()),
        removed,
        ...(removed > 0 && line.removed_reason ? { removed_reason: line.removed_reason } : {}),
      };
    }),
  };
  if (values.cash_bag.trim()) body.cash_bag = values.cash_bag.trim();
  const collected = values.collected.trim() ? amountToMinor(values.collected, decimals) : null;
  if (collected?.ok) body.collected_minor = collected.minor;
  return body;
}

/** The server's names of the visit's fields, as the form holds them. */
export const VISIT_ALIASES = { collected_minor: 'collected' };
