import { definitionKeys } from '../../../components/report-definition/definition-api';
import type { ListParams } from '../../../components/server-list/use-list-state';

export interface ReportListParams extends ListParams {
  archived: boolean;
}

/** The generator's query keys: lists under `report-generator`, so one invalidation refreshes them. */
export const generatorKeys = {
  ...definitionKeys,
  reports: ['report-generator', 'reports'] as const,
  reportList: (params: ReportListParams) => ['report-generator', 'reports', params] as const,
  template: (id: string) => ['report-generator', 'templates', 'detail', id] as const,
  preview: (body: unknown) => ['report-generator', 'preview', body] as const,
};
