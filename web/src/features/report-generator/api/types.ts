// The report generator's API shapes, written by hand from the issue 13 contract: the generated
// `schema.d.ts` does not have these endpoints yet. Once the server's OpenAPI document has them,
// these become aliases of the generated schemas (see `api/types.ts`), field for field. Fields added
// since are taken from the generated schemas.
import type { components } from '../../../api/schema';

type Schemas = components['schemas'];

/** A report the generator can produce: one of the report screens. */
export type Module = 'sales_overview' | 'encashment' | 'refill_log' | 'inventory' | 'transaction_log';

export const MODULES = ['sales_overview', 'encashment', 'refill_log', 'inventory', 'transaction_log'] as const satisfies readonly Module[];

/** The query-string parameters of the module's report screen, as strings. */
export type Params = Record<string, string>;

export type Format = 'xlsx' | 'csv';
export const FORMATS = ['xlsx', 'csv'] as const satisfies readonly Format[];

/** A chart in the file; only the sales overview takes one other than `none`. */
export type Graph = 'none' | 'line' | 'bar';
export const GRAPHS = ['none', 'line', 'bar'] as const satisfies readonly Graph[];

export type Visibility = 'public' | 'private';
export const VISIBILITIES = ['private', 'public'] as const satisfies readonly Visibility[];

export interface UserRef {
  id: string;
  name: string;
}

/** A module with its label in the user's language. */
export interface ModuleOption {
  key: Module;
  label: string;
}

/** A selectable column of a module's file. */
export interface ColumnOption {
  key: string;
  label: string;
}

/** What a template holds, and what `POST templates/` takes (`version` on `PUT`). */
export interface TemplateInput {
  name: string;
  module: Module;
  params: Params;
  format: Format;
  graph: Graph;
  /** Empty: every column. */
  columns: string[];
  visibility: Visibility;
  version?: number;
}

/** `POST generate/` and `POST preview/`: a template's fields, `name` being the report's. */
export type GenerateInput = Omit<TemplateInput, 'version'>;

export interface Template extends GenerateInput, Pick<Schemas['TemplateDto'], 'copyable'> {
  id: string;
  created_by: UserRef;
  created_at: string;
  updated_at: string;
  version: number;
  /** The caller may change (and delete) it: their own template, with the edit key. Others' can be copied (`copyable`). */
  editable: boolean;
}

export type ReportStatus = 'queued' | 'running' | 'done' | 'failed';

/**
 * `available` false: the file covers machines beyond the caller's current access and its download
 * is refused (`unavailable_reason` says why); `recipients`: a scheduled report's addresses.
 */
export interface Report extends Pick<Schemas['ReportDto'], 'available' | 'unavailable_reason' | 'recipients' | 'task_id'> {
  id: string;
  name: string;
  module: Module;
  template_id: string | null;
  format: Format;
  graph: Graph;
  visibility: Visibility;
  status: ReportStatus;
  archived: boolean;
  /** 0..100. */
  progress: number;
  error: string | null;
  /** Rows written; 0 until done. */
  rows: number;
  file_name: string;
  requested_by: UserRef;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** `GET progress/{id}/`. */
export interface ReportProgress {
  id: string;
  status: ReportStatus;
  progress: number;
  error: string | null;
  archived: boolean;
}

/** `POST preview/`: the first rows (at most 20), cells already formatted as text. */
export interface Preview {
  header: string[];
  rows: string[][];
  total_rows: number;
}

/** `POST templates/{id}/copy/`: the copy's name (default: the original's). */
export type CopyTemplateInput = Schemas['CopyTemplateBody'];

/** `{message, data}` of a create, update or action. */
export interface ActionReply<T> {
  message?: string;
  data: T;
}
