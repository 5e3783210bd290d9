// The `/api/filters/…` option lists that several areas pick from: the report screens' filter bar,
// the fleet's, machines', products' and inventory's forms and tables. Their keys are under
// `filters`, so a write that changes a list refreshes every screen using it (`['filters']`).
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Option } from './types';

export const filterOptionKeys = {
  all: ['filters'] as const,
  /** The scope pickers' keys: the user form's scope pickers share these cache entries. */
  clients: ['filters', 'scope', 'clients'] as const,
  locations: ['filters', 'scope', 'locations'] as const,
  machines: ['filters', 'scope', 'machines'] as const,
  machineTags: ['filters', 'scope', 'machineTags'] as const,
  regions: ['filters', 'regions'] as const,
  employees: ['filters', 'employees'] as const,
  products: ['filters', 'products'] as const,
  productTags: ['filters', 'products', 'tags'] as const,
};

function optionList(queryKey: readonly string[], path: string, enabled: boolean) {
  return {
    queryKey,
    queryFn: async () => (await api.get<{ data: Option[] }>(path)).data ?? [],
    staleTime: 60_000,
    enabled,
  };
}

export const useClientOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.clients, '/api/filters/clients/', enabled));
/** The active employees. */
export const useEmployeeOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.employees, '/api/filters/employees/', enabled));
export const useLocationOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.locations, '/api/filters/locations/', enabled));
export const useMachineOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.machines, '/api/filters/machines/', enabled));
export const useMachineTagOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.machineTags, '/api/filters/machines/tags/', enabled));
/** The active products (the planogram's product picker, the report filters). */
export const useProductOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.products, '/api/filters/products/', enabled));
export const useProductTagOptions = (enabled = true) => useQuery(optionList(filterOptionKeys.productTags, '/api/filters/products/tags/', enabled));

/** The regions the locations name. */
export const useRegions = (enabled = true) =>
  useQuery({
    queryKey: filterOptionKeys.regions,
    queryFn: async () => (await api.get<{ data: string[] }>('/api/filters/regions/')).data ?? [],
    staleTime: 60_000,
    enabled,
  });
