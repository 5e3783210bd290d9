import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, isApiError } from '../../../api/client';
import type { Option, PermissionNode } from '../../../api/types';
import { filterKeys } from './keys';

export function useRoleOptions() {
  return useQuery({
    queryKey: filterKeys.roles,
    queryFn: async () => (await api.get<{ data: Option[] }>('/api/filters/roles/')).data ?? [],
  });
}

/** The permission catalogue, named in the caller's language by the server. */
export function usePermissionCatalogue() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: filterKeys.modules(i18n.language),
    queryFn: async () => (await api.get<{ data: PermissionNode[] }>('/api/filters/roles/modules/')).data ?? [],
    staleTime: 5 * 60_000,
  });
}

export function usePositions() {
  return useQuery({
    queryKey: filterKeys.positions,
    queryFn: async () => (await api.get<{ data: string[] }>('/api/filters/employees/positions/')).data ?? [],
    meta: { silent: true },
  });
}

export const SCOPE_ENDPOINTS = {
  clients: '/api/filters/clients/',
  locations: '/api/filters/locations/',
  machineTags: '/api/filters/machines/tags/',
  machines: '/api/filters/machines/',
} as const;

export type ScopeKind = keyof typeof SCOPE_ENDPOINTS;

/**
 * Options for a machine-access picker. Clients and locations come from their filters; machine tags
 * and machines arrive with a later area and may answer 404 until then, which simply means nothing
 * to choose yet. The client and location lists share their cache entries with the fleet screens,
 * which refresh them after every change.
 */
export function useScopeOptions(kind: ScopeKind, enabled: boolean) {
  return useQuery({
    queryKey: filterKeys.scope(kind),
    queryFn: async () => {
      try {
        return (await api.get<{ data: Option[] }>(SCOPE_ENDPOINTS[kind])).data ?? [];
      } catch (error) {
        if (isApiError(error) && (error.status === 404 || error.status === 403)) return [];
        throw error;
      }
    },
    enabled,
    retry: false,
    meta: { silent: true },
    staleTime: 5 * 60_000,
  });
}
