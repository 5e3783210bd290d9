import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Option } from '../../../api/types';
import { machineFilterKeys } from './keys';

function optionList(queryKey: readonly string[], path: string, enabled = true) {
  return {
    queryKey,
    queryFn: async () => (await api.get<{ data: Option[] }>(path)).data ?? [],
    staleTime: 60_000,
    enabled,
  };
}

// The machine models' list; the lists other areas pick from too are in `api/filter-options.ts`.
export const useModelOptions = () => useQuery(optionList(machineFilterKeys.models, '/api/filters/machines/models/'));
