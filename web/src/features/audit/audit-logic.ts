// What the audit trail computes without the server: which filter values it sends, whether the
// chosen days make a span the server takes, and how a row's machines read.
import type { DataExit, ExitKind, ExitQuery } from './api/types';
import { EXIT_KINDS } from './api/types';

/** The longest span the server lists at once. */
export const MAX_SPAN_DAYS = 366;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isExitKind(value: string): value is ExitKind {
  return (EXIT_KINDS as readonly string[]).includes(value);
}

/** A real calendar date `YYYY-MM-DD`, as epoch days; null otherwise. */
function dayOf(value: string): number | null {
  if (!DATE.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) return null;
  return time / 86_400_000;
}

/** What is wrong with the chosen days (either may be empty: the server's default), or null. */
export function spanProblem(dateFrom: string, dateTo: string): 'date' | 'reversed' | 'tooLong' | null {
  const from = dateFrom ? dayOf(dateFrom) : undefined;
  const to = dateTo ? dayOf(dateTo) : undefined;
  if (from === null || to === null) return 'date';
  if (from === undefined || to === undefined) return null;
  if (from > to) return 'reversed';
  return to - from + 1 > MAX_SPAN_DAYS ? 'tooLong' : null;
}

export interface ExitFilters {
  kind: string;
  user_id: string;
  date_from: string;
  date_to: string;
}

/** The list's request: paging, search and ordering, and only the filters chosen (an unknown kind is none). */
export function exitQuery(params: { page: number; page_size: number; search: string; ordering: string }, filters: ExitFilters): ExitQuery {
  const query: ExitQuery = { page: params.page, page_size: params.page_size };
  if (params.search) query.search = params.search;
  if (params.ordering === 'at' || params.ordering === '-at') query.ordering = params.ordering;
  if (isExitKind(filters.kind)) query.kind = filters.kind;
  if (filters.user_id) query.user_id = filters.user_id;
  if (filters.date_from) query.date_from = filters.date_from;
  if (filters.date_to) query.date_to = filters.date_to;
  return query;
}

/** The machines a file covers: all of them, or how many. */
export function machinesCovered(reach: DataExit['reach']): { all: true } | { all: false; count: number } {
  return reach.all ? { all: true } : { all: false, count: reach.machine_ids?.length ?? 0 };
}
