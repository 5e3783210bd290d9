// A report's definition as the report generator and the query scheduler share it, without the
// server: each module's filters (the controls of its report screen), its parameters to and from
// the filter bar's state, and the definition's part of a request body.
import type { ReportFormat, ReportGraph, ReportModule, ReportParams, ReportVisibility } from '../../api/types';
import {
  DEFAULT_REPORT_FILTERS,
  ENCASHMENT_CONTROLS,
  INVENTORY_CONTROLS,
  INVENTORY_TABS,
  readReportFilters,
  REFILL_CONTROLS,
  REFILL_SINGLE,
  reportQuery,
  SALES_CONTROLS,
  spanProblem,
  TRANSACTION_CONTROLS,
  type ListFilter,
  type ReportControl,
  type ReportFilters,
} from '../report-filters/report-filter-state';

export const MODULES = ['sales_overview', 'encashment', 'refill_log', 'inventory', 'transaction_log'] as const satisfies readonly ReportModule[];
export const FORMATS = ['xlsx', 'csv'] as const satisfies readonly ReportFormat[];
export const GRAPHS = ['none', 'line', 'bar'] as const satisfies readonly ReportGraph[];
export const VISIBILITIES = ['private', 'public'] as const satisfies readonly ReportVisibility[];

/** A server's choice (a module, a column, a relative period) with its label in the user's language. */
export interface KeyLabel {
  key: string;
  label: string;
}

/**
 * The filter bar's controls of each module: those of its report screen, so a report holds exactly
 * the parameters the screen's address would (the screens read the same lists).
 */
export const MODULE_CONTROLS: Record<ReportModule, readonly ReportControl[]> = {
  sales_overview: SALES_CONTROLS,
  encashment: ENCASHMENT_CONTROLS,
  refill_log: REFILL_CONTROLS,
  inventory: INVENTORY_CONTROLS,
  transaction_log: TRANSACTION_CONTROLS,
};

/** Pickers that take one id at a time (none: every report's endpoints take lists). */
export const MODULE_SINGLE: Partial<Record<ReportModule, readonly ListFilter[]>> = { refill_log: REFILL_SINGLE };

/** Every parameter name a module's filters use (the server may name one bare, `date_from`). */
export const PARAM_NAMES: readonly string[] = [
  'period',
  'date_from',
  'date_to',
  'tab',
  'value',
  'group_by',
  'grouping_period',
  'clients',
  'locations',
  'regions',
  'machine_tags',
  'machines',
  'products',
  'product_tags',
  'employees',
];

/** The relative period a new schedule starts with (its report covers the day before each run). */
export const DEFAULT_SCHEDULE_PERIOD = 'yesterday';

export function isModule(value: unknown): value is ReportModule {
  return typeof value === 'string' && (MODULES as readonly string[]).includes(value);
}

export function hasPeriod(module: ReportModule): boolean {
  return MODULE_CONTROLS[module].includes('period');
}

/** Only the sales overview draws a chart into its file. */
export function takesGraph(module: ReportModule | ''): boolean {
  return module === 'sales_overview';
}

export interface ParamsOptions {
  /** The inventory's tab. */
  tab?: string;
  /**
   * A schedule's relative period (`yesterday`, `previous_week`, …, from the server's list), which
   * replaces the filter bar's period and its dates.
   */
  period?: string;
}

/**
 * A module's parameters for the filter bar's state: the query string its report screen would
 * have (only its controls, dates only with a custom period, no empty lists), plus the inventory's
 * tab, or a schedule's relative period.
 */
export function paramsOf(module: ReportModule, filters: ReportFilters, options: ParamsOptions = {}): ReportParams {
  const query = reportQuery(filters, MODULE_CONTROLS[module]);
  if (options.period !== undefined && hasPeriod(module)) {
    query.period = options.period;
    query.date_from = undefined;
    query.date_to = undefined;
  }
  if (module === 'inventory') query.tab = INVENTORY_TABS.find((tab) => tab === options.tab) ?? 'products';
  const params: ReportParams = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params[key] = String(value);
  }
  return params;
}

/** The filter bar's state of a module's parameters (whatever is missing or invalid at its default). */
export function filtersOf(params: ReportParams): ReportFilters {
  return readReportFilters(new URLSearchParams(params));
}

/** A new report's (or schedule's, `schedule`) parameters for a module: every filter at its default. */
export function defaultParams(module: ReportModule, schedule = false): ReportParams {
  return paramsOf(module, DEFAULT_REPORT_FILTERS, schedule ? { period: DEFAULT_SCHEDULE_PERIOD } : {});
}

/** What is wrong with a custom period of the parameters, as the report screens say it. */
export function paramsProblem(module: ReportModule | '', params: ReportParams): ReturnType<typeof spanProblem> {
  if (!module || !hasPeriod(module) || params.period !== 'custom') return null;
  return spanProblem(filtersOf(params));
}

/** A report's definition as a form holds it (the generator's and the scheduler's). */
export interface DefinitionValues {
  /** '' until chosen. */
  module: ReportModule | '';
  params: ReportParams;
  format: ReportFormat;
  graph: ReportGraph;
  columns: string[];
}

export function emptyDefinition(module: ReportModule | '' = '', schedule = false): DefinitionValues {
  return { module, params: module ? defaultParams(module, schedule) : {}, format: 'xlsx', graph: 'none', columns: [] };
}

/** The definition as a request takes it: a chart only for the sales overview. Needs a module. */
export function definitionBody(values: DefinitionValues): { module: ReportModule; params: ReportParams; format: ReportFormat; graph: ReportGraph; columns: string[] } {
  if (!values.module) throw new Error('a report needs a module');
  return {
    module: values.module,
    params: { ...values.params },
    format: values.format,
    graph: takesGraph(values.module) ? values.graph : 'none',
    columns: [...values.columns],
  };
}

/** A module's columns in the server's order, whichever order they were chosen in. */
export function inServerOrder(chosen: readonly string[], offered: readonly { key: string }[]): string[] {
  const order = offered.map((column) => column.key);
  return [...chosen].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
