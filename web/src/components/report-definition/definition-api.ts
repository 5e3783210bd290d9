// What a report's definition reads from the server, for the report generator and the query
// scheduler alike: the generator's modules and a module's columns, labelled in the user's
// language, and the templates a definition may follow.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { expectData, expectList } from '../../api/replies';
import type { ListReply, Option, ReportModule, ReportTemplate } from '../../api/types';
import type { ListParams } from '../server-list/use-list-state';
import type { KeyLabel } from './definition-logic';

export interface TemplateListParams extends ListParams {
  module: string;
}

/** The definitions' query keys; the generator's own (`generatorKeys`) add to them, its lists all under `report-generator`. */
export const definitionKeys = {
  all: ['report-generator'] as const,
  templates: ['report-generator', 'templates'] as const,
  templateList: (params: TemplateListParams) => ['report-generator', 'templates', 'list', params] as const,
  modules: (language: string) => ['filters', 'reports', 'generator', 'modules', language] as const,
  columns: (module: string, language: string) => ['filters', 'reports', 'generator', 'columns', module, language] as const,
};

/** The API's options (`{id, name}`) as keys and labels. */
export function keyLabels(options: Option[]): KeyLabel[] {
  return options.map((option) => ({ key: option.id, label: option.name }));
}

/** The modules a report can be made of, labelled in the user's language. */
export function useGeneratorModules(enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: definitionKeys.modules(i18n.language),
    queryFn: async () => keyLabels(expectData(await api.get<{ data: Option[] }>('/api/filters/reports/generator/modules/'))),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** The columns a module's file may be limited to; none for a module whose columns are fixed (the sales overview). */
export function useModuleColumns(module: ReportModule | '') {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: definitionKeys.columns(module, i18n.language),
    queryFn: async () => keyLabels(expectData(await api.get<{ data: Option[] }>('/api/reports/generator/columns/', { query: { module } }))),
    enabled: Boolean(module),
    staleTime: 5 * 60_000,
  });
}

/** One page of the templates the caller may see (public ones and their own). */
export function useTemplates(params: TemplateListParams, enabled = true) {
  return useQuery({
    queryKey: definitionKeys.templateList(params),
    queryFn: async () => expectList(await api.get<ListReply<ReportTemplate>>('/api/reports/generator/templates/', { query: { ...params } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}
