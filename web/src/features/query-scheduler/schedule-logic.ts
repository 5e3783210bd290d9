// A scheduled query's form: its values from a task (or a new one for a module), its checks, and
// the request body; which actions a user sees in the list.
import * as z from 'zod/mini';
import type { $RefinementCtx, $ZodType } from 'zod/v4/core';
import { ApiError, isApiError } from '../../api/client';
import { addProblem, text } from '../../components/form/rules';
import type { Cron, ReportModule, ReportTemplate, Task, TaskForm, TaskStatus } from '../../api/types';
import { definitionBody, emptyDefinition, type DefinitionValues } from '../../components/report-definition/definition-logic';
import { definitionShape } from '../../components/report-definition/definition-values';
import { CRON_FIELDS, DEFAULT_CRON, trimmedCron } from './cron-logic';

export const TASK_STATUSES = ['active', 'paused'] as const satisfies readonly TaskStatus[];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ScheduleFormValues extends DefinitionValues {
  name: string;
  /** '' = its own filters (`params`). */
  template_id: string;
  cron: Cron;
  time_zone: string;
  status: TaskStatus;
  recipients: { user_ids: string[]; emails: string[] };
}

/** The browser's own IANA zone, the default for a new query. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function emptyScheduleValues(module: ReportModule, timeZone = browserTimeZone()): ScheduleFormValues {
  return {
    name: '',
    template_id: '',
    ...emptyDefinition(module, true),
    cron: { ...DEFAULT_CRON },
    time_zone: timeZone,
    status: 'active',
    recipients: { user_ids: [], emails: [] },
  };
}

export function valuesFromTask(task: Task): ScheduleFormValues {
  return {
    name: task.name,
    template_id: task.template_id ?? '',
    module: task.module,
    params: { ...task.params },
    format: task.format,
    graph: task.graph,
    columns: [...task.columns],
    cron: { ...task.cron },
    time_zone: task.time_zone,
    status: task.status,
    recipients: { user_ids: [...(task.recipients.user_ids ?? [])], emails: [...(task.recipients.emails ?? [])] },
  };
}

/** The form's values once a template is chosen: its definition (the query runs the template's). */
export function withTemplate(values: ScheduleFormValues, template: ReportTemplate | null): ScheduleFormValues {
  if (!template) return { ...values, template_id: '' };
  return { ...values, template_id: template.id, params: { ...template.params }, format: template.format, graph: template.graph, columns: [...template.columns] };
}

/** Trimmed addresses, each once (case aside). */
export function cleanEmails(emails: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of emails) {
    const email = raw.trim();
    if (email && !out.some((known) => known.toLowerCase() === email.toLowerCase())) out.push(email);
  }
  return out;
}

