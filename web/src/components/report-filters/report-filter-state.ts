// The filters of a report screen (period, grouping, value and the fleet/product pickers), kept in
// the URL's query string: a report is bookmarkable, reload keeps it and Back undoes a change. The
// query string is the only state; every change pushes a history entry. Paging, ordering and search
// of the report's detail table live in the same query string (see `useListState`). Each screen
// names the controls it uses (`ReportControl`): its filter bar shows those and its requests carry
// only their parameters.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { Query } from '../../api/client';
import { withChanges } from '../server-list/use-list-state';

export const PERIODS = ['yesterday', 'current_week', 'previous_week', 'current_month', 'previous_month', 'current_and_previous_month', 'current_year', 'previous_year', 'custom'] as const;
export const VALUES = ['sales', 'quantity', 'sales_excl_tax'] as const;
export const GROUP_BYS = ['machine', 'location', 'client', 'product', 'product_tag', 'machine_tag'] as const;
export const GROUPING_PERIODS = ['day', 'week', 'month'] as const;
/** The multi-choice filters: ids (names for regions), comma-separated in the URL and the API. */
export const LIST_FILTERS = ['clients', 'locations', 'regions', 'machine_tags', 'machines', 'products', 'product_tags', 'employees'] as const;
/** The fleet pickers (which machines a report covers). */
export const FLEET_FILTERS = ['clients', 'locations', 'regions', 'machine_tags', 'machines'] as const;

export type Period = (typeof PERIODS)[number];
export type ReportValue = (typeof VALUES)[number];
export type GroupBy = (typeof GROUP_BYS)[number];
export type GroupingPeriod = (typeof GROUPING_PERIODS)[number];
export type ListFilter = (typeof LIST_FILTERS)[number];
/** A control of the filter bar: the period (with its dates), a fixed choice or a picker. */
export type ReportControl = 'period' | 'value' | 'group_by' | 'grouping_period' | ListFilter;

/** The sales overview's controls: every one but the employees. */
export const SALES_CONTROLS: readonly ReportControl[] = ['period', 'group_by', 'grouping_period', 'value', ...FLEET_FILTERS, 'products', 'product_tags'];

// The other report screens' controls, here so the report generator and the query scheduler make
// reports of exactly the parameters each screen's address would hold.

/** The encashment report's filters: the period, the fleet pickers and the employees who collected. */
export const ENCASHMENT_CONTROLS: readonly ReportControl[] = ['period', ...FLEET_FILTERS, 'employees'];

export const TRANSACTION_CONTROLS: readonly ReportControl[] = ['period', ...FLEET_FILTERS, 'products', 'product_tags'];

export const REFILL_CONTROLS: readonly ReportControl[] = ['period', ...FLEET_FILTERS, 'products', 'product_tags'];
/** The refill log's pickers that take one id at a time: none, every picker takes several ids. */
export const REFILL_SINGLE: readonly ListFilter[] = [];

/** Stock is now: no period, only which machines and products. */
export const INVENTORY_CONTROLS: readonly ReportControl[] = [...FLEET_FILTERS, 'products', 'product_tags'];

/** The inventory report's tabs. */
export const INVENTORY_TABS = ['products', 'components'] as const;
export type InventoryTab = (typeof INVENTORY_TABS)[number];

export interface ReportFilters extends Record<ListFilter, string[]> {
  period: Period;
  /** `YYYY-MM-DD`; only with the `custom` period. */
  date_from: string;
  date_to: string;
  value: ReportValue;
  group_by: GroupBy;
  grouping_period: GroupingPeriod;
}

