import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { expectData } from '../../../api/replies';
import type { Dashboard } from '../../../api/types';

export const dashboardKeys = {
  all: ['dashboard'] as const,
};

/** Today's and this month's sales, the month's top lists and the machines needing attention. */
export function useDashboard() {
  return useQuery({
    queryKey: dashboardKeys.all,
    queryFn: async () => expectData(await api.get<{ data: Dashboard }>('/api/dashboard/')),
    staleTime: 60_000,
  });
}
