// The planned routes' rules that need no screen: the status moves and who sees which action, the
// accuracy's grid rows. The visit form's rules are shared with the refiller's app (components/visit).
import type { AccuracyLine, PlannedRoute } from '../../api/types';

/** A route's `status`; no move leads out of the final ones, and the route cannot be changed then. */
export const ROUTE_STATUSES = ['planned', 'in_progress', 'done', 'cancelled', 'expired'] as const;
export type RouteStatus = (typeof ROUTE_STATUSES)[number];
export const FINAL_STATUSES: readonly string[] = ['done', 'cancelled', 'expired'] satisfies readonly RouteStatus[];

/** A route's `route_type`. */
export const ROUTE_TYPES = ['refill', 'cash_collection', 'refill_and_collection'] as const;
export type RouteType = (typeof ROUTE_TYPES)[number];

/** The status this web knows, or null for another. */
export function routeStatus(value: string): RouteStatus | null {
  return ROUTE_STATUSES.find((status) => status === value) ?? null;
}

/** The route type this web knows, or null for another. */
export function routeType(value: string): RouteType | null {
  return ROUTE_TYPES.find((type) => type === value) ?? null;
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

export {
  REMOVED_REASONS,
  removalReason,
  toFillBody,
  VISIT_ALIASES,
  visitSchema,
  visitValues,
  type VisitLineValues,
  type VisitValues,
} from '../../components/visit/visit-rules';
