import type { ListParams } from '../../../components/server-list/use-list-state';
import type { Cron } from '../../../api/types';

export interface TaskListParams extends ListParams {
  status: string;
  module: string;
}

export const schedulerKeys = {
  all: ['query-schedulers'] as const,
  list: (params: TaskListParams) => ['query-schedulers', 'list', params] as const,
  detail: (id: string) => ['query-schedulers', 'detail', id] as const,
  nextRuns: (cron: Cron, timeZone: string) => ['query-schedulers', 'next-runs', cron, timeZone] as const,
  modules: (language: string) => ['filters', 'query-schedulers', 'modules', language] as const,
  periods: (language: string) => ['filters', 'query-schedulers', 'periods', language] as const,
  /** The same entries as the other screens' pickers: one cache for the lists. */
  employees: ['filters', 'employees'] as const,
  timeZones: ['filters', 'timezones'] as const,
};
