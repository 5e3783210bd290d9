// The planned routes' rules that need no screen: the status moves and who sees which action, the
// readers of the replies whose shape the contract leaves open, and the visit form (values,
// checks, request body).
import * as z from 'zod/mini';
import type { FieldLimits } from '../../api/limits';
import { addProblem, text, wholeNumber } from '../../components/form/rules';
import { amountToMinor } from '../../components/money';
import {
  FINAL_STATUSES,
  REMOVED_REASONS,
  type Accuracy,
  type AccuracyLine,
  type FillFromRouteRequest,
  type PicklistLine,
  type PicklistValueTotals,
  type PlannedRoute,
  type RemovedReason,
  type RouteStatus,
  type StockLine,
  type StopPicklist,
} from './api/types';

export type Can = (key: string) => boolean;

/** A move of the route's status and what it leads to. */
export type StatusMove = 'start' | 'finish' | 'cancel';
export const MOVE_TARGET: Record<StatusMove, RouteStatus> = { start: 'in_progress', finish: 'done', cancel: 'cancelled' };

export function isFinal(status: RouteStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** The moves the contract allows from a status: planned → in progress → done; planned or in progress → cancelled. */
export function statusMoves(status: RouteStatus): StatusMove[] {
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

type Loose = Record<string, unknown>;
const record = (value: unknown): Loose => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : {});
const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/**
 * The stops' picklists of `…/machines/products/` (and `…/values/`): a list of stops each with its
 * `lines`, the same under `stops` or `machines`, or flat lines carrying their `machine_id`.
 */
export function readStopPicklists(data: unknown): StopPicklist[] {
  const body = record(data);
  const items = Array.isArray(data) ? data : array(body.stops ?? body.machines ?? body.lines);
  const out: StopPicklist[] = [];
  for (const raw of items) {
    const item = record(raw);
    if (Array.isArray(item.lines)) {
      out.push({ ...(item as unknown as StopPicklist), machine_id: str(item.machine_id), lines: item.lines as PicklistLine[] });
      continue;
    }
    const machineId = str(item.machine_id);
    let stop = out.find((candidate) => candidate.machine_id === machineId);
    if (!stop) {
      stop = { machine_id: machineId, machine_name: str(item.machine_name) || undefined, lines: [] };
      out.push(stop);
    }
    stop.lines.push(item as unknown as PicklistLine);
  }
  return out;
}

/** The picklist's money in all: the server's totals when it sends them, else the lines added up. */
export function readValueTotals(data: unknown, stops: StopPicklist[], fallbackCurrency: string): PicklistValueTotals {
  const totals = record(record(data).totals);
  const lines = stops.flatMap((stop) => stop.lines);
  const sum = (field: 'to_bring_value_minor' | 'filled_value_minor') => lines.reduce((total, line) => total + (num(line[field]) ?? 0), 0);
  const currency = str(totals.currency) || str(record(data).currency) || stops.find((stop) => stop.currency)?.currency || fallbackCurrency;
  return {
    to_bring_value_minor: num(totals.to_bring_value_minor) ?? sum('to_bring_value_minor'),
    filled_value_minor: num(totals.filled_value_minor) ?? sum('filled_value_minor'),
    currency,
  };
}

function stockLine(raw: unknown, kind: 'product' | 'component'): StockLine {
  const item = record(raw);
  const id = str(kind === 'product' ? (item.product_id ?? item.id) : (item.component_id ?? item.id));
  const loaded = num(item.loaded) ?? 0;
  const filled = num(item.filled) ?? 0;
  return {
    id,
    name: str(kind === 'product' ? (item.product_name ?? item.name) : (item.name ?? item.component_name)),
    loaded,
    filled,
    removed: num(item.removed) ?? 0,
    returned: num(item.returned) ?? loaded - filled,
    unit: str(item.unit) || undefined,
  };
}

/** `…/stocks/`: per product, and per component (a list alone is the products). */
export function readStocks(data: unknown): { products: StockLine[]; components: StockLine[] } {
  const body = record(data);
  const products = Array.isArray(data) ? data : array(body.products);
  return { products: products.map((item) => stockLine(item, 'product')), components: array(body.components).map((item) => stockLine(item, 'component')) };
}

function accuracyLine(raw: unknown, machine: Loose = {}): AccuracyLine {
  const item = record(raw);
  const machineId = str(item.machine_id ?? machine.machine_id);
  const productId = str(item.product_id);
  return {
    id: `${machineId}:${productId}:${str(item.selection)}`,
    machine_id: machineId,
    machine_name: str(item.machine_name ?? machine.machine_name),
    product_id: productId,
    product_name: str(item.product_name),
    predicted: num(item.predicted ?? item.predicted_need ?? item.to_bring) ?? 0,
    actual: num(item.actual ?? item.actual_need),
    filled: num(item.filled),
    error: num(item.error),
    abs_error: num(item.abs_error),
  };
}

/**
 * `…/accuracy/`: the route's accuracy and its lines; flat lines (`lines`, `rows`, `products`) or
 * lines under each machine (`machines[].products` or `.lines`).
 */
export function readAccuracy(data: unknown): Accuracy {
  const body = record(data);
  const flat = array(body.lines ?? body.rows ?? body.products ?? (Array.isArray(data) ? data : []));
  const nested = array(body.machines).flatMap((raw) => {
    const machine = record(raw);
    return array(machine.products ?? machine.lines).map((line) => accuracyLine(line, machine));
  });
  return { accuracy: num(body.accuracy), lines: [...flat.map((line) => accuracyLine(line)), ...nested] };
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
  removed_reason: '' | RemovedReason;
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
      const found = Math.min(line.max, Math.max(0, Math.floor(line.predicted_at_visit ?? line.current ?? 0)));
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
