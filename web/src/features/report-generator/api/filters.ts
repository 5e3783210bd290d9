import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client';
import { expectData } from '../../../api/replies';
import type { Option } from '../../../api/types';
import { generatorKeys } from './keys';
import type { ColumnOption, Module, ModuleOption } from './types';

/** The modules a report can be made of, labelled in the user's language. */
export function useGeneratorModules(enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: generatorKeys.modules(i18n.language),
    queryFn: async () => keyLabels(expectData(await api.get<{ data: Option[] }>('/api/filters/reports/generator/modules/'))) as ModuleOption[],
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** The columns a module's file may be limited to; none for a module whose columns are fixed (the sales overview). */
export function useModuleColumns(module: Module | '') {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: generatorKeys.columns(module, i18n.language),
    queryFn: async (): Promise<ColumnOption[]> => keyLabels(expectData(await api.get<{ data: Option[] }>('/api/reports/generator/columns/', { query: { module } }))),
    enabled: Boolean(module),
    staleTime: 5 * 60_000,
  });
}

/** The API's options (`{id, name}`) as keys and labels. */
export function keyLabels(options: Option[]): { key: string; label: string }[] {
  return options.map((option) => ({ key: option.id, label: option.name }));
}
