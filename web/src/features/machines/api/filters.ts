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

export const useLocationOptions = (enabled = true) => useQuery(optionList(machineFilterKeys.locations, '/api/filters/locations/', enabled));
export const useMachineOptions = (enabled = true) => useQuery(optionList(machineFilterKeys.machines, '/api/filters/machines/', enabled));
export const useMachineTagOptions = (enabled = true) => useQuery(optionList(machineFilterKeys.tags, '/api/filters/machines/tags/', enabled));
export const useModelOptions = () => useQuery(optionList(machineFilterKeys.models, '/api/filters/machines/models/'));
/** The active products (the planogram's product picker). */
export const useProductOptions = (enabled = true) => useQuery(optionList(machineFilterKeys.products, '/api/filters/products/', enabled));
