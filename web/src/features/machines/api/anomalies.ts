import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { IntakeAnomaly } from '../../../api/types';
import { machineKeys } from './keys';

/** The machine's intake anomalies (events refused for a reused id), the latest first. */
export function useIntakeAnomalies(machineId: string) {
  return useQuery({
    queryKey: machineKeys.anomalies(machineId),
    queryFn: async () => (await api.get<{ data: IntakeAnomaly[] }>(`/api/machines/${encodeURIComponent(machineId)}/intake-anomalies/`))?.data ?? [],
    staleTime: 0,
  });
}
