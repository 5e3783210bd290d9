// The planned routes' rules that need no screen: the status moves and who sees which action, the
// accuracy's grid rows, and the visit form (values, checks, request body).
import * as z from 'zod/mini';
import type { FieldLimits } from '../../api/limits';
import { addProblem, text, wholeNumber } from '../../components/form/rules';
import { amountToMinor } from '../../components/money';
import type { AccuracyLine, FillFromRouteRequest, PicklistLine, PlannedRoute, RemovalReason } from '../../api/types';

/** A route's `status`; no move leads out of the final ones, and the route cannot be changed then. */
export const ROUTE_STATUSES = ['planned', 'in_progress', 'done', 'cancelled', 'expired'] as const;
export type RouteStatus = (typeof ROUTE_STATUSES)[number];
export const FINAL_STATUSES: readonly string[] = ['done', 'cancelled', 'expired'] satisfies readonly RouteStatus[];

/** A route's `route_type`. */
export const ROUTE_TYPES = ['refill', 'cash_collection', 'refill_and_collection'] as const;
export type RouteType = (typeof ROUTE_TYPES)[number];

export const REMOVED_REASONS = ['expired', 'damaged', 'other'] as const satisfies readonly RemovalReason[];

/** The status this web knows, or null for another. */
export function routeStatus(value: string): RouteStatus | null {
  return ROUTE_STATUSES.find((status) => status === value) ?? null;
}

/** The route type this web knows, or null for another. */
export function routeType(value: string): RouteType | null {
  return ROUTE_TYPES.find((type) => type === value) ?? null;
}

/** The removal reason this web knows, or null for another. */
export function removalReason(value: string | null | undefined): RemovalReason | null {
  return REMOVED_REASONS.find((reason) => reason === value) ?? null;
}

export type Can = (key: string) => boolean;

/** A move of the route's status and what it leads to. */
export type StatusMove = 'start' | 'finish' | 'cancel';
export const MOVE_TARGET: Record<StatusMove, RouteStatus> = { start: 'in_progress', finish: 'done', cancel: 'cancelled' };

export function isFinal(status: string): boolean {
  return FINAL_STATUSES.includes(status);
}

/** The moves the contract allows from a status: planned → in progress → done; planned or in progress → cancelled. */
export function statusMoves(status: string): StatusMove[] {
  if (status === 'planned') return ['start', 'cancel'];
  if (status === 'in_progress') return ['finish', 'cancel'];
  return [];
}

/** What a user sees on a route, each with its key; moves the server would refuse (409) are not offered. */
export function routeActions(can: Can, route: Pick<PlannedRoute, 'status' | 'employee_id'>, userId: string | undefined) {
  const final = isFinal(route.status);
  const edit = can('planning.planned_routes.edit');
  return {
    moves: edit ? statusMoves(route.status) : [],
    changeEmployee: can('planning.planned_routes.change_employee') && !final,
    delete: can('planning.planned_routes.delete') && (route.status === 'planned' || route.status === 'cancelled' || route.status === 'expired'),
    export: can('planning.planned_routes.export'),
    removeStop: edit && !final,
    /** The route's own employee, or whoever may edit routes, with the stock key. */
    bookVisit: can('settings.machines.edit_quantity_expiry') && (route.employee_id === userId || edit) && !final,
  };
}

/** The accuracy's lines with an id each for the grid (a machine may hold a product in two selections). */
export function accuracyRows(lines: readonly AccuracyLine[]): (AccuracyLine & { id: string })[] {
  return lines.map((line, index) => ({ ...line, id: `${line.machine_id}:${line.product_id}:${index}` }));
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
