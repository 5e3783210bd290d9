// The planned routes' API shapes, written by hand from the "Planning" section of docs/api.md: the
// generated `schema.d.ts` does not have these endpoints yet. Once it does, these become aliases of
// the generated schemas, field for field. Where the contract names fields without their shape,
// the readers in `route-logic.ts` accept the plausible ones.

export type RouteStatus = 'planned' | 'in_progress' | 'done' | 'cancelled' | 'expired';
export const ROUTE_STATUSES = ['planned', 'in_progress', 'done', 'cancelled', 'expired'] as const satisfies readonly RouteStatus[];
/** No move leads out of these, and the route cannot be changed. */
export const FINAL_STATUSES: readonly RouteStatus[] = ['done', 'cancelled', 'expired'];

export type RouteType = 'refill' | 'cash_collection' | 'refill_and_collection';
export const ROUTE_TYPES = ['refill', 'cash_collection', 'refill_and_collection'] as const satisfies readonly RouteType[];

/** A planned route: one employee's stops on a visit day. */
export interface PlannedRoute {
  id: string;
  name: string;
  route_type: RouteType;
  created_at: string;
  visit_date: string;
  /** The end of the visit day in the operator's zone. */
  expires_at: string | null;
  employee_id: string;
  employee_name: string;
  /** The stops (their ids or the stops themselves); the stops endpoint gives them in order. */
  machines?: unknown[];
  status: RouteStatus;
  distance_m: number | null;
  duration_s: number | null;
  version: number;
  /** In the list: how many stops, and how many were visited. */
  stops?: number;
  visited?: number;
}

/** A booked visit of a stop. */
export interface StopVisit {
  at: string;
  employee_name: string | null;
  filled: number;
  removed: number;
  cash_bag: string | null;
  collected_minor: number | null;
}

/** `GET /api/planned-routes/{id}/machines/`: a stop, in order. */
export interface RouteStop {
  order: number;
  machine_id: string;
  machine_name: string;
  location_name: string | null;
  latitude: number | null;
  longitude: number | null;
  arrival: string | null;
  units: number;
  visit: StopVisit | null;
  /** Not in the contract: the collected cash's currency when the server sends it. */
  currency?: string;
}

export interface RecipeComponent {
  component_id: string;
  name: string;
  unit: string;
  quantity: number;
}

export type RemovedReason = 'expired' | 'damaged' | 'other';
export const REMOVED_REASONS = ['expired', 'damaged', 'other'] as const satisfies readonly RemovedReason[];

/** A line of a stop's picklist, with what the visit booked once it is visited. */
export interface PicklistLine {
  selection: string;
  product_id: string;
  product_name: string;
  current: number;
  max: number;
  predicted_at_visit: number;
  to_bring: number;
  case_size: number | null;
  components: RecipeComponent[];
  found: number | null;
  filled: number | null;
  removed: number | null;
  removed_reason: RemovedReason | null;
  /** With `…/values/`. */
  price_minor?: number | null;
  to_bring_value_minor?: number | null;
  filled_value_minor?: number | null;
}

/** A stop's picklist (`…/machines/products/`, `…/values/`). */
export interface StopPicklist {
  machine_id: string;
  machine_name?: string;
  order?: number;
  lines: PicklistLine[];
  currency?: string;
  to_bring_value_minor?: number | null;
  filled_value_minor?: number | null;
}

/** The money of the picklist in all. */
export interface PicklistValueTotals {
  to_bring_value_minor: number;
  filled_value_minor: number;
  currency: string;
}

/** `GET …/stocks/`: a product's (or component's) way through the van. */
export interface StockLine {
  id: string;
  name: string;
  loaded: number;
  filled: number;
  removed: number;
  returned: number;
  unit?: string;
}

/** `GET …/accuracy/`: the forecast against what the refiller found, per machine and product. */
export interface AccuracyLine {
  id: string;
  machine_id: string;
  machine_name: string;
  product_id: string;
  product_name: string;
  predicted: number;
  actual: number | null;
  filled: number | null;
  error: number | null;
  abs_error: number | null;
}

export interface Accuracy {
  /** 1 − Σ|predicted − actual| / Σ actual; null before any visit. */
  accuracy: number | null;
  lines: AccuracyLine[];
}

/** `POST /api/machines/fill-from-route/`: a stop's visit, booked in one step. */
export interface FillFromRouteRequest {
  route_id: string;
  machine_id: string;
  /** The same id again answers the first booking and books nothing. */
  request_id: string;
  lines: { selection: string; found: number; filled: number; removed: number; removed_reason?: RemovedReason; expiry_date?: string }[];
  cash_bag?: string;
  collected_minor?: number;
}

export interface FillFromRouteReply {
  message?: string;
  code?: string;
  replayed?: boolean;
  data?: unknown;
}
