import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { Option } from '../../../api/types';

/** The users to filter by (the same entries as the other screens' employee pickers: one cache). */
export function useAuditUsers() {
  return useQuery({
    queryKey: ['filters', 'employees'] as const,
    queryFn: async () => (await api.get<{ data: Option[] }>('/api/filters/employees/')).data ?? [],
    staleTime: 60_000,
  });
}
