// The route planning's rules that need no screen: the default visit day, which machines need a
// visit, the signals of a ranked machine, the requests it sends and the routes it draws.
import type { GridRowSelectionModel } from '@mui/x-data-grid';
import { selectedIds } from '../../components/grid';
import type { MapMachine, MapPoint, PicklistRequest, Plan, PlanRoute, RankedMachine, SaveRoutesRequest } from '../../api/types';
import type { PaletteMode } from '@mui/material/styles';

/** How urgently a machine needs a visit (the server's `need`); `offline` is a signal beside it. */
export const NEED_LEVELS = ['now', 'soon', 'later'] as const;
export type NeedLevel = (typeof NEED_LEVELS)[number];

/** The theme colour of each need level (a chip's, a marker's). */
export const NEED_PALETTE: Record<NeedLevel, 'error' | 'warning' | 'success'> = { now: 'error', soon: 'warning', later: 'success' };

/** The need level of a machine, or null for one this web does not know. */
export function needLevel(need: string): NeedLevel | null {
  return NEED_LEVELS.find((level) => level === need) ?? null;
}

/** How urgent a need is: 3 now, 2 soon, 1 later, 0 for one this web does not know. */
export function needRank(need: string): number {
  const level = needLevel(need);
  return level ? NEED_LEVELS.length - NEED_LEVELS.indexOf(level) : 0;
}

/** The need level of a rank (`needRank`), or null for 0. */
export function rankLevel(rank: number): NeedLevel | null {
  return NEED_LEVELS[NEED_LEVELS.length - rank] ?? null;
}

/**
 * The machines in the order the map draws them: the least urgent first, so that one needing a
 * visit now is drawn last, over any that share its spot (the order of the list kept otherwise).
 */
export function inDrawingOrder<T extends { need: string }>(machines: readonly T[]): T[] {
  return machines
    .map((machine, index) => ({ machine, index, rank: needRank(machine.need) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ machine }) => machine);
}

/** `need=` of the ranked list: every machine, or those needing a visit. */
export type NeedFilter = 'all' | 'visit';

/** Why a machine could not be routed (the plan's `unassigned[].reason`). */
export const UNASSIGNED_REASONS = ['no_coordinates', 'capacity', 'shift'] as const;

/** What a saved route is for (`route_type`). */
export const ROUTE_TYPES = ['refill', 'cash_collection', 'refill_and_collection'] as const;
export type RouteType = (typeof ROUTE_TYPES)[number];

const pad = (value: number) => String(value).padStart(2, '0');

/** A `Date`'s calendar day in the browser's zone, as `YYYY-MM-DD`. */
export function localDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The visit day a plan starts from: tomorrow, in the browser's own calendar. `now` is passed in
 * (never read here) so the rule can be tried at any hour. Midday of the next day keeps a
 * daylight-saving change at midnight from moving it.
 */
export function defaultVisitDate(now: Date): string {
  return localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 12));
}

/** A real `YYYY-MM-DD` day. */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The need levels `need=visit` stands for: due now, or due before the horizon ends. */
export const NEEDS_VISIT: readonly string[] = ['now', 'soon'] satisfies readonly NeedLevel[];

/** The machines of the map that need a visit (every page of the list), in the map's order. */
export function machinesNeedingVisit(machines: readonly MapMachine[]): string[] {
  return machines.filter((machine) => NEEDS_VISIT.includes(machine.need)).map((machine) => machine.id);
}

/** A point with both coordinates (a machine without them is not on the map). */
export function hasPoint<T extends { latitude?: number | null; longitude?: number | null }>(point: T | null | undefined): point is T & MapPoint {
  return typeof point?.latitude === 'number' && typeof point?.longitude === 'number' && Number.isFinite(point.latitude) && Number.isFinite(point.longitude);
}

/** A chip of a ranked machine: what it says and, for counts, how many selections. */
export type SignalChip =
  | { key: 'soldOut' | 'low' | 'emptyAtVisit' | 'expiring' | 'heldAudits'; count: number; severity: 'error' | 'warning' }
  | { key: 'cashCollect'; severity: 'error' }
  | { key: 'daysToEmpty'; days: number; severity: 'warning' | 'default' };

/** The chips that explain a machine's need, most urgent first. */
export function signalChips(row: Pick<RankedMachine, 'signals'>): SignalChip[] {
  const { signals } = row;
  const chips: SignalChip[] = [];
  const add = (key: 'soldOut' | 'low' | 'emptyAtVisit' | 'expiring' | 'heldAudits', count: number, severity: 'error' | 'warning') => {
    if (count > 0) chips.push({ key, count, severity });
  };
  add('soldOut', signals.sold_out, 'error');
  add('emptyAtVisit', signals.empty_at_visit, 'error');
  add('low', signals.low, 'warning');
  add('expiring', signals.expiring, 'warning');
  add('heldAudits', signals.held_audits, 'warning');
  if (signals.cash_due) chips.push({ key: 'cashCollect', severity: 'error' });
  // Zero days is already told by "sold out".
  if (typeof signals.min_days_to_empty === 'number' && signals.min_days_to_empty > 0) chips.push({ key: 'daysToEmpty', days: signals.min_days_to_empty, severity: signals.min_days_to_empty <= 2 ? 'warning' : 'default' });
  return chips;
}

/**
 * The checkboxes' next selection when the grid shows one page: what it chose on this page, and
 * what was chosen on other pages (kept). An "exclude" model (the header box) means this page's rows.
 */