export const DEFAULT_REPORT_FILTERS: ReportFilters = {
  period: 'current_month',
  date_from: '',
  date_to: '',
  value: 'sales',
  group_by: 'machine',
  grouping_period: 'day',
  clients: [],
  locations: [],
  regions: [],
  machine_tags: [],
  machines: [],
  products: [],
  product_tags: [],
  employees: [],
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function oneOf<T extends string>(allowed: readonly T[], raw: string | null, fallback: T): T {
  return allowed.find((value) => value === raw) ?? fallback;
}

function isDate(raw: string | null): raw is string {
  return Boolean(raw && DATE.test(raw) && !Number.isNaN(new Date(`${raw}T00:00:00Z`).getTime()));
}

/** `a,b,,b` → `['a', 'b']`. */
export function splitList(raw: string | null): string[] {
  const out: string[] = [];
  for (const part of (raw ?? '').split(',')) {
    const value = part.trim();
    if (value && !out.includes(value)) out.push(value);
  }
  return out;
}

/** Reads a report's filters from the query string; whatever is missing or invalid takes its default. */
export function readReportFilters(query: URLSearchParams): ReportFilters {
  const period = oneOf(PERIODS, query.get('period'), DEFAULT_REPORT_FILTERS.period);
  const dateFrom = query.get('date_from');
  const dateTo = query.get('date_to');
  const lists = Object.fromEntries(LIST_FILTERS.map((name) => [name, splitList(query.get(name))])) as Record<ListFilter, string[]>;
  return {
    period,
    date_from: period === 'custom' && isDate(dateFrom) ? dateFrom : '',
    date_to: period === 'custom' && isDate(dateTo) ? dateTo : '',
    value: oneOf(VALUES, query.get('value'), DEFAULT_REPORT_FILTERS.value),
    group_by: oneOf(GROUP_BYS, query.get('group_by'), DEFAULT_REPORT_FILTERS.group_by),
    grouping_period: oneOf(GROUPING_PERIODS, query.get('grouping_period'), DEFAULT_REPORT_FILTERS.grouping_period),
    ...lists,
  };
}

/** What is wrong with a custom span (none, or a reason the screen explains instead of asking). */
export function spanProblem(filters: ReportFilters): 'missingDates' | 'datesReversed' | null {
  if (filters.period !== 'custom') return null;
  if (!filters.date_from || !filters.date_to) return 'missingDates';
  if (filters.date_from > filters.date_to) return 'datesReversed';
  return null;
}

/** The query parameters of a report's controls (the sales overview's by default), for these filters. */
export function reportQuery(filters: ReportFilters, controls: readonly ReportControl[] = SALES_CONTROLS): Query {
  const query: Query = {};
  if (controls.includes('period')) {
    const custom = filters.period === 'custom';
    query.period = filters.period;
    query.date_from = custom ? filters.date_from : undefined;
    query.date_to = custom ? filters.date_to : undefined;
  }
  for (const name of ['value', 'group_by', 'grouping_period'] as const) if (controls.includes(name)) query[name] = filters[name];
  for (const name of LIST_FILTERS) if (controls.includes(name)) query[name] = filters[name].join(',') || undefined;
  return query;
}

/** Whether a control the screen shows differs from its default. */
function differs(filters: ReportFilters, controls: readonly ReportControl[]): boolean {
  return controls.some((control) =>
    control === 'period'
      ? filters.period !== DEFAULT_REPORT_FILTERS.period
      : JSON.stringify(filters[control]) !== JSON.stringify(DEFAULT_REPORT_FILTERS[control]),
  );
}

/**
 * The query-string changes for a change of filters: defaults and empty lists leave the URL (short
 * URLs), the dates go with a period other than custom, and the detail table goes back to page 1.
 */
export function reportChanges(change: Partial<ReportFilters>): Record<string, string | null> {
  const out: Record<string, string | null> = { page: null };
  for (const [key, value] of Object.entries(change) as [keyof ReportFilters, ReportFilters[keyof ReportFilters] | undefined][]) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : value;
    const fallback = DEFAULT_REPORT_FILTERS[key];
    out[key] = text === (Array.isArray(fallback) ? fallback.join(',') : fallback) ? null : text;
  }
  if (change.period && change.period !== 'custom') {
    out.date_from = null;
    out.date_to = null;
  }
  return out;
}

/**
 * The address of a report showing these filters (the others at their defaults), for links from
 * other screens. The period and grouping a link names stay in the URL even when they are the
 * defaults, so the address says what it opens.
 */
export function reportHref(path: string, filters: Partial<ReportFilters>): string {
  const changes = reportChanges(filters);
  delete changes.page;
  for (const key of ['period', 'group_by'] as const) {
    const value = filters[key];
    if (value) changes[key] = value;
  }
  const search = withChanges(new URLSearchParams(), changes).toString();
  return search ? `${path}?${search}` : path;
}

export interface ReportFilterState {
  filters: ReportFilters;
  /** The API parameters of the filters. */
  query: Query;
  /** Set when the filters cannot be asked about yet (custom span without valid dates). */
  problem: ReturnType<typeof spanProblem>;
  /** The controls the screen shows. */
  controls: readonly ReportControl[];
  /** A filter the screen shows differs from its default. */
  changed: boolean;
  setFilters: (change: Partial<ReportFilters>) => void;
  reset: () => void;
}

/**
 * A report's filters in the URL, with the API parameters of its controls (`controls`: a constant
 * of the screen) and a setter that pushes history.
 */
export function useReportFilters(controls: readonly ReportControl[] = SALES_CONTROLS): ReportFilterState {
  const [search, setSearch] = useSearchParams();
  const key = search.toString();
  const filters = useMemo(() => readReportFilters(new URLSearchParams(key)), [key]);
  const query = useMemo(() => reportQuery(filters, controls), [filters, controls]);
  // The address as last written: a change made before the screen has re-rendered with the one
  // before (a quick keyboard user, a busy screen) builds on it instead of on an older render's.
  const latest = useRef(key);
  useEffect(() => {
    latest.current = key;
  }, [key]);
  const setFilters = useCallback(
    (change: Partial<ReportFilters>) => {
      const next = withChanges(new URLSearchParams(latest.current), reportChanges(change));
      latest.current = next.toString();
      setSearch(next);
    },
    [setSearch],
  );
  const reset = useCallback(() => setFilters(DEFAULT_REPORT_FILTERS), [setFilters]);
  const problem = controls.includes('period') ? spanProblem(filters) : null;
  return { filters, query, problem, controls, changed: differs(filters, controls), setFilters, reset };
}
