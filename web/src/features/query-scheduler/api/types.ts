// The query scheduler's API shapes, written by hand from the issue 13 contract: the generated
// `schema.d.ts` does not have these endpoints yet. Once it does, these become aliases of the
// generated schemas, field for field. What was added since comes from the generated schemas.
import type { components } from '../../../api/schema';
import type { Format, Graph, Module, Params, Report, UserRef } from '../../report-generator/api/types';

type Schemas = components['schemas'];

export type TaskStatus = 'active' | 'paused';
export const TASK_STATUSES = ['active', 'paused'] as const satisfies readonly TaskStatus[];

/** Five classic cron fields, as typed (`*`, `n`, `a-b`, `*\/s`, `a-b/s`, comma lists; days of the week 0–7 or SUN–SAT). */
export interface Cron {
  minute: string;
  hour: string;
  day_of_month: string;
  month: string;
  day_of_week: string;
}

export interface Recipients {
  user_ids: string[];
  emails: string[];
}

/** `POST /api/query-schedulers/` (and `PUT …/{id}/` with `version`). */
export interface TaskInput {
  name: string;
  module: Module;
  /** The template whose definition it runs; null: its own `params`. */
  template_id: string | null;
  params: Params;
  format: Format;
  graph: Graph;
  columns: string[];
  cron: Cron;
  /** IANA zone the cron's times are read in. */
  time_zone: string;
  status: TaskStatus;
  recipients: Recipients;
  version?: number;
}

/** A task's last run: its reports, one per distinct reach and language of its recipients (`report_ids`). */
export type LastRun = Schemas['LastRunDto'];

/** `withheld`: the recipient may not receive the report (`error` says why). */
export type DeliveryStatus = Schemas['DeliveryStatusDto'];

/** What became of one recipient: the report and file sent (or withheld), and why not. */
export type Delivery = Schemas['DeliveryDto'];

export interface Task extends Omit<TaskInput, 'version'> {
  id: string;
  created_by: UserRef;
  created_at: string;
  updated_at: string;
  version: number;
  /** Null while paused. */
  next_run: string | null;
  last_run: LastRun | null;
  /** Newest first, at most 20. */
  deliveries: Delivery[];
  /** Why the system paused it (its template was deleted); resuming is refused with it. */
  paused_reason?: Schemas['TaskDto']['paused_reason'];
}

/** `GET next-runs/`: the next runs (UTC instants) and the schedule as EventBridge writes it. */
export interface NextRuns {
  runs: string[];
  eventbridge: string;
}

/** A module or a relative period, labelled in the user's language. */
export interface KeyLabel {
  key: string;
  label: string;
}

export type { Report };
