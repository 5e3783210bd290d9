// What the report generator computes without the server: each module's filters (the controls of
// its report screen), its parameters to and from the filter bar's state, when the reports list
// polls, which actions a user sees, and the form's values to the request body.
import {
  DEFAULT_REPORT_FILTERS,
  FLEET_FILTERS,
  readReportFilters,
  reportQuery,
  SALES_CONTROLS,
  spanProblem,
  type ListFilter,
  type ReportControl,
  type ReportFilters,
} from '../../components/report-filters/report-filter-state';
import type { Format, GenerateInput, Graph, Module, Params, Report, ReportStatus, Template, TemplateInput, Visibility } from './api/types';
import { MODULES } from './api/types';

/**
 * The filter bar's controls of each module: those of its report screen, so a report holds exactly
 * the parameters the screen's address would (the screens keep the same lists; the test checks).
 */
export const MODULE_CONTROLS: Record<Module, readonly ReportControl[]> = {
  sales_overview: SALES_CONTROLS,
  encashment: ['period', ...FLEET_FILTERS, 'employees'],
  refill_log: ['period', ...FLEET_FILTERS, 'products', 'product_tags'],
  inventory: [...FLEET_FILTERS, 'products', 'product_tags'],
  transaction_log: ['period', ...FLEET_FILTERS, 'products', 'product_tags'],
};

/** Pickers that take one id at a time (none: every report's endpoints take lists). */
export const MODULE_SINGLE: Partial<Record<Module, readonly ListFilter[]>> = {};

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

export const INVENTORY_TABS = ['products', 'components'] as const;
export type InventoryTab = (typeof INVENTORY_TABS)[number];

/** The relative period a new schedule starts with (its report covers the day before each run). */
export const DEFAULT_SCHEDULE_PERIOD = 'yesterday';

export function isModule(value: unknown): value is Module {
  return typeof value === 'string' && (MODULES as readonly string[]).includes(value);
}

export function hasPeriod(module: Module): boolean {
  return MODULE_CONTROLS[module].includes('period');
}

/** Only the sales overview draws a chart into its file. */
export function takesGraph(module: Module | ''): boolean {
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
export function paramsOf(module: Module, filters: ReportFilters, options: ParamsOptions = {}): Params {
  const query = reportQuery(filters, MODULE_CONTROLS[module]);
  if (options.period !== undefined && hasPeriod(module)) {
    query.period = options.period;
    query.date_from = undefined;
    query.date_to = undefined;
  }
  if (module === 'inventory') query.tab = INVENTORY_TABS.find((tab) => tab === options.tab) ?? 'products';
  const params: Params = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params[key] = String(value);
  }
  return params;
}

/** The filter bar's state of a module's parameters (whatever is missing or invalid at its default). */
export function filtersOf(params: Params): ReportFilters {
  return readReportFilters(new URLSearchParams(params));
}

/** A new report's (or schedule's, `schedule`) parameters for a module: every filter at its default. */
export function defaultParams(module: Module, schedule = false): Params {
  return paramsOf(module, DEFAULT_REPORT_FILTERS, schedule ? { period: DEFAULT_SCHEDULE_PERIOD } : {});
}

/** What is wrong with a custom period of the parameters, as the report screens say it. */
export function paramsProblem(module: Module | '', params: Params): ReturnType<typeof spanProblem> {
  if (!module || !hasPeriod(module) || params.period !== 'custom') return null;
  return spanProblem(filtersOf(params));
}

// --- The reports list -------------------------------------------------------------------------

/** How often the list asks again while a report is being prepared. */
export const POLL_MS = 2000;

/** Queued or running: the file is not there yet and the list follows it. */
export function isPreparing(status: ReportStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** The list's refetch interval: every 2 s while one of its reports is being prepared, else none. */
export function pollInterval(reports: readonly Pick<Report, 'status'>[] | undefined): number | false {
  return reports?.some((report) => isPreparing(report.status)) ? POLL_MS : false;
}

/** The report generator's permission parts (see `auth/permissions.ts`). */
export type GeneratorPart = 'reports_list' | 'templates_list' | 'run' | 'new' | 'delete_report' | 'delete_template' | 'edit_template';
export type Allowed = (part: GeneratorPart) => boolean;

/**
 * A report's actions: the file once done (offered but refused, with the reason, while it covers
 * machines beyond the caller's access), archive (not while it is prepared) or restore, delete with
 * its key.
 */
export function reportActions(allowed: Allowed, report: Pick<Report, 'status' | 'archived'>) {
  return {
    download: report.status === 'done',
    archive: !report.archived && !isPreparing(report.status),
    restore: report.archived,
    delete: allowed('delete_report'),
  };
}

/** Why a finished report's file may not be downloaded now (it covers machines beyond the caller's access), or null. */
export function downloadRefusal(report: Pick<Report, 'status' | 'available' | 'unavailable_reason'>, fallback: string): string | null {
  if (report.status !== 'done' || report.available) return null;
  return report.unavailable_reason || fallback;
}

/**
 * A template's actions: each with its key; edit and delete only where the server lets the caller
 * change it (their own); on anyone else's, copy ("save as") where the server lets them.
 */
export function templateActions(allowed: Allowed, template: Pick<Template, 'editable' | 'copyable'>) {
  return {
    run: allowed('run'),
    edit: allowed('edit_template') && template.editable,
    delete: allowed('delete_template') && template.editable,
    copy: template.copyable && !template.editable,
  };
}

// --- The form ---------------------------------------------------------------------------------

/** A report's definition as a form holds it (the generator's and the scheduler's). */
export interface DefinitionValues {
  /** '' until chosen. */
  module: Module | '';
  params: Params;
  format: Format;
  graph: Graph;
  columns: string[];
}

export interface ReportFormValues extends DefinitionValues {
  name: string;
  visibility: Visibility;
}

export function emptyDefinition(module: Module | '' = '', schedule = false): DefinitionValues {
  return { module, params: module ? defaultParams(module, schedule) : {}, format: 'xlsx', graph: 'none', columns: [] };
}

export function emptyReportValues(): ReportFormValues {
  return { name: '', visibility: 'private', ...emptyDefinition() };
}

export function valuesFromTemplate(template: Template): ReportFormValues {
  return {
    name: template.name,
    module: template.module,
    params: { ...template.params },
    format: template.format,
    graph: template.graph,
    columns: [...template.columns],
    visibility: template.visibility,
  };
}

/** The definition as the request takes it: a chart only for the sales overview. Needs a module. */
export function definitionBody(values: DefinitionValues): Pick<GenerateInput, 'module' | 'params' | 'format' | 'graph' | 'columns'> {
  if (!values.module) throw new Error('a report needs a module');
  return {
    module: values.module,
    params: { ...values.params },
    format: values.format,
    graph: takesGraph(values.module) ? values.graph : 'none',
    columns: [...values.columns],
  };
}

/** `POST generate/` (and preview): the name trimmed. */
export function toGenerateInput(values: ReportFormValues): GenerateInput {
  return { name: values.name.trim(), ...definitionBody(values), visibility: values.visibility };
}

/** `POST templates/`, or `PUT templates/{id}/` with the version read. */
export function toTemplateInput(values: ReportFormValues, version?: number): TemplateInput {
  const body: TemplateInput = toGenerateInput(values);
  return version === undefined ? body : { ...body, version };
}

/** A module's columns in the server's order, whichever order they were chosen in. */
export function inServerOrder(chosen: readonly string[], offered: readonly { key: string }[]): string[] {
  const order = offered.map((column) => column.key);
  return [...chosen].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