export function mergeSelection(previous: readonly string[], model: GridRowSelectionModel, rows: readonly { id: string }[]): string[] {
  const onPage = new Set(rows.map((row) => row.id));
  const chosenHere = model.type === 'include' ? [...model.ids].map(String).filter((id) => onPage.has(id)) : selectedIds(model, [...rows]);
  const kept = previous.filter((id) => !onPage.has(id));
  return [...kept, ...chosenHere];
}

/** Optional generation settings as typed (empty: the operator's settings apply). */
export interface GenerateOptions {
  van_capacity: string;
  shift_start: string;
  shift_end: string;
  service_minutes: string;
}

export const EMPTY_OPTIONS: GenerateOptions = { van_capacity: '', shift_start: '', shift_end: '', service_minutes: '' };

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Which optional setting is not valid as typed (a whole number above 0, a `HH:MM` time, the shift's end after its start). */
export function optionProblems(options: GenerateOptions): Partial<Record<keyof GenerateOptions, 'wholeNumber' | 'time' | 'shiftOrder'>> {
  const problems: Partial<Record<keyof GenerateOptions, 'wholeNumber' | 'time' | 'shiftOrder'>> = {};
  for (const field of ['van_capacity', 'service_minutes'] as const) {
    const value = options[field].trim();
    if (value && !/^\d+$/.test(value)) problems[field] = 'wholeNumber';
    else if (field === 'van_capacity' && value && Number(value) < 1) problems[field] = 'wholeNumber';
  }
  for (const field of ['shift_start', 'shift_end'] as const) {
    const value = options[field].trim();
    if (value && !TIME.test(value)) problems[field] = 'time';
  }
  if (!problems.shift_start && !problems.shift_end && options.shift_start && options.shift_end && options.shift_end <= options.shift_start) problems.shift_end = 'shiftOrder';
  return problems;
}

/** `POST generate-picklist/`: the chosen machines, refillers and the settings given for this plan only. */
export function generateBody(visitDate: string, machineIds: readonly string[], employeeIds: readonly string[], options: GenerateOptions): PicklistRequest {
  const body: PicklistRequest = { visit_date: visitDate, machine_ids: [...machineIds], employee_ids: [...employeeIds] };
  if (options.van_capacity.trim()) body.van_capacity = Number(options.van_capacity.trim());
  if (options.shift_start.trim()) body.shift_start = options.shift_start.trim();
  if (options.shift_end.trim()) body.shift_end = options.shift_end.trim();
  if (options.service_minutes.trim()) body.service_minutes = Number(options.service_minutes.trim());
  return body;
}

/** `POST /api/planned-routes/`: one route per refiller with stops, its machines in the plan's stop order. */
export function saveBody(plan: Plan, routeType: RouteType, name = ''): SaveRoutesRequest {
  const body: SaveRoutesRequest = {
    visit_date: plan.visit_date,
    route_type: routeType,
    routes: plan.routes
      .filter((route) => route.stops.length > 0)
      .map((route) => ({ employee_id: route.employee_id, machine_ids: route.stops.map((stop) => stop.machine_id) })),
  };
  if (name.trim()) body.name = name.trim();
  return body;
}

/**
 * Distinct colours for the routes on the map (none of the need colours), per mode: at least 3:1 on
 * the map's background and the cards (WCAG 1.4.11), drawn at `ROUTE_OPACITY` (the light ones of
 * the dark mode are the same hues' 300 shades; the light mode's were 1.5 to 2.7:1 on grey 800).
 * `theme/palette.test.ts` checks them.
 */
export const ROUTE_COLORS = {
  light: ['#1565c0', '#8e24aa', '#00838f', '#6d4c41', '#c2185b', '#283593', '#558b2f', '#37474f'],
  dark: ['#64b5f6', '#ba68c8', '#4dd0e1', '#a1887f', '#f06292', '#7986cb', '#9ccc65', '#90a4ae'],
} as const;

/** How opaque a route's line is on the map (where two routes cross, both show). */
export const ROUTE_OPACITY = 0.9;

/** What the markers and routes stand on: the ground's land. */
export { mapBackground } from '../../components/map/ground-style';

export function routeColor(index: number, mode: PaletteMode): string {
  const colors = ROUTE_COLORS[mode];
  return colors[index % colors.length];
}

/**
 * The points the map fits its view to: a plan's routes when one shows (their stops and the depot,
 * so that the whole route is in view), else every machine on the map and the depot.
 */
export function pointsToFit(machines: readonly MapMachine[], depot: MapPoint | null | undefined, routes: readonly Pick<PlanRoute, 'stops'>[]): [number, number][] {
  const routed = routes.flatMap((route) => route.stops.filter(hasPoint).map((stop): [number, number] => [stop.latitude, stop.longitude]));
  const points = routed.length > 0 ? routed : machines.filter(hasPoint).map((machine): [number, number] => [machine.latitude, machine.longitude]);
  return hasPoint(depot) ? [...points, [depot.latitude, depot.longitude]] : points;
}

/** The line a route draws: from the depot, through its stops in order, back to the depot. */
export function routeLine(route: Pick<PlanRoute, 'stops'>, depot: MapPoint | null | undefined): [number, number][] {
  const points: [number, number][] = route.stops.filter(hasPoint).map((stop) => [stop.latitude, stop.longitude]);
  if (points.length === 0 || !hasPoint(depot)) return points;
  const home: [number, number] = [depot.latitude, depot.longitude];
  return [home, ...points, home];
}
