import type { ListParams } from '../../../components/server-list/use-list-state';

export interface ReportListParams extends ListParams {
  archived: boolean;
}

export interface TemplateListParams extends ListParams {
  module: string;
}

/** The generator's query keys: lists under `report-generator`, so one invalidation refreshes them. */
export const generatorKeys = {
  all: ['report-generator'] as const,
  reports: ['report-generator', 'reports'] as const,
  reportList: (params: ReportListParams) => ['report-generator', 'reports', params] as const,
  templates: ['report-generator', 'templates'] as const,
  templateList: (params: TemplateListParams) => ['report-generator', 'templates', 'list', params] as const,
  template: (id: string) => ['report-generator', 'templates', 'detail', id] as const,
  preview: (body: unknown) => ['report-generator', 'preview', body] as const,
  modules: (language: string) => ['filters', 'reports', 'generator', 'modules', language] as const,
  columns: (module: string, language: string) => ['filters', 'reports', 'generator', 'columns', module, language] as const,
};
