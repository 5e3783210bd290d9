// The route planning's API shapes, written by hand from the "Planning" section of docs/api.md: the
// generated `schema.d.ts` does not have these endpoints yet. Once it does, these become aliases of
// the generated schemas, field for field.

/** How urgently a machine needs a visit; `offline` is a signal beside it. */
export type NeedLevel = 'now' | 'soon' | 'later';
export const NEED_LEVELS = ['now', 'soon', 'later'] as const satisfies readonly NeedLevel[];

/** `need=` of the ranked list: every machine, or those needing a visit. */
export type NeedFilter = 'all' | 'visit';

/**
 * Why a machine needs a visit. The counting signals are the number of selections concerned (a
 * server may send a plain yes/no; both are read).
 */
export interface Signals {
  sold_out: number | boolean;
  low: number | boolean;
  empty_at_visit: number | boolean;
  expiring: number | boolean;
  /** Days until the first selection is empty (one decimal); null when nothing sells. */
  min_days_to_empty: number | null;
  cash_box_minor: number | null;
  auto_collect_minor: number | null;
  last_reading_at: string | null;
  last_reading_hours: number | null;
  held_audits: number;
}

/** A row of `GET /api/route-planning/`, ranked by need. */
export interface RankedMachine {
  id: string;
  name: string;
  location_id: string | null;
  location_name: string | null;
  latitude: number | null;
  longitude: number | null;
  need: NeedLevel;
  offline: boolean;
  /** The day a selection goes below the threshold. */
  visit_by: string | null;
  signals: Signals;
  units_to_bring: number;
  /** Not in the contract: the cash amounts' currency when the server sends it. */
  currency?: string;
}

export interface Point {
  latitude: number | null;
  longitude: number | null;
}

/** A machine of `GET /api/route-planning/map/`. */
export interface MapMachine extends Point {
  id: string;
  name: string;
  need: NeedLevel;
  offline: boolean;
}

/** Every machine of the scope and the depot (null coordinates: no depot). */
export interface PlanningMap {
  machines: MapMachine[];
  depot: Point | null;
}

export interface RecipeComponent {
  component_id: string;
  name: string;
  unit: string;
  quantity: number;
}

/** A selection of `GET /api/route-planning/machines/{id}/products/` (and a picklist line). */
export interface SelectionNeed {
  selection: string;
  product_id: string;
  product_name: string;
  current: number;
  max: number;
  case_size: number | null;
  /** Units a day, on average. */
  velocity: number;
  /** Monday … Sunday. */
  velocity_by_weekday: number[];
  days_to_empty: number | null;
  predicted_at_visit: number;
  to_bring: number;
  expiry_date: string | null;
  components: RecipeComponent[];
}

/** `GET /api/route-planning/machines/{id}/machine-cash/`. */
export interface MachineCash {
  currency: string;
  cash_box_minor: number | null;
  bill_stacker_minor: number | null;
  tubes_minor: number | null;
  read_at: string | null;
  last_collection: { at: string; collected_minor: number; employee_name: string | null } | null;
  /** Cash sales since the last collection. */
  expected_cash_minor: number | null;
  auto_collect_minor: number | null;
  collect: boolean;
}

/** `POST /api/route-planning/generate-picklist/`. */
export interface GenerateRequest {
  visit_date: string;
  machine_ids?: string[];
  all_needing?: boolean;
  employee_ids: string[];
  depot?: Point;
  van_capacity?: number;
  shift_start?: string;
  shift_end?: string;
  service_minutes?: number;
}

export interface PlanStop {
  machine_id: string;
  machine_name: string;
  latitude: number | null;
  longitude: number | null;
  arrival: string | null;
  departure: string | null;
  /** From the previous stop (the depot for the first). */
  distance_m: number;
  units: number;
}

export interface PlanRoute {
  employee_id: string;
  employee_name: string;
  stops: PlanStop[];
  distance_m: number;
  duration_s: number;
  start: string | null;
  end: string | null;
  units: number;
}

export type UnassignedReason = 'no_coordinates' | 'capacity' | 'shift';
export const UNASSIGNED_REASONS = ['no_coordinates', 'capacity', 'shift'] as const satisfies readonly UnassignedReason[];

export interface ProductTotal {
  product_id: string;
  product_name: string;
  quantity: number;
  case_size: number | null;
  components: RecipeComponent[];
}

/** The plan: routes with their ordered stops, what could not be routed, and the picklist. */
export interface Plan {
  visit_date: string;
  routes: PlanRoute[];
  unassigned: { machine_id: string; reason: string }[];
  picklist: { machine_id: string; lines: SelectionNeed[] }[];
  totals: ProductTotal[];
}

export type RouteType = 'refill' | 'cash_collection' | 'refill_and_collection';
export const ROUTE_TYPES = ['refill', 'cash_collection', 'refill_and_collection'] as const satisfies readonly RouteType[];

/** `POST /api/planned-routes/`: one route per employee, the machines in their stop order. */
export interface SaveRoutesRequest {
  visit_date: string;
  route_type: RouteType;
  name?: string;
  depot?: Point;
  routes: { employee_id: string; machine_ids: string[] }[];
}

/** `GET`/`PUT /api/route-planning/settings/`. */
export interface PlanningSettings {
  low_share_pct: number;
  expiry_days: number;
  auto_collect_minor: number;
  stale_hours: number;
  velocity_days: number;
  horizon_days: number;
  van_capacity: number;
  shift_start: string;
  shift_end: string;
  service_minutes: number;
  road_factor: number;
  speed_kmh: number;
  depot_latitude: number | null;
  depot_longitude: number | null;
  version: number;
}

/** Someone who can drive a route. */
export interface Refiller {
  id: string;
  name: string;
}