/** Addresses typed into the recipients box: separated by commas, semicolons or spaces. */
export function splitEmails(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/**
 * The form's checks: a name, every cron field, a time zone (one of `zones` once known), at least
 * one recipient, and real e-mail addresses. The server checks what the cron fields say.
 */
export function scheduleSchema(zones?: readonly string[]): $ZodType<ScheduleFormValues, ScheduleFormValues> {
  const schema = z
    .object({
      name: text({ required: true }),
      template_id: z.string(),
      ...definitionShape,
      cron: z.object(Object.fromEntries(CRON_FIELDS.map((field) => [field, text({ required: true })])) as Record<keyof Cron, ReturnType<typeof text>>),
      time_zone: text(
        { required: true },
        { check: (zone) => (zones && zones.length > 0 && !zones.includes(zone) ? { key: 'validation.timeZone' } : undefined) },
      ),
      status: z.enum(TASK_STATUSES),
      // Checked on their own, so they show along with the other fields' problems.
      recipients: z.object({ user_ids: z.array(z.string()), emails: z.array(z.string()) }).check(
        z.superRefine((recipients, ctx) => {
          const context = ctx as $RefinementCtx<unknown>;
          recipients.emails.forEach((email, index) => {
            if (!EMAIL.test(email.trim())) addProblem(context, ['emails', index], 'validation.email');
          });
          if (recipients.user_ids.length === 0 && cleanEmails(recipients.emails).length === 0) addProblem(context, [], 'queryScheduler.noRecipients');
        }),
      ),
    });
  return schema as unknown as $ZodType<ScheduleFormValues, ScheduleFormValues>;
}

/** `POST /api/query-schedulers/`, or `PUT …/{id}/` with the version read. */
export function toTaskInput(values: ScheduleFormValues, version?: number): TaskForm {
  const body: TaskForm = {
    name: values.name.trim(),
    template_id: values.template_id || null,
    ...definitionBody(values),
    cron: trimmedCron(values.cron),
    time_zone: values.time_zone.trim(),
    status: values.status,
    recipients: { user_ids: [...values.recipients.user_ids], emails: cleanEmails(values.recipients.emails) },
  };
  return version === undefined ? body : { ...body, version };
}

/** The server's names of the schedule's fields, as the form holds them (a next-runs reply names the cron fields bare). */
export const SCHEDULE_ALIASES: Record<string, string> = {
  ...Object.fromEntries(CRON_FIELDS.map((field) => [field, `cron.${field}`])),
  user_ids: 'recipients.user_ids',
  emails: 'recipients.emails',
};

export type Can = (key: string) => boolean;

/** A query's actions in the list, each with its key of `settings.query_scheduler`. */
export function taskActions(can: Can) {
  return {
    sendNow: can('settings.query_scheduler.edit'),
    pauseResume: can('settings.query_scheduler.edit'),
    edit: can('settings.query_scheduler.edit'),
    delete: can('settings.query_scheduler.delete'),
    create: can('settings.query_scheduler.new'),
  };
}

/**
 * The server's field errors of a schedule with every message of a field in one (`recipients.emails`
 * names each address it refuses, `cron` the operator's shortest interval): the form shows a
 * field's first message, and none of these may be lost.
 */
export function joinScheduleErrors(error: unknown): unknown {
  if (!isApiError(error) || !error.errors) return error;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const list = Array.isArray(messages) ? messages.map(String).filter(Boolean) : [];
    errors[field] = list.length > 1 ? [list.join(' ')] : list;
  }
  return new ApiError(error.status, error.message, errors, error.body);
}

/**
 * The server's reason for refusing an action on a task, to show as it is: a 409 (its template was
 * deleted, no recipient may receive the report) or a 403 (not the task's owner). Null otherwise.
 */
export function refusalReason(error: unknown): string | null {
  return isApiError(error) && (error.status === 409 || error.status === 403) && error.message ? error.message : null;
}

/**
 * Whether an address is in the operator's allowed domains (`example.com`, or `*.example.com` for
 * its subdomains), as the server decides it; an empty list allows none (users only).
 */
export function mailAllowed(domains: readonly string[], address: string): boolean {
  const at = address.trim().lastIndexOf('@');
  if (at < 0) return false;
  const domain = address.trim().slice(at + 1).toLowerCase();
  return domains.some((entry) => {
    const pattern = entry.toLowerCase();
    if (pattern.startsWith('*.')) {
      const parent = pattern.slice(2);
      return domain.endsWith(`.${parent}`) && domain.length > parent.length + 1;
    }
    return domain === pattern;
  });
}

/** The shortest gap between consecutive runs (instants), in whole minutes; null for fewer than two. */
export function shortestGapMinutes(runs: readonly string[]): number | null {
  const times = runs.map((run) => Date.parse(run)).filter((time) => !Number.isNaN(time)).sort((a, b) => a - b);
  let shortest: number | null = null;
  for (let index = 1; index < times.length; index += 1) {
    const gap = Math.round((times[index] - times[index - 1]) / 60_000);
    if (shortest === null || gap < shortest) shortest = gap;
  }
  return shortest;
}
