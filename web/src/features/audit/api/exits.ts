import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectList } from '../../../api/replies';
import type { ListReply } from '../../../api/types';
import type { DataExit, ExitQuery } from './types';

export const auditKeys = {
  all: ['audit'] as const,
  exits: (query: ExitQuery) => ['audit', 'exports', query] as const,
};

/**
 * One page of the data that left the system, newest first (a fleet administrator only: 403 for
 * others). `enabled` false while the filters do not make a span the server takes.
 */
export function useExits(query: ExitQuery, enabled: boolean) {
  return useQuery({
    queryKey: auditKeys.exits(query),
    queryFn: async () => expectList(await api.get<ListReply<DataExit>>('/api/audit/exports/', { query: { ...query } })),
    placeholderData: keepPreviousData,
    enabled,
  });
}
